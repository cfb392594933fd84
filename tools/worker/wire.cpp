#include "wire.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

namespace scanlab::remote {

void Writer::u64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) bytes_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

void Writer::block(const void* data, std::size_t size) {
    u64(size);
    const auto* p = static_cast<const std::uint8_t*>(data);
    bytes_.insert(bytes_.end(), p, p + size);
}

const std::uint8_t* Reader::take(std::uint64_t size) {
    if (size > bytes_.size() - at_) throw WireError("a message ends early");
    const std::uint8_t* p = bytes_.data() + at_;
    at_ += static_cast<std::size_t>(size);
    return p;
}

std::uint8_t Reader::u8() {
    return *take(1);
}

std::uint64_t Reader::u64() {
    const std::uint8_t* p = take(8);
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= std::uint64_t{p[i]} << (8 * i);
    return v;
}

std::vector<std::uint8_t> Reader::block(std::uint64_t limit) {
    const std::uint64_t size = u64();
    if (size > limit) throw WireError("a block in a message is larger than allowed");
    const std::uint8_t* p = take(size);
    return {p, p + size};
}

std::string Reader::string(std::uint64_t limit) {
    const std::vector<std::uint8_t> b = block(limit);
    return {b.begin(), b.end()};
}

std::uint64_t Reader::count(std::uint64_t limit) {
    const std::uint64_t n = u64();
    if (n > limit) throw WireError("a list in a message is longer than allowed");
    return n;
}

static bool write_all(int fd, const std::uint8_t* p, std::size_t size) {
    while (size > 0) {
        const ssize_t n = ::write(fd, p, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

bool send_message(int fd, const std::vector<std::uint8_t>& message) {
    Writer header;
    header.u64(message.size());
    return write_all(fd, header.bytes().data(), header.bytes().size()) &&
           write_all(fd, message.data(), message.size());
}

namespace {

using Clock = std::chrono::steady_clock;

// Reads exactly `size` bytes unless the deadline passes or the writer closes.
Received read_all(int fd, std::uint8_t* p, std::size_t size, bool limited,
                  Clock::time_point deadline) {
    while (size > 0) {
        int wait_ms = -1;
        if (limited) {
            const auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
            if (left.count() <= 0) return Received::timed_out;
            wait_ms = static_cast<int>(std::min<long long>(left.count(), 1 << 30));
        }
        pollfd waiting{fd, POLLIN, 0};
        const int ready = ::poll(&waiting, 1, wait_ms);
        if (ready < 0 && errno == EINTR) continue;
        if (ready < 0) return Received::closed;
        if (ready == 0) continue; // the deadline is checked above
        const ssize_t n = ::read(fd, p, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return Received::closed;
        p += n;
        size -= static_cast<std::size_t>(n);
    }
    return Received::message;
}

} // namespace

Received receive_message(int fd, std::vector<std::uint8_t>& message, double timeout_s,
                         std::uint64_t max_bytes) {
    const bool limited = timeout_s > 0;
    const auto deadline =
        Clock::now() + std::chrono::milliseconds(static_cast<long long>(timeout_s * 1000));
    std::uint8_t header[8];
    if (const Received r = read_all(fd, header, 8, limited, deadline); r != Received::message)
        return r;
    std::uint64_t size = 0;
    for (int i = 0; i < 8; ++i) size |= std::uint64_t{header[i]} << (8 * i);
    if (size > max_bytes) throw WireError("a message is larger than allowed");
    message.assign(static_cast<std::size_t>(size), 0);
    return read_all(fd, message.data(), message.size(), limited, deadline);
}

} // namespace scanlab::remote
