#include "palette.h"

#include <algorithm>
#include <cmath>

namespace scanlab::view {

namespace {
std::uint8_t channel(float value) {
    return static_cast<std::uint8_t>(std::clamp(std::lround(value), 0L, 255L));
}
} // namespace

Rgb hsv_colour(float hue, float saturation, float value) {
    float r = 0, g = 0, b = 0;
    ImGui::ColorConvertHSVtoRGB(hue, saturation, value, r, g, b);
    return {channel(r * 255.0f), channel(g * 255.0f), channel(b * 255.0f)};
}

Rgb index_colour(std::uint32_t index) {
    // Golden-ratio steps around the hue circle: consecutive indices get far-apart hues.
    const double hue = std::fmod(index * 0.6180339887498949 + 0.05, 1.0);
    return hsv_colour(static_cast<float>(hue), 0.55f, 0.92f);
}

Rgb mix(Rgb a, Rgb b, float t) {
    t = std::clamp(t, 0.0f, 1.0f);
    return {channel(a.r + (b.r - a.r) * t), channel(a.g + (b.g - a.g) * t),
            channel(a.b + (b.b - a.b) * t)};
}

Rgb heat_colour(std::uint64_t value, std::uint64_t max) {
    if (value == 0 || max == 0) return palette::kHeatCold;
    // A square root keeps small counts visible next to a very hot step.
    const float t = std::sqrt(static_cast<float>(value) / static_cast<float>(max));
    return mix(palette::kHeatCold, palette::kHeatHot, 0.25f + 0.75f * t);
}

Rgb scaled(Rgb colour, float factor) {
    return {channel(colour.r * factor), channel(colour.g * factor), channel(colour.b * factor)};
}

} // namespace scanlab::view
