// The emulated device serves one host thread at a time. A launch holds it while its grid runs,
// and each runtime call that reads or changes the device's state (its memory, the error state,
// streams, events) holds it for the call: a second host thread's launch or call waits until the
// first is done, as work from several host threads queues on one GPU. Recursive, because a call
// may make another (a stream callback that copies memory, a launch through cudaLaunchKernel).
#pragma once

#include <mutex>

namespace simt::detail {

inline std::recursive_mutex& device_mutex() {
    static std::recursive_mutex mutex;
    return mutex;
}

class DeviceLock {
  public:
    DeviceLock() : lock_(device_mutex()) {}

  private:
    std::lock_guard<std::recursive_mutex> lock_;
};

} // namespace simt::detail
