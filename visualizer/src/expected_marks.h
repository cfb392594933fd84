#pragma once

// Where a trace's results differ from its expected values (trace format 3, `expected`): the
// stores that left a wrong final value in an element, for the array view's marks, and the
// sentence the top bar and the pictures show.

#include <cstdint>
#include <set>
#include <string>
#include <tuple>

#include "scanlab/trace/expected_check.h"
#include "scanlab/trace/trace.h"

namespace scanlab::view {

class ExpectedMarks {
  public:
    ExpectedMarks() = default;
    explicit ExpectedMarks(const trace::Trace& trace);

    bool has_expected() const { return has_expected_; }
    const trace::ExpectedCheck& check() const { return check_; }
    // Whether lane `lane` (a position in its lanes) of instruction `instruction` left the wrong
    // final value in `element` (in elements of the expected type) of its object.
    bool wrong(std::uint64_t instruction, std::uint32_t lane, std::uint64_t element) const;
    // "37 of 512 elements differ from the host reference scan ...; first: out[256] = 9, expected
    // 7", "the 512 elements ... match ...", or "" without expected values.
    std::string summary(const trace::Trace& trace) const;

  private:
    bool has_expected_ = false;
    trace::ExpectedCheck check_;
    std::set<std::tuple<std::uint64_t, std::uint32_t, std::uint64_t>> wrong_;
};

} // namespace scanlab::view
