// Recorded launches across the two programs (README.md): a lab whose tests record the launches
// of a call (simt::start_tracing, lab 03's bank conflict tests) gets the worker to record them
// with the same settings, and the harness takes the traces back as its own. Programs built
// without trace recording (simt_core) link remote_tracing_off.cpp instead of remote_tracing.cpp.
#pragma once

#include "remote_call.h"

namespace scanlab::remote {

/// Harness: if this process records launches now, asks the worker to record the call's.
void ask_for_traces(Request& request);
/// Harness: the traces the worker recorded join this process's (what stop_tracing() returns).
/// Each is read and checked like a trace file; a malformed one throws.
void adopt_traces(const Response& response);

/// Worker: records the call's launches when the request asks for it.
void start_call_tracing(const Request& request);
/// Worker: stops recording and puts the call's traces into the answer.
void finish_call_tracing(const Request& request, Response& response);

} // namespace scanlab::remote
