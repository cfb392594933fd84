// The byte format between the graded tests' harness and the worker that runs a student's lab
// code (tools/worker/README.md): messages of little-endian integers, strings and byte blocks,
// each message framed by its length. The harness reads what a worker sends as untrusted input:
// every read is bounds-checked and a malformed message is an error, never a crash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace scanlab::remote {

/// A message that does not parse (or a frame over the size limit).
struct WireError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// The largest message either side accepts: more than any graded call ships.
inline constexpr std::uint64_t kMaxMessageBytes = std::uint64_t{1} << 31;

class Writer {
  public:
    void u8(std::uint8_t v) { bytes_.push_back(v); }
    void u64(std::uint64_t v);
    void i64(std::int64_t v) { u64(static_cast<std::uint64_t>(v)); }
    void block(const void* data, std::size_t size); // size, then the bytes
    void string(const std::string& s) { block(s.data(), s.size()); }
    const std::vector<std::uint8_t>& bytes() const { return bytes_; }

  private:
    std::vector<std::uint8_t> bytes_;
};

class Reader {
  public:
    explicit Reader(const std::vector<std::uint8_t>& bytes) : bytes_(bytes) {}
    std::uint8_t u8();
    std::uint64_t u64();
    std::int64_t i64() { return static_cast<std::int64_t>(u64()); }
    /// A block of at most `limit` bytes.
    std::vector<std::uint8_t> block(std::uint64_t limit = kMaxMessageBytes);
    std::string string(std::uint64_t limit = kMaxMessageBytes);
    /// A count that is at most `limit` (a list's length).
    std::uint64_t count(std::uint64_t limit);
    bool at_end() const { return at_ == bytes_.size(); }

  private:
    const std::uint8_t* take(std::uint64_t size);
    const std::vector<std::uint8_t>& bytes_;
    std::size_t at_ = 0;
};

/// Writes one framed message to `fd`; false if the other side is gone.
bool send_message(int fd, const std::vector<std::uint8_t>& message);

enum class Received { message, closed, timed_out };
/// Reads one framed message from `fd` into `message`, waiting at most `timeout_s` seconds for
/// all of it (0: no limit). Throws WireError for a frame over `max_bytes`.
Received receive_message(int fd, std::vector<std::uint8_t>& message, double timeout_s,
                         std::uint64_t max_bytes = kMaxMessageBytes);

} // namespace scanlab::remote
