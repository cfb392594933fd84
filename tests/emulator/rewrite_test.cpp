// Tests of simt-rewrite's text transform (common/simt/rewrite): each case is an input, and
// either the exact expected output (after the #line header) or where and why it must fail.
#ifdef SIMT_REWRITE_TEST_STANDALONE
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#endif
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "rewrite/header_copies.h"
#include "rewrite/rewrite.h"

namespace {

using simt::rewrite::rewrite_source;
using simt::rewrite::RewriteError;

constexpr const char* kName = "t.cu";
const std::string kHeader = "#line 1 \"t.cu\"\n";

struct Case {
    const char* name;
    std::string input;
    std::string expected;   // output after the #line header; unused when error is set
    std::string error = {}; // "line:col: error: <message start>" when the input must be rejected
};

// Shorthands for the emitted forms, so the tables read like the contract.
std::string shared(const std::string& spec, const std::string& name, const std::string& dims,
                   const std::string& align = "0") {
    const std::string type = dims.empty() ? spec : "auto";
    return type + "& " + name + " = ::simt::shared_variable<" + spec + dims +
           ">(::simt::SharedSite{\"" + name + "\", __FILE__, __LINE__, " + align + "});";
}

std::string dynamic(const std::string& spec, const std::string& name) {
    return "[[maybe_unused]] static constexpr ::simt::DynamicShared<" + spec + "> " + name + "{};";
}

std::string dynamic_local(const std::string& spec, const std::string& name) {
    return "[[maybe_unused]] " + spec + "* const " + name + " = ::simt::DynamicShared<" + spec +
           ">{};";
}

std::string reg(const std::string& name, int line) {
    std::string ident;
    for (char c : name) ident += c == ':' ? '_' : c;
    return " static const ::simt::SymbolRegistration simt_symbol_" + ident + "_" +
           std::to_string(line) + "{&" + name + ", sizeof(" + name + "), \"" + name +
           "\", __FILE__, __LINE__};";
}

// A launch of a kernel named with template arguments (the rest may be deduced, simt/launch.h).
std::string tmpl(const std::string& kernel, const std::string& config) {
    return "::simt::launch_template([&](auto simt_pick) -> decltype(simt_pick(" + kernel +
           ")) { return simt_pick(" + kernel + "); }, [&](auto&... simt_a) -> decltype(" + kernel +
           "(simt_a...)) { " + kernel + "(simt_a...); }, " + config + ")";
}

std::string pad(int n) {
    return std::string(static_cast<std::size_t>(n), ' ');
}

long newlines(const std::string& s) {
    return std::count(s.begin(), s.end(), '\n');
}

// loop_tick(__LINE__ + 2, 5) -> loop_tick(): the tables check where ticks go; where each loop
// ends is checked on its own ("loop ticks say where the loop's body ends").
std::string without_loop_ends(std::string out) {
    const std::string call = "::simt::detail::loop_tick(";
    for (std::size_t at = out.find(call); at != std::string::npos;
         at = out.find(call, at + call.size())) {
        const std::size_t args = at + call.size();
        const std::size_t close = out.find(')', args);
        if (close != std::string::npos && out.compare(args, 8, "__LINE__") == 0)
            out.erase(args, close - args);
    }
    return out;
}

void check(const Case& c, bool keep_loop_ends = false) {
    CAPTURE(c.input);
    if (c.error.empty()) {
        std::string out;
        try {
            out = rewrite_source(c.input, kName);
        } catch (const RewriteError& e) {
            FAIL("unexpected error: " << simt::rewrite::format_error(e, kName));
        }
        CHECK((keep_loop_ends ? out : without_loop_ends(out)) == kHeader + c.expected);
        // Every line keeps its number: only the #line header adds one.
        CHECK(newlines(out) == newlines(c.input) + 1);
    } else {
        try {
            const std::string out = rewrite_source(c.input, kName);
            FAIL("expected an error, got:\n" << out);
        } catch (const RewriteError& e) {
            const std::string text = simt::rewrite::format_error(e, kName);
            CAPTURE(text);
            CHECK(text.rfind(std::string(kName) + ":" + c.error, 0) == 0);
        }
    }
}

void run_table(const std::vector<Case>& cases) {
    for (const Case& c : cases) {
        SUBCASE(c.name) {
            check(c);
        }
    }
}

} // namespace

TEST_CASE("kernel launches") {
    run_table({
        {"plain", "k<<<1, 32>>>(x);",
         "::simt::launch_template([&](auto simt_pick) -> decltype(simt_pick(k)) { return "
         "simt_pick(k); }, [&](auto&... simt_a) -> decltype(k(simt_a...)) { k(simt_a...); }, 1, "
         "32)(x);"},
        {"qualified template", "ns::kernel<Op, T><<<g, b>>>(a, n);",
         tmpl("ns::kernel<Op, T>", "g, b") + "(a, n);"},
        {"value template args and full config", "k<int, 4><<<g, b, smem, s>>>();",
         tmpl("k<int, 4>", "g, b, smem, s") + "();"},
        {"nested templates", "k<A<B<int>>><<<1, 1>>>();", tmpl("k<A<B<int>>>", "1, 1") + "();"},
        {"parenthesised template arg", "k<(N > 2)><<<1, 1>>>();",
         tmpl("k<(N > 2)>", "1, 1") + "();"},
        {"template arguments left to deduction", "k<4><<<g, b>>>(ptr);",
         tmpl("k<4>", "g, b") + "(ptr);"},
        {"global qualifier", "::k<<<1,1>>>();",
         "::simt::launch_template([&](auto simt_pick) -> decltype(simt_pick(::k)) { return "
         "simt_pick(::k); }, [&](auto&... simt_a) -> decltype(::k(simt_a...)) { ::k(simt_a...); }, "
         "1,1)();"},
        {"template keyword", "ns::template k<T><<<1, 1>>>();",
         tmpl("ns::template k<T>", "1, 1") + "();"},
        {"spaces kept as single spaces", "k <<< grid , block >>> (x);",
         "::simt::launch_template([&](auto simt_pick) -> decltype(simt_pick(k)) { return "
         "simt_pick(k); }, [&](auto&... simt_a) -> decltype(k(simt_a...)) { k(simt_a...); }, grid "
         ", block) (x);"},
        {"shift and brackets inside config", "k<<<dims[i], f(a >> 1), s.m>>>(x);",
         "::simt::launch_template([&](auto simt_pick) -> decltype(simt_pick(k)) { return "
         "simt_pick(k); }, [&](auto&... simt_a) -> decltype(k(simt_a...)) { k(simt_a...); }, "
         "dims[i], f(a >> 1), s.m)(x);"},
        {"braced dim3", "k<<<dim3{2, 1}, 32>>>(x);",
         "::simt::launch_template([&](auto simt_pick) -> decltype(simt_pick(k)) { return "
         "simt_pick(k); }, [&](auto&... simt_a) -> decltype(k(simt_a...)) { k(simt_a...); }, "
         "dim3{2, 1}, 32)(x);"},
        {"return statement", "return ::k<<<1, 1>>>();",
         "return ::simt::launch_template([&](auto simt_pick) -> decltype(simt_pick(::k)) { return "
         "simt_pick(::k); }, [&](auto&... simt_a) -> decltype(::k(simt_a...)) { ::k(simt_a...); }, "
         "1, 1)();"},
        {"two launches on a line", "a<<<1, 1>>>(); b<<<2, 2>>>();",
         "::simt::launch_template([&](auto simt_pick) -> decltype(simt_pick(a)) { return "
         "simt_pick(a); }, [&](auto&... simt_a) -> decltype(a(simt_a...)) { a(simt_a...); }, 1, "
         "1)(); ::simt::launch_template([&](auto simt_pick) -> "
         "decltype(simt_pick(b)) { return simt_pick(b); }, [&](auto&... simt_a) -> "
         "decltype(b(simt_a...)) { b(simt_a...); }, 2, 2)();"},
        {"config over lines keeps lines and columns", "k<<<grid,\n      block>>>(x);",
         "::simt::launch_template([&](auto simt_pick) -> decltype(simt_pick(k)) { return "
         "simt_pick(k); }, [&](auto&... simt_a) -> decltype(k(simt_a...)) { k(simt_a...); }, grid, "
         "block)\n" +
             pad(14) + "(x);"},
        {"comment inside config dropped", "k<<<grid, /* the\n block */ 32>>>(x);",
         "::simt::launch_template([&](auto simt_pick) -> decltype(simt_pick(k)) { return "
         "simt_pick(k); }, [&](auto&... simt_a) -> decltype(k(simt_a...)) { k(simt_a...); }, grid, "
         "32)\n" +
             pad(15) + "(x);"},
        {"in a #define", "#define L(n) k<<<n, 32>>>(p)\nL(4);",
         "#define L(n) ::simt::launch_template([&](auto simt_pick) -> decltype(simt_pick(k)) { "
         "return simt_pick(k); }, [&](auto&... simt_a) -> decltype(k(simt_a...)) { k(simt_a...); "
         "}, n, 32)(p)\nL(4);"},
        {"in a #define with continuation", "#define L(n) k<float><<<n, \\\n    32>>>(p)\nL(4);",
         "#define L(n) " + tmpl("k<float>", "n, 32") + "\\\n" + pad(9) + "(p)\nL(4);"},
        {"token pasting in a #define", "#define L(n) k##n<<<1, 1>>>()",
         "#define L(n) ::simt::launch_template([&](auto simt_pick) -> decltype(simt_pick(k##n)) { "
         "return simt_pick(k##n); }, [&](auto&... simt_a) -> decltype(k##n(simt_a...)) { "
         "k##n(simt_a...); }, 1, 1)()"},
        {"operator<< with template args is no launch", "auto p = &operator<<<int>;",
         "auto p = &operator<<<int>;"},
        {"triple closing template is no launch", "std::vector<std::vector<std::vector<int>>> v;",
         "std::vector<std::vector<std::vector<int>>> v;"},
        {"shifts are no launch", "x <<= 2; y = y << 3 >> 1;", "x <<= 2; y = y << 3 >> 1;"},
    });
}

