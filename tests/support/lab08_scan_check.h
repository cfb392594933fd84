// Lab 08's scan checks, for its graded tests (tests/labs/lab08_hopper_scan_test.cpp) and its
// hidden tests (grading/hidden/): lab08::scan against a scan on the host, on random inputs, with
// the emulator's report of a kernel that failed turned into the lab's hint. A hint names what the
// emulator or the checker saw, and the rule of the pipeline that it breaks.
#pragma once

#include "hopper_scan.h"

#include "kernel_failure.h"
#include "scan_test_support.h"

#include <scanlab/cuda_check.h>
#include <scanlab/device_buffer.h>

#include <doctest/doctest.h>

#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace scanlab::test::lab08_scan {

using lab08::ScanKind;

/// Elements per tile of a shape, for values of type T.
template <class Shape, class T>
inline constexpr int kTile = Shape::template kTileItems<T>;

/// The hint for a kernel that failed, from the emulator's report (on a GPU only the error).
inline std::string fault_hint() {
    const FaultSeen fault = fault_seen();
    if (fault.is("deadlock") && fault.says("delivered"))
        return "a stage's `full` barrier waits for bytes that never land (on a GPU: a hang). "
               "The report above names the barrier and the counts: mbarrier_arrive_expect_tx "
               "announces exactly the bytes the bulk copy moves, kTile * sizeof(T), once per "
               "tile";
    if (fault.is("deadlock"))
        return "every warp that is left waits: a barrier phase that a role waits for never "
               "completed (the report above names the waits). Each role arrives once per slot on "
               "the barrier the next role waits for (full, reduced, prefixed, empty), end "
               "markers included, and waits for parity (it / Stages) & 1";
    if (fault.is("shared memory race") &&
        (fault.says("mbarrier") || fault.says("bulk copy") || fault.says("refills a stage")))
        return "a stage was read or written while another role still used it (the report above "
               "names both lines): a role reads a stage only after its wait for that stage's "
               "phase of this round returned, and the producer refills a stage only after the "
               "`empty` phase of the round before completed";
    if (fault.is("shared memory race"))
        return "two warps touched one word of shared memory with nothing ordering them (the "
               "report above names both lines): between the roles, only the mbarriers order "
               "what each writes before it arrives and what the next reads after it waits";
    if (fault.is("barrier divergence") && fault.says("parity"))
        return "a wait asked for the wrong parity (the report above says which): slot `it` of a "
               "role waits for parity (it / Stages) & 1, and the producer's wait on `empty` for "
               "the round before, ((it / Stages) - 1) & 1";
    if (fault.is("barrier divergence"))
        return "an mbarrier got more arrivals than it was initialized for (the report above "
               "names it): `full`, `reduced` and `prefixed` take one arrival per phase (lane 0), "
               "`empty` one from every scanner thread";
    if (fault.is("global memory race"))
        return "the report above names two accesses to one word of global memory with nothing "
               "ordering them: the descriptors are written and read through `volatile` "
               "pointers, one 64-bit word (or lab 07's tagged pair) at a time";
    if (fault.is("illegal address"))
        return "an access outside every allocation (the report above names the line). Where that "
               "line's address comes from a stage's tile number (s.stage_tile), the stage was "
               "read before its barrier phase completed: each role waits for its barrier "
               "(wait_for_phase) before it reads anything of the stage; otherwise, the last, "
               "partial tile's bounds";
    if (fault.is("spin on a plain load"))
        return "the report above names a descriptor polled through a plain pointer: the "
               "compiler may load it once and spin on the register forever (nvcc does). Read "
               "descriptors through a `volatile` pointer";
    if (fault.is("misaligned address"))
        return "a bulk copy needs a 16-byte aligned source and destination and a size that is a "
               "multiple of 16 (the report above names the copy): a partial tile, or an input "
               "that is not 16-byte aligned, is copied with ordinary loads";
    return "the kernel failed: the emulator's report above names the line";
}

