// Programmatic dependent launch (simt/programmatic_launch.h): the launch configuration's
// attributes, and the device calls. The ordering itself is the global-memory checker's
// (GlobalMemoryChecker::grid_dependency_synchronized).
#include "simt/programmatic_launch.h"

#include <string>

#include "engine.h"
#include "error_state.h"

namespace simt::detail {

namespace {
const char* attribute_name(cudaLaunchAttributeID id) {
    switch (id) {
    case cudaLaunchAttributeIgnore:
        return "cudaLaunchAttributeIgnore";
    case cudaLaunchAttributeAccessPolicyWindow:
        return "cudaLaunchAttributeAccessPolicyWindow";
    case cudaLaunchAttributeCooperative:
        return "cudaLaunchAttributeCooperative";
    case cudaLaunchAttributeSynchronizationPolicy:
        return "cudaLaunchAttributeSynchronizationPolicy";
    case cudaLaunchAttributeClusterDimension:
        return "cudaLaunchAttributeClusterDimension";
    case cudaLaunchAttributeClusterSchedulingPolicyPreference:
        return "cudaLaunchAttributeClusterSchedulingPolicyPreference";
    case cudaLaunchAttributeProgrammaticStreamSerialization:
        return "cudaLaunchAttributeProgrammaticStreamSerialization";
    case cudaLaunchAttributeProgrammaticEvent:
        return "cudaLaunchAttributeProgrammaticEvent";
    case cudaLaunchAttributePriority:
        return "cudaLaunchAttributePriority";
    }
    return nullptr;
}
} // namespace

cudaError_t read_launch_config(const cudaLaunchConfig_t* config, bool& programmatic) {
    programmatic = false;
    if (!config)
        return api_error(cudaErrorInvalidValue, "cudaLaunchKernelEx",
                         "the launch configuration is a null pointer");
    if (config->numAttrs > 0 && !config->attrs)
        return api_error(cudaErrorInvalidValue, "cudaLaunchKernelEx",
                         "numAttrs is " + std::to_string(config->numAttrs) +
                             " but attrs is a null pointer");
    for (unsigned i = 0; i < config->numAttrs; ++i) {
        const cudaLaunchAttribute& a = config->attrs[i];
        switch (a.id) {
        case cudaLaunchAttributeIgnore:
        case cudaLaunchAttributePriority: // a scheduling hint: nothing to model
            break;
        case cudaLaunchAttributeProgrammaticStreamSerialization:
            programmatic = a.val.programmaticStreamSerializationAllowed != 0;
            break;
        default: {
            const char* name = attribute_name(a.id);
            const std::string what = name ? name : "with id " + std::to_string(a.id);
            return api_error(cudaErrorNotSupported, "cudaLaunchKernelEx",
                             "the launch attribute " + what +
                                 " is not supported by the simt emulator");
        }
        }
    }
    return cudaSuccess;
}

} // namespace simt::detail

void cudaGridDependencySynchronize() {
    simt::detail::engine_for("cudaGridDependencySynchronize")
        .grid_dependency_synchronize(__builtin_return_address(0));
}

void cudaTriggerProgrammaticLaunchCompletion() {
    // Launches run one after the other: the dependent kernel starts after this one ends anyway.
    (void)simt::detail::engine_for("cudaTriggerProgrammaticLaunchCompletion");
}
