// Recorded launches across the two programs, for programs that link the emulator's trace
// recorder (simt_runtime): remote_tracing.h.
#include "remote_tracing.h"

#include <simt/trace.h>

#include <scanlab/trace/reader.h>
#include <scanlab/trace/writer.h>

#include <sstream>
#include <utility>

#include "trace_session.h" // the settings in force (common/simt/src)

namespace scanlab::remote {

void ask_for_traces(Request& request) {
    const simt::detail::TraceSession& session = simt::detail::trace_session();
    if (!session.active) return;
    request.tracing = true;
    request.trace_blocks.assign(session.settings.blocks.begin(), session.settings.blocks.end());
    request.trace_max_instructions = session.settings.max_instructions;
}

void adopt_traces(const Response& response) {
    std::vector<scanlab::trace::Trace> traces;
    for (const std::string& document : response.traces)
        traces.push_back(scanlab::trace::read_trace_text(document));
    // Only once all were read: a malformed one adopts none.
    for (scanlab::trace::Trace& trace : traces)
        simt::detail::trace_session().finished(std::move(trace));
}

void start_call_tracing(const Request& request) {
    if (!request.tracing) return;
    simt::start_tracing({.blocks = {request.trace_blocks.begin(), request.trace_blocks.end()},
                         .max_instructions = request.trace_max_instructions});
}

void finish_call_tracing(const Request& request, Response& response) {
    if (!request.tracing) return;
    for (const scanlab::trace::Trace& trace : simt::stop_tracing()) {
        std::ostringstream document;
        scanlab::trace::write_trace(trace, document);
        response.traces.push_back(document.str());
    }
}

} // namespace scanlab::remote
