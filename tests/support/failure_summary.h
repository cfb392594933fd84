// The run's closing summary. A mistake makes dozens of test cases fail alike, each with its
// report, so the first case's report, which names the cause, ends up hundreds of lines above the
// end of the output. The summary (test_main.cpp prints it last) says in a few lines: how many
// cases failed; the emulator's first report, with its source line and the hint for it; the first
// wrong result, with its index, expected and actual values and hint; and how many cases failed
// the same way. The failure reports and the hints feed it (note_* below); a doctest listener
// counts the failed cases and keeps the first message of those that fed it nothing.
#pragma once

#include <string>
#include <string_view>

namespace scanlab::test {

/// --verbose (test_main.cpp takes it out of argv): every failing case prints its whole report.
/// Without it, a case that fails the way an earlier case did says so in a few lines and names
/// that case (whose report is whole).
bool verbose_failures();
void set_verbose_failures(bool verbose);

/// The test case that first gave `hint` in full, if it is not the running one and the run is
/// not verbose; else "" (and the running case is remembered as the one that gives it).
std::string earlier_case_with(const std::string& hint);

/// What the running test case's failure showed: the checker's line with the first wrong index,
/// expected and actual values ("first wrong output at index ..."), a hint it gave, a kernel
/// fault (the emulator's kind, source line and first line of its report).
void note_wrong_result(const std::string& problem);
void note_hint(const std::string& hint);
void note_fault(const std::string& kind, const std::string& site, const std::string& headline);

/// The summary's lines (no trailing newline), or "" when no test case failed.
std::string failure_summary(std::string_view seed_line);

} // namespace scanlab::test