TEST_CASE("kernel launch errors") {
    run_table({
        {"function pointer", "void f() {\n    (*fp)<<<1, 1>>>(x);\n}", "",
         "2:10: error: cannot find the kernel in launch '(*fp)<<<1, 1>>>'"},
        {"array of kernels", "void f() {\n  ks[i]<<<1, 1>>>(x);\n}", "",
         "2:8: error: cannot find the kernel in launch"},
        {"no closing >>>", "void f() {\n  k<<<1, 1>>(x);\n}", "",
         "2:4: error: kernel launch 'k<<<1, 1>>(x)' has no matching '>>>'"},
        {"empty config", "k<<<>>>(x);", "", "1:2: error: kernel launch 'k<<<>>>' has an empty"},
        {"macro starting with <<<", "#define L <<<1, 1>>>\nk L (x);", "",
         "1:11: error: cannot find the kernel in launch"},
        {"directive inside launch", "k<<<1,\n#if A\n 2\n#endif\n>>>(x);", "",
         "1:2: error: a preprocessor directive inside a kernel launch"},
    });
}

TEST_CASE("static __shared__ variables") {
    const std::string in = "__global__ void k() {\n    ";
    const std::string out = "__global__ void k() {\n    ";
    run_table({
        {"scalar", in + "__shared__ int x;\n}", out + shared("int", "x", "") + "\n}"},
        {"static before", in + "static __shared__ int x;\n}", out + shared("int", "x", "") + "\n}"},
        {"static after", in + "__shared__ static int x;\n}", out + shared("int", "x", "") + "\n}"},
        {"align after, 2-D", in + "__shared__ __align__(16) float a[4][33];\n}",
         out + shared("float", "a", "[4][33]", "16") + "\n}"},
        {"align before", in + "__align__(8) __shared__ double d[2];\n}",
         out + shared("double", "d", "[2]", "8") + "\n}"},
        {"alignas", in + "__shared__ alignas(16) int v[4];\n}",
         out + shared("int", "v", "[4]", "16") + "\n}"},
        {"dependent type", in + "__shared__ typename Foo<T>::Storage s;\n}",
         out + shared("typename Foo<T>::Storage", "s", "") + "\n}"},
        {"comma inside template args",
         in + "__shared__ cub::BlockScan<int, 128>::TempStorage t;\n}",
         out + shared("cub::BlockScan<int, 128>::TempStorage", "t", "") + "\n}"},
        {"volatile kept", in + "volatile __shared__ int flag;\n}",
         out + shared("volatile int", "flag", "") + "\n}"},
        {"const volatile after", in + "__shared__ const volatile unsigned int f[2];\n}",
         out + shared("const volatile unsigned int", "f", "[2]") + "\n}"},
        {"expression bounds", in + "__shared__ T buf[2 * B + (B >> 5)];\n}",
         out + shared("T", "buf", "[2 * B + (B >> 5)]") + "\n}"},
        {"array of pointers", in + "__shared__ int* ptrs[4];\n}",
         out + shared("int*", "ptrs", "[4]") + "\n}"},
        {"attribute kept in front", in + "[[maybe_unused]] __shared__ int x;\n}",
         out + "[[maybe_unused]] " + shared("int", "x", "") + "\n}"},
        {"over two lines", in + "__shared__ float\n        tile[32][33]; int y;\n}",
         out + shared("float", "tile", "[32][33]") + "\n" + pad(21) + " int y;\n}"},
        {"nested block and comment after",
         in + "if (c) { __shared__ int x; } // __shared__ int y;\n}",
         out + "if (c) { " + shared("int", "x", "") + " } // __shared__ int y;\n}"},
        {"after a label", in + "case 1: __shared__ int x;\n}",
         out + "case 1: " + shared("int", "x", "") + "\n}"},
        {"identifiers that contain the keyword", in + "int my__shared__ = __shared__x;\n}",
         out + "int my__shared__ = __shared__x;\n}"},
        {"in a class method body", "struct S {\n  __device__ void f() { __shared__ int x; }\n};",
         "struct S {\n  __device__ void f() { " + shared("int", "x", "") + " }\n};"},
        {"#ifdef __shared__ is left alone", "#ifdef __shared__\n#endif",
         "#ifdef __shared__\n#endif"},
        {"the type before __shared__", in + "int __shared__ x;\n}",
         out + shared("int", "x", "") + "\n}"},
        {"a qualified template type before __shared__",
         in + "static ns::Pair<int, 2> __shared__ p[4];\n}",
         out + shared("ns::Pair<int, 2>", "p", "[4]") + "\n}"},
        {"two declarators", in + "__shared__ int a, b;\n}",
         out + shared("int", "a", "") + " " + shared("int", "b", "") + "\n}"},
        {"declarators with their own bounds, one alignment",
         in + "__shared__ __align__(16) float s[2][4], t, u[N + 1];\n}",
         out + shared("float", "s", "[2][4]", "16") + " " + shared("float", "t", "", "16") + " " +
             shared("float", "u", "[N + 1]", "16") + "\n}"},
        {"commas inside template arguments and bounds",
         in + "__shared__ Pair<int, 2> p[f(1, 2)], q;\n}",
         out + shared("Pair<int, 2>", "p", "[f(1, 2)]") + " " + shared("Pair<int, 2>", "q", "") +
             "\n}"},
    });
}

// A file-scope __shared__ variable is bound, with its declaration's site, at the top of each
// function body that uses it; the declaration itself goes.
TEST_CASE("file-scope __shared__ variables") {
    const std::string t = "auto& t = ::simt::shared_variable<float[4]>(::simt::SharedSite{\"t\", "
                          "__FILE__, 2, 0});";
    run_table({
        {"unused", "int a;\n__shared__ int x;", "int a;\n"},
        {"namespace scope", "namespace a { __shared__ int x; }", "namespace a {  }"},
        {"extern \"C\" block", "extern \"C\" {\n  static __shared__ int x;\n}",
         "extern \"C\" {\n  \n}"},
        {"used in two functions",
         "int a;\n__shared__ float t[4];\n__global__ void k() { t[0] = 1; }\n"
         "__device__ float g(int i) { if (i) { return t[i]; } return 0; }\n",
         "int a;\n\n__global__ void k() { " + t + " t[0] = 1; }\n__device__ float g(int i) { " + t +
             " if (i) { return t[i]; } return 0; }\n"},
        {"a scalar, with alignment", "__shared__ __align__(16) int n;\nvoid f() { n = 1; }",
         "\nvoid f() { int& n = ::simt::shared_variable<int>(::simt::SharedSite{\"n\", __FILE__, "
         "1, 16}); n = 1; }"},
    });
}

TEST_CASE("static __shared__ errors") {
    run_table({
        {"initializer", "void k() {\n  __shared__ int x = 0;\n}", "",
         "2:20: error: __shared__ variables cannot be initialized"},
        {"brace initializer", "void k() { __shared__ int x{0}; }", "",
         "1:28: error: __shared__ variables cannot be initialized"},
        {"a pointer after the comma", "void k() {\n\t__shared__ int a, *b;\n}", "",
         "2:27: error: unsupported __shared__ declarator: after a ','"},
        {"an initializer after the comma", "void k() { __shared__ int a, b = 1; }", "",
         "1:32: error: __shared__ variables cannot be initialized"},
        {"in a macro body", "#define DECL \\\n  __shared__ int x;\n", "",
         "2:3: error: __shared__ inside a macro body is not supported"},
        {"a keyword before the declaration", "void k() { return __shared__ int x; }", "",
         "1:19: error: unsupported __shared__ declaration"},
        {"function pointer declarator", "void k() { __shared__ int (*fp)(int); }", "",
         "1:12: error: unsupported __shared__ declarator"},
        {"no type", "void k() { __shared__ x; }", "",
         "1:23: error: this __shared__ declaration has no type"},
        {"missing ;", "void k() { __shared__ int x }", "", "1:12: error: expected ';'"},
        {"directive inside", "void k() {\n__shared__ int\n#if A\nx;\n#else\ny;\n#endif\n}", "",
         "2:1: error: a preprocessor directive inside a __shared__ declaration"},
    });
}

TEST_CASE("extern __shared__ (dynamic shared memory)") {
    run_table({
        {"file scope", "extern __shared__ float buf[];\n", dynamic("float", "buf") + "\n"},
        {"in a kernel with align",
         "void k() {\n  extern __shared__ __align__(16) unsigned char smem[];\n}",
         "void k() {\n  " + dynamic_local("unsigned char", "smem") + "\n}"},
        {"volatile element", "extern __shared__ volatile int v[];", dynamic("volatile int", "v")},
        {"in a namespace", "namespace n { extern __shared__ T s[]; }",
         "namespace n { " + dynamic("T", "s") + " }"},
        {"not an array", "void k() { extern __shared__ int n; }", "",
         "1:19: error: extern __shared__ must be an array of unknown size"},
        {"sized array", "extern __shared__ int n[4];", "", "1:8: error: extern __shared__ must be"},
        {"the type first, as in NVIDIA's samples", "void k() {\n  extern double __shared__ s[];\n}",
         "void k() {\n  " + dynamic_local("double", "s") + "\n}"},
        {"two arrays in one statement", "void k() {\n  extern __shared__ int a[], b[];\n}",
         "void k() {\n  " + dynamic_local("int", "a") + " " + dynamic_local("int", "b") + "\n}"},
        {"a sized one among them", "extern __shared__ int a[], b[2];", "",
         "1:8: error: extern __shared__ must be"},
        // A file-scope array gets a real pointer in each function body that names it, so that
        // (float*)dyn and reinterpret_cast<float*>(dyn) work there.
        {"file scope, used in functions",
         "extern __shared__ unsigned char dyn[];\n"
         "__global__ void k(int n) {\n  reinterpret_cast<float*>(dyn)[0] = 1;\n"
         "  if (n) { ((float*)dyn)[1] = 2; }\n}\n"
         "__device__ int g() { return dyn[0]; }\nvoid h(unsigned char* dyn) { dyn[0] = 1; }\n",
         dynamic("unsigned char", "dyn") + "\n__global__ void k(int n) { " +
             dynamic_local("unsigned char", "dyn") +
             "\n  reinterpret_cast<float*>(dyn)[0] = 1;\n"
             "  if (n) { ((float*)dyn)[1] = 2; }\n}\n"
             "__device__ int g() { " +
             dynamic_local("unsigned char", "dyn") +
             " return dyn[0]; }\nvoid h(unsigned char* dyn) { dyn[0] = 1; }\n"},
        {"file scope, not a function body or a member",
         "extern __shared__ int s[];\nvoid k() { if (s[0]) { s[1] = a.s; } }\n",
         dynamic("int", "s") + "\nvoid k() { " + dynamic_local("int", "s") +
             " if (s[0]) { s[1] = a.s; } }\n"},
    });
}

