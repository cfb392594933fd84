// Attack (issue 32): the lab's code fills the places every process may write with files (its
// working folder, /tmp, /dev/shm), 8 MiB at a time, until a write fails or it has written
// HOG_TOTAL_MIB in each: RAM-backed files are memory outside the address-space limit, and disk
// has no quota of its own. It says on stderr how far it got in each place.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace hog {

constexpr long kTotalMib = 512;
constexpr long kChunkMib = 8;

inline long fill(const std::string& folder) {
    std::vector<char> chunk(static_cast<std::size_t>(kChunkMib) << 20, 'h');
    long written = 0;
    for (int file = 0; written < kTotalMib; ++file) {
        const std::string path = folder + "/scanlab-hog-" + std::to_string(file);
        std::FILE* f = std::fopen(path.c_str(), "wb");
        if (!f) break;
        const bool ok = std::fwrite(chunk.data(), 1, chunk.size(), f) == chunk.size();
        if (std::fclose(f) != 0 || !ok) break;
        written += kChunkMib;
    }
    return written;
}

inline void run_once() {
    static bool done = false;
    if (done) return;
    done = true;
    const char* home = std::getenv("HOME");
    for (const std::string folder : {std::string(home ? home : "."), std::string("/tmp"),
                                     std::string("/dev/shm")})
        std::fprintf(stderr, "HOG: %ld MiB written to %s\n", fill(folder), folder.c_str());
}

} // namespace hog
