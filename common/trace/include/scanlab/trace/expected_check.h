#pragma once

// The trace's results against its `expected` values (format version 3): for each element of an
// expected object, the last value a recorded store or atomic left there, and whether it is the
// one the reference says. Elements no recorded instruction wrote are not judged.

#include <cstdint>
#include <optional>
#include <vector>

#include "scanlab/trace/trace.h"

namespace scanlab::trace {

// An element whose last recorded value differs from the expected one.
struct ElementDifference {
    std::uint32_t memory = 0;  // the memory object
    std::uint64_t element = 0; // its index, in elements of the expected value type
    ValueBytes expected;
    ValueBytes actual;
    std::uint64_t instruction = 0; // the store or atomic that left `actual`
    std::uint32_t lane = 0;        // the lane of it (a position in its lanes)
};

// A tile whose published P differs from the inclusive prefix the reference gives it.
struct TileDifference {
    std::uint32_t tile = 0;
    std::size_t event = 0; // the flag event that published the P (the tile's first P)
    ValueBytes expected;
    ValueBytes actual;
};

struct ExpectedCheck {
    std::uint64_t judged = 0; // elements with a recorded final value and an expected one
    std::vector<ElementDifference> elements; // by memory object, then element
    std::vector<TileDifference> tiles;       // by tile
};

// Empty (nothing judged) when the trace has no expected values.
ExpectedCheck check_expected(const Trace& trace);

// The expected value of an element, if the trace has one.
std::optional<ValueBytes> expected_value(const Trace& trace, std::uint32_t memory,
                                         std::uint64_t element);
// What the reference says a tile should get, if the trace says.
const ExpectedTile* expected_tile(const Trace& trace, std::uint32_t tile);

} // namespace scanlab::trace