TEST_CASE("cudaLaunchCooperativeKernel and cudaLaunchKernel take the kernel itself") {
    run_table({
        {"C-style cast", "cudaLaunchCooperativeKernel((void *)k, g, b, args, 0, NULL);",
         "cudaLaunchCooperativeKernel(k, g, b, args, 0, NULL);"},
        {"const void and a template", "cudaLaunchKernel((const void*)k<float, 4>, g, b, args);",
         "cudaLaunchKernel(k<float, 4>, g, b, args);"},
        {"reinterpret_cast", "cudaLaunchCooperativeKernel(reinterpret_cast<void*>(&k), g, b, a);",
         "cudaLaunchCooperativeKernel((&k), g, b, a);"},
        {"a pointer variable stays", "cudaLaunchCooperativeKernel(fp, g, b, a);",
         "cudaLaunchCooperativeKernel(fp, g, b, a);"},
        {"other casts stay", "cudaLaunchKernel((char*)k, g, b, a);",
         "cudaLaunchKernel((char*)k, g, b, a);"},
    });
}

// Elsewhere in host code a cast of a name to void* registers the kernel it may name (graphs'
// kernel nodes and cudaLaunchKernel take a void*): `->*` binds what the cast bound.
TEST_CASE("casts of a name to void* in host code go through ::simt::VoidCast") {
    run_table({
        {"a kernel node's func", "void f() { p.func = (void *)reduce; }",
         "void f() { p.func = ::simt::VoidCast{} ->* reduce; }"},
        {"const, &, ::, templates", "void f() { g((const void*)&k, (void*)::ns::k<int, 2>); }",
         "void f() { g(::simt::ConstVoidCast{} ->* &k, ::simt::VoidCast{} ->* ::ns::k<int, 2>); }"},
        {"reinterpret_cast", "void* p = reinterpret_cast<void*>(k);",
         "void* p = ::simt::VoidCast{} ->* (k);"},
        {"a void* variable to a launch", "void* k = (void*)kern; cudaLaunchKernel(k, g, b, a);",
         "void* k = ::simt::VoidCast{} ->* kern; cudaLaunchKernel(k, g, b, a);"},
    });
    const std::vector<std::string> unchanged = {
        "void f(void*) const;\nvoid g(void*) noexcept;\nusing F = void (*)(void*);",
        "size_t n = sizeof(void*) * 2; auto a = alignof(void*);",
        "void f() { q = (void*)0; r = (void*)(p + 1); s = (char*)p; }",
        "__global__ void k(int* p) { void* q = (void*)p; }",
        "#define V(x) ((void*)x)",
    };
    for (const std::string& input : unchanged) {
        CAPTURE(input);
        CHECK(rewrite_source(input, kName) == kHeader + input);
    }
}

TEST_CASE("arrays carved out of dynamic shared memory") {
    const std::string smem = dynamic_local("int", "smem");
    const std::string head = "__global__ void k(int n, const int* in) {\n  ";
    const std::string head_out = "__global__ void k(int n, const int* in) {\n  " + smem;
    run_table({
        {"two arrays and their subscripts",
         head + "extern __shared__ int smem[];\n  int* a = smem;\n  float* b = (float*)&a[n];\n"
                "  a[threadIdx.x] = b[n - 1];\n}",
         head_out + "\n  int* a = ::simt::carve(smem, \"a\");\n"
                    "  float* b = ::simt::carve((float*)&a[n], \"b\");\n"
                    "  a[::simt::carved_index(a, (threadIdx.x), \"a\")] = "
                    "b[::simt::carved_index(b, (n - 1), \"b\")];\n}"},
        {"several declarators, casts, blockDim and ALL_CAPS constants",
         head + "extern __shared__ int smem[];\n"
                "  int *a = smem, *c = reinterpret_cast<int*>(a + BLOCK * blockDim.x);\n}",
         head_out + "\n  int *a = ::simt::carve(smem, \"a\"), *c = ::simt::carve("
                    "reinterpret_cast<int*>(a + BLOCK * blockDim.x), \"c\");\n}"},
        {"a comparison in parentheses does not close the initializer",
         head + "extern __shared__ int smem[];\n"
                "  int *a = smem + (n > 4 ? n : 4), *c = a + (n >> 1);\n}",
         head_out + "\n  int *a = ::simt::carve(smem + (n > 4 ? n : 4), \"a\"), *c = "
                    "::simt::carve(a + (n >> 1), \"c\");\n}"},
        {"a cast's angle brackets inside parentheses",
         head + "extern __shared__ int smem[];\n"
                "  float* f = (n > 2 ? reinterpret_cast<float*>(smem) : (float*)(smem + n));\n}",
         head_out + "\n  float* f = ::simt::carve((n > 2 ? reinterpret_cast<float*>(smem) : "
                    "(float*)(smem + n)), \"f\");\n}"},
        {"a pointer per thread is no carve",
         head + "extern __shared__ int smem[];\n  int t = threadIdx.x;\n  int* mine = smem + t;\n"
                "  int* also = smem + threadIdx.x;\n  mine[1] = also[0];\n}",
         head_out + "\n  int t = threadIdx.x;\n  int* mine = smem + t;\n"
                    "  int* also = smem + threadIdx.x;\n  mine[1] = also[0];\n}"},
        {"a dereference is no declaration; a member is not the pointer",
         head + "extern __shared__ int smem[];\n  int* a = smem;\n  *a = 1;\n  s.a[0] = a[0];\n}",
         head_out + "\n  int* a = ::simt::carve(smem, \"a\");\n  *a = 1;\n"
                    "  s.a[0] = a[::simt::carved_index(a, (0), \"a\")];\n}"},
        {"no extern __shared__ array: nothing carved",
         "__global__ void k(int* p) {\n  int* a = p;\n  a[0] = 1;\n}",
         "__global__ void k(int* p) {\n  int* a = p;\n  a[0] = 1;\n}"},
    });
}

TEST_CASE("__noinline__ becomes an attribute") {
    run_table({
        {"specifier", "__device__ __noinline__ int f(int x);",
         "__device__ __attribute__((noinline)) int f(int x);"},
        {"inside __attribute__ it is gcc's own spelling",
         "__attribute__((__noinline__)) void g(); __attribute__((__noinline__, cold)) void h();",
         "__attribute__((__noinline__)) void g(); __attribute__((__noinline__, cold)) void h();"},
        {"in a macro body", "#define NOINLINE __device__ __noinline__\nNOINLINE void f();",
         "#define NOINLINE __device__ __attribute__((noinline))\nNOINLINE void f();"},
        {"identifiers that contain it", "int my__noinline__ = 1;", "int my__noinline__ = 1;"},
    });
}

