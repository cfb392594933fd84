#pragma once

// Looking at screenshots: what colours a picture has, and the frames of the array view's cells.

#include <cstddef>
#include <filesystem>
#include <initializer_list>
#include <vector>

#include "image.h"
#include "palette.h"

namespace scanlab::view::test {

struct Picture {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> rgba;

    Rgb at(int x, int y) const {
        const std::size_t i = (std::size_t(y) * width + x) * 4;
        return {rgba[i], rgba[i + 1], rgba[i + 2]};
    }
};

Picture load_png(const std::filesystem::path& path); // empty picture when unreadable
Picture from_image(const RgbaImage& image);
std::size_t count_colour(const Picture& picture, Rgb colour);

// A cell frame: a 1-pixel rectangle outline of one of the frame colours.
struct Frame {
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0; // inclusive bounds
};
std::vector<Frame> cell_frames(const Picture& picture, std::initializer_list<Rgb> colours);
// Frames grouped into rows (same top edge), top to bottom: the number of frames in each.
std::vector<int> cells_per_row(const std::vector<Frame>& frames);

} // namespace scanlab::view::test
