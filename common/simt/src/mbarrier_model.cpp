#include "mbarrier_model.h"

#include <utility>

namespace simt::detail {

Mbarrier::Mbarrier(std::uint32_t expected, std::string name)
    : expected_(expected), pending_(expected), name_(std::move(name)) {}

void Mbarrier::complete_if_done() {
    if (pending_ != 0 || announced_ != delivered_) return;
    ++completed_;
    pending_ = expected_;
    announced_ = 0;
    delivered_ = 0;
}

Mbarrier::Finding Mbarrier::arrive(std::uint32_t count) {
    if (count > pending_) {
        Finding finding = name_ + ": " + std::to_string(count) + " arrival" +
                          (count == 1 ? "" : "s") + " in phase " + std::to_string(completed_) +
                          ", which expects " + std::to_string(expected_) + " and has had " +
                          std::to_string(expected_ - pending_) +
                          " already: more threads arrive than the barrier was initialized for";
        pending_ = 0;
        complete_if_done();
        return finding;
    }
    pending_ -= count;
    complete_if_done();
    return std::nullopt;
}

void Mbarrier::expect_tx(std::uint32_t bytes) {
    announced_ += bytes;
}

void Mbarrier::complete_tx(std::uint32_t bytes) {
    delivered_ += bytes;
    complete_if_done();
}

bool Mbarrier::test_wait_parity(unsigned parity, std::uint32_t waiter, Finding& finding) {
    finding.reset();
    const unsigned current = static_cast<unsigned>(completed_ & 1);
    if ((parity & 1) == current) return false; // the phase with this parity is the current one
    // No phase has completed: a wait for parity 1 passes at once, for the phase "before" the first.
    // PTX defines it so, and a producer's first wait on its ring's empty barriers relies on it.
    if (completed_ == 0) return true;
    // The phase waited for: the last completed one, number completed_ - 1.
    const std::uint64_t phase = completed_ - 1;
    std::uint64_t& last = consumed_[waiter];
    if (last == phase + 1) {
        finding = name_ + ": a wait for parity " + std::to_string(parity & 1) +
                  " passes at once for phase " + std::to_string(phase) +
                  ", which this thread has already waited for; phase " +
                  std::to_string(completed_) +
                  " has the other parity: flip the parity after each completed wait";
    }
    last = phase + 1;
    return true;
}

std::string Mbarrier::stuck_reason() const {
    const std::string phase = name_ + ", phase " + std::to_string(completed_) + ": ";
    if (pending_ != 0)
        return phase + std::to_string(expected_ - pending_) + " of " + std::to_string(expected_) +
               " arrivals came";
    if (announced_ > delivered_)
        return phase + "every arrival came, but the copies delivered " +
               std::to_string(delivered_) + " of the " + std::to_string(announced_) +
               " bytes announced with expect_tx";
    return phase + "every arrival came, but the copies delivered " + std::to_string(delivered_) +
           " bytes, more than the " + std::to_string(announced_) + " announced with expect_tx";
}

} // namespace simt::detail