TEST_CASE("file-scope device symbols") {
    run_table({
        {"__device__", "__device__ int counter;", "__device__ int counter;" + reg("counter", 1)},
        {"__constant__ array", "\n__constant__ float coeff[16];",
         "\n__constant__ float coeff[16];" + reg("coeff", 2)},
        {"static with initializer", "static __device__ int x = 3;",
         "static __device__ int x = 3;" + reg("x", 1)},
        {"both keywords register once", "__device__ __constant__ int both;",
         "__device__ __constant__ int both;" + reg("both", 1)},
        {"extern is a declaration only", "extern __device__ int elsewhere;",
         "extern __device__ int elsewhere;"},
        {"function definition", "__device__ int f(int x) { return x; }",
         "__device__ int f(int x) { return x; }"},
        {"host device function", "__host__ __device__ inline int g();",
         "__host__ __device__ inline int g();"},
        {"operator", "__device__ bool operator<(A a, A b);",
         "__device__ bool operator<(A a, A b);"},
        {"aligned variable", "__device__ __align__(16) int v[4];",
         "__device__ __align__(16) int v[4];" + reg("v", 1)},
        {"in a namespace", "namespace ns {\n__device__ int x;\n}",
         "namespace ns {\n__device__ int x;" + reg("x", 2) + "\n}"},
        {"in extern \"C\"", "extern \"C\" { __device__ int y; }",
         "extern \"C\" { __device__ int y;" + reg("y", 1) + " }"},
        {"several declarators", "__device__ int a = 1, *b = &a, c[4];",
         "__device__ int a = 1, *b = &a, c[4];" + reg("a", 1) + reg("b", 1) + reg("c", 1)},
        {"template type with >", "__device__ Foo<int, (2 > 1)> v;",
         "__device__ Foo<int, (2 > 1)> v;" + reg("v", 1)},
        {"initializer over lines", "__device__ int table[] = {\n  1, 2,\n  3};",
         "__device__ int table[] = {\n  1, 2,\n  3};" + reg("table", 1)},
        {"qualified member definition", "__device__ int S::member;",
         "__device__ int S::member;" + reg("S::member", 1)},
        {"static member declaration", "struct S { static __device__ int m; };",
         "struct S { static __device__ int m; };"},
        {"variable template", "template <class T> __device__ T v;",
         "template <class T> __device__ T v;"},
        {"after an enum", "enum E { A };\n__device__ int x;",
         "enum E { A };\n__device__ int x;" + reg("x", 2)},
        {"after a function body", "void f() { int x; }\n__constant__ int c;",
         "void f() { int x; }\n__constant__ int c;" + reg("c", 2)},
        {"__managed__", "int a;\n  __managed__ int m;", "",
         "2:3: error: __managed__ variables are not supported by the simt emulator"},
        {"__managed__ in a macro", "#define M __managed__", "",
         "1:11: error: __managed__ variables are not supported"},
        {"a texture fetch", "__global__ void k(float* o) {\n  o[0] = tex2D<float>(t, 0, 0);\n}", "",
         "2:10: error: tex2D: texture and surface objects are not supported by the simt "
         "emulator"},
        {"a texture object parameter", "__global__ void k(cudaTextureObject_t t);", "",
         "1:19: error: cudaTextureObject_t: texture and surface objects are not supported"},
        {"a CUDA array", "int a;\ncudaArray_t array;", "",
         "2:1: error: cudaArray_t: CUDA arrays are not supported by the simt emulator"},
        {"the graph API the emulator has",
         "void f() { cudaGraph_t g; cudaGraphCreate(&g, 0); cudaGraphNodeType t = "
         "cudaGraphNodeTypeKernel; }\n#define CAPTURE(s) cudaStreamBeginCapture(s, m)",
         "void f() { cudaGraph_t g; cudaGraphCreate(&g, 0); cudaGraphNodeType t = "
         "cudaGraphNodeTypeKernel; }\n#define CAPTURE(s) cudaStreamBeginCapture(s, m)"},
        {"a part of graphs it has not", "void f() { cudaGraphAddChildGraphNode(&n, g, 0, 0, c); }",
         "",
         "1:12: error: cudaGraphAddChildGraphNode: CUDA graphs beyond kernel, memcpy, memset, "
         "host and empty nodes, their dependencies, instantiate, launch, clone and stream capture "
         "are not supported by the simt emulator"},
        {"in a macro", "#define U(e) cudaGraphExecUpdate(e, g, 0)", "",
         "1:14: error: cudaGraphExecUpdate: CUDA graphs beyond"},
        {"capture info", "void f() { cudaStreamGetCaptureInfo(s, &st, &id); }", "",
         "1:12: error: cudaStreamGetCaptureInfo: CUDA graphs beyond"},
        {"graphics interoperability", "cudaGraphicsResource_t r;", "",
         "1:1: error: cudaGraphicsResource_t: graphics interoperability (OpenGL, Direct3D, "
         "Vulkan) calls are not supported"},
        {"a kernel's cluster shape", "__global__ void\n__cluster_dims__(2, 1, 1) k(int* p);", "",
         "2:1: error: __cluster_dims__: thread block clusters are not supported by the simt "
         "emulator"},
        {"a cluster group",
         "namespace cg = cooperative_groups;\n__global__ void k() {\n  cg::cluster_group c;\n}", "",
         "3:7: error: cooperative_groups::cluster_group: thread block clusters are not supported "
         "by the simt emulator"},
        {"a cluster group through an alias",
         "namespace coop = ::cooperative_groups;\n__device__ void f(const coop::cluster_group&);",
         "", "2:31: error: cooperative_groups::cluster_group: thread block clusters are not"},
        {"a cluster_group of the program's own",
         "namespace mine { struct cluster_group {}; }\nmine::cluster_group g;",
         "namespace mine { struct cluster_group {}; }\nmine::cluster_group g;"},
        {"names that only begin like them",
         "int texture2D; int surface2D; void cudaGraphsManual();",
         "int texture2D; int surface2D; void cudaGraphsManual();"},
    });
}

TEST_CASE("comments and literals are left alone") {
    const std::string s = "__shared__ int x; k<<<1, 1>>>(); __device__ int y;";
    run_table({
        {"line comment", "// " + s, "// " + s},
        {"line comment continued", "// a \\\n" + s, "// a \\\n" + s},
        {"block comment", "/* " + s + "\n */", "/* " + s + "\n */"},
        {"string", "const char* p = \"" + s + "\";", "const char* p = \"" + s + "\";"},
        {"string with escaped quote", "f(\"\\\" k<<<1,1>>>()\");", "f(\"\\\" k<<<1,1>>>()\");"},
        {"prefixed string", "f(u8\"k<<<1,1>>>()\", L\"__shared__ int x;\");",
         "f(u8\"k<<<1,1>>>()\", L\"__shared__ int x;\");"},
        {"raw string", "f(R\"d(" + s + ")\"\n )d\");", "f(R\"d(" + s + ")\"\n )d\");"},
        {"char literals", "c = '\"'; d = '<'; k<<<1, 1>>>();",
         "c = '\"'; d = '<'; ::simt::launch_template([&](auto simt_pick) -> decltype(simt_pick(k)) "
         "{ return simt_pick(k); }, [&](auto&... simt_a) -> decltype(k(simt_a...)) { k(simt_a...); "
         "}, 1, 1)();"},
        {"digit separators are no char literal", "n = 1'000; k<<<n, 1>>>();",
         "n = 1'000; ::simt::launch_template([&](auto simt_pick) -> decltype(simt_pick(k)) { "
         "return simt_pick(k); }, [&](auto&... simt_a) -> decltype(k(simt_a...)) { k(simt_a...); "
         "}, n, 1)();"},
        {"header name with a quote", "#include <it's.h>\n__device__ int x;",
         "#include <it's.h>\n__device__ int x;" + reg("x", 2)},
        {"unterminated char literal ends at its line", "#if 0\nit's\n#endif\n__device__ int x;",
         "#if 0\nit's\n#endif\n__device__ int x;" + reg("x", 4)},
    });
}

// A GPU's device heap (new/delete, malloc/free in device code) becomes the emulator's
// (simt/device_heap.h); calloc and realloc, which CUDA's device code lacks, are refused at their
// line. Placement new, operator declarations, `= delete`, members named free, and host code
// (__host__ __device__ included) are left alone.
TEST_CASE("device-side new, delete, malloc and free use the emulator's device heap") {
    run_table({
        {"new in a kernel", "struct V {};\n__global__ void k(V** p) {\n  *p = new V;\n}",
         "struct V {};\n__global__ void k(V** p) {\n  *p = new (::simt::device_heap) V;\n}"},
        {"new[] in a __device__ constructor",
         "template <class T> struct V {\n  __device__ V(int n) : d(n) { if (n) { m = new T[n]; } "
         "}\n  T* m; int d;\n};",
         "template <class T> struct V {\n  __device__ V(int n) : d(n) { if (n) { m = new "
         "(::simt::device_heap) T[n]; } }\n  T* m; int d;\n};"},
        {"::new", "__global__ void k(int** p) { *p = ::new int(3); }",
         "__global__ void k(int** p) { *p = ::new (::simt::device_heap) int(3); }"},
        {"delete in a kernel", "__global__ void k(int* p) { delete p; }",
         "__global__ void k(int* p) { ::simt::DeviceDelete{} ->* p; }"},
        {"delete[] of a dereference", "__device__ void f(int** p) { delete [] *p; }",
         "__device__ void f(int** p) { ::simt::DeviceDeleteArray{} ->* *p; }"},
        {"malloc in a __device__ function",
         "__device__ __forceinline__ int* f() { return (int*)malloc(4); }",
         "__device__ __forceinline__ int* f() { return (int*)::simt::device_malloc(4); }"},
        {"std::free in a lambda of a kernel",
         "__global__ void k(int* p) { auto g = [&] { std::free(p); }; g(); }",
         "__global__ void k(int* p) { auto g = [&] { ::simt::device_free(p); }; g(); }"},
        {"::free", "__global__ void k(int* p) { ::free(p); }",
         "__global__ void k(int* p) { ::simt::device_free(p); }"},
        {"calloc", "__global__ void k(int** p) { *p = (int*)calloc(4, 4); }", "",
         "1:41: error: calloc in device code: CUDA's device code has malloc and free (the "
         "device heap), not calloc or realloc"},
        {"realloc", "__device__ void f(int* p) { realloc(p, 8); }", "",
         "1:29: error: realloc in device code"},
    });
    const std::vector<std::string> unchanged = {
        "struct V { int x; };\n__global__ void k(char* b) { new (b) V{1}; }",
        "__host__ __device__ int* f() { return new int[4]; }",
        "int* h() { int* p = (int*)malloc(4); free(p); return new int; }",
        "struct P { __device__ void free(); __device__ void* operator new(unsigned long, void* "
        "p) { return p; } };\n__global__ void k(P* p) { p->free(); }",
        "struct D { D() = default; D(const D&) = delete; };\n__device__ void f(D&) {}",
    };
    for (const std::string& input : unchanged) {
        CAPTURE(input);
        CHECK(rewrite_source(input, kName) == kHeader + input);
    }
}

TEST_CASE("#if 0 blocks are left alone") {
    run_table({
        {"#if 0", "#if 0\n__shared__ int x = 5;\nk<<<>>>();\n#endif\n__device__ int y;",
         "#if 0\n__shared__ int x = 5;\nk<<<>>>();\n#endif\n__device__ int y;" + reg("y", 5)},
        {"#else of #if 1", "#if 1\nk<<<1, 1>>>();\n#else\n__shared__ int x = 0;\n#endif",
         "#if 1\n::simt::launch_template([&](auto simt_pick) -> decltype(simt_pick(k)) { return "
         "simt_pick(k); }, [&](auto&... simt_a) -> decltype(k(simt_a...)) { k(simt_a...); }, 1, "
         "1)();\n#else\n__shared__ int x = 0;\n#endif"},
        {"#else of #if 0 is compiled", "#if 0\nx();\n#else\nk<<<1, 1>>>();\n#endif",
         "#if 0\nx();\n#else\n::simt::launch_template([&](auto simt_pick) -> "
         "decltype(simt_pick(k)) { return simt_pick(k); }, [&](auto&... simt_a) -> "
         "decltype(k(simt_a...)) { k(simt_a...); }, 1, 1)();\n#endif"},
        {"#define in #if 0", "#if 0\n#define L k<<<1, 1>>>\n#define S __shared__ int s;\n#endif",
         "#if 0\n#define L k<<<1, 1>>>\n#define S __shared__ int s;\n#endif"},
        {"other conditions are compiled", "#ifdef X\nk<<<1, 1>>>();\n#endif",
         "#ifdef X\n::simt::launch_template([&](auto simt_pick) -> decltype(simt_pick(k)) { return "
         "simt_pick(k); }, [&](auto&... simt_a) -> decltype(k(simt_a...)) { k(simt_a...); }, 1, "
         "1)();\n#endif"},
        {"nested in #if 0", "#if 0\n#if 1\nk<<<1, 1>>>();\n#else\n#endif\nk<<<>>>();\n#endif",
         "#if 0\n#if 1\nk<<<1, 1>>>();\n#else\n#endif\nk<<<>>>();\n#endif"},
        {"brace in #if 0 does not open a scope", "#if 0\nvoid f() {\n#endif\n__device__ int z;",
         "#if 0\nvoid f() {\n#endif\n__device__ int z;" + reg("z", 4)},
    });
}

