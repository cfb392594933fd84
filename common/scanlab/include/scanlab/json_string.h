// Text as a JSON string, for the programs that write their few JSON lines by hand (the
// benchmark's results.json, the grader's speed harness): a JSON library is not worth a
// dependency of theirs for that.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace scanlab {

/// `text` quoted and escaped as a JSON string: "say \"hi\"\n".
inline std::string json_string(std::string_view text) {
    std::string s = "\"";
    for (const char c : text) {
        switch (c) {
        case '"':
            s += "\\\"";
            break;
        case '\\':
            s += "\\\\";
            break;
        case '\n':
            s += "\\n";
            break;
        case '\t':
            s += "\\t";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char code[8];
                std::snprintf(code, sizeof code, "\\u%04x", static_cast<unsigned>(c));
                s += code;
            } else {
                s += c;
            }
        }
    }
    return s + "\"";
}

} // namespace scanlab
