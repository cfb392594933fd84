// The models behind the views, without a window: array rows, cells and arrows; cursor moves; the
// schedule; bank placement.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <set>
#include <string>

#include "array_model.h"
#include "array_view.h"
#include "bank_layout.h"
#include "app.h"
#include "cursor.h"
#include "finding_marks.h"
#include "loaded_trace.h"
#include "planted_finding.h"
#include "shortcuts.h"
#include "test_paths.h"

namespace scanlab::view::test {

namespace {
std::uint32_t object_named(const trace::Trace& trace, const std::string& name) {
    for (std::uint32_t m = 0; m < trace.memory.size(); ++m)
        if (trace.memory[m].name == name) return m;
    FAIL("no memory object " << name);
    return 0;
}
} // namespace

TEST_CASE("array model: a 16-element Hillis-Steele scan is 16 columns by log2(16) + 1 rows") {
    const auto loaded = load_trace(fixture("hillis_steele_16.trace.json"));
    const BlockIndex& block = loaded->index.block(0);
    const std::uint32_t temp = object_named(loaded->trace, "temp");
    CHECK(default_array_object(loaded->trace, block) == temp);
    const ArrayModel model(loaded->trace, block, temp, ArraySettings{});
    CHECK(model.folded()); // temp[pout * n + tid]: two windows of 16 written in turn
    CHECK(model.column_count() == 16);
    CHECK(model.row_count() == 5);
    for (std::uint32_t r = 0; r < 5; ++r) CHECK(model.row(r).step == r);

    // Step 1 (offset 1): thread i >= 1 reads cells i - 1 and i, thread 0 copies cell 0.
    std::set<std::pair<std::uint32_t, std::uint32_t>> arrows;
    for (const Arrow* a = model.arrows_begin(1); a != model.arrows_end(1); ++a) {
        CHECK(a->source_row == 0);
        arrows.insert({a->source_column, a->column});
    }
    CHECK(arrows.size() == 31);
    CHECK(arrows.count({0, 1}) == 1);
    CHECK(arrows.count({14, 15}) == 1);
    // Step 3 (offset 4): cell 9 gets cells 5 and 9.
    std::set<std::uint32_t> into_9;
    for (const Arrow* a = model.arrows_begin(3); a != model.arrows_end(3); ++a)
        if (a->column == 9) into_9.insert(a->source_column);
    CHECK(into_9 == std::set<std::uint32_t>{5, 9});

    // At the end, the last cell holds the scan's last value, which the kernel stored to out.
    const std::uint32_t all = block.instruction_count();
    const CellState last = model.cell(4, 15, all);
    REQUIRE(last.event != nullptr);
    CHECK(last.active);
    const auto& store_out = loaded->trace.instructions.back();
    REQUIRE(store_out.lanes.size() == 16);
    CHECK(cell_value_text(loaded->trace, block, *last.event, model.cell_bytes()) ==
          trace::format_value(store_out.value_type, 4, store_out.lanes[15].value));
    // Mid-way through step 1, cell 15 of row 1 is not written yet.
    CHECK(!model.cell(1, 15, block.step_begin[1] + 1).active);
    // Before anything ran, nothing is known.
    CHECK(model.cell(0, 3, 0).event == nullptr);

    const ArrayModel unfolded(loaded->trace, block, temp,
                              ArraySettings{.fold = false, .all_steps = false});
    CHECK(unfolded.column_count() == 32);
    const ArrayModel every_step(loaded->trace, block, temp,
                                ArraySettings{.fold = true, .all_steps = true});
    CHECK(every_step.row_count() == 6);
}

TEST_CASE("cursor: instruction steps visit every instruction, step moves stop at step ends") {
    const auto loaded = load_trace(fixture("hillis_steele_16.trace.json"));
    const BlockIndex& block = loaded->index.block(0);
    Cursor c = cursor_start(block);
    std::uint32_t moves = 0;
    while (!at_end(block, c)) {
        const Cursor next = next_instruction(block, c);
        REQUIRE(!(next == c));
        CHECK(previous_instruction(block, next) == c);
        CHECK(block.step_begin[next.step] <= next.done);
        CHECK(next.done <= block.step_end(next.step));
        c = next;
        ++moves;
    }
    CHECK(moves == block.instruction_count());
    c = cursor_start(block);
    std::vector<std::uint32_t> ends;
    while (!at_end(block, c)) {
        c = next_step(block, c);
        ends.push_back(c.done);
        CHECK(c.done == block.step_end(c.step));
    }
    CHECK(ends.size() == block.step_count());
    CHECK(previous_step(block, cursor_at_step_end(block, 0)) == cursor_start(block));
    CHECK(cursor_with_done(block, 5).done == 5);
    CHECK(
        cursor_with_done(block, 5).step ==
        loaded->index.step_place(loaded->trace.instructions[block.instructions[4]].step).position);
}

TEST_CASE("timeline model: runs on slots and tile flags of the look-back fixture") {
    const auto loaded = load_trace(fixture("lookback_4_blocks.trace.json"));
    const TimelineModel& timeline = loaded->timeline;
    CHECK(timeline.runs().size() == 4);
    CHECK(timeline.rows_are_slots());
    CHECK(timeline.row_count() == 2);
    CHECK(timeline.tiles().size() == 4);
    // Tile 1: X, then A (140), then P (282).
    std::vector<trace::TileFlag> tile1;
    for (const FlagSpan& span : timeline.flags())
        if (span.tile == 1) tile1.push_back(span.flag);
    CHECK(tile1 ==
          std::vector<trace::TileFlag>{trace::TileFlag::X, trace::TileFlag::A, trace::TileFlag::P});
    REQUIRE(timeline.run_of(2) != nullptr);
    CHECK(timeline.run_of(2)->slot == 0u);
    CHECK(timeline.run_of(9) == nullptr);
}

TEST_CASE("bank layout: stride 32 stacks 32 words in bank 0; a broadcast is one word") {
    const auto loaded = load_trace(fixture("bank_patterns.trace.json"));
    const trace::Trace& trace = loaded->trace;
    bool stride32 = false;
    bool broadcast = false;
    for (std::uint64_t i = 0; i < trace.instructions.size(); ++i) {
        const auto& instruction = trace.instructions[i];
        if (instruction.space != trace::MemorySpace::shared) continue;
        const BankLayout layout = bank_layout(trace, instruction);
        if (layout.conflicts.conflicts == 31 && instruction.width == 4) {
            stride32 = true;
            CHECK(layout.phases.size() == 1);
            CHECK(layout.phases[0].banks[0].size() == 32);
            CHECK(layout.phases[0].deepest == 32);
        }
        if (instruction.kind == trace::AccessKind::load && layout.conflicts.wavefronts == 1 &&
            layout.phases[0].banks[0].size() == 1 &&
            layout.phases[0].banks[0][0].lanes.size() == 32) {
            broadcast = true;
        }
        std::uint32_t deepest = 0;
        for (const auto& phase : layout.phases) deepest = std::max(deepest, phase.deepest);
        CHECK(deepest * layout.phases.size() >= layout.conflicts.wavefronts / 1);
    }
    CHECK(stride32);
    CHECK(broadcast);
}

TEST_CASE("timeline model: a look-back spin shows up as waits") {
    const auto path = recorded("lookback_spin.trace.json");
    if (!std::filesystem::exists(path)) {
        MESSAGE("skipped: " << path << " not recorded (run the visualizer.record test)");
        return;
    }
    const auto loaded = load_trace(path);
    REQUIRE(!loaded->timeline.waits().empty());
    std::uint32_t polls = 0;
    for (const WaitSpan& wait : loaded->timeline.waits()) {
        CHECK(wait.to >= wait.from);
        polls = std::max(polls, wait.polls);
    }
    CHECK(polls > 10);
}

TEST_CASE("docs/visualizer.md lists every keyboard shortcut of the help panel") {
    std::ifstream in(SCANLAB_VIEW_DOC);
    REQUIRE(in.good());
    const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (const Shortcut& s : shortcuts()) {
        CAPTURE(s.keys);
        CHECK(doc.find(std::string("| ") + s.keys + " | " + s.action + " |") != std::string::npos);
    }
}

TEST_CASE("findings: a planted race jumps to its load and marks both cells") {
    // A step and a lane drawn at random: the marks follow the finding, wherever it is.
    std::random_device fresh;
    const auto step = static_cast<std::uint32_t>(1 + fresh() % 4);
    const auto lane = static_cast<std::uint32_t>(fresh() % 16);
    CAPTURE(step);
    CAPTURE(lane);
    const PlantedFinding p = plant_finding(step, lane);
    const auto loaded = load_trace(p.path);
    REQUIRE(loaded->trace.findings.size() == 1);

    const std::vector<FindingMark> marks = finding_marks(loaded->trace, 0);
    REQUIRE(marks.size() == 2);
    CHECK(marks[0].instruction == p.load);
    CHECK(marks[1].instruction == p.store);
    CHECK(marks[1].first_byte == p.offset);
    CHECK(marks[1].end_byte == p.offset + 4);
    const std::vector<std::uint64_t> cells = marked_elements(marks, 0, p.memory, 4);
    CHECK(std::find(cells.begin(), cells.end(), p.offset / 4) != cells.end());
    CHECK(std::find(cells.begin(), cells.end(), marks[0].first_byte / 4) != cells.end());
    CHECK(marked_elements(marks, 1, p.memory, 4).empty()); // another block: nothing
    CHECK(marked_elements(marks, 0, p.memory + 1, 4).empty());

    // The jump: just after the finding's first recorded access (the load).
    const auto target = finding_target(loaded->trace, loaded->index, 0);
    REQUIRE(target);
    const Place place = loaded->index.instruction_place(p.load);
    CHECK(target->block == place.block);
    CHECK(target->cursor ==
          cursor_after_instruction(loaded->index.block(place.block), place.position));
    CHECK(!finding_target(loaded->trace, loaded->index, 1));

    // The app: selecting it moves the cursor there and shows the object; F cycles.
    App app;
    REQUIRE(app.open_now(p.path));
    app.end();
    CHECK(app.select_finding(0));
    CHECK(app.selection().finding == 0u);
    CHECK(app.selection().cursor == target->cursor);
    CHECK(app.selection().object == p.memory);
    CHECK(!app.select_finding(1));
    app.home();
    app.next_finding(); // the only one again
    CHECK(app.selection().cursor == target->cursor);
    CHECK(finding_headline(loaded->trace.findings[0]) ==
          "shared memory race in kernel (planted by the test)");
}

TEST_CASE("findings: a finding with no recorded block has no target and no marks") {
    trace::Trace t = trace::read_trace_file(fixture("hillis_steele_16.trace.json"));
    trace::Finding deadlock;
    deadlock.kind = trace::FindingKind::deadlock;
    deadlock.ends_launch = true;
    deadlock.message = "simt: deadlock in kernel\n";
    deadlock.accesses.push_back({0, 3, trace::FindingRole::wait, std::nullopt, 0, 0, std::nullopt,
                                 std::nullopt, std::nullopt});
    t.findings.push_back(deadlock);
    const TraceIndex index(t);
    CHECK(!finding_target(t, index, 0));
    const auto marks = finding_marks(t, 0);
    REQUIRE(marks.size() == 1);
    CHECK(!marks[0].memory);
    CHECK(marked_elements(marks, 0, 0, 4).empty());
}

} // namespace scanlab::view::test
