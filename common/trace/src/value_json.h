#pragma once

// Typed values in JSON. A scalar access is one JSON value, a vector access (width larger than the
// type) an array of them. Integers are numbers, 64-bit ones beyond 2^53 decimal strings; floats
// are shortest round-trip numbers, "-0.0", or the strings "inf", "-inf", "nan" (the default quiet
// NaN) and "nan:0x7fc00001" (any other NaN, by its bits), so every value reads back bit for bit.

#include <cstdint>

#include "json_path.h"
#include "json_read.h"
#include "json_writer.h"
#include "scanlab/trace/value.h"

namespace scanlab::trace::detail {

// Requires type != none and width a multiple of its size, at most 16.
void write_value(JsonWriter& out, ValueType type, std::uint32_t width, const ValueBytes& value);
ValueBytes read_value(const Json& json, ValueType type, std::uint32_t width, const Path& path);

} // namespace scanlab::trace::detail
