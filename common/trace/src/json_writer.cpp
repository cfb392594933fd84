#include "json_writer.h"

#include "scanlab/trace/error.h"
#include "text.h"

namespace scanlab::trace::detail {
namespace {

// Integers up to 2^53 survive a round trip through a double, which is how many JSON readers
// (JavaScript, Python's float fallback) hold numbers.
constexpr std::uint64_t kMaxExactInteger = std::uint64_t{1} << 53;

// Length of the valid UTF-8 sequence at the start of `s`, or 0 if it is not one. Rejects what
// RFC 3629 forbids: overlong forms, surrogates, code points above U+10FFFF.
std::size_t utf8_sequence_length(std::string_view s) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
    const unsigned char lead = byte(0);
    std::size_t length = 0;
    unsigned char low = 0x80;
    unsigned char high = 0xbf;
    if (lead < 0x80) return 1;
    if (lead >= 0xc2 && lead <= 0xdf)
        length = 2;
    else if (lead >= 0xe0 && lead <= 0xef) {
        length = 3;
        if (lead == 0xe0) low = 0xa0;
        if (lead == 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
        length = 4;
        if (lead == 0xf0) low = 0x90;
        if (lead == 0xf4) high = 0x8f;
    } else
        return 0;
    if (s.size() < length) return 0;
    if (byte(1) < low || byte(1) > high) return 0;
    for (std::size_t i = 2; i < length; ++i)
        if (byte(i) < 0x80 || byte(i) > 0xbf) return 0;
    return length;
}

} // namespace

void JsonWriter::open(char bracket, Layout layout) {
    before_value();
    buffer_ += bracket;
    frames_.push_back({layout});
    if (layout == Layout::lines) ++line_depth_;
}

void JsonWriter::close(char bracket) {
    const Frame frame = frames_.back();
    frames_.pop_back();
    if (frame.layout == Layout::lines) {
        --line_depth_;
        if (!frame.empty) {
            buffer_ += '\n';
            indent(line_depth_);
        }
    }
    buffer_ += bracket;
    flush_if_large();
}

void JsonWriter::before_value() {
    if (frames_.empty()) return;
    Frame& frame = frames_.back();
    if (frame.after_key) {
        frame.after_key = false;
        return;
    }
    if (!frame.empty) buffer_ += ',';
    if (frame.layout == Layout::lines) {
        buffer_ += '\n';
        indent(line_depth_);
    } else if (!frame.empty) {
        buffer_ += ' ';
    }
    frame.empty = false;
}

void JsonWriter::indent(std::size_t depth) {
    buffer_.append(2 * depth, ' ');
}

JsonWriter& JsonWriter::key(std::string_view name) {
    before_value();
    quoted(name);
    buffer_ += ": ";
    frames_.back().after_key = true;
    return *this;
}

void JsonWriter::null() {
    before_value();
    buffer_ += "null";
}

void JsonWriter::string(std::string_view text) {
    before_value();
    quoted(text);
}

void JsonWriter::quoted(std::string_view text) {
    static constexpr char kHex[] = "0123456789abcdef";
    buffer_ += '"';
    while (!text.empty()) {
        const unsigned char c = static_cast<unsigned char>(text[0]);
        if (c == '"' || c == '\\') {
            buffer_ += '\\';
            buffer_ += static_cast<char>(c);
        } else if (c == '\n') {
            buffer_ += "\\n";
        } else if (c == '\t') {
            buffer_ += "\\t";
        } else if (c == '\r') {
            buffer_ += "\\r";
        } else if (c < 0x20) {
            buffer_ += "\\u00";
            buffer_ += kHex[c >> 4];
            buffer_ += kHex[c & 15];
        } else {
            const std::size_t length = utf8_sequence_length(text);
            if (length == 0) {
                buffer_ += "\xef\xbf\xbd";
                text.remove_prefix(1);
                continue;
            }
            buffer_.append(text.substr(0, length));
            text.remove_prefix(length);
            continue;
        }
        text.remove_prefix(1);
    }
    buffer_ += '"';
}

void JsonWriter::number(std::uint64_t value) {
    before_value();
    append(buffer_, value);
}

void JsonWriter::number(std::int64_t value) {
    before_value();
    append(buffer_, value);
}

void JsonWriter::exact(std::uint64_t value) {
    if (value <= kMaxExactInteger) return number(value);
    before_value();
    buffer_ += '"';
    append(buffer_, value);
    buffer_ += '"';
}

void JsonWriter::exact(std::int64_t value) {
    const std::uint64_t magnitude =
        value < 0 ? ~static_cast<std::uint64_t>(value) + 1 : static_cast<std::uint64_t>(value);
    if (magnitude <= kMaxExactInteger) return number(value);
    before_value();
    buffer_ += '"';
    append(buffer_, value);
    buffer_ += '"';
}

void JsonWriter::boolean(bool value) {
    before_value();
    buffer_ += value ? "true" : "false";
}

void JsonWriter::raw_number(std::string_view text) {
    before_value();
    buffer_ += text;
}

void JsonWriter::flush_if_large() {
    if (buffer_.size() < (std::size_t{1} << 20)) return;
    out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    buffer_.clear();
}

void JsonWriter::finish() {
    buffer_ += '\n';
    out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    buffer_.clear();
    out_.flush();
    if (!out_) throw TraceError("", "writing the trace failed (stream error)");
}

} // namespace scanlab::trace::detail
