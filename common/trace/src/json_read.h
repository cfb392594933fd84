#pragma once

// Typed access to parsed JSON with errors that name the document path of the offending field.

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "field_lists.h"
#include "json_path.h"
#include "scanlab/trace/error.h"
#include "scanlab/trace/names.h"
#include "text.h"

namespace scanlab::trace::detail {

using Json = nlohmann::json;

[[noreturn]] void fail(const Path& path, const std::string& detail);

// "the number 5", "the string \"abc\"", "an object"... for "expected X, got Y" messages.
std::string describe(const Json& value);

// An object's fields. Refuses fields not in `allowed` (typos would otherwise pass unnoticed).
class Fields {
  public:
    Fields(const Json& object, const Path& path, FieldList allowed);

    const Json& required(std::string_view name) const;
    const Json* optional(std::string_view name) const; // nullptr when absent

  private:
    const Json& object_;
    const Path& path_;
};

// Non-negative integers. 64-bit fields also accept decimal strings (how integers above 2^53 are
// written); 32-bit fields do not.
std::uint64_t read_u64(const Json& value, const Path& path);
std::uint32_t read_u32(const Json& value, const Path& path);
std::string read_string(const Json& value, const Path& path);
const Json& read_array(const Json& value, const Path& path);

template <class E>
E read_enum(const Json& value, const Path& path) {
    if (!value.is_string()) fail(path, "expected a string, got " + describe(value));
    const auto& text = value.get_ref<const std::string&>();
    if (const auto parsed = enum_from_string<E>(text)) return *parsed;
    std::string choices;
    for (const auto name : EnumNames<E>::names) {
        if (!choices.empty()) choices += ", ";
        choices += cat('"', name, '"');
    }
    fail(path, describe(value) + " is not one of " + choices);
}

} // namespace scanlab::trace::detail
