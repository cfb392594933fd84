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
    struct TileStatus {
        uintptr_t base = 0;
        size_t tiles = 0;
        TileStatusLayout layout = TileStatusLayout::packed64;
        int value_code = 0;
        // Bytes per tile's descriptor.
        size_t stride() const {
            return layout == TileStatusLayout::flags32    ? 4
                   : layout == TileStatusLayout::packed64 ? 8
                                                          : 16;
        }
        size_t bytes() const { return tiles * stride(); }
    };
    std::vector<TileStatus> tile_status;
    void finished(scanlab::trace::Trace&& trace);
};

TraceSession& trace_session();

} // namespace simt::detail
