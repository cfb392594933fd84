// Recording what kernels did, for the visualizer and the bank-conflict analysis.
//
//   simt::start_tracing({.blocks = {0}});   // record the next launches
//   my_kernel<<<...>>>(...);
//   auto traces = simt::stop_tracing();      // one scanlab::trace::Trace per launch
//
// Or, without code: SIMT_TRACE=out.json ./program records every launch of the program into
// out.json, out.1.json, ... (SIMT_TRACE_BLOCKS=0,1 or "all"; SIMT_TRACE_MAX=instructions).
// Recorded launches run in lockstep mode (pre-volta if that is the mode set), where one step of a
// warp's lanes is one warp instruction; the checks run as in any launch. See docs/trace-format.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace scanlab::trace {
struct Trace;
}

namespace simt {

struct TraceSettings {
    std::vector<unsigned> blocks{0}; // linear block indices whose accesses are recorded; empty: all
    uint64_t max_instructions = 1 << 16; // then the trace is cut (and says so)
};

void start_tracing(const TraceSettings& settings = {});
std::vector<scanlab::trace::Trace> stop_tracing();
bool tracing();

// Look-back scans: tells traces where the tile status descriptors live, so that every change of a
// tile's flag (X invalid, A aggregate, P inclusive prefix) becomes a block event on the
// visualizer's timeline, and every read of a descriptor a look event (repeated reads that find
// the same are counted in one). Status codes: 0 = X, 1 = A, 2 = P.
enum class TileStatusLayout {
    packed64,      // one 64-bit word per tile: status in the high 32 bits, the value's bits below
    flags32,       // one 32-bit status word per tile (values elsewhere)
    tagged_pair64, // two 64-bit words per tile, each with the status in its high 32 bits and one
                   // half of an 8-byte value (low half first) below
};
// value_code: 0 none, or scanlab::trace::ValueType numbering (5 i32, 6 u32, 9 f32, ...).
void trace_tile_status(const void* descriptors, size_t tiles, TileStatusLayout layout,
                       int value_code = 0);
void clear_tile_status();

// What `count` elements at `device_pointer` should hold once the program's computation is
// complete (a host reference scan, say), so that a viewer can mark the values that differ. Every
// later recorded launch that writes into that allocation carries them (docs/trace-format.md,
// `expected`): register them before the launch that completes the results. value_code:
// scanlab::trace::ValueType numbering (5 i32, ...); `values`: count elements of that type;
// `reference`: what computed them, for people. Throws std::invalid_argument on a bad code.
void trace_expected(const void* device_pointer, size_t count, int value_code, const void* values,
                    const std::string& reference);
// Look-back scans: what tiles 0..tiles-1 should get, the combination of the elements before each
// tile (`prefixes`, what its look-back should find) and through it (`inclusives`, the P it
// should publish), each `tiles` values of value_code's type. Carried by every later recorded
// launch that publishes tile flags (docs/trace-format.md, `expected`).
void trace_expected_tiles(size_t tiles, int value_code, const void* prefixes,
                          const void* inclusives, const std::string& reference);
// Forgets what trace_expected and trace_expected_tiles registered.
void clear_trace_expected();

// Reads SIMT_TRACE* from the environment (done at the first launch).
void trace_from_environment();

} // namespace simt
