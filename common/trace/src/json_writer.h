#pragma once

// A streaming JSON emitter with a fixed layout, so that equal input gives byte-identical text.
// Containers are written inline ({"a": 1, "b": 2}) or with one element per line, indented by
// the number of such containers open.

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace scanlab::trace::detail {

enum class Layout { inline_, lines };

class JsonWriter {
  public:
    explicit JsonWriter(std::ostream& out) : out_(out) {}

    void begin_object(Layout layout = Layout::inline_) { open('{', layout); }
    void end_object() { close('}'); }
    void begin_array(Layout layout = Layout::inline_) { open('[', layout); }
    void end_array() { close(']'); }

    // The key of the open object's next member; its value is written next, so that a member
    // reads as one line: out.key("size").exact(size).
    JsonWriter& key(std::string_view name);
    void null();
    void boolean(bool value);
    // Text as a JSON string; bytes that are not valid UTF-8 become U+FFFD, because JSON readers
    // reject them (a student's file may hold Latin-1).
    void string(std::string_view text);
    void number(std::uint64_t value);
    void number(std::int64_t value);
    void number(std::uint32_t value) { number(std::uint64_t{value}); }
    // A 64-bit integer that JSON readers keep exact: a number up to 2^53, a decimal string above.
    void exact(std::uint64_t value);
    void exact(std::int64_t value);
    // Pre-formatted number text (std::to_chars output).
    void raw_number(std::string_view text);

    // Ends the document and flushes; throws TraceError when the stream failed.
    void finish();

  private:
    struct Frame {
        Layout layout;
        bool empty = true;
        bool after_key = false;
    };

    void open(char bracket, Layout layout);
    void close(char bracket);
    void before_value();
    void quoted(std::string_view text);
    void indent(std::size_t depth);
    void flush_if_large();

    std::ostream& out_;
    std::string buffer_;
    std::vector<Frame> frames_;
    std::size_t line_depth_ = 0; // open containers with one element per line: the indentation
};

} // namespace scanlab::trace::detail
