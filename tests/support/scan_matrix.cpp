// Registering the cases of the graded tests' matrix (scan_matrix.h).
#include "scan_matrix.h"

#include <string>

namespace scanlab::test::detail {

void add_case(const CaseSite& site, int place, void (*body)(), const char* prefix, const char* kind,
              const char* op, const char* type) {
    std::string name = std::string(prefix) + kind + " " + op;
    if (type != nullptr) name += std::string(" ") + type;
    doctest::detail::TestCase test(body, site.file, static_cast<unsigned>(site.line), site.suite,
                                   doctest::String(), place);
    // doctest appends "<type>" to the name of a case with a template id: the full name is set to
    // the bare name instead (doctest keeps the full name when it copies the case).
    test.m_full_name = name.c_str();
    test.m_name = test.m_full_name.c_str();
    doctest::detail::regTest(test);
}

} // namespace scanlab::test::detail
