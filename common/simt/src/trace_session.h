// The recording state of the process: which launches to record and where the traces go.
#pragma once

#include <scanlab/trace/trace.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "simt/trace.h"

namespace simt::detail {

// What an allocation's elements should hold at the end (simt::trace_expected).
struct ExpectedArea {
    uintptr_t base = 0;
    size_t count = 0;
    int value_code = 0; // scanlab::trace::ValueType numbering, not none
    std::vector<unsigned char> bytes;
    std::string reference;
};

// What look-back tiles should get (simt::trace_expected_tiles).
struct ExpectedTiles {
    int value_code = 0;
    std::vector<unsigned char> prefixes, inclusives; // one value per tile each
    std::string reference;
};

struct TraceSession {
    bool active = false;
    bool environment_read = false;
    TraceSettings settings;
    std::vector<scanlab::trace::Trace> traces;
    std::string file_pattern; // SIMT_TRACE: write each launch's trace there instead
    int files_written = 0;
    std::vector<ExpectedArea> expected;
    std::optional<ExpectedTiles> expected_tiles;
    void finished(scanlab::trace::Trace&& trace);
};

TraceSession& trace_session();

} // namespace simt::detail
