#pragma once

// The viewer's colours, in one place so that the legend, the views and the screenshot tests
// agree. Colours the tests look for in pictures (cell frames, the conflict colour, tile flags)
// are used for nothing else.

#include <cstdint>

#include <imgui.h>

#include "scanlab/trace/trace.h"

namespace scanlab::view {

struct Rgb {
    std::uint8_t r = 0;
    std::uint8_t g = 0;
    std::uint8_t b = 0;

    constexpr ImU32 u32(std::uint8_t alpha = 255) const { return IM_COL32(r, g, b, alpha); }
    bool operator==(const Rgb&) const = default;
};

// A colour for each tile status (trace::TileFlag): the timeline's flags, the look-back's reads.
struct FlagColours {
    Rgb x;
    Rgb a;
    Rgb p;

    constexpr Rgb of(trace::TileFlag flag) const {
        return flag == trace::TileFlag::A ? a : flag == trace::TileFlag::P ? p : x;
    }
};

namespace palette {
inline constexpr Rgb kBackground{28, 29, 34};
inline constexpr Rgb kPanel{38, 40, 47};
inline constexpr Rgb kText{225, 225, 230};
inline constexpr Rgb kDimText{140, 142, 150};
inline constexpr Rgb kGrid{62, 64, 74};

// Array view. Every drawn cell has a 1-pixel frame: kCellFrame, or kHighlight for the cells the
// selected instruction touched.
inline constexpr Rgb kCellFrame{97, 103, 141};
inline constexpr Rgb kHighlight{255, 214, 10};
inline constexpr Rgb kStaleCell{52, 54, 63};   // value carried over from an earlier step
inline constexpr Rgb kUnknownCell{36, 37, 43}; // value not known yet
inline constexpr Rgb kFutureRow{48, 50, 58};   // outline of a step not reached yet

// Bank view. kConflict marks the words of a bank that needs more than one wavefront.
inline constexpr Rgb kConflict{220, 50, 47};
inline constexpr Rgb kBankOk{42, 150, 140};
inline constexpr Rgb kBankEmpty{44, 46, 54};
// The heat strip runs from kHeatCold (no conflicts) to kHeatHot (the worst step); its colours
// never equal kConflict.
inline constexpr Rgb kHeatCold{50, 52, 70};
inline constexpr Rgb kHeatHot{255, 200, 0};

// Block timeline.
inline constexpr Rgb kBlockRun{70, 110, 170};
inline constexpr Rgb kBlockSelected{110, 160, 235};
inline constexpr Rgb kWaiting{200, 80, 200};
inline constexpr Rgb kFlagX{105, 105, 112};
inline constexpr Rgb kFlagA{232, 150, 38};
inline constexpr Rgb kFlagP{76, 178, 80};
inline constexpr Rgb kTimeCursor{255, 214, 10};
// The selected tile's look-back reads: the line from the reader, and the marks of what each read
// found (lighter than the flag colours, which the tests count as flags).
inline constexpr Rgb kLookLine{225, 232, 250};
inline constexpr Rgb kLookX{150, 150, 160};
inline constexpr Rgb kLookA{250, 190, 110};
inline constexpr Rgb kLookP{140, 215, 140};
inline constexpr FlagColours kFlags{kFlagX, kFlagA, kFlagP};
inline constexpr FlagColours kLooks{kLookX, kLookA, kLookP};

// The legend's samples of the colours above that screenshots are checked for: one step apart,
// so that a sample never counts as a cell, a conflict or a flag.
inline constexpr Rgb kLegendCellFrame{98, 104, 142};
inline constexpr Rgb kLegendHighlight{254, 213, 10};
inline constexpr Rgb kLegendConflict{221, 51, 48};
inline constexpr Rgb kLegendFlagX{106, 106, 113};
inline constexpr Rgb kLegendFlagA{233, 151, 39};
inline constexpr Rgb kLegendFlagP{77, 179, 81};
inline constexpr Rgb kLegendWaiting{201, 81, 201};
inline constexpr Rgb kLegendLookX{151, 151, 161};
inline constexpr Rgb kLegendLookA{251, 191, 111};
inline constexpr Rgb kLegendLookP{141, 216, 141};

// Findings (races, faults): the frame of the cells a selected finding's accesses touched.
inline constexpr Rgb kFinding{255, 60, 200};
inline constexpr Rgb kFindingText{255, 130, 200}; // their text (never a cell frame)
inline constexpr Rgb kLegendFinding{254, 61, 201};

// Values that differ from the trace's expected ones (a reference computed on the host): the
// frame of such cells, their text and the legend's swatch.
inline constexpr Rgb kWrong{255, 40, 40};
inline constexpr Rgb kWrongText{255, 110, 100};
inline constexpr Rgb kLegendWrong{254, 41, 41};

// Warp shuffles: lane boxes and the arrows from a source lane to the lanes that received it.
inline constexpr Rgb kLaneBox{60, 64, 82};

// Error banner.
inline constexpr Rgb kErrorBackground{120, 24, 30};
} // namespace palette

// A colour per thread or per warp: hues spread by the golden ratio, so that neighbours differ.
// Saturation and value keep every channel at 100 or more: never the conflict colour.
Rgb index_colour(std::uint32_t index);

// The colour of a hue (0..1, wrapping), saturation and value (0..1), as ImGui converts it.
Rgb hsv_colour(float hue, float saturation, float value);

// Linear blend of a and b, t in [0, 1].
Rgb mix(Rgb a, Rgb b, float t);

// The colour for `value` on the heat strip, where `max` is the hottest.
Rgb heat_colour(std::uint64_t value, std::uint64_t max);

// Darker (factor < 1) or lighter (> 1) version of a colour, clamped.
Rgb scaled(Rgb colour, float factor);

} // namespace scanlab::view
