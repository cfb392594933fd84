#include "palette.h"

#include <algorithm>
#include <cmath>

namespace scanlab::view {

namespace {
std::uint8_t channel(float value) {
    return static_cast<std::uint8_t>(std::clamp(std::lround(value), 0L, 255L));
}
} // namespace

Rgb index_colour(std::uint32_t index) {
    const double hue = std::fmod(index * 0.6180339887498949 + 0.05, 1.0);
    const float h = static_cast<float>(hue) * 6.0f;
    const float s = 0.55f;
    const float v = 0.92f * 255.0f;
    const int sector = static_cast<int>(h) % 6;
    const float f = h - std::floor(h);
    const float p = v * (1 - s);
    const float q = v * (1 - s * f);
    const float t = v * (1 - s * (1 - f));
    switch (sector) {
    case 0:
        return {channel(v), channel(t), channel(p)};
    case 1:
        return {channel(q), channel(v), channel(p)};
    case 2:
        return {channel(p), channel(v), channel(t)};
    case 3:
        return {channel(p), channel(q), channel(v)};
    case 4:
        return {channel(t), channel(p), channel(v)};
    default:
        return {channel(v), channel(p), channel(q)};
    }
}

Rgb hsv_colour(float hue, float saturation, float value) {
    float r = 0, g = 0, b = 0;
    ImGui::ColorConvertHSVtoRGB(hue, saturation, value, r, g, b);
    return {static_cast<std::uint8_t>(r * 255), static_cast<std::uint8_t>(g * 255),
            static_cast<std::uint8_t>(b * 255)};
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
