#include "failure_summary.h"

#include <doctest/doctest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "scan_test_support.h"

namespace scanlab::test {
namespace {

bool& verbose_flag() {
    static bool verbose = false;
    return verbose;
}

// What one failed test case showed, as the reports and hints noted it.
struct CaseFailure {
    std::string name;
    std::string problem;            // the checker's "first wrong output at index ..." line
    std::vector<std::string> hints; // in the order given
    std::string fault_kind, fault_site, fault_headline;
    std::string first_message; // doctest's first failure message, for cases noted nothing
    bool failed = false;

    // Cases that failed alike: the same fault (kind and line; the hints name each case's size),
    // else the same hints, else the same message.
    std::string way() const {
        if (!fault_kind.empty()) return fault_kind + " at " + fault_site;
        std::string key;
        for (const std::string& hint : hints) key += hint + "\n";
        return key.empty() ? first_message : key;
    }
};

struct Run {
    std::vector<CaseFailure> cases; // every case that started, in order
    int run = 0;
    std::map<std::string, std::string> hint_givers; // hint -> the case that gave it in full
};

Run& run_record() {
    static Run record;
    return record;
}

CaseFailure* running() {
    Run& record = run_record();
    if (record.cases.empty()) return nullptr;
    return &record.cases.back();
}

std::string first_line(const std::string& text) {
    std::string line = text.substr(0, text.find('\n'));
    const std::size_t start = line.find_first_not_of(' ');
    return start == std::string::npos ? "" : line.substr(start);
}

std::string clipped(const std::string& text, std::size_t width) {
    return text.size() <= width ? text : text.substr(0, width - 3) + "...";
}

class FailureSummaryListener : public doctest::IReporter {
  public:
    explicit FailureSummaryListener(const doctest::ContextOptions&) {}

    void test_case_start(const doctest::TestCaseData& data) override {
        Run& record = run_record();
        record.cases.push_back({});
        record.cases.back().name = data.m_name;
        ++record.run;
    }
    void test_case_end(const doctest::CurrentTestCaseStats& stats) override {
        if (CaseFailure* now = running()) now->failed = !stats.testCaseSuccess;
    }
    void test_case_exception(const doctest::TestCaseException& exception) override {
        keep(std::string(exception.is_crash ? "crashed: " : "uncaught exception: ") +
             exception.error_string.c_str());
    }
    void log_assert(const doctest::AssertData& data) override {
        if (!data.m_failed) return;
        std::ostringstream text;
        for (int i = 0; i < get_num_active_contexts(); ++i)
            get_active_contexts()[i]->stringify(&text);
        const std::string context = text.str();
        keep(context.empty() ? std::string(data.m_expr) + " is false" : context);
    }
    void log_message(const doctest::MessageData& data) override {
        if (data.m_severity & doctest::assertType::is_warn) return;
        keep(data.m_string.c_str());
    }

    void report_query(const doctest::QueryData&) override {}
    void test_run_start() override {}
    void test_run_end(const doctest::TestRunStats&) override {}
    void test_case_reenter(const doctest::TestCaseData&) override {}
    void subcase_start(const doctest::SubcaseSignature&) override {}
    void subcase_end() override {}
    void test_case_skipped(const doctest::TestCaseData&) override {}

  private:
    static void keep(const std::string& message) {
        CaseFailure* now = running();
        if (now != nullptr && now->first_message.empty()) now->first_message = message;
    }
};

REGISTER_LISTENER("scanlab_failure_summary", 2, FailureSummaryListener);

} // namespace

bool verbose_failures() {
    return verbose_flag();
}

void set_verbose_failures(bool verbose) {
    verbose_flag() = verbose;
}

std::string earlier_case_with(const std::string& hint) {
    const std::string now = current_test_case();
    const auto [it, fresh] = run_record().hint_givers.try_emplace(hint, now);
    if (fresh || it->second == now || verbose_flag()) return "";
    return it->second;
}

void note_wrong_result(const std::string& problem) {
    if (CaseFailure* now = running(); now != nullptr && now->problem.empty())
        now->problem = problem;
}

void note_hint(const std::string& hint) {
    if (CaseFailure* now = running(); now != nullptr && !hint.empty()) now->hints.push_back(hint);
}

void note_fault(const std::string& kind, const std::string& site, const std::string& headline) {
    CaseFailure* now = running();
    if (now == nullptr || !now->fault_kind.empty() || kind.empty()) return;
    now->fault_kind = kind;
    now->fault_site = site;
    now->fault_headline = headline;
}

std::string failure_summary(std::string_view seed_line) {
    const Run& record = run_record();
    std::vector<const CaseFailure*> failed;
    for (const CaseFailure& c : record.cases)
        if (c.failed) failed.push_back(&c);
    if (failed.empty()) return "";

    constexpr std::size_t kWidth = 300; // a line of the summary at most
    std::vector<std::string> out;
    out.push_back("==== scanlab: summary (" + std::to_string(failed.size()) + " of " +
                  std::to_string(record.run) +
                  " test cases failed; the first ones' reports "
                  "are above" +
                  (verbose_flag() ? "" : ", every case's in full with --verbose") + ") ====");
    auto hints_of = [&](const CaseFailure& c) {
        for (const std::string& hint : c.hints) out.push_back("  hint: " + clipped(hint, kWidth));
    };
    const CaseFailure* fault = nullptr;
    const CaseFailure* wrong = nullptr;
    for (const CaseFailure* c : failed) {
        if (fault == nullptr && !c->fault_kind.empty()) fault = c;
        if (wrong == nullptr && !c->problem.empty()) wrong = c;
    }
    if (fault != nullptr) {
        out.push_back("the emulator's first report, in test case \"" + fault->name +
                      "\": " + fault->fault_kind +
                      (fault->fault_site.empty() ? "" : " at " + fault->fault_site));
        if (!fault->fault_headline.empty())
            out.push_back("  " + clipped(fault->fault_headline, kWidth));
        hints_of(*fault);
    }
    if (wrong != nullptr) {
        out.push_back("the first wrong result, in test case \"" + wrong->name + "\":");
        out.push_back("  " + clipped(wrong->problem, kWidth));
        hints_of(*wrong);
    }
    // How many failed each way, the ways in the order first seen.
    std::vector<std::pair<std::string, std::vector<const CaseFailure*>>> ways;
    for (const CaseFailure* c : failed) {
        const std::string way = c->way();
        auto it = ways.begin();
        while (it != ways.end() && it->first != way) ++it;
        if (it == ways.end())
            ways.push_back({way, {c}});
        else
            it->second.push_back(c);
    }
    constexpr std::size_t kWaysShown = 6;
    for (std::size_t w = 0; w < ways.size() && w < kWaysShown; ++w) {
        const auto& [way, cases] = ways[w];
        const CaseFailure& c = *cases.front();
        const bool shown = &c == fault || &c == wrong;
        std::string line =
            std::to_string(cases.size()) + " test case(s) failed " +
            (shown ? "the way of \"" + c.name + "\" above"
                   : "like \"" + c.name + "\": " +
                         clipped(first_line(c.problem.empty() ? c.first_message : c.problem), 160));
        out.push_back(line);
    }
    if (ways.size() > kWaysShown)
        out.push_back("and " + std::to_string(ways.size() - kWaysShown) +
                      " more way(s) of failing (see above)");
    out.push_back(std::string(seed_line));
    std::string text;
    for (const std::string& line : out) text += (text.empty() ? "" : "\n") + line;
    return text;
}

} // namespace scanlab::test
