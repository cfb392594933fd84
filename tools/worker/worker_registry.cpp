#include "worker_registry.h"

#include <map>

namespace scanlab::remote {
namespace {

std::map<std::string, Invoker>& table() {
    static std::map<std::string, Invoker> functions;
    return functions;
}

} // namespace

void register_function(const std::string& key, Invoker invoker) {
    table()[key] = std::move(invoker);
}

const Invoker* find_function(const std::string& key) {
    const auto it = table().find(key);
    return it == table().end() ? nullptr : &it->second;
}

std::string operator_key_of(const std::string& function, const std::string& op) {
    return function + "<" + op + ">";
}

} // namespace scanlab::remote
