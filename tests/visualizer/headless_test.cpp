// The headless mode, as the lab pictures use it: scanlab-view TRACE --png OUT ... run as its own
// process. The pictures are checked for what must be in them.
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>

#include "loaded_trace.h"
#include "scanlab/trace/expected_check.h"
#include "pipeline_model.h"
#include "pipeline_view.h"
#include "radix_pass_model.h"
#include "radix_view.h"
#include "scanlab/trace/reader.h"
#include "shuffle_view.h"
#include "palette.h"
#include "picture.h"
#include "planted_finding.h"
#include "test_paths.h"

namespace scanlab::view::test {

namespace {

// Runs scanlab-view with `arguments`; returns its exit code.
int view(const std::string& arguments) {
    const std::string command =
        std::string(SCANLAB_VIEW_EXE) + " " + arguments + " 2>" + scratch("stderr.txt").string();
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string last_stderr() {
    std::ifstream in(scratch("stderr.txt"));
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::string quoted(const std::filesystem::path& path) {
    return "'" + path.string() + "'";
}

Picture picture_of(const std::string& trace_arguments, const std::string& name) {
    const auto png = scratch(name);
    std::filesystem::remove(png);
    const int code = view(trace_arguments + " --png " + quoted(png));
    CHECK_MESSAGE(code == 0, last_stderr());
    const Picture picture = load_png(png);
    CHECK(picture.width > 0);
    return picture;
}

bool have_recorded(const std::filesystem::path& path) {
    if (std::filesystem::exists(path)) return true;
    MESSAGE("skipped: " << path << " is not recorded (run the visualizer.record test first)");
    return false;
}

// The shared instruction with the most bank conflicts.
std::uint64_t worst_instruction(const LoadedTrace& loaded) {
    std::uint64_t worst = 0;
    std::uint32_t conflicts = 0;
    for (std::uint64_t i = 0; i < loaded.analysis.instructions.size(); ++i) {
        const auto& c = loaded.analysis.instructions[i];
        if (c && c->conflicts > conflicts) {
            worst = i;
            conflicts = c->conflicts;
        }
    }
    return worst;
}

} // namespace

TEST_CASE("headless: the array view of a 16-element Hillis-Steele scan") {
    for (const auto& trace :
         {recorded("hillis_steele_16.trace.json"), fixture("hillis_steele_16.trace.json")}) {
        CAPTURE(trace);
        if (!have_recorded(trace)) continue;
        const Picture picture =
            picture_of(quoted(trace) + " --view array --size 1000x600", "hs_array.png");
        CHECK(picture.width == 1000);
        CHECK(picture.height == 600);
        // 16 cells per row, log2(16) + 1 rows: the load and four doubling steps.
        const auto rows =
            cells_per_row(cell_frames(picture, {palette::kCellFrame, palette::kHighlight}));
        CHECK(rows == std::vector<int>{16, 16, 16, 16, 16});
    }
    // At the end of step 2 (offset 2), three rows.
    const Picture early =
        picture_of(quoted(fixture("hillis_steele_16.trace.json")) + " --step 2 --size 1000x600",
                   "hs_array_step2.png");
    CHECK(cells_per_row(cell_frames(early, {palette::kCellFrame, palette::kHighlight})) ==
          std::vector<int>{16, 16, 16});
}

TEST_CASE("headless: the bank view shows the conflict colour unpadded, not padded") {
    const auto unpadded = recorded("blelloch_256.trace.json");
    const auto padded = recorded("blelloch_256.trace.1.json");
    if (!have_recorded(unpadded) || !have_recorded(padded)) return;
    const auto plain = load_trace(unpadded);
    const auto pad = load_trace(padded);
    const std::uint64_t worst = worst_instruction(*plain);
    REQUIRE(plain->analysis.instructions[worst]->conflicts >= 7);
    // The same instruction of the padded kernel: same step, line and kind, and no conflict.
    REQUIRE(worst < pad->trace.instructions.size());
    const auto& a = plain->trace.instructions[worst];
    const auto& b = pad->trace.instructions[worst];
    CHECK(a.step == b.step);
    CHECK(a.source.line == b.source.line);
    CHECK(a.kind == b.kind);
    REQUIRE(pad->analysis.instructions[worst]);
    CHECK(pad->analysis.instructions[worst]->conflicts == 0);

    const std::string which = " --view bank --instruction " + std::to_string(worst);
    const Picture conflicted = picture_of(quoted(unpadded) + which, "bank_unpadded.png");
    const Picture clean = picture_of(quoted(padded) + which, "bank_padded.png");
    CHECK(count_colour(conflicted, palette::kConflict) > 1000);
    CHECK(count_colour(clean, palette::kConflict) == 0);
    CHECK(count_colour(clean, palette::kBankOk) > 1000);

    // --step picks the step's worst instruction: step 3 of the up-sweep conflicts.
    const Picture by_step =
        picture_of(quoted(unpadded) + " --view bank --step 3", "bank_step3.png");
    CHECK(count_colour(by_step, palette::kConflict) > 1000);
}

TEST_CASE("headless: the block timeline shows flags, slots and waiting") {
    const Picture flags = picture_of(quoted(fixture("lookback_4_blocks.trace.json")) +
                                         " --view timeline --size 900x400",
                                     "timeline_flags.png");
    CHECK(count_colour(flags, palette::kFlagX) > 200);
    CHECK(count_colour(flags, palette::kFlagA) > 200);
    CHECK(count_colour(flags, palette::kFlagP) > 200);
    CHECK(count_colour(flags, palette::kBlockRun) > 1000);
    const auto spin = recorded("lookback_spin.trace.json");
    if (!have_recorded(spin)) return;
    const Picture waits = picture_of(quoted(spin) + " --view timeline", "timeline_spin.png");
    CHECK(count_colour(waits, palette::kWaiting) > 200);
}

TEST_CASE("headless: a selected tile's look-back is drawn on the timeline") {
    const std::string trace =
        quoted(fixture("lookback_4_blocks.trace.json")) + " --view timeline --size 1000x420";
    const Picture plain = picture_of(trace, "timeline_no_tile.png");
    CHECK(count_colour(plain, palette::kLookLine) == 0);
    CHECK(count_colour(plain, palette::kLookA) == 0);
    // Tile 3 read tile 2's A and tile 1's P: a line and a mark for each.
    const Picture tile3 = picture_of(trace + " --tile 3", "timeline_tile3.png");
    CHECK(count_colour(tile3, palette::kLookLine) > 40);
    CHECK(count_colour(tile3, palette::kLookA) > 10);
    CHECK(count_colour(tile3, palette::kLookP) > 10);
    CHECK(count_colour(tile3, palette::kLookX) == 0);
    // Tile 1 polled tile 0 while it was X, then found its P.
    const Picture tile1 = picture_of(trace + " --tile 1", "timeline_tile1.png");
    CHECK(count_colour(tile1, palette::kLookX) > 10);
    CHECK(count_colour(tile1, palette::kLookP) > 10);
    CHECK(count_colour(tile1, palette::kLookA) == 0);
    // A tile nobody published, or a block that did not take it, is refused with the reason.
    const std::string png = " --png " + quoted(scratch("refused_tile.png"));
    CHECK(view(trace + png + " --tile 9") == 2);
    CHECK(last_stderr().find("tiles with flags: 0..3") != std::string::npos);
    CHECK(view(trace + png + " --tile 3 --block 0") == 2);
    CHECK(last_stderr().find("taken by block 3") != std::string::npos);
}

TEST_CASE("headless: a truncated trace gives a picture of the error and exit code 3") {
    const auto truncated = scratch("half.trace.json");
    {
        std::ifstream in(fixture("hillis_steele_16.trace.json"));
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::ofstream(truncated) << text.substr(0, 5000);
    }
    const auto png = scratch("error.png");
    std::filesystem::remove(png);
    CHECK(view(quoted(truncated) + " --png " + quoted(png)) == 3);
    CHECK(last_stderr().find("half.trace.json") != std::string::npos);
    const Picture picture = load_png(png);
    CHECK(count_colour(picture, palette::kErrorBackground) > 5000);
}

TEST_CASE("headless: --finding K marks the finding's cells in their own colour") {
    const PlantedFinding p = plant_finding(2, 5);
    const std::string trace = quoted(p.path) + " --view array --size 1000x600";
    const Picture plain = picture_of(trace, "finding_none.png");
    CHECK(count_colour(plain, palette::kFinding) == 0);
    const Picture marked = picture_of(trace + " --finding 0", "finding_0.png");
    // Two cells, each with a 2-pixel frame of the finding colour.
    CHECK(count_colour(marked, palette::kFinding) > 40);
    CHECK(view(quoted(p.path) + " --png " + quoted(scratch("refused.png")) + " --finding 1") == 2);
    CHECK(last_stderr().find("1 finding(s)") != std::string::npos);
}

TEST_CASE("headless: values that differ from the reference are framed; a correct run has none") {
    const auto right = recorded("lookback_scan.trace.json");
    const auto wrong = recorded("lookback_double.trace.json");
    if (!have_recorded(right) || !have_recorded(wrong)) return;
    // The double-counting look-back: whole tiles are wrong (a tile adds one prefix to all its
    // elements), each by the same amount as its P, and every wrong value is too large.
    const auto loaded = load_trace(wrong);
    const trace::ExpectedCheck& check = loaded->expected.check();
    REQUIRE(!check.elements.empty());
    REQUIRE(!check.tiles.empty());
    CHECK(check.judged == 8 * 256);
    CHECK(check.elements.size() == 256 * check.tiles.size());
    for (const trace::ElementDifference& d : check.elements) {
        CHECK(d.element >= 2 * 256); // tiles 0 and 1 have nothing to count twice
        CHECK(d.actual.as<std::int32_t>() > d.expected.as<std::int32_t>());
    }
    for (const trace::TileDifference& t : check.tiles) CHECK(t.tile >= 2);
    const auto right_loaded = load_trace(right);
    CHECK(right_loaded->expected.check().judged == 8 * 256);
    CHECK(right_loaded->expected.check().elements.empty());
    CHECK(right_loaded->expected.check().tiles.empty());
    CHECK(loaded->trace.findings.empty()); // the emulator's checks see nothing wrong

    // The array view of out[] for the block that wrote the first wrong value frames its cells in
    // the wrong-value colour; the correct run's same view has none.
    const std::uint32_t block =
        loaded->trace.instructions[check.elements.front().instruction].block;
    const std::string out_view = " --view array --object 'argument 1 (int*)' --block " +
                                 std::to_string(block) + " --size 1400x400";
    const Picture marked = picture_of(quoted(wrong) + out_view, "wrong_values.png");
    CHECK(count_colour(marked, palette::kWrong) > 256 * 4); // a 2-pixel frame around each cell
    CHECK(count_colour(marked, palette::kWrongText) > 50);  // the caption's results line
    const Picture clean = picture_of(quoted(right) + out_view, "right_values.png");
    CHECK(count_colour(clean, palette::kWrong) == 0);
    CHECK(count_colour(clean, palette::kWrongText) == 0);
    // The look-back of a wrong tile says its P is wrong, in the same red, under the tile rows
    // (the lower part of the picture, away from the caption): text, so its pixels are the red
    // blended with the background, not only the exact colour.
    const auto reddish_below = [](const Picture& picture, int top) {
        std::size_t count = 0;
        for (int y = top; y < picture.height; ++y)
            for (int x = 0; x < picture.width; ++x) {
                const Rgb c = picture.at(x, y);
                count += c.r >= 150 && c.g <= 120 && c.b <= 110 && c.r - c.g >= 80;
            }
        return count;
    };
    const std::string timeline = " --view timeline --size 1200x700";
    const std::string tile = " --tile " + std::to_string(check.tiles.front().tile);
    const Picture wrong_tile = picture_of(quoted(wrong) + timeline + tile, "wrong_tile.png");
    CHECK(reddish_below(wrong_tile, wrong_tile.height * 2 / 3) > 100);
    const Picture right_tile = picture_of(quoted(right) + timeline + tile, "right_tile.png");
    CHECK(reddish_below(right_tile, 0) == 0);
}

TEST_CASE("headless: the shuffle view draws each warp shuffle's lanes from their sources") {
    const auto path = recorded("warp_scan.trace.json");
    if (!have_recorded(path)) return;
    // The model: warp 0's five __shfl_up_sync, by 1, 2, 4, 8, 16, each lane from lane - offset.
    const auto loaded = load_trace(path);
    const std::vector<std::size_t> rows = warp_shuffles(loaded->trace, 0, 0);
    REQUIRE(rows.size() == 5);
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const trace::WarpShuffle& shuffle = loaded->trace.shuffles[rows[r]];
        const std::uint32_t offset = 1u << r;
        CHECK(shuffle.kind == trace::ShuffleKind::up);
        REQUIRE(shuffle.lanes.size() == 32);
        for (const trace::ShuffleLane& lane : shuffle.lanes)
            CHECK(lane.source == (lane.lane >= offset ? lane.lane - offset : lane.lane));
    }
    // The picture at the block's end shows the warp of its last instruction: every lane box of a
    // moved value in its source thread's colour; the lanes that kept their own value (1 + 2 + 4
    // + 8 + 16 of them) grey.
    const std::uint32_t warp =
        loaded->trace.instructions[loaded->index.block(0).instructions.back()].warp;
    const Picture picture =
        picture_of(quoted(path) + " --view shuffles --size 1400x600", "shuffles.png");
    CHECK(count_colour(picture, palette::kStaleCell) > 31 * 20);
    for (std::uint32_t source : {0u, 5u, 15u, 30u})
        CHECK(count_colour(picture, scaled(index_colour(warp * 32 + source), 0.62f)) > 20);
    // Lane 31 sends nothing up.
    CHECK(count_colour(picture, scaled(index_colour(warp * 32 + 31), 0.62f)) == 0);
    // A trace without shuffles says so instead.
    const Picture none = picture_of(quoted(fixture("hillis_steele_16.trace.json")) +
                                        " --view shuffles --size 800x300",
                                    "no_shuffles.png");
    CHECK(count_colour(none, palette::kStaleCell) == 0);
}

TEST_CASE("headless: the radix view of a lab 09 pass; refused for another kernel") {
    const auto pass = recorded("lab09.trace.3.json");
    if (!have_recorded(pass)) return;
    const trace::Trace trace = trace::read_trace_file(pass, viewer_limits());
    const RadixPassModel model = build_radix_pass_model(trace, 1);
    const std::uint32_t digit = model.keys.front().digit;
    const Picture picture = picture_of(quoted(pass) + " --view radix --block 1 --digit " +
                                           std::to_string(digit) + " --size 1300x760",
                                       "lab09_radix.png");
    // Every digit of the tile is drawn in its colour (the ranked grid and the scatter strips).
    std::size_t digits_drawn = 0;
    for (std::uint32_t d = 0; d < kRadixDigits; ++d)
        if (model.digits[d].keys > 0 && count_colour(picture, digit_colour(d)) > 0) ++digits_drawn;
    CHECK(digits_drawn == static_cast<std::size_t>(std::count_if(
                              model.digits.begin(), model.digits.end(),
                              [](const DigitLookBack& look) { return look.keys > 0; })));
    // The selected digit's keys are framed; the look-back's P read is drawn.
    CHECK(count_colour(picture, palette::kHighlight) > 0);
    CHECK(count_colour(picture, palette::kLookP) > 0);

    CHECK(view(quoted(recorded("lab09.trace.json")) + " --view radix --png " +
               quoted(scratch("refused.png"))) == 2);
    CHECK(last_stderr().find("onesweep_kernel") != std::string::npos);
    CHECK(view(quoted(pass) + " --view radix --digit 256 --png " +
               quoted(scratch("refused.png"))) == 2);
}

TEST_CASE("headless: the pipeline view of a lab 08 scan; refused without mbarriers") {
    const auto scan = recorded("lab08.trace.json");
    if (!have_recorded(scan)) return;
    const trace::Trace trace = trace::read_trace_file(scan, viewer_limits());
    const PipelineModel model = build_pipeline_model(trace, 0);
    const Picture picture = picture_of(quoted(scan) + " --view pipeline --block 0 --size 1500x640",
                                       "lab08_pipeline.png");
    // Every stage's fills are drawn in its colour.
    for (std::uint32_t s = 0; s < model.stages.size(); ++s) {
        CAPTURE(s);
        CHECK(count_colour(picture, stage_colour(s)) > 0);
    }
    CHECK(view(quoted(fixture("hillis_steele_16.trace.json")) + " --view pipeline --png " +
               quoted(scratch("refused.png"))) == 2);
    CHECK(last_stderr().find("no mbarrier events") != std::string::npos);
}

TEST_CASE("headless: requests out of range are refused with a message") {
    const std::string trace = quoted(fixture("hillis_steele_16.trace.json"));
    const std::string png = " --png " + quoted(scratch("refused.png"));
    CHECK(view(trace + png + " --step 6") == 2);
    CHECK(last_stderr().find("0..5") != std::string::npos);
    CHECK(view(trace + png + " --instruction 1000") == 2);
    CHECK(view(trace + png + " --object nothing") == 2);
    CHECK(last_stderr().find("temp") != std::string::npos);
    CHECK(view(trace + png + " --view sideways") == 2);
    CHECK(view(trace + png + " --size 10") == 2);
    CHECK(view(trace + png + " --block 3") == 2);
}

} // namespace scanlab::view::test
