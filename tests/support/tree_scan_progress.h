// Labs 02 and 03 grade a Blelloch tree in one thread block (up to 2048 elements) on the same
// sizes, and read the same thing into a size that fails after smaller ones passed.
#pragma once

#include <string>

namespace scanlab::test {

/// In increasing order, so that a failure names the smallest size that shows the mistake:
/// 0..8: edge cases and a tiny tree; 31..33: around a warp; non-powers of two of every scale
/// (3, 5, 100, 255, 1000, 1500, 2047) need identity padding; 1024 is the last size one element
/// per thread could do, 1025.. need two; 2048 = the labs' kMaxN.
inline constexpr int kTreeScanSizes[] = {0,   1,   2,   3,    5,    8,    31,   32,   33,  100,
                                         255, 256, 257, 1000, 1024, 1025, 1500, 2047, 2048};

/// The sizes that passed so far, and what a wrong result at the next one suggests.
class TreeScanProgress {
  public:
    void passed(int n) {
        if (is_power_of_two(n)) a_power_of_two_passed_ = true;
        largest_passed_ = n;
    }

    /// The usual mistake a wrong result at n points to, for blocks of at most max_threads
    /// threads; empty if the sizes that passed say nothing more.
    std::string hint(int n, int max_threads) const {
        if (n > max_threads && largest_passed_ >= max_threads)
            return "every size up to " + std::to_string(max_threads) +
                   " passed, this one has more elements than a block has threads: each thread "
                   "must load, scan and store TWO elements (t and t + m/2), with m/2 threads for "
                   "m leaves";
        if (!is_power_of_two(n) && a_power_of_two_passed_)
            return "n = " + std::to_string(n) +
                   " is not a power of two, and the powers of two before it passed: build the "
                   "tree on m = the next power of two leaves, give the leaves n..m-1 "
                   "Op::identity(), and guard every load from `in` and store to `out` with "
                   "index < n";
        return "";
    }

  private:
    static constexpr bool is_power_of_two(int n) { return n > 0 && (n & (n - 1)) == 0; }

    bool a_power_of_two_passed_ = false;
    int largest_passed_ = -1;
};

} // namespace scanlab::test
