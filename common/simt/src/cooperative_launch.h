// Cooperative launches (cudaLaunchCooperativeKernel): what run_launch needs to know. Internal to
// the runtime.
#pragma once

#include "simt/launch.h"

namespace simt::detail {

// Whether the launch being made came from cudaLaunchCooperativeKernel (asked once per launch).
bool take_cooperative_request();
// How many blocks of this launch's shape a GPU with the emulated device's multiprocessors could
// hold at once (the occupancy rules of cudaOccupancyMaxActiveBlocksPerMultiprocessor, which the
// engine's window of resident blocks follows too): the largest cooperative grid.
unsigned co_resident_blocks(const LaunchRequest& r);

// The arrival counter of this_grid().sync() for the duration of one cooperative launch: device
// memory, zeroed, that grid_barrier_word() returns while it lives.
class GridBarrier {
  public:
    explicit GridBarrier(bool cooperative);
    ~GridBarrier();
    GridBarrier(const GridBarrier&) = delete;
    GridBarrier& operator=(const GridBarrier&) = delete;

  private:
    unsigned* word_ = nullptr;
};

} // namespace simt::detail
