// The state of one mbarrier, as PTX defines it (ISA 8.x, "Parallel Synchronization and
// Communication Instructions: mbarrier"), and what can go wrong with it, for the emulator's
// model of Hopper's bulk asynchronous copies (lab 08). Internal to the runtime: the engine's
// side (cuda::ptx, ordering, copies in flight) is mbarrier_runtime.h; tested on its own
// (tests/emulator/mbarrier_model_test.cpp).
//
// A phase completes when its expected number of arrivals has come AND its transaction count
// (bytes announced by expect_tx, minus bytes delivered by complete_tx, which copies perform
// when their bytes have landed) is zero; the next phase then expects the same arrivals again.
// A waiter names the phase it waits for by its parity: test_wait_parity(p) is true while the
// current (incomplete) phase's parity is not p, i.e. once "the phase with parity p" completed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

namespace simt::detail {

class Mbarrier {
  public:
    /// mbarrier.init with `expected` arrivals per phase (PTX: 1 to 2^20 - 1). `name` says which
    /// barrier in reports ("full[2] of 'ring' at scan.cu:40").
    Mbarrier(std::uint32_t expected, std::string name);

    /// What went wrong, for the report; empty when the operation was valid.
    using Finding = std::optional<std::string>;

    /// mbarrier.arrive (count arrivals). More arrivals than the phase still expects is a finding.
    Finding arrive(std::uint32_t count = 1);
    /// mbarrier.expect_tx: the phase waits for `bytes` more.
    void expect_tx(std::uint32_t bytes);
    /// A bulk copy's bytes landed (complete_tx on the barrier it names).
    void complete_tx(std::uint32_t bytes);

    /// mbarrier.test_wait.parity / try_wait.parity by `waiter` (a thread id): true once the phase
    /// with parity `parity` has completed; before any phase has, a wait for parity 1 passes (the
    /// phase before the first counts as completed, as PTX says). `finding` gets a report when the
    /// wait passes for a phase this waiter already waited for (it kept its parity after its last
    /// wait instead of flipping it).
    bool test_wait_parity(unsigned parity, std::uint32_t waiter, Finding& finding);

    /// Why the current phase cannot complete when nothing else can happen (no thread runs, no
    /// copy is in flight), for the deadlock report: the arrivals still missing, or the bytes
    /// announced against the bytes delivered. Empty if it is simply incomplete with arrivals due.
    std::string stuck_reason() const;

    std::uint64_t completed_phases() const { return completed_; }
    const std::string& name() const { return name_; }

  private:
    void complete_if_done();

    std::uint32_t expected_;
    std::uint32_t pending_;       // arrivals the current phase still expects
    std::int64_t announced_ = 0;  // bytes the current phase expects (expect_tx)
    std::int64_t delivered_ = 0;  // bytes delivered to it (complete_tx)
    std::uint64_t completed_ = 0; // phases completed; the current phase is number completed_
    std::string name_;
    // Per waiter, the number of the last phase it waited for and saw complete (+1; 0: none).
    std::unordered_map<std::uint32_t, std::uint64_t> consumed_;
};

} // namespace simt::detail