// The head of every loop condition, as simt-rewrite inserts it.
const std::string kTick = "::simt::detail::loop_tick()";

std::string tick(const std::string& cond) {
    return kTick + " && (" + cond + ")";
}

TEST_CASE("loop conditions get loop_tick()") {
    run_table({
        {"while", "while (x) f();", "while (" + tick("x") + ") f();"},
        {"while over lines keeps lines", "while (a &&\n       b) {}",
         "while (" + tick("a &&\n       b") + ") {}"},
        {"|| keeps its precedence", "while (a || b) {}", "while (" + tick("a || b") + ") {}"},
        {"nested parentheses", "while ((a || f(b, (c))) && d[i]) {}",
         "while (" + tick("(a || f(b, (c))) && d[i]") + ") {}"},
        {"spaces and comments inside kept", "while ( /* poll */ flag[0] == 0 ) {}",
         "while ( /* poll */ " + tick("flag[0] == 0") + " ) {}"},
        {"do-while", "do { f(); } while (flag[0] == 0);",
         "do { f(); } while (" + tick("flag[0] == 0") + ");"},
        {"do-while over lines", "do {\n  f();\n} while (a\n         && b);",
         "do {\n  f();\n} while (" + tick("a\n         && b") + ");"},
        {"do-while(0) in code", "do { f(); } while (0);", "do { f(); } while (" + tick("0") + ");"},
        {"for", "for (int i = 0; i < n; ++i) s += i;",
         "for (int i = 0; " + tick("i < n") + "; ++i) s += i;"},
        {"for with an empty condition", "for (int i = 0; ; ++i) {}",
         "for (int i = 0; ;" + kTick + ", ++i) {}"},
        {"while (true) with a body", "while (true) { if (*p) break; }",
         "while (true) {" + kTick + "; if (*p) break; }"},
        {"for (;;)", "for (;;) {}", "for (;;" + kTick + ") {}"},
        {"for with an empty init", "for (; p != end; ) {}",
         "for (; " + tick("p != end") + "; ) {}"},
        {"for header over lines", "for (int i = 0;\n     i < n;\n     ++i) {}",
         "for (int i = 0;\n     " + tick("i < n") + ";\n     ++i) {}"},
        {"comma and ternary", "for (i = 0, j = n; i < j ? x : y; ++i, --j) {}",
         "for (i = 0, j = n; " + tick("i < j ? x : y") + "; ++i, --j) {}"},
        {"lambdas with ';' and braces in the header",
         "for (auto f = [](int x) { int y = x; return y; }; f(i) < n; i = [&] { return i + 1; }()) "
         "{}",
         "for (auto f = [](int x) { int y = x; return y; }; " + tick("f(i) < n") +
             "; i = [&] { return i + 1; }()) {}"},
        {"';' in a lambda in template arguments",
         "for (S<[] { int a = 1; return a; }()> s; s.ok<[] { return 2; }()>(); s.next()) {}",
         "for (S<[] { int a = 1; return a; }()> s; " + tick("s.ok<[] { return 2; }()>()") +
             "; s.next()) {}"},
        {"braced init in the header",
         "for (std::vector<int> v{1, 2}; v.size() < 3u; v.push_back(0))",
         "for (std::vector<int> v{1, 2}; " + tick("v.size() < 3u") + "; v.push_back(0))"},
        {"assignment is an expression", "while ((x = next()) != 0) {}\nwhile (x = next()) {}",
         "while (" + tick("(x = next()) != 0") + ") {}\nwhile (" + tick("x = next()") + ") {}"},
        {"assignment through a pointer or an index", "while (*p = *q) {}\nwhile (a[i] = f()) {}",
         "while (" + tick("*p = *q") + ") {}\nwhile (" + tick("a[i] = f()") + ") {}"},
        {"assignment to a member", "while (p->x = f()) {}\nwhile (s.x = f()) {}",
         "while (" + tick("p->x = f()") + ") {}\nwhile (" + tick("s.x = f()") + ") {}"},
        {"strcpy loop", "while (*d++ = *s++) {}\nwhile (*d++=*s++) {}",
         "while (" + tick("*d++ = *s++") + ") {}\nwhile (" + tick("*d++=*s++") + ") {}"},
        {"comparisons are no declaration", "while (a <= b && c != d && e >= f && g == h) {}",
         "while (" + tick("a <= b && c != d && e >= f && g == h") + ") {}"},
        {"a temporary is no declaration", "while (ok && T{b}.more()) {}",
         "while (" + tick("ok && T{b}.more()") + ") {}"},
        {"a lambda is no declaration", "while (ok && [&] { int y = 0; return y; }()) {}",
         "while (" + tick("ok && [&] { int y = 0; return y; }()") + ") {}"},
        {"nested loops", "while (a) { for (;;) { do {} while (b); } }",
         "while (" + tick("a") + ") { for (;;" + kTick + ") { do {} while (" + tick("b") +
             "); } }"},
        {"a loop inside a condition", "while (any([&] { for (int i = 0; i < n; ++i) {} }())) {}",
         "while (" + tick("any([&] { for (int i = 0; " + tick("i < n") + "; ++i) {} }())") +
             ") {}"},
        {"constexpr function",
         "constexpr int f(int n) { int s = 0; while (n > 0) s += n--; return s; }",
         "constexpr int f(int n) { int s = 0; while (" + tick("n > 0") + ") s += n--; return s; }"},
        {"other loops in an OpenMP loop",
         "#pragma omp parallel for\nfor (int i = 0; i < n; ++i) {\n  x(); while (f()) {}\n}\n"
         "#pragma omp simd\nx(); for (;;) {}",
         "#pragma omp parallel for\nfor (int i = 0; i < n; ++i) {\n  x(); while (" + tick("f()") +
             ") {}\n}\n#pragma omp simd\nx(); for (;;" + kTick + ") {}"},
        {"with a launch inside", "while (f()) k<<<1, 1>>>(x);",
         "while (" + tick("f()") +
             ") ::simt::launch_template([&](auto simt_pick) -> decltype(simt_pick(k)) { return "
             "simt_pick(k); }, [&](auto&... simt_a) -> decltype(k(simt_a...)) { k(simt_a...); }, "
             "1, 1)(x);"},
    });
}

TEST_CASE("loop ticks say where the loop's body ends") {
    // The loop's end: lines below the condition, the column, and how many loops inside it end
    // at the same token (their tests come first).
    const auto at = [](int lines, int column, int inner = 0) {
        return "::simt::detail::loop_tick(__LINE__ + " + std::to_string(lines) + ", " +
               std::to_string(column * 8 + inner) + ")";
    };
    const std::vector<Case> cases{
        {"block over lines",
         "for (int d = 1; d < 32; d *= 2) {\n  if (l >= d) s[i] += s[i - d];\n}",
         "for (int d = 1; " + at(2, 1) +
             " && (d < 32); d *= 2) {\n  if (l >= d) s[i] += s[i - d];\n}"},
        {"one statement", "while (x)\n  f(a[i]);", "while (" + at(1, 10) + " && (x))\n  f(a[i]);"},
        {"if-else body", "while (x)\n  if (a) f(); else\n    g();",
         "while (" + at(2, 8) + " && (x))\n  if (a) f(); else\n    g();"},
        {"nested loop body", "for (;;)\n  while (b) { g(); }",
         "for (;;" + at(1, 20, 1) + ")\n  while (" + at(0, 20) + " && (b)) { g(); }"},
        {"do-while ends at its ';'", "do {\n  f();\n} while (c);",
         "do {\n  f();\n} while (" + at(0, 12) + " && (c));"},
        {"while (true)", "while (true) {\n  if (*p) break;\n}",
         "while (true) {" + at(2, 1) + ";\n  if (*p) break;\n}"},
        {"a lambda in the body", "while (x) { auto f = [] { return 1; };\n  g(f); }",
         "while (" + at(1, 9) + " && (x)) { auto f = [] { return 1; };\n  g(f); }"},
    };
    for (const Case& c : cases) {
        SUBCASE(c.name) {
            check(c, true);
        }
    }
}

