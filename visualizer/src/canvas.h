#pragma once

// A zoomable, pannable drawing area for a view: the mouse wheel zooms around the pointer, a drag
// pans, +/- zoom around the centre and Home-like resets fit the content again. Views lay out
// their content from zoom() and draw it shifted by pan().

#include <imgui.h>

namespace scanlab::view {

class Canvas {
  public:
    // Claims `size` at the current ImGui cursor as one item and applies this frame's mouse input.
    // `zoom_y`: whether zooming also scales vertically (false for the timeline).
    void begin(const char* id, ImVec2 size, bool zoom_y = true);

    ImVec2 min() const { return min_; }
    ImVec2 max() const { return max_; }
    ImVec2 size() const { return {max_.x - min_.x, max_.y - min_.y}; }
    ImVec2 pan() const { return pan_; }
    float zoom() const { return zoom_; }
    bool hovered() const { return hovered_; }
    bool clicked() const { return clicked_; } // released without dragging
    bool needs_fit() const { return fit_; }
    void fitted() { fit_ = false; }

    void zoom_by(float factor, ImVec2 anchor);
    void zoom_by(float factor) { zoom_by(factor, {(min_.x + max_.x) / 2, (min_.y + max_.y) / 2}); }
    // Forget zoom and pan: the view fits its content again.
    void reset();
    // Keeps content of `content` pixels (at the current zoom) on screen.
    void clamp(ImVec2 content);
    // Moves the pan vertically so that content rows [top, bottom] are visible, if they fit.
    void reveal_y(float top, float bottom, float margin);

  private:
    ImVec2 min_{0, 0};
    ImVec2 max_{0, 0};
    ImVec2 pan_{0, 0};
    float zoom_ = 1.0f;
    bool zoom_y_ = true;
    bool hovered_ = false;
    bool clicked_ = false;
    bool dragging_ = false;
    bool fit_ = true;
};

} // namespace scanlab::view
