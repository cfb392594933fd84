#include "picture.h"

#include <algorithm>
#include <map>

#include <stb_image.h>

namespace scanlab::view::test {

Picture load_png(const std::filesystem::path& path) {
    int width = 0, height = 0, channels = 0;
    stbi_uc* data = stbi_load(path.c_str(), &width, &height, &channels, 4);
    if (!data) return {};
    Picture picture{width, height,
                    std::vector<std::uint8_t>(data, data + std::size_t(width) * height * 4)};
    stbi_image_free(data);
    return picture;
}

Picture from_image(const RgbaImage& image) {
    return {image.width, image.height, image.pixels};
}

std::size_t count_colour(const Picture& picture, Rgb colour) {
    std::size_t n = 0;
    for (int y = 0; y < picture.height; ++y)
        for (int x = 0; x < picture.width; ++x)
            if (picture.at(x, y) == colour) ++n;
    return n;
}

std::vector<Frame> cell_frames(const Picture& picture, std::initializer_list<Rgb> colours) {
    const int w = picture.width;
    const int h = picture.height;
    std::vector<char> mask(std::size_t(w) * h, 0);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (Rgb c : colours)
                if (picture.at(x, y) == c) mask[std::size_t(y) * w + x] = 1;
    // 4-connected components; a frame is one whose pixels are (nearly) its bounding box's outline.
    std::vector<int> stack;
    std::vector<Frame> frames;
    for (int start = 0; start < w * h; ++start) {
        if (!mask[start]) continue;
        Frame box{start % w, start / w, start % w, start / w};
        std::size_t pixels = 0;
        stack.push_back(start);
        mask[start] = 0;
        while (!stack.empty()) {
            const int p = stack.back();
            stack.pop_back();
            ++pixels;
            const int x = p % w, y = p / w;
            box.x0 = std::min(box.x0, x);
            box.x1 = std::max(box.x1, x);
            box.y0 = std::min(box.y0, y);
            box.y1 = std::max(box.y1, y);
            const int next[4][2] = {{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}};
            for (const auto& n : next) {
                if (n[0] < 0 || n[1] < 0 || n[0] >= w || n[1] >= h) continue;
                const int q = n[1] * w + n[0];
                if (mask[q]) {
                    mask[q] = 0;
                    stack.push_back(q);
                }
            }
        }
        const int bw = box.x1 - box.x0 + 1;
        const int bh = box.y1 - box.y0 + 1;
        const std::size_t outline = 2 * std::size_t(bw) + 2 * std::size_t(bh) - 4;
        if (bw >= 6 && bh >= 6 && pixels >= outline * 9 / 10 && pixels <= outline)
            frames.push_back(box);
    }
    return frames;
}

std::vector<int> cells_per_row(const std::vector<Frame>& frames) {
    std::map<int, int> rows;
    for (const Frame& f : frames) ++rows[f.y0];
    std::vector<int> counts;
    for (const auto& [y, n] : rows) counts.push_back(n);
    return counts;
}

} // namespace scanlab::view::test
