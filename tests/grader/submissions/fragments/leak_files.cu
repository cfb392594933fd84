#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

namespace {

void show(const std::string& path) {
    std::ifstream in(path);
    if (!in) {
        std::printf("LEAK-ATTEMPT: cannot open %s\n", path.c_str());
        return;
    }
    std::cout << std::string(std::istreambuf_iterator<char>(in), {}) << std::flush;
}

void tamper(const std::string& path) {
    std::ofstream out(path, std::ios::app);
    if (!out) std::printf("LEAK-ATTEMPT: cannot write %s\n", path.c_str());
    out << "\n// LEAK-ATTEMPT was here\n";
}

const bool leaked = [] {
    const std::string repo = "@REPO@";
    show(repo + "/grading/hidden/lab01_naive_hidden_test.cpp");
    show(repo + "/solutions/02_work_efficient/work_efficient_scan.cu");
    tamper(repo + "/tests/labs/lab01_naive_test.cpp");
    tamper(repo + "/grading/rubric.toml");
    std::fflush(stdout);
    std::atexit([] { std::abort(); });
    return true;
}();

} // namespace
