#pragma once

// The fixture files in tests/trace/fixtures and the synthetic traces they are written from.

#include <array>

#include "synthetic_traces.h"

namespace scanlab::trace::testing {

struct Fixture {
    const char* file;
    Trace (*make)();
};

inline const std::array<Fixture, 3>& fixtures() {
    static const std::array<Fixture, 3> list{{
        {"hillis_steele_16.trace.json", [] { return hillis_steele_trace(16); }},
        {"bank_patterns.trace.json", bank_patterns_trace},
        {"lookback_4_blocks.trace.json", lookback_trace},
    }};
    return list;
}

} // namespace scanlab::trace::testing
