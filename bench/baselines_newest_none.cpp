// A build without the newest CUB (SCANLAB_NEWEST_CCCL unset: scripts/newest-cccl.sh fetches it):
// the tables then compare with the toolkit's CUB alone, and say so.
#include "bench.h"

namespace scanlab::bench {

std::string newest_cub_version() {
    return {};
}
std::string newest_cub_algorithm(int) {
    return {};
}

} // namespace scanlab::bench
