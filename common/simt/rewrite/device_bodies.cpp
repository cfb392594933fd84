#include "device_bodies.h"

namespace simt::rewrite {
namespace {

// code[brace] is '{': whether it opens the body of a function declared __global__ or __device__
// without __host__. The declaration runs back to the previous ';', '{' or '}' outside brackets.
bool opens_device_function(Tokens code, std::size_t brace) {
    bool device = false;
    for (std::size_t i = brace; i-- > 0;) {
        const std::string_view t = code[i].text;
        if (t == ")" || t == "]") {
            i = match_backward(code, i);
            if (i == npos) return false;
            continue;
        }
        if (t == ";" || t == "{" || t == "}") break;
        if (t == "__host__") return false;
        if (t == "__global__" || t == "__device__") device = true;
    }
    return device;
}

} // namespace

std::vector<bool> device_body_tokens(Tokens code) {
    std::vector<bool> inside(code.size(), false);
    std::vector<bool> open; // one entry per open brace: inside a device function's body
    for (std::size_t i = 0; i < code.size(); ++i) {
        const std::string_view t = code[i].text;
        if (t == "{") {
            open.push_back((!open.empty() && open.back()) || opens_device_function(code, i));
        } else if (t == "}" && !open.empty()) {
            open.pop_back();
        }
        inside[i] = !open.empty() && open.back();
    }
    return inside;
}

} // namespace simt::rewrite