TEST_CASE("loops that keep their conditions") {
    const auto same = [](const char* name, const std::string& code) {
        return Case{name, code, code};
    };
    run_table({
        same("range-based for", "for (int x : v) s += x;"),
        same("range-based for with a reference and a ternary", "for (auto& x : c ? a : b) {}"),
        same("range-based for with an init statement", "for (auto v = f(); int x : v) {}"),
        same("range-based for over a braced list", "for (int x : {1, 2, 3}) {}"),
        same("while declaring a pointer", "while (Node* n = next()) {}"),
        same("while declaring auto", "while (auto x = f()) {}"),
        same("while declaring a template type", "while (std::optional<int> v = get()) {}"),
        same("while declaring a const pointer", "while (int* const p = f()) {}"),
        same("while declaring a reference", "while (const auto& r = g()) {}"),
        same("while declaring with decltype", "while (decltype(f()) r = f()) {}"),
        same("while declaring with braces", "while (bool more{step()}) {}"),
        same("while declaring a structured binding", "while (auto [k, v] = next()) {}"),
        same("for declaring in its condition", "for (int i = 0; int c = get(i); ++i) {}"),
        same("in #define bodies", "#define SPIN(p) while (*(p) == 0) {}\n"
                                  "#define EACH(i, n) for (int i = 0; i < (n); ++i)\n"
                                  "#define DO(x) do { x; } while (0)\n"
                                  "EACH(i, 4) SPIN(q);"),
        same("comments and literals", "// while (x) {}\n/* for (;;) {} */ s = \"while (x) {}\";\n"
                                      "t = R\"(for (;;))\"; c = '(';"),
        same("in #if 0", "#if 0\nwhile (x) {}\n#endif"),
        same("a directive inside the condition", "while (a\n#ifdef X\n && b\n#endif\n) {}"),
        same("a directive inside the for header",
             "for (int i = 0;\n#if X\n     i < n;\n#else\n     i < m;\n#endif\n     ++i) {}"),
        same("OpenMP loops", "#pragma omp parallel for\nfor (int i = 0; i < n; ++i) {}\n"
                             "#pragma omp parallel for collapse(2)\n"
                             "for (int i = 0; i < n; ++i)\n  for (int j = 0; j < n; ++j) {}\n"
                             "#pragma acc loop\nfor (int i = 0; i < n; ++i) {\n  for (;;) {}\n}"),
        same("names containing the keywords", "my_while(x); for_each(y); while_(z);"),
        same("a loop keyword from a macro", "#define W while\nW (x) {}"),
    });
}

TEST_CASE("#line header and positions") {
    CHECK(rewrite_source("", "C:\\dir\\a \"b\".cu") == "#line 1 \"C:\\\\dir\\\\a \\\"b\\\".cu\"\n");
    CHECK(rewrite_source("\xEF\xBB\xBFint x;", "t.cu") == kHeader + "int x;");
    // Tabs advance to the next multiple of 8, as gcc counts columns.
    try {
        (void)rewrite_source("void k() {\n\t  __shared__ int x = 1;\n}", "t.cu");
        FAIL("expected an error");
    } catch (const RewriteError& e) {
        CHECK(e.line() == 2);
        CHECK(e.col() == 28);
    }
}

