// The list that each lab's entry file adds itself to (RegisterLab), shared by the runner, the
// tracer and the replayer.
#include "lab_entry.h"

namespace scanlab::run {

std::vector<LabEntry>& lab_entries() {
    static std::vector<LabEntry> entries;
    return entries;
}

} // namespace scanlab::run
