// Rewriting a .cu together with the headers it includes with `#include "name"`. CUDA code keeps
// kernels, __shared__ declarations and device loops in .cuh headers as often as in the .cu; the
// rewriter has to see them too. A header found relative to the directory of the file that
// includes it (where the compiler looks first for a quoted include) is rewritten into a copy
// under the copy directory, recursively, and the include is pointed at the copy. Each copy starts
// with `#line 1 "<original path>"`, so diagnostics, __FILE__ and the emulator's reports name the
// original. Headers reached with <...>, or found only through -I, are left as they are.
#pragma once

#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace simt::rewrite {

// A problem in the input or in one of its headers, already formatted as the compiler would
// ("In file included from a.cu:3:" lines, then "x.cuh:5:3: error: ...").
class RewriteFailure : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

class HeaderCopies {
  public:
    // include_dirs: the -I directories, searched (in order) after the includer's own directory
    // for #include "name", and alone for #include <name>. A header found there is rewritten
    // only if it has something to rewrite for the emulator (header_copies.cpp).
    explicit HeaderCopies(std::filesystem::path copy_dir,
                          std::vector<std::filesystem::path> include_dirs = {});

    // The rewritten text of `input`, whose #line names `display_name`. Writes the copies of its
    // headers (a copy is only rewritten when its text changed). Throws RewriteFailure.
    std::string rewrite(const std::filesystem::path& input, const std::string& display_name);

    // The files read: the input, then every header followed (for a depfile).
    const std::vector<std::filesystem::path>& inputs() const { return inputs_; }

  private:
    struct Includer {
        std::string display_name;
        int line;
    };
    std::string rewrite_file(const std::filesystem::path& file, const std::string& display_name,
                             std::vector<Includer>& chain);
    std::filesystem::path copy_path(const std::filesystem::path& original) const;

    std::filesystem::path copy_dir_;
    std::vector<std::filesystem::path> include_dirs_;
    std::map<std::filesystem::path, std::filesystem::path> copies_; // original -> its copy
    std::vector<std::filesystem::path> inputs_;
};

// Writes `text` to `path` through a temporary file and a rename, so that an interrupted build
// never leaves half a file; leaves the file untouched when it already holds `text`.
void write_if_changed(const std::filesystem::path& path, std::string_view text);

} // namespace simt::rewrite
