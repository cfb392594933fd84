#include "canvas.h"

#include <algorithm>
#include <cmath>

namespace scanlab::view {

namespace {
constexpr float kMinZoom = 0.02f;
constexpr float kMaxZoom = 64.0f;
} // namespace

void Canvas::begin(const char* id, ImVec2 size, bool zoom_y) {
    zoom_y_ = zoom_y;
    size.x = std::max(size.x, 1.0f);
    size.y = std::max(size.y, 1.0f);
    min_ = ImGui::GetCursorScreenPos();
    max_ = {min_.x + size.x, min_.y + size.y};
    ImGui::InvisibleButton(id, size,
                           ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonMiddle);
    hovered_ = ImGui::IsItemHovered();
    clicked_ = false;
    const ImGuiIO& io = ImGui::GetIO();
    if (ImGui::IsItemActive() && (ImGui::IsMouseDragging(ImGuiMouseButton_Left) ||
                                  ImGui::IsMouseDragging(ImGuiMouseButton_Middle))) {
        dragging_ = true;
        pan_.x += io.MouseDelta.x;
        pan_.y += io.MouseDelta.y;
    }
    if (ImGui::IsItemDeactivated()) {
        clicked_ = hovered_ && !dragging_;
        dragging_ = false;
    }
    if (hovered_ && io.MouseWheel != 0.0f) zoom_by(std::pow(1.2f, io.MouseWheel), io.MousePos);
    if (hovered_ && io.MouseWheelH != 0.0f) pan_.x += io.MouseWheelH * 40.0f;
}

void Canvas::zoom_by(float factor, ImVec2 anchor) {
    const float zoom = std::clamp(zoom_ * factor, kMinZoom, kMaxZoom);
    const float applied = zoom / zoom_;
    zoom_ = zoom;
    // The content point under the anchor stays under it.
    pan_.x = anchor.x - min_.x - (anchor.x - min_.x - pan_.x) * applied;
    if (zoom_y_) pan_.y = anchor.y - min_.y - (anchor.y - min_.y - pan_.y) * applied;
}

void Canvas::reset() {
    zoom_ = 1.0f;
    pan_ = {0, 0};
    fit_ = true;
}

void Canvas::clamp(ImVec2 content) {
    const ImVec2 view = size();
    const float margin_x = std::min(view.x * 0.5f, 200.0f);
    const float margin_y = std::min(view.y * 0.5f, 200.0f);
    const float low_x = std::min(0.0f, view.x - content.x) - margin_x;
    const float low_y = std::min(0.0f, view.y - content.y) - margin_y;
    pan_.x = std::clamp(pan_.x, low_x, margin_x);
    pan_.y = std::clamp(pan_.y, low_y, margin_y);
}

void Canvas::reveal_y(float top, float bottom, float margin) {
    const float view = size().y;
    if (top + pan_.y < margin)
        pan_.y = margin - top;
    else if (bottom + pan_.y > view - margin)
        pan_.y = std::max(view - margin - bottom, margin - top);
}

} // namespace scanlab::view
