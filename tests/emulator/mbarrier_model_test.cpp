// The emulator's model of an mbarrier (common/simt/src/mbarrier_model.h): phases complete on
// arrivals and transaction bytes, waits by parity, and the findings for the mistakes that lab
// 08's pipeline invites (more arrivals than initialized, the wrong parity, bytes that do not
// match what expect_tx announced).
#include "../../common/simt/src/mbarrier_model.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

using simt::detail::Mbarrier;

namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// Waits by `waiter` for the phase of `parity`; CHECKs that it raised no finding.
bool clean_wait(Mbarrier& barrier, unsigned parity, std::uint32_t waiter) {
    Mbarrier::Finding finding;
    const bool passed = barrier.test_wait_parity(parity, waiter, finding);
    CHECK_MESSAGE(!finding, *finding);
    return passed;
}

} // namespace

TEST_CASE("a phase completes on its arrivals and its bytes, in any order") {
    std::mt19937 random(std::random_device{}());
    enum Event { arrival, announcement, delivery };
    for (int trial = 0; trial < 500; ++trial) {
        const int arrivals = 1 + static_cast<int>(random() % 64);
        const int copies = static_cast<int>(random() % 4);
        std::vector<std::uint32_t> sizes;
        for (int i = 0; i < copies; ++i) sizes.push_back(16 * (1 + random() % 512));
        std::vector<Event> events(static_cast<std::size_t>(arrivals), arrival);
        for (int i = 0; i < copies; ++i) {
            events.push_back(announcement);
            events.push_back(delivery);
        }
        std::shuffle(events.begin(), events.end(), random);
        // Bytes are announced by arriving threads (arrive.expect_tx): never after the last
        // arrival. Deliveries may come before their announcement (PTX allows it).
        const auto last_arrival = std::find(events.rbegin(), events.rend(), arrival).base() - 1;
        std::stable_partition(last_arrival, events.end(),
                              [](Event e) { return e == announcement; });

        Mbarrier barrier(static_cast<std::uint32_t>(arrivals), "full[0]");
        std::size_t announced = 0, delivered = 0;
        for (const Event event : events) {
            REQUIRE(barrier.completed_phases() == 0);
            CHECK_FALSE(clean_wait(barrier, 0, 1));
            if (event == arrival) CHECK_FALSE(barrier.arrive());
            if (event == announcement) barrier.expect_tx(sizes[announced++]);
            if (event == delivery) barrier.complete_tx(sizes[delivered++]);
        }
        CHECK(barrier.completed_phases() == 1);
        CHECK(clean_wait(barrier, 0, 1));
        CHECK_FALSE(clean_wait(barrier, 1, 1)); // phase 1 has begun, with the other parity
    }
}

TEST_CASE("waits flip their parity each phase: no finding") {
    Mbarrier barrier(2, "empty[1]");
    for (unsigned phase = 0; phase < 6; ++phase) {
        CHECK_FALSE(clean_wait(barrier, phase & 1, 7));
        CHECK_FALSE(barrier.arrive());
        CHECK_FALSE(clean_wait(barrier, phase & 1, 7));
        CHECK_FALSE(barrier.arrive());
        CHECK(clean_wait(barrier, phase & 1, 7));
    }
}

TEST_CASE("a first wait for parity 1 passes at once, with no finding (a producer's first wait)") {
    // PTX: the phase before the first counts as completed. A producer waiting on its ring's
    // `empty` barriers with parity 1 in its first round passes at once; that is correct code.
    Mbarrier barrier(1, "empty[3]");
    Mbarrier::Finding finding;
    CHECK(barrier.test_wait_parity(1, 0, finding));
    CHECK_FALSE(finding);
    CHECK_FALSE(barrier.test_wait_parity(0, 0, finding)); // phase 0 has not completed
    CHECK_FALSE(finding);
    CHECK_FALSE(barrier.arrive());
    CHECK(barrier.test_wait_parity(0, 0, finding));
    CHECK_FALSE(finding);
}

TEST_CASE("a wait that keeps its parity after a completed phase is the wrong parity") {
    Mbarrier barrier(1, "prefixed[0]");
    CHECK_FALSE(barrier.arrive());
    CHECK(clean_wait(barrier, 0, 5));
    // Thread 5 waits again with parity 0 for phase 1: passes at once, for phase 0 again.
    Mbarrier::Finding finding;
    CHECK(barrier.test_wait_parity(0, 5, finding));
    REQUIRE(finding);
    CHECK(contains(*finding, "prefixed[0]"));
    CHECK(contains(*finding, "phase 0, which this thread has already waited for"));
    // Another thread's first wait for phase 0 is fine.
    CHECK(clean_wait(barrier, 0, 6));
}

TEST_CASE("more arrivals than initialized are a finding") {
    Mbarrier barrier(4, "empty[2]");
    CHECK_FALSE(barrier.arrive(3));
    const Mbarrier::Finding finding = barrier.arrive(2);
    REQUIRE(finding);
    CHECK(contains(*finding, "empty[2]: 2 arrivals in phase 0, which expects 4 and has had 3"));
}

TEST_CASE("a phase stuck on bytes names the barrier and both counts") {
    SUBCASE("fewer bytes than announced") {
        Mbarrier barrier(1, "full[1]");
        barrier.expect_tx(8192);
        CHECK_FALSE(barrier.arrive());
        barrier.complete_tx(4096);
        CHECK(barrier.completed_phases() == 0);
        CHECK(barrier.stuck_reason() ==
              "full[1], phase 0: every arrival came, but the copies delivered 4096 of the 8192 "
              "bytes announced with expect_tx");
    }
    SUBCASE("more bytes than announced") {
        Mbarrier barrier(1, "full[0]");
        barrier.expect_tx(4096);
        CHECK_FALSE(barrier.arrive());
        barrier.complete_tx(8192);
        CHECK(barrier.completed_phases() == 0);
        CHECK(barrier.stuck_reason() ==
              "full[0], phase 0: every arrival came, but the copies delivered 8192 bytes, more "
              "than the 4096 announced with expect_tx");
    }
    SUBCASE("arrivals missing") {
        Mbarrier barrier(128, "empty[4]");
        CHECK_FALSE(barrier.arrive(96));
        CHECK(barrier.stuck_reason() == "empty[4], phase 0: 96 of 128 arrivals came");
    }
}

int main(int argc, char** argv) {
    return doctest::Context(argc, argv).run();
}
