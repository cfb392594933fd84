// Inline PTX (`asm("..." : ...)`) in device code: the emulator compiles kernels for the CPU, so
// a PTX instruction would reach the host assembler ("no such instruction") or, worse, assemble as
// something else. The reads of the lane's special registers that portable code uses them for
// (`asm("mov.u32 %0, %%laneid;" : "=r"(lane))`, and %lanemask_eq/lt/le/gt/ge) become the same
// value computed from threadIdx and blockDim (a warp is 32 consecutive threads of the block's
// linear order); any other asm in a __global__ or __device__ function is refused at its line.
#include <string>
#include <vector>

#include "device_bodies.h"
#include "passes.h"

namespace simt::rewrite {
namespace {

bool is_asm_keyword(std::string_view t) {
    return t == "asm" || t == "__asm__" || t == "__asm";
}
bool is_volatile_keyword(std::string_view t) {
    return t == "volatile" || t == "__volatile__" || t == "__volatile";
}

// The contents of a plain string literal ("...", no prefix), or nothing.
std::string literal_contents(const Token& token) {
    const std::string_view t = token.text;
    if (token.kind != TokenKind::String || t.size() < 2 || t.front() != '"') return {};
    return std::string(t.substr(1, t.size() - 2));
}

std::string without_spaces(std::string_view text) {
    std::string out;
    for (char c : text)
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') out += c;
    return out;
}

// The lane's index within its warp, as an expression in device code.
const char* const kLane =
    "((((threadIdx.z * blockDim.y) + threadIdx.y) * blockDim.x + threadIdx.x) % 32u)";

// The value of the special register a `mov.u32 %0, %%name;` template reads, or nothing.
std::string special_register_value(const std::string& name) {
    const std::string lane = kLane;
    if (name == "laneid") return "static_cast<unsigned>" + lane;
    if (name == "lanemask_eq") return "(1u << " + lane + ")";
    if (name == "lanemask_lt") return "((1u << " + lane + ") - 1u)";
    if (name == "lanemask_le") return "((2u << " + lane + ") - 1u)";
    if (name == "lanemask_gt") return "(~((2u << " + lane + ") - 1u))";
    if (name == "lanemask_ge") return "(~((1u << " + lane + ") - 1u))";
    return {};
}

// The special register a whole asm template reads into %0, if it is one `mov` of one.
std::string special_register_read(const std::string& asm_template) {
    std::string t = without_spaces(asm_template);
    if (!t.empty() && t.back() == ';') t.pop_back();
    for (const char* mov : {"mov.u32%0,%%", "mov.b32%0,%%", "mov.s32%0,%%"}) {
        const std::string prefix = mov;
        if (t.starts_with(prefix)) return t.substr(prefix.size());
    }
    return {};
}

const char* const kRefusal =
    "inline PTX (asm) in device code is not supported by the simt emulator, which compiles "
    "kernels for the CPU; of inline PTX, only a read of a lane's special register "
    "(asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(x)), or %lanemask_eq/lt/le/gt/ge) is: write the "
    "rest in CUDA C++";

} // namespace

void rewrite_inline_ptx(const SourceFile& src, EditList& edits) {
    const Tokens code = src.code();
    const std::vector<bool> device = device_body_tokens(code);
    for (std::size_t i = 0; i < code.size(); ++i) {
        if (!device[i] || code[i].kind != TokenKind::Identifier || !is_asm_keyword(code[i].text))
            continue;
        std::size_t open = i + 1;
        while (open < code.size() && is_volatile_keyword(code[open].text)) ++open;
        const std::size_t close = is(code, open, "(") ? match_forward(code, open) : npos;
        if (close == npos) src.fail(code[i], kRefusal);
        // "template" ... : "=r" ( output )
        std::size_t j = open + 1;
        std::string asm_template;
        for (; j < close && code[j].kind == TokenKind::String; ++j)
            asm_template += literal_contents(code[j]);
        const std::string value = special_register_value(special_register_read(asm_template));
        const bool one_output = is(code, j, ":") && literal_contents(code[j + 1]) == "=r" &&
                                is(code, j + 2, "(") && match_forward(code, j + 2) + 1 == close;
        if (value.empty() || !one_output) src.fail(code[i], kRefusal);
        const std::size_t output_end = close - 1; // the output operand's ')'
        const std::string output(
            src.text().substr(code[j + 3].begin, code[output_end].begin - code[j + 3].begin));
        edits.replace(src, code[i].begin, code[close].end(), "((" + output + ") = " + value + ")",
                      false);
        i = close;
    }
}

} // namespace simt::rewrite
