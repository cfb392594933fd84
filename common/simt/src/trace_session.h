// The recording state of the process: which launches to record and where the traces go.
#pragma once

#include <scanlab/trace/trace.h>

#include <string>
#include <vector>

#include "simt/trace.h"

namespace simt::detail {

struct TraceSession {
    bool active = false;
    bool environment_read = false;
    TraceSettings settings;
    std::vector<scanlab::trace::Trace> traces;
    std::string file_pattern; // SIMT_TRACE: write each launch's trace there instead
    int files_written = 0;
    void finished(scanlab::trace::Trace&& trace);
};

TraceSession& trace_session();

} // namespace simt::detail
