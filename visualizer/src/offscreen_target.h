#pragma once

// An OpenGL framebuffer object of a fixed size: the headless mode draws its picture here, so the
// result does not depend on the (hidden) window or the screen size.

#include "image.h"

namespace scanlab::view {

class OffscreenTarget {
  public:
    // Needs a current OpenGL 3 context. Throws std::runtime_error if the framebuffer is incomplete.
    OffscreenTarget(int width, int height);
    ~OffscreenTarget();
    OffscreenTarget(const OffscreenTarget&) = delete;
    OffscreenTarget& operator=(const OffscreenTarget&) = delete;

    void bind() const;
    RgbaImage read() const;

  private:
    int width_ = 0;
    int height_ = 0;
    unsigned framebuffer_ = 0;
    unsigned colour_ = 0;
};

} // namespace scanlab::view
