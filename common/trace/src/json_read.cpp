#include "json_read.h"

#include <algorithm>
#include <charconv>
#include <limits>

namespace scanlab::trace::detail {

void fail(const Path& path, const std::string& detail) {
    throw TraceError(path.str(), detail);
}

std::string describe(const Json& value) {
    constexpr std::size_t kMaxShown = 60;
    switch (value.type()) {
    case Json::value_t::object:
        return "an object";
    case Json::value_t::array:
        return cat("an array of ", value.size(), " elements");
    case Json::value_t::null:
        return "null";
    case Json::value_t::boolean:
        return value.get<bool>() ? "true" : "false";
    case Json::value_t::string: {
        std::string text = value.dump();
        if (text.size() > kMaxShown) text = text.substr(0, kMaxShown) + "...\"";
        return "the string " + text;
    }
    default:
        return "the number " + value.dump();
    }
}

Fields::Fields(const Json& object, const Path& path, FieldList allowed)
    : object_(object), path_(path) {
    if (!object.is_object()) fail(path, "expected an object, got " + describe(object));
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (std::find(allowed.begin(), allowed.end(), it.key()) == allowed.end())
            fail(path / it.key(), "unknown field");
    }
}

const Json& Fields::required(std::string_view name) const {
    const Json* value = optional(name);
    if (!value) fail(path_, cat("missing field \"", name, '"'));
    return *value;
}

const Json* Fields::optional(std::string_view name) const {
    const auto it = object_.find(name);
    return it == object_.end() ? nullptr : &*it;
}

namespace {

std::uint64_t read_integer(const Json& value, const Path& path, bool allow_string) {
    if (value.is_number_unsigned()) return value.get<std::uint64_t>();
    if (value.is_number_integer()) fail(path, cat(value.get<std::int64_t>(), " is negative"));
    if (value.is_string() && allow_string) {
        const auto& text = value.get_ref<const std::string&>();
        std::uint64_t parsed = 0;
        const auto result = std::from_chars(text.data(), text.data() + text.size(), parsed);
        if (text.empty() || result.ec != std::errc() || result.ptr != text.data() + text.size())
            fail(path, describe(value) + " is not a non-negative decimal integer below 2^64");
        return parsed;
    }
    fail(path, "expected a non-negative integer, got " + describe(value));
}

} // namespace

std::uint64_t read_u64(const Json& value, const Path& path) {
    return read_integer(value, path, true);
}

std::uint32_t read_u32(const Json& value, const Path& path) {
    const std::uint64_t parsed = read_integer(value, path, false);
    if (parsed > std::numeric_limits<std::uint32_t>::max())
        fail(path, cat(parsed, " is out of range (at most 4294967295)"));
    return static_cast<std::uint32_t>(parsed);
}

std::string read_string(const Json& value, const Path& path) {
    if (!value.is_string()) fail(path, "expected a string, got " + describe(value));
    return value.get<std::string>();
}

const Json& read_array(const Json& value, const Path& path) {
    if (!value.is_array()) fail(path, "expected an array, got " + describe(value));
    return value;
}

} // namespace scanlab::trace::detail
