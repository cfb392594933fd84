// Device-side new/delete and malloc/free take memory from a GPU's device heap
// (cudaLimitMallocHeapSize), which the emulator does not have: on it they would return host memory,
// and the kernel's first access to it would be an illegal-address report that names no cause.
// A use in the body of a __global__ or __device__ (not __host__ __device__) function is refused at
// its line, naming the feature. Placement new (`new (buffer) T`) needs no heap and is left alone.
#include <vector>

#include "device_bodies.h"
#include "passes.h"

namespace simt::rewrite {
namespace {

// code[i] names malloc, calloc, realloc or free in a call (not a member, nor another namespace's).
bool calls_c_allocator(Tokens code, std::size_t i) {
    const std::string_view t = code[i].text;
    if (t != "malloc" && t != "calloc" && t != "realloc" && t != "free") return false;
    if (!is(code, i + 1, "(")) return false;
    if (i == 0) return true;
    const std::string_view before = code[i - 1].text;
    // `.free(` or `->free(` (the lexer keeps '-' and '>' apart)
    if (before == "." || (before == ">" && i > 1 && code[i - 2].text == "-")) return false;
    if (before != "::") return true;
    return i < 2 || code[i - 2].text == "std" || code[i - 2].kind != TokenKind::Identifier;
}

const char* const kHeap = "(the device heap) are not supported by the simt emulator; allocate "
                          "with cudaMalloc on the host and pass the pointer to the kernel";

} // namespace

void reject_device_heap(const SourceFile& src) {
    const Tokens code = src.code();
    const std::vector<bool> device = device_body_tokens(code);
    for (std::size_t i = 0; i < code.size(); ++i) {
        const std::string_view t = code[i].text;
        if (!device[i] || code[i].kind != TokenKind::Identifier) continue;
        const bool after_operator = i > 0 && code[i - 1].text == "operator";
        if (t == "new" && !after_operator && !is(code, i + 1, "(")) {
            src.fail(code[i], std::string("new in device code: device-side new and delete ") +
                                  kHeap + " (placement new into memory you have is supported)");
        }
        if (t == "delete" && !after_operator) {
            src.fail(code[i],
                     std::string("delete in device code: device-side new and delete ") + kHeap);
        }
        if (calls_c_allocator(code, i)) {
            src.fail(code[i],
                     std::string(t) + " in device code: device-side malloc and free " + kHeap);
        }
    }
}

} // namespace simt::rewrite
