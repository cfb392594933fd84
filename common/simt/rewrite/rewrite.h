// simt-rewrite: turns a CUDA C++ source into C++ that the host compiler accepts, for the simt
// emulator. Only what g++ cannot parse is rewritten (launches, __shared__, device symbols), plus a
// loop_tick() call at the head of each loop condition; every line keeps its number so
// diagnostics point at the student's own file.
#pragma once

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace simt::rewrite {

// A problem in the input, at a 1-based line and column (columns as gcc counts them).
class RewriteError : public std::runtime_error {
  public:
    RewriteError(int line, int col, std::string message);
    int line() const { return line_; }
    int col() const { return col_; }
    const std::string& message() const { return message_; }

  private:
    int line_;
    int col_;
    std::string message_;
};

// Asked for each `#include "name"` and `#include <name>` (outside `#if 0`) with the name as
// written, whether it was <angled>, and the line of the directive: the path of a rewritten copy
// of that header to include instead, or nothing to leave the line as it is (header_copies.h
// builds one that follows the student's headers).
using IncludeRedirect =
    std::function<std::optional<std::string>(std::string_view name, bool angled, int line)>;

// The whole transform: `#line 1 "<display_name>"` followed by the rewritten text.
// Throws RewriteError for constructs the emulator cannot run.
std::string rewrite_source(std::string_view text, std::string_view display_name,
                           const IncludeRedirect& redirect = {});

// "file:line:col: error: message", the format editors and IDEs jump from.
std::string format_error(const RewriteError& error, std::string_view file);

} // namespace simt::rewrite
