// The tracer's `expected` section (docs/trace-format.md): the host reference scan (or sort) of the
// recorded call's input, registered with the emulator before the call, so that the viewer can mark
// the elements a kernel got wrong; and, for look-back scans, what each recorded tile should get.
#pragma once

#include <scanlab/trace/trace.h>

#include <vector>

#include "record.h"

namespace scanlab::run {

/// What the tracer registers before a call and completes after it (the scan is Sum<int>, as
/// every traced scan's is; a sort's reference is the sorted keys).
class ExpectedScan {
  public:
    /// Registers the reference output of `input` for its output buffer (simt::trace_expected).
    void register_output(const RecordedInput& input);
    /// Keeps `expected` only in the last trace that carries it: a scan of several launches is
    /// complete after its last one (earlier ones write partial results). Adds the expected
    /// prefix of each tile whose block's stores into the output were recorded.
    void complete(std::vector<trace::Trace>& traces) const;

  private:
    std::vector<int> inclusive_; // the inclusive scan of the input (not segmented)
    bool segmented_ = false;
    bool sorted_ = false; // a sort (lab 09): its tiles' descriptors count keys, not prefixes
};

} // namespace scanlab::run
