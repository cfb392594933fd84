// Graded tests for lab 09 (one-sweep radix sort: keys, and keys with values), with the checks
// of tests/support/lab09_sort_check.h. Sizes are chosen for the emulator: a tile is 8192 keys, so
// a few tiles are tens of thousands of keys.
#include "radix_sort.h"

#include "emulator_schedule.h"
#include "lab09_sort_check.h"

#include <scanlab/device_buffer.h>

#include <doctest/doctest.h>

#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

using scanlab::DeviceBuffer;
using scanlab::test::kSchedules;
using scanlab::test::Schedule;
using scanlab::test::ScheduleScope;
using scanlab::test::lab09_sort::check_sorts;
using scanlab::test::lab09_sort::Keys;
using scanlab::test::lab09_sort::kTile;

namespace {

// One tile, its edges and a warp's; then several tiles, the last one partial.
constexpr std::initializer_list<int> kSizes = {1,   2,         31,    32,        33,
                                               257, kTile - 1, kTile, kTile + 1, 3 * kTile + 5};

// Every size and every shape of keys for the first key type. The other types differ from it only
// in the bits of a key (sort_order, each way), which random bits over several tiles and the
// type's special values exercise: they sort one partial tile, a warp and one key more, and
// several tiles (a tile's edges, runs of equal keys and descending keys are the same work for
// every type).
template <class Key>
void check_key_type(bool every_shape) {
    if (every_shape) {
        if (!check_sorts<Key>(kSizes, Keys::uniform)) return;
        if (!check_sorts<Key>({2 * kTile + 77}, Keys::few_values)) return;
    } else if (!check_sorts<Key>({1, 33, 2 * kTile + 5}, Keys::uniform)) {
        return;
    }
    if (!check_sorts<Key>({2 * kTile + 77}, Keys::special)) return;
    if (every_shape) (void)check_sorts<Key>({3 * kTile - 1}, Keys::descending);
}

} // namespace

// ---- keys ------------------------------------------------------------------------------------

TEST_CASE("sort_keys uint32") {
    check_key_type<std::uint32_t>(true);
}
TEST_CASE("sort_keys int32") {
    check_key_type<std::int32_t>(false);
}
TEST_CASE("sort_keys float") {
    check_key_type<float>(false);
}

// One digit holds almost every key of every tile in every pass: its look-back counts run to
// thousands per tile, and the other digits' are mostly 0.
TEST_CASE("sort_keys with skewed digits") {
    if (!check_sorts<std::uint32_t>({5 * kTile + 3}, Keys::one_digit)) return;
    (void)check_sorts<float>({4 * kTile + 9}, Keys::one_digit);
}

// ---- pairs: stability ------------------------------------------------------------------------

// The values are the keys' input positions: equal keys must keep them in increasing order.
TEST_CASE("sort_pairs keeps equal keys in input order") {
    if (!check_sorts<std::uint32_t>({1, 100, kTile + 1, 3 * kTile + 5}, Keys::few_values, true))
        return;
    if (!check_sorts<std::int32_t>({2 * kTile + 31}, Keys::one_digit, true)) return;
    if (!check_sorts<float>({2 * kTile + 31}, Keys::special, true)) return;
    (void)check_sorts<std::uint32_t>({3 * kTile + 5}, Keys::uniform, true);
}

// ---- in place, workspace, schedules ------------------------------------------------------------

TEST_CASE("sort in place and with a reused workspace") {
    if (!check_sorts<std::uint32_t>({3 * kTile + 5}, Keys::uniform, false, true)) return;
    if (!check_sorts<float>({2 * kTile + 9}, Keys::few_values, true, true)) return;
    // One workspace for calls of different sizes: every call must start from cleared
    // histograms, tile counters and descriptors, whatever the call before left there.
    lab09::Workspace workspace;
    for (const int n : {kTile + 1, 2 * kTile + 5, 2 * kTile + 5, kTile - 3, 2 * kTile + 5})
        if (!check_sorts<std::int32_t>({n}, Keys::uniform, n % 2 == 1, false, &workspace)) return;
    CHECK(workspace.capacity() > 0);
}

// Every emulator schedule (its/lockstep x blocks in order/shuffled): tiles whose blocks start
// in any order, look-backs that wait for tiles still being ranked.
TEST_CASE("sort under every schedule") {
    std::uint64_t seed = 1;
    for (const Schedule& schedule : kSchedules) {
        ScheduleScope scope(schedule, seed);
        INFO("emulator schedule: " << std::string(schedule.name) << ", SIMT_SEED=" << seed);
        ++seed;
        if (!check_sorts<std::uint32_t>({4 * kTile + 13}, Keys::few_values, true)) return;
    }
}

// A larger input on a GPU (where it takes a millisecond); on the emulator, 16 tiles of uint32 keys,
// the most of the lab's tests (the cases above sort at most 6; pairs and the other key types, 5).
TEST_CASE("sort large array") {
#ifdef SCANLAB_BACKEND_SIMT
    constexpr int kN = 16 * kTile + 5;
    (void)check_sorts<std::uint32_t>({kN}, Keys::uniform);
#else
    constexpr int kN = (1 << 22) + 3;
    if (!check_sorts<std::uint32_t>({kN}, Keys::uniform)) return;
    (void)check_sorts<float>({kN}, Keys::uniform, true);
#endif
}

TEST_CASE("argument checks") {
    // A real sort of several tiles first, so that a stub cannot pass this case.
    REQUIRE(check_sorts<std::uint32_t>({2 * kTile + 3}, Keys::uniform));

    constexpr int kN = 100;
    DeviceBuffer<std::uint32_t> in(std::vector<std::uint32_t>(kN, 1));
    DeviceBuffer<std::uint32_t> out(std::vector<std::uint32_t>(kN, 0xDEADBEEFu));
    DeviceBuffer<std::uint32_t> values(std::vector<std::uint32_t>(kN, 2));
    using lab09::sort_keys;
    using lab09::sort_pairs;
    using U = std::uint32_t;
    CHECK_THROWS_AS(sort_keys<U>(in.data(), out.data(), -1), std::invalid_argument);
    CHECK_THROWS_AS(sort_keys<U>(nullptr, out.data(), kN), std::invalid_argument);
    CHECK_THROWS_AS(sort_keys<U>(in.data(), nullptr, kN), std::invalid_argument);
    CHECK_THROWS_AS(sort_keys<U>(in.data(), out.data(), lab09::kMaxKeys + 1),
                    std::invalid_argument);
    CHECK_THROWS_AS((sort_pairs<U, U>(in.data(), out.data(), nullptr, values.data(), kN)),
                    std::invalid_argument);
    CHECK_THROWS_AS((sort_pairs<U, U>(in.data(), out.data(), values.data(), nullptr, kN)),
                    std::invalid_argument);
    CHECK_THROWS_AS((sort_pairs<U, U>(in.data(), out.data(), values.data(), values.data(), -5)),
                    std::invalid_argument);
    // n == 0: nothing launched, null pointers allowed.
    CHECK_NOTHROW(sort_keys<U>(nullptr, nullptr, 0));
    CHECK_NOTHROW(sort_keys<U>(in.data(), out.data(), 0));
    CHECK_NOTHROW((sort_pairs<U, U>(nullptr, nullptr, nullptr, nullptr, 0)));
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    CHECK_MESSAGE(out.download()[0] == 0xDEADBEEFu,
                  "a rejected call or n == 0 must not write any output");
}
