// Device-side new/delete and malloc/free take memory from a GPU's device heap
// (cudaLimitMallocHeapSize). In the body of a __global__ or __device__ (not __host__ __device__)
// function they become the emulator's device heap (simt/device_heap.h), whose allocations the
// checks see as device memory:
//   malloc(n) / std::malloc(n) / ::malloc(n)  ->  ::simt::device_malloc(n)
//   free(p)                                   ->  ::simt::device_free(p)
//   new T... / ::new T...                     ->  new (::simt::device_heap) T...
//   delete p                                  ->  ::simt::DeviceDelete{} ->* p
//   delete[] p                                ->  ::simt::DeviceDeleteArray{} ->* p
// `->*` takes a cast-expression on its right, as delete does, so the operand stays as written.
// Placement new (`new (buffer) T`) needs no heap and is left alone; calloc and realloc, which
// CUDA's device code does not have, are refused at their line.
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

// Where the call's name starts: at its `std::` or `::` qualifier, if any.
std::size_t qualified_start(Tokens code, std::size_t i) {
    if (i == 0 || code[i - 1].text != "::") return i;
    return i >= 2 && code[i - 2].text == "std" ? i - 2 : i - 1;
}

} // namespace

void rewrite_device_heap(const SourceFile& src, EditList& edits) {
    const Tokens code = src.code();
    const std::vector<bool> device = device_body_tokens(code);
    for (std::size_t i = 0; i < code.size(); ++i) {
        const std::string_view t = code[i].text;
        if (!device[i] || code[i].kind != TokenKind::Identifier) continue;
        const bool after_operator = i > 0 && code[i - 1].text == "operator";
        if (t == "new" && !after_operator && !is(code, i + 1, "(")) {
            edits.insert(code[i].end(), " (::simt::device_heap)");
        }
        if (t == "delete" && !after_operator && !(i > 0 && code[i - 1].text == "=")) {
            if (is(code, i + 1, "[") && is(code, i + 2, "]")) {
                edits.replace(src, code[i].begin, code[i + 2].end(),
                              "::simt::DeviceDeleteArray{} ->*", false);
                i += 2;
            } else {
                edits.replace(src, code[i].begin, code[i].end(), "::simt::DeviceDelete{} ->*",
                              false);
            }
        }
        if (calls_c_allocator(code, i)) {
            if (t == "calloc" || t == "realloc")
                src.fail(code[i], std::string(t) +
                                      " in device code: CUDA's device code has malloc and free "
                                      "(the device heap), not calloc or realloc");
            edits.replace(src, code[qualified_start(code, i)].begin, code[i].end(),
                          t == "malloc" ? "::simt::device_malloc" : "::simt::device_free", false);
        }
    }
}

} // namespace simt::rewrite
