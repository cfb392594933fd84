#pragma once

// Where a field is inside the document, for error messages: "instructions[12].lanes[3].lane".
// A Path only points at its parent, so building one costs nothing until a message needs it.
// Keep every parent alive while a child is in use: name each level, do not chain into a variable.

#include <cstddef>
#include <string>
#include <string_view>

namespace scanlab::trace::detail {

class Path {
  public:
    explicit Path(std::string_view root) : key_(root) {}
    Path(const Path& parent, std::string_view key) : parent_(&parent), key_(key) {}
    Path(const Path& parent, std::size_t index)
        : parent_(&parent), index_(index), is_index_(true) {}

    Path operator/(std::string_view key) const { return Path(*this, key); }
    Path operator[](std::size_t index) const { return Path(*this, index); }

    std::string str() const;

  private:
    const Path* parent_ = nullptr;
    std::string_view key_;
    std::size_t index_ = 0;
    bool is_index_ = false;
};

} // namespace scanlab::trace::detail
