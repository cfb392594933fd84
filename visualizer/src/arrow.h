#pragma once

// An arrow from `from` to `to` with a filled head of `head` pixels: the array view's memory
// dataflow and the shuffle view's register dataflow.

#include <cmath>

#include <imgui.h>

namespace scanlab::view {

inline void draw_arrow(ImDrawList* list, ImVec2 from, ImVec2 to, ImU32 colour, float thickness,
                       float head) {
    const float dx = to.x - from.x;
    const float dy = to.y - from.y;
    const float length = std::sqrt(dx * dx + dy * dy);
    if (length < 1.0f) return;
    const float ux = dx / length;
    const float uy = dy / length;
    const ImVec2 base{to.x - ux * head, to.y - uy * head};
    list->AddLine(from, base, colour, thickness);
    const ImVec2 left{base.x - uy * head * 0.5f, base.y + ux * head * 0.5f};
    const ImVec2 right{base.x + uy * head * 0.5f, base.y - ux * head * 0.5f};
    list->AddTriangleFilled(to, left, right, colour);
}

} // namespace scanlab::view
