// libFuzzer target for the trace reader: any input must either read as a valid trace or throw
// TraceError; never crash, leak, hang or hit undefined behaviour (built with ASan and UBSan).
// A trace that reads must also write, read back equal, and export. Run it with
// tests/fuzz/run_trace_fuzz.sh SECONDS.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string_view>

#include "scanlab/trace/analysis.h"
#include "scanlab/trace/chrome_export.h"
#include "scanlab/trace/error.h"
#include "scanlab/trace/reader.h"
#include "scanlab/trace/writer.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace scanlab::trace;
    // Small limits keep each input fast; the limit checks themselves are under test too.
    Limits limits;
    limits.max_document_bytes = 1 << 20;
    limits.max_instructions = 4096;
    limits.max_lanes = 1 << 16;
    limits.max_object_bytes = 1 << 20;
    Trace trace;
    try {
        trace =
            read_trace_text(std::string_view(reinterpret_cast<const char*>(data), size), limits);
    } catch (const TraceError&) {
        return 0; // refused, as it should be
    }
    // Accepted: the rest must work without exceptions.
    std::ostringstream written;
    write_trace(trace, written, limits);
    const Trace again = read_trace_text(written.str(), limits);
    if (!(again == trace)) std::abort(); // a trace must survive write -> read
    std::ostringstream rewritten;
    write_trace(again, rewritten, limits);
    if (rewritten.str() != written.str()) std::abort(); // writing must be deterministic
    static_cast<void>(analyze_trace(trace));
    std::ostringstream chrome;
    export_chrome_trace(trace, chrome, limits);
    return 0;
}