namespace {

namespace fs = std::filesystem;

// A fresh directory of files for one test, removed afterwards.
struct TempTree {
    fs::path root;
    TempTree() {
        root = fs::temp_directory_path() /
               ("simt_rewrite_tree_" +
                std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
        fs::create_directories(root);
    }
    ~TempTree() {
        std::error_code ignored;
        fs::remove_all(root, ignored);
    }
    fs::path write(const std::string& relative, const std::string& text) const {
        const fs::path path = root / relative;
        fs::create_directories(path.parent_path());
        std::ofstream(path, std::ios::binary) << text;
        return path;
    }
    static std::string read(const fs::path& path) {
        std::ifstream in(path, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    }
};

// The path inside `#include "..."` on the given 1-based line of `text`.
std::string included_path(const std::string& text, int line) {
    std::size_t at = 0;
    for (int i = 1; i < line; ++i) at = text.find('\n', at) + 1;
    const std::size_t open = text.find('"', text.find("#include", at));
    return text.substr(open + 1, text.find('"', open + 1) - open - 1);
}

} // namespace

TEST_CASE("headers included with quotes are rewritten too") {
    TempTree tree;
    const fs::path cu = tree.write("k.cu", "#include <cstdio>\n"
                                           "#include \"sub/scan.cuh\"\n"
                                           "#include \"absent.h\"\n"
                                           "#if 0\n#include \"sub/scan.cuh\"\n#endif\n");
    const fs::path scan = tree.write("sub/scan.cuh", "#pragma once\n"
                                                     "#include \"../sub/util.h\"\n"
                                                     "__device__ void f() {\n"
                                                     "  __shared__ int a, b[4];\n"
                                                     "  while (a) {}\n"
                                                     "}\n");
    const fs::path util = tree.write("sub/util.h", "#pragma once\n#include \"scan.cuh\"\n");
    const fs::path copies = tree.root / "copies";

    simt::rewrite::HeaderCopies headers(copies);
    const std::string out = headers.rewrite(cu, "k.cu");
    // The .cu's include points at a copy; absent headers, <...> and #if 0 are left alone.
    const std::string scan_copy = included_path(out, 3);
    CHECK(fs::path(scan_copy).is_absolute());
    CHECK(scan_copy.starts_with(fs::absolute(copies).string()));
    CHECK(out.find("#include <cstdio>") != std::string::npos);
    CHECK(out.find("#include \"absent.h\"") != std::string::npos);
    CHECK(out.find("#if 0\n#include \"sub/scan.cuh\"\n#endif") != std::string::npos);

    // The copy is rewritten (both __shared__ variables, the loop tick) and names the original.
    const std::string copied = TempTree::read(scan_copy);
    CHECK(copied.starts_with("#line 1 \"" + scan.lexically_normal().string() + "\"\n"));
    CHECK(copied.find(shared("int", "a", "") + " " + shared("int", "b", "[4]")) !=
          std::string::npos);
    CHECK(copied.find("loop_tick") != std::string::npos);

    // Its own include, spelled through "..", leads to util.h's copy, whose include of scan.cuh
    // (a cycle, cut by #pragma once) leads back to the same copy of scan.cuh.
    const std::string util_copy = included_path(copied, 3);
    CHECK(util_copy != scan_copy);
    CHECK(included_path(TempTree::read(util_copy), 3) == scan_copy);

    // What a depfile needs: the input and each header once.
    const auto& inputs = headers.inputs();
    REQUIRE(inputs.size() == 3);
    CHECK(inputs[0] == cu);
    CHECK(fs::equivalent(inputs[1], scan));
    CHECK(fs::equivalent(inputs[2], util));

    // A second run with nothing changed leaves the copies alone (no rebuilds downstream).
    const auto stamp = fs::last_write_time(scan_copy);
    simt::rewrite::HeaderCopies again(copies);
    CHECK(again.rewrite(cu, "k.cu") == out);
    CHECK(fs::last_write_time(scan_copy) == stamp);
}

TEST_CASE("headers found through -I are rewritten when they hold CUDA for the emulator") {
    TempTree tree;
    const fs::path cu = tree.write("src/k.cu", "#include <blocksum.cuh>\n"
                                               "#include \"local.cuh\"\n"
                                               "#include <plain.h>\n"
                                               "#include <cstdio>\n");
    const fs::path blocksum = tree.write("inc/blocksum.cuh", "__device__ int f() {\n"
                                                             "  __shared__ int s[4];\n"
                                                             "  return s[0];\n"
                                                             "}\n");
    // Found in the -I folder for a quoted include, since it is not next to k.cu.
    tree.write("inc/local.cuh", "__global__ void g() { __shared__ float t[2]; }\n");
    // Nothing for the emulator in its code (a comment does not count): the compiler reads the
    // original.
    tree.write("inc/plain.h", "// not __shared__, no <<<\n"
                              "inline int twice(int x) { while (false) {} return 2 * x; }\n");
    simt::rewrite::HeaderCopies headers(tree.root / "copies", {tree.root / "inc"});
    const std::string out = headers.rewrite(cu, "k.cu");
    const std::string blocksum_copy = included_path(out, 2);
    CHECK(blocksum_copy.starts_with(fs::absolute(tree.root / "copies").string()));
    CHECK(TempTree::read(blocksum_copy).find(shared("int", "s", "[4]")) != std::string::npos);
    CHECK(TempTree::read(included_path(out, 3)).find(shared("float", "t", "[2]")) !=
          std::string::npos);
    CHECK(out.find("#include <plain.h>") != std::string::npos);
    CHECK(out.find("#include <cstdio>") != std::string::npos);
    REQUIRE(headers.inputs().size() == 3);
    CHECK(fs::equivalent(headers.inputs()[1], blocksum));

    // Without the -I folder, <...> is left to the compiler as before.
    simt::rewrite::HeaderCopies no_dirs(tree.root / "copies2");
    CHECK(no_dirs.rewrite(cu, "k.cu").find("#include <blocksum.cuh>") != std::string::npos);

    // A cluster shape in such a header, and nothing else for the emulator: copied, so that the
    // refusal names it at its line (the compiler would fail at length on the original).
    const fs::path clusters = tree.write("src/c.cu", "#include <clustered.cuh>\n");
    const fs::path clustered = tree.write(
        "inc/clustered.cuh", "__global__ void __cluster_dims__(2, 1, 1) k(int* p) { *p = 1; }\n");
    try {
        (void)headers.rewrite(clusters, "c.cu");
        FAIL("expected an error");
    } catch (const simt::rewrite::RewriteFailure& e) {
        CHECK(std::string(e.what()).find(clustered.lexically_normal().string() +
                                         ":1:17: error: __cluster_dims__: thread block clusters "
                                         "are not supported") != std::string::npos);
    }
}

TEST_CASE("an error in an included header names the header and the include chain") {
    TempTree tree;
    const fs::path cu = tree.write("k.cu", "// first line\n#include \"a.cuh\"\n");
    const fs::path a = tree.write("a.cuh", "#include \"b.cuh\"\n");
    const fs::path b = tree.write("b.cuh", "__device__ void f() {\n  __shared__ int x = 0;\n}\n");
    simt::rewrite::HeaderCopies headers(tree.root / "copies");
    try {
        (void)headers.rewrite(cu, "k.cu");
        FAIL("expected an error");
    } catch (const simt::rewrite::RewriteFailure& e) {
        const std::string expected = "In file included from " + a.lexically_normal().string() +
                                     ":1:\nIn file included from k.cu:2:\n" +
                                     b.lexically_normal().string() +
                                     ":2:20: error: __shared__ variables cannot be initialized";
        CHECK(std::string(e.what()).starts_with(expected));
    }
}

#ifdef SIMT_REWRITE_TEST_CXX
namespace {

std::string quote(const std::string& s) {
    return "'" + s + "'";
}

// Rewrites `source` and compiles it with -fsyntax-only and `flags`: 0 when it compiles.
int compile_rewritten(const std::string& name, const std::string& source, const std::string& flags,
                      std::string* log = nullptr) {
    const auto dir = std::filesystem::temp_directory_path() /
                     ("simt_rewrite_test_" +
                      std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
    std::filesystem::create_directories(dir);
    const auto file = dir / (name + ".cpp");
    std::ofstream(file) << rewrite_source(source, name + ".cu");
    const std::string command =
        std::string(SIMT_REWRITE_TEST_CXX) + " -std=c++20 -fsyntax-only -Wall -Wextra -x c++ " +
        flags + " " + quote(file.string()) + " > " + quote((dir / "log").string()) + " 2>&1";
    const int status = std::system(command.c_str());
    const std::string output = TempTree::read(dir / "log");
    if (log)
        *log = output;
    else
        std::cout << output;
    std::filesystem::remove_all(dir);
    return status;
}

} // namespace

// Rewritten programs must be valid C++ against the runtime's interface: against
// rewrite_test_fakes.h (the names the rewriter promises, warnings as errors) and, where the
// build says where they are, the emulator's own headers with the flags Simt.cmake uses.
TEST_CASE("rewritten programs compile") {
    const std::vector<std::pair<std::string, std::string>> programs = {
        {"kernels", R"cu(
template <class T, int N> struct Foo { struct Storage { T v[N]; }; };
__constant__ float coeff[16];
__device__ int counter = 0, *where = &counter;
namespace ns { __device__ Foo<int, 4> table[2]; }
extern __shared__ float dyn[];

template <class T, int N>
__global__ void scan(T* out, int n) {
    static __shared__ int x;
    __shared__ __align__(16) float a[4][33];
    __shared__ typename Foo<T, N>::Storage s;
    volatile __shared__ int flag;
    extern __shared__ __align__(8) unsigned char smem[];
    __shared__ T buf[2 * N
                     + 1];
    a[threadIdx.y][threadIdx.x] = coeff[threadIdx.x % 16];
    buf[threadIdx.x] = s.v[0] + static_cast<T>(x) + flag + dyn[0] + smem[1];
    T* p = reinterpret_cast<T*>(smem); // the usual idiom: smem must be a real pointer
    float* q = dyn;
    __syncthreads();
    if (threadIdx.x == 0) out[0] = buf[0] + *p + static_cast<T>(*q);
    (void)n;
}

__global__ void plain(int* p) { p[threadIdx.x] = counter; }

// The last template argument is deduced from the launch arguments, as in a call.
template <int N, class T>
__global__ void deduced(const T* in, T* out) { out[threadIdx.x] = in[threadIdx.x] * N; }

#define LAUNCH(g) plain<<<g, \
                         32>>>(nullptr)

// Several variables in one __shared__ statement; __noinline__; a kernel template whose
// arguments all come from the launch (here from a lambda).
__device__ __noinline__ int twice(int v) { return 2 * v; }
template <class F>
__global__ void apply(int* out, F f) {
    __shared__ int a, b[32];
    extern __shared__ float d1[], d2[];
    a = 1;
    b[threadIdx.x] = f(twice(a)) + static_cast<int>(d1[0] + d2[0]);
    out[threadIdx.x] = b[threadIdx.x];
}

int main() {
    scan<int, 4><<<dim3(2, 1), 32, 0, 0>>>(nullptr, 3);
    scan<float, 8><<<1,
                     64>>>(nullptr, 1);
    LAUNCH(4);
    ::plain<<<1, 1>>>(nullptr);
    int* data = nullptr;
    deduced<2><<<1, 32>>>(data, data);
    apply<<<1, 32>>>(data, [](int v) { return v + 1; });
    void (*fp)(int*) = plain;
    fp<<<1, 1>>>(data);
}
)cu"},
        {"volatile_device_symbol", R"cu(
__device__ volatile int flags[8];
__global__ void k(int* out) { out[0] = flags[0]; }
)cu"},
        {"loops", R"cu(
constexpr int loops(int n) {
    int s = 0;
    for (int i = 0; i < n; ++i) s += i;
    int j = 0;
    while (j < 3) ++j;
    do { --j; } while (j > 0);
    for (;;) {
        if (s >= 0) break;
    }
    return s + j;
}
static_assert(loops(5) == 10); // evaluated at compile time, loop_tick() included
consteval int halvings(int n) {
    int k = 0;
    while (n > 1) { n /= 2; ++k; }
    return k;
}
static_assert(halvings(8) == 3);

struct Node { Node* next; };

__global__ void spin(int* flag, int* out, Node* list) {
    while (flag[0] == 0) {}
    do { out[0] = flag[1]; } while (flag[1] != 0);
    for (int i = threadIdx.x; i < 64; i += blockDim.x) out[i] = i;
    for (auto f = [](int x) { int y = x; return y; }; f(out[0]) < 0;) {}
    for (Node* p = list; Node* q = p->next; p = q) {}
    while (Node* p = list->next) list = p;
    int v[3] = {1, 2, 3};
    for (int x : v) out[0] += x;
    out[1] = loops(static_cast<int>(threadIdx.x));
}
)cu"},
        // Includes nothing and uses no CUDA: loop_tick() still resolves.
        {"host_only_loops", R"cu(
int main() {
    int s = 0;
    for (int i = 0; i < 4; ++i) s += i;
    while (s > 2) --s;
    return s;
}
)cu"},
    };
    std::vector<std::pair<std::string, std::string>> configs = {
        {"fakes", "-Werror -include " + quote(SIMT_REWRITE_TEST_FAKES)}};
#ifdef SIMT_REWRITE_TEST_SIMT_ROOT
    const std::string root = SIMT_REWRITE_TEST_SIMT_ROOT;
    configs.push_back({"runtime headers", "-include cuda_runtime.h -I" + quote(root + "/compat") +
                                              " -I" + quote(root + "/include")});
#endif
    for (const auto& config_flags : configs) {
        // (named, not bound: clang 14 does not let a lambda of doctest's capture a binding)
        const std::string& config = config_flags.first;
        const std::string& flags = config_flags.second;
        for (const auto& [name, source] : programs) {
            const std::string label = name + " against " + config;
            SUBCASE(label.c_str()) {
                CAPTURE(flags);
                CHECK(compile_rewritten(name, source, flags) == 0);
            }
        }
    }
}
// The emulator leaves __CUDA_ARCH__ undefined (one pass, like nvcc's host pass) and runs the
// device code: a comparison with it in an #if or #elif reads the emulated device's 900, so the
// code kept for a GPU of compute capability 9.0 compiles, quietly, and line numbers are kept.
// The "on a GPU or not" tests (#ifdef, defined()) stay false; a conditional that mixes one with a
// comparison gets a warning at its #if (an #elif's goes with its #if: text before it may be
// skipped).
TEST_CASE("#if comparisons with __CUDA_ARCH__ read 900; mixed with defined() they warn") {
    const std::string source = "__global__ void k(int* out) {\n"
                               "    *out = 1;\n"
                               "#if __CUDA_ARCH__ >= 700\n"
                               "    *out = 7;\n"
                               "#elif 600 <= __CUDA_ARCH__\n"
                               "    *out = 6;\n"
                               "#endif\n"
                               "#ifdef __CUDA_ARCH__\n"
                               "#endif\n"
                               "#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__\n"
                               "    int unused = 0;\n"
                               "#endif\n"
                               "#if __CUDA_ARCH__ < 900\n"
                               "    static_assert(false, \"left out on a 9.0 device\");\n"
                               "#endif\n"
                               "#if __CUDA_ARCH__ >= 700\n"
                               "    int kept = 0;\n"
                               "#endif\n"
                               "}\n";
    const std::string warning = "warning: __CUDA_ARCH__ is not defined on the simt emulator";
    std::string log;
    CHECK(compile_rewritten("arch", source, "-include " + quote(SIMT_REWRITE_TEST_FAKES), &log) ==
          0);
    CAPTURE(log);
    CHECK(log.find(warning) == std::string::npos);
    // The lines after the conditionals keep their numbers: -Wunused-variable points at 11 and 17.
    CHECK(log.find("arch.cu:11:") != std::string::npos);
    CHECK(log.find("arch.cu:17:") != std::string::npos);
    const std::string out = rewrite_source(source, kName);
    CHECK(out.find("#if 900 >= 700\n") != std::string::npos);
    CHECK(out.find("#elif 600 <= 900\n") != std::string::npos);
    CHECK(out.find("#ifdef __CUDA_ARCH__\n") != std::string::npos);
    CHECK(out.find("#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__\n") != std::string::npos);
    // Every comparison operator, on either side.
    for (const char* condition :
         {"__CUDA_ARCH__ == 900", "__CUDA_ARCH__ != 900", "__CUDA_ARCH__ < 800",
          "800 > __CUDA_ARCH__", "900 == __CUDA_ARCH__", "(__CUDA_ARCH__) >= 800"}) {
        CAPTURE(condition);
        const std::string rewritten =
            rewrite_source(std::string("int a;\n#if ") + condition + "\n#endif\n", kName);
        CHECK(rewritten.find("__CUDA_ARCH__") == std::string::npos);
        CHECK(rewritten.find("#pragma GCC warning") == std::string::npos);
    }
    // A comparison beside defined(__CUDA_ARCH__), which stays false: one warning, at the #if.
    const std::string mixed = "int a;\n"
                              "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700\n"
                              "#elif defined __CUDA_ARCH__ && __CUDA_ARCH__ >= 600\n"
                              "#endif\n"
                              "int b;\n";
    log.clear();
    CHECK(compile_rewritten("mixed", mixed, "", &log) == 0);
    CAPTURE(log);
    CHECK(log.find("mixed.cu:2:") != std::string::npos);
    std::size_t warnings = 0;
    for (std::size_t at = log.find(warning); at != std::string::npos;
         at = log.find(warning, at + 1))
        ++warnings;
    CHECK(warnings == 1);
}

// Inline PTX in device code: a read of a lane's special register becomes its value from
// threadIdx; any other asm in a __global__ or __device__ function is refused at its line, naming
// inline PTX; asm in host code is left to the host compiler.
TEST_CASE("inline PTX: lane registers are read, other asm in device code is refused") {
    const std::string reads = "__global__ void k(unsigned* out) {\n"
                              "    unsigned lane;\n"
                              "    asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(lane));\n"
                              "    asm(\"mov.u32 %0, \" \"%%lanemask_lt;\" : \"=r\"(out[lane]));\n"
                              "}\n";
    const std::string out = rewrite_source(reads, kName);
    CHECK(out.find("asm") == std::string::npos);
    CHECK(out.find("((lane) = ") != std::string::npos);
    CHECK(out.find("((out[lane]) = ((1u << ") != std::string::npos);
    const std::string host = "void h(unsigned* x) { asm(\"nop\"); }\n"
                             "__host__ __device__ void hd() { asm(\"nop\"); }\n";
    CHECK(rewrite_source(host, kName).find("asm(\"nop\"); }") != std::string::npos);
    for (const char* statement :
         {"asm(\"add.s32 %0, %1, %2;\" : \"=r\"(x) : \"r\"(x), \"r\"(x));",
          "asm volatile(\"membar.gl;\");", "__asm__(\"mov.u32 %0, %%smid;\" : \"=r\"(x));",
          "asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(x) : \"r\"(x));", "asm(\"bar.sync 0;\")"}) {
        CAPTURE(statement);
        const std::string source =
            std::string("__device__ void f(unsigned x) {\n    x = 1;\n    ") + statement + "\n}\n";
        try {
            rewrite_source(source, kName);
            FAIL("no error");
        } catch (const RewriteError& e) {
            CHECK(e.line() == 3);
            CHECK(std::string(e.what()).find("inline PTX (asm) in device code is not supported by "
                                             "the simt emulator") != std::string::npos);
        }
    }
}

#ifdef SIMT_REWRITE_TEST_SIMT_ROOT
// What the emulator does not run fails to compile, and the error names the feature.
#define CG                                                                                         \
    "#include <cooperative_groups.h>\n#include <cooperative_groups/reduce.h>\n"                    \
    "namespace cg = cooperative_groups;\n__global__ void k() { "
TEST_CASE("unsupported CUDA library headers fail to compile with the feature named") {
    const std::string root = SIMT_REWRITE_TEST_SIMT_ROOT;
    const std::string flags =
        "-include cuda_runtime.h -I" + quote(root + "/compat") + " -I" + quote(root + "/include");
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"#include <cuda/std/atomic>\n", "cuda::std::atomic (<cuda/std/atomic>) is not supported"},
        {"#include <cuda/std/barrier>\n", "cuda::std::barrier (<cuda/std/barrier>) is not"},
        {"#include <cuda/atomic>\n", "<cuda/atomic> (cuda::atomic) is not supported"},
        {"#include <cuda/pipeline>\n", "<cuda/pipeline> (cuda::pipeline) is not supported"},
        {"#include <cuda/barrier>\n__global__ void k() { __shared__ "
         "cuda::barrier<cuda::thread_scope_block> b; b.arrive_and_drop(); }",
         "cuda::barrier::arrive_and_drop is not supported by the simt emulator"},
        {"#include <cuda/barrier>\n__global__ void k() { __shared__ "
         "cuda::barrier<cuda::thread_scope_device> b; init(&b, 1); }",
         "cuda::barrier of a scope other than thread_scope_block is not supported"},
        {"#include <cuda/barrier>\n__global__ void k(int* p) { __shared__ int s[4]; __shared__ "
         "cuda::barrier<cuda::thread_scope_block> b; cuda::memcpy_async(s, p, 16, b); }",
         "cuda::memcpy_async is not supported by the simt emulator"},
        {"#include <cuda/ptx>\n__global__ void k() { cuda::ptx::cp_async_bulk_tensor(1); }",
         "cp_async_bulk_tensor (tensor copies, TMA descriptors) is not supported"},
        {CG "cg::labeled_partition(cg::tiled_partition<64>(cg::this_thread_block()), 3); }",
         "cooperative_groups::labeled_partition of a tile of more than 32 threads is not"},
        {"#include <thrust/sort.h>\n", "Thrust is not available on the simt backend"},
        // The toolkit's own headers, where g++ finds them (/usr/local/include on some machines),
        // would fail with hundreds of errors: the compat headers come first.
        {"#include <cuda_bf16.h>\n", "<cuda_bf16.h> (__nv_bfloat16, bfloat16 arithmetic) is not"},
        {"#include \"cuda_bf16.h\"\n", "<cuda_bf16.h> (__nv_bfloat16, bfloat16 arithmetic) is"},
        {"#include <cuda_bf16.hpp>\n", "<cuda_bf16.hpp> (__nv_bfloat16, bfloat16 arithmetic) is"},
        {"#include <cuda_fp8.h>\n", "<cuda_fp8.h> (8-bit floating point, __nv_fp8_*) is not"},
        {"#include <cuda_fp8.hpp>\n", "<cuda_fp8.hpp> (8-bit floating point, __nv_fp8_*) is not"},
        {"#include <cuda_fp6.h>\n", "<cuda_fp6.h> (6-bit floating point, __nv_fp6_*) is not"},
        {"#include <cuda_fp4.h>\n", "<cuda_fp4.h> (4-bit floating point, __nv_fp4_*) is not"},
        {"#include <mma.h>\n", "<mma.h> (nvcuda::wmma, warp matrix multiply-accumulate on tensor "
                               "cores) is not supported by the simt emulator"},
        {"#include <curand_kernel.h>\n", "<curand_kernel.h> (the cuRAND device API: curandState, "
                                         "curand_init, curand_uniform, ...) is not supported"},
        {"#include <curand.h>\n", "<curand.h> (the cuRAND library) is not supported"},
        {"#include <cublas_v2.h>\n", "<cublas_v2.h> (the cuBLAS library) is not supported"},
        {"#include <cublas.h>\n", "<cublas.h> (the cuBLAS library) is not supported"},
        {"#include <cublasLt.h>\n", "<cublasLt.h> (the cuBLAS library) is not supported"},
        {"#include <cufft.h>\n", "<cufft.h> (the cuFFT library) is not supported"},
        {"#include <cusparse.h>\n", "<cusparse.h> (the cuSPARSE library) is not supported"},
        {"#include <cusolverDn.h>\n", "<cusolverDn.h> (the cuSOLVER library) is not supported"},
        {"#include <nccl.h>\n", "<nccl.h> (the NCCL library) is not supported"},
        {"#include <cuComplex.h>\n", "<cuComplex.h> (cuFloatComplex, cuDoubleComplex and their "
                                     "cuC* functions) is not supported"},
        {"#include <cuda_pipeline.h>\n", "<cuda_pipeline.h> (__pipeline_memcpy_async, "
                                         "__pipeline_commit, __pipeline_wait_prior) is not"},
        {"#include <cuda_pipeline_primitives.h>\n",
         "<cuda_pipeline_primitives.h> (__pipeline_memcpy_async, __pipeline_commit"},
        {CG "cg::this_multi_grid(); }", "cooperative_groups::this_multi_grid is not supported"},
        {CG "auto t = cg::tiled_partition<32>(cg::this_thread_block()); t.match_any(1); }",
         "thread_block_tile::match_any is not supported"},
        {CG "cg::tiled_partition<1024>(cg::this_thread_block()); }",
         "supports thread_block_tile sizes 1, 2, 4, ..., 512"},
        {CG "auto t = cg::tiled_partition<64>(cg::this_thread_block()); t.shfl(1, 0); }",
         "thread_block_tile::shfl on a tile of more than 32 threads is not supported"},
        {CG "auto t = cg::tiled_partition<128>(cg::this_thread_block()); t.ballot(1); }",
         "thread_block_tile::ballot on a tile of more than 32 threads is not supported"},
        {"#include <cooperative_groups.h>\n#include <cooperative_groups/scan.h>\n"
         "namespace cg = cooperative_groups;\n__global__ void k() { "
         "cg::inclusive_scan(cg::tiled_partition<64>(cg::this_thread_block()), 1); }",
         "cg::inclusive_scan on the simt emulator takes a thread_block_tile of 1 to 32 threads"},
        {CG "cg::reduce(cg::this_thread_block(), 1, cg::plus<int>()); }",
         "cg::reduce on the simt emulator takes a thread_block_tile (of 1 to 512 threads)"},
        {CG "cg::this_cluster(); }", "cooperative_groups::this_cluster (thread block clusters)"},
        {"#include <cooperative_groups.h>\nusing namespace cooperative_groups;\n"
         "__global__ void k() { (void)sizeof(cluster_group); }",
         "cooperative_groups::cluster_group (thread block clusters) is not supported"},
        {CG "cg::memcpy_async(cg::this_thread_block(), (int*)0, (int*)0, 4); }",
         "cooperative_groups::memcpy_async is not supported"},
        {CG "cg::invoke_one(cg::this_thread_block(), [] {}); }",
         "cooperative_groups::invoke_one is not supported"},
        {CG "auto t = cg::tiled_partition<16>(cg::this_thread_block()); "
            "cg::tiled_partition<16>(t); }",
         "tiled_partition<N>(tile) needs N smaller than the tile's size"},
    };
    for (const auto& [source, message] : cases) {
        SUBCASE(source.c_str()) {
            std::string log;
            CHECK(compile_rewritten("unsupported", source, flags, &log) != 0);
            CAPTURE(log);
            CHECK(log.find(message) != std::string::npos);
            CHECK(log.find("/usr/local/include") == std::string::npos); // no toolkit header
        }
    }
}
#undef CG
#endif

#endif