/// The hint for wrong values without a report.
inline std::string result_hint(TileShape shape) {
    switch (shape) {
    case TileShape::alone:
        return "the tile started from the identity, as if nothing came before it: the look-back "
               "warp's prefix (s.before_tile) did not reach the scanners, or was read before "
               "the `prefixed` phase completed";
    case TileShape::missing:
        return "tiles are missing from the prefix: a look-back lane took X (not published yet) "
               "as the identity, or a tile published P without its own aggregate: P = "
               "Op::apply(before, s.aggregate[stage])";
    case TileShape::twice:
        return "tiles counted twice in the prefix: a P ends the look-back (it already holds "
               "every tile before it)";
    case TileShape::own_total:
        return "the tile's own aggregate is in its prefix: s.before_tile holds the tiles BEFORE "
               "it";
    case TileShape::on_the_right:
        return "the prefix is on the RIGHT: what comes from earlier tiles goes on the LEFT of "
               "Op::apply";
    case TileShape::unknown:
        break;
    }
    return "wrong values with no report from the emulator: compare a tile's values with its "
           "input; a stage that held another tile's data, or a prefix from the wrong tile, "
           "shows as whole tiles off";
}

/// Scans `n` random values with lab08::scan<Op, Shape> (in place if asked; with `workspace` if
/// given) and checks every element.
template <class Op, class Shape>
ScanCheck run_scan(int n, ScanKind kind, bool in_place = false,
                   lab08::Workspace* workspace = nullptr, int misalign = 0) {
    using T = typename Op::value_type;
    const std::string what =
        std::string("lab08::scan<") +
        (std::is_same_v<Shape, lab08::SmallShape> ? "SmallShape" : "DefaultShape") + ">" +
        (in_place ? " in place" : "") + (misalign != 0 ? " from an input not 16-byte aligned" : "");
    CheckOptions check;
    check.block_size = kTile<Shape, T>;
    check.lab_hint_follows = true;
    check.in_place = in_place;
    ScanCheck result;
    try {
        const auto scan = [&](const T* in, T* out, int count, ScanKind k) {
            lab08::scan<Op, Shape>(in, out, count, k, workspace);
        };
        if (misalign == 0) {
            result = run_device_scan<Op>(what, n, kind, scan, check,
                                         in_place ? ScanOutput::in_place : ScanOutput::separate);
        } else {
            // The input starts `misalign` elements into a buffer: not 16-byte aligned.
            result = run_device_scan<Op>(
                what, n, kind,
                [&](const T* in, T* out, int count, ScanKind k) {
                    DeviceBuffer<T> shifted(static_cast<std::size_t>(count + misalign));
                    SCANLAB_CUDA_CHECK(cudaMemcpy(shifted.data() + misalign, in,
                                                  sizeof(T) * static_cast<std::size_t>(count),
                                                  cudaMemcpyDeviceToDevice));
                    // Graded by a harness, the lab's code runs in a worker process that did not
                    // see this copy: it must know the copy is the input.
                    watch_copy_of_input(shifted.data() + misalign, static_cast<std::size_t>(count));
                    lab08::scan<Op, Shape>(shifted.data() + misalign, out, count, k, workspace);
                    SCANLAB_CUDA_CHECK(cudaDeviceSynchronize());
                },
                check);
        }
    } catch (const std::exception& error) {
        return {false, kernel_failure_report(error.what(), "08", fault_hint())};
    }
    if (!result.ok) result.message += hint_line("08", result_hint(result.tile_shape));
    return result;
}

/// run_scan for each size, stopping at the first failure (a FAIL_CHECK with its text).
template <class Op, class Shape = lab08::DefaultShape>
bool check_sizes(ScanKind kind, std::initializer_list<int> sizes, bool in_place = false,
                 lab08::Workspace* workspace = nullptr, int misalign = 0) {
    for (const int n : sizes) {
        const ScanCheck result = run_scan<Op, Shape>(n, kind, in_place, workspace, misalign);
        if (!result.ok) {
            FAIL_CHECK(result.message);
            return false;
        }
    }
    return true;
}

} // namespace scanlab::test::lab08_scan
