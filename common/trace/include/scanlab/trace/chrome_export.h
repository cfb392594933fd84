#pragma once

#include <ostream>

#include "scanlab/trace/limits.h"
#include "scanlab/trace/trace.h"

namespace scanlab::trace {

// The block schedule in the Chrome trace-event format (opens in Perfetto and chrome://tracing):
// one track per resident slot (per block when slots were not recorded), each block's run from
// start to end as a complete event, tile flag changes as instant events. One scheduler tick is
// shown as one microsecond. Validates the trace first (TraceError).
void export_chrome_trace(const Trace& trace, std::ostream& out, const Limits& limits = {});

} // namespace scanlab::trace
