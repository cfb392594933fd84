// How the emulator schedules a launch. Read from the environment (SIMT_MODE, SIMT_DISPATCH,
// SIMT_SEED, SIMT_SMS, SIMT_STACK_KB, SIMT_CHECKS, SIMT_VISIBILITY) at first use; programs and
// tests may override them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace simt {

enum class Mode {
    lockstep,  // a warp's lanes run as one instruction stream, as on pre-Volta GPUs (SIMT)
    its,       // seeded random interleaving of lanes (independent thread scheduling)
    pre_volta, // lockstep, and the race checks also trust it: lanes of a warp count as ordered
               // without __syncwarp(), as pre-Volta code assumed (docs/emulator.md, Modes)
};
// Does the mode run a warp's lanes in lockstep?
constexpr bool runs_in_lockstep(Mode mode) { return mode != Mode::its; }
enum class Dispatch {
    in_order, // blocks become resident in blockIdx order, as GPUs tend to do
    shuffled, // a seeded random order: exposes code that assumes blockIdx order
};

struct Options {
    Mode mode = Mode::its; // like the GPUs the labs target (Volta and later)
    Dispatch dispatch = Dispatch::in_order;
    uint64_t seed = 1;
    int multiprocessors = 4;          // emulated SMs: with occupancy, the resident-block window
    size_t stack_bytes = 64 * 1024;   // per emulated thread
    // Polls (volatile reads, atomics that change nothing, warp intrinsics, barriers, fences)
    // without any write in between before a spin is a deadlock.
    uint64_t spin_limit = 1u << 22;
    bool report_to_stderr = true;     // print fault reports as they happen
    bool checks = true; // race, initialization and memory-ordering checks (shared and global)
    // With the checks on: a block's global stores reach other blocks late and out of order
    // unless a fence orders them, as they may on a GPU (docs/emulator.md, "Memory model").
    bool relaxed_visibility = true;
};

Options& options();
// Parses SIMT_* environment variables into options(); throws std::invalid_argument on bad values.
void load_options_from_environment();
// Consumes --simt-mode=, --simt-dispatch=, --simt-seed=, --simt-sms=, --simt-stack-kb=,
// --simt-checks=on|off, --simt-visibility=relaxed|sc from argv
// (shifting the rest down) and returns the new argc. Throws std::invalid_argument on bad values.
int consume_cli_flags(int argc, char** argv);
std::string to_string(Mode mode);
std::string to_string(Dispatch dispatch);
std::optional<Mode> parse_mode(const std::string& text);
std::optional<Dispatch> parse_dispatch(const std::string& text);

} // namespace simt
