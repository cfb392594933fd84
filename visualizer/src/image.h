#pragma once

// An RGBA picture in memory, top row first, and its PNG file.

#include <cstdint>
#include <filesystem>
#include <vector>

namespace scanlab::view {

struct RgbaImage {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> pixels; // width * height * 4, rows from the top
};

// Throws std::runtime_error when the file cannot be written.
void write_png(const RgbaImage& image, const std::filesystem::path& path);

// The pixels of the bound framebuffer's region (0, 0, width, height), flipped to top-first.
RgbaImage read_framebuffer(int width, int height);

} // namespace scanlab::view
