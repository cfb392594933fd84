// simt_core's launches are never recorded: it has no trace recorder (launch_recorder.h). A trace
// asked for through the environment is refused loudly instead of silently not written.
#include <cstdlib>

#include "launch_recorder.h"

namespace simt::detail {

RecordingStart start_recording(const LaunchRequest&, Options&) {
    const char* path = std::getenv("SIMT_TRACE");
    if (path && *path)
        return {nullptr, "SIMT_TRACE is set, but this program was built without the emulator's "
                         "trace recording (it links simt_core, not simt_runtime); record a lab's "
                         "kernel with ./scanlab trace NN instead"};
    return {};
}

} // namespace simt::detail
