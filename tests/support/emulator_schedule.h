// The emulator's schedules that the look-back labs' tests run under (labs 07 and 09): its mode
// (independent thread scheduling or lockstep) and its block dispatch order (in order or
// shuffled). On a GPU the scope does nothing: the hardware picks the schedule.
#pragma once

#include <cstdint>

#ifdef SCANLAB_BACKEND_SIMT
#include "simt/options.h"
#endif

namespace scanlab::test {

struct Schedule {
    const char* name;
    bool lockstep;
    bool shuffled;
};

inline constexpr Schedule kSchedules[] = {
    {"its, blocks in order", false, false},
    {"its, blocks shuffled", false, true},
    {"lockstep, blocks in order", true, false},
    {"lockstep, blocks shuffled", true, true},
};

/// Sets the emulator's mode, dispatch order and seed for its lifetime (simt backend only), and
/// restores every emulator option when it ends.
class ScheduleScope {
  public:
    ScheduleScope(const Schedule& schedule, std::uint64_t seed) {
#ifdef SCANLAB_BACKEND_SIMT
        simt::options().mode = schedule.lockstep ? simt::Mode::lockstep : simt::Mode::its;
        simt::options().dispatch =
            schedule.shuffled ? simt::Dispatch::shuffled : simt::Dispatch::in_order;
        simt::options().seed = seed;
#else
        (void)schedule;
        (void)seed;
#endif
    }
    ~ScheduleScope() {
#ifdef SCANLAB_BACKEND_SIMT
        simt::options() = saved_;
#endif
    }
    ScheduleScope(const ScheduleScope&) = delete;
    ScheduleScope& operator=(const ScheduleScope&) = delete;

  private:
#ifdef SCANLAB_BACKEND_SIMT
    simt::Options saved_ = simt::options();
#endif
};

} // namespace scanlab::test
