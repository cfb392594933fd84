// Recorded launches across the two programs, for programs built without the emulator's trace
// recorder (simt_core: labs whose tests never record a launch): remote_tracing.h.
#include "remote_tracing.h"

#include <stdexcept>

namespace scanlab::remote {

void ask_for_traces(Request&) {}

void adopt_traces(const Response& response) {
    if (!response.traces.empty())
        throw std::runtime_error("the worker sent traces that no one asked for");
}

void start_call_tracing(const Request& request) {
    if (request.tracing)
        throw std::runtime_error("this worker was built without trace recording (simt_core), "
                                 "but the call asks it to record its launches");
}

void finish_call_tracing(const Request&, Response&) {}

} // namespace scanlab::remote
