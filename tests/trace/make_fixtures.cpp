// Writes the synthetic traces to tests/trace/fixtures (the viewer's and the tests' fixtures):
//   trace_make_fixtures DIR        writes DIR/<name>.trace.json for each fixture
//   trace_make_fixtures --example  prints the example of docs/trace-format.md
// trace.unit checks that the committed files still equal this program's output.

#include <cstring>
#include <exception>
#include <filesystem>
#include <iostream>

#include "fixture_list.h"
#include "scanlab/trace/writer.h"
#include "synthetic_traces.h"

int main(int argc, char** argv) {
    using namespace scanlab::trace;
    if (argc != 2) {
        std::cerr << "usage: trace_make_fixtures DIR | --example\n";
        return 2;
    }
    try {
        if (std::strcmp(argv[1], "--example") == 0) {
            write_trace(testing::minimal_trace(), std::cout);
            return 0;
        }
        const std::filesystem::path dir = argv[1];
        std::filesystem::create_directories(dir);
        for (const testing::Fixture& fixture : testing::fixtures()) {
            write_trace_file(fixture.make(), dir / fixture.file);
            std::cout << (dir / fixture.file).string() << '\n';
        }
    } catch (const std::exception& error) {
        std::cerr << "trace_make_fixtures: " << error.what() << '\n';
        return 1;
    }
    return 0;
}
