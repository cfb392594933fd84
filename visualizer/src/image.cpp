#include "image.h"

#include <cstring>
#include <stdexcept>

#include <GL/gl.h>
#include <stb_image_write.h>

namespace scanlab::view {

void write_png(const RgbaImage& image, const std::filesystem::path& path) {
    if (!stbi_write_png(path.c_str(), image.width, image.height, 4, image.pixels.data(),
                        image.width * 4))
        throw std::runtime_error("cannot write " + path.string());
}

RgbaImage read_framebuffer(int width, int height) {
    RgbaImage image{width, height, std::vector<std::uint8_t>(std::size_t(width) * height * 4)};
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, image.pixels.data());
    // OpenGL's rows start at the bottom.
    const std::size_t row = std::size_t(width) * 4;
    std::vector<std::uint8_t> swap(row);
    for (int y = 0; y < height / 2; ++y) {
        std::uint8_t* top = image.pixels.data() + y * row;
        std::uint8_t* bottom = image.pixels.data() + (height - 1 - y) * row;
        std::memcpy(swap.data(), top, row);
        std::memcpy(top, bottom, row);
        std::memcpy(bottom, swap.data(), row);
    }
    for (std::size_t i = 3; i < image.pixels.size(); i += 4) image.pixels[i] = 255;
    return image;
}

} // namespace scanlab::view
