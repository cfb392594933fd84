// Attack (issue 32): the lab's code sees every call, so it records the sizes it is called with,
// in its memory and in files every later process of the submission's user could read, and fails
// a call with what it saw once it has seen a size only the hidden tests use (777): if the hidden
// cases ran first, in the same process, or left their record where a visible case finds it, the
// visible cases' output would carry it.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace spy {

inline bool seen_in_memory = false;

inline const char* const kPlaces[] = {"/tmp/scanlab-spy", "/var/tmp/scanlab-spy",
                                      "/dev/shm/scanlab-spy"};

inline void record(int n) {
    if (n == 777) {
        seen_in_memory = true;
        for (const char* place : kPlaces)
            if (std::FILE* f = std::fopen(place, "a")) {
                std::fputs("hidden size 777\n", f);
                std::fclose(f);
            }
    }
    bool seen_on_disk = false;
    for (const char* place : kPlaces)
        if (std::FILE* f = std::fopen(place, "r")) {
            seen_on_disk = true;
            std::fclose(f);
        }
    if (seen_in_memory || seen_on_disk)
        throw std::runtime_error(std::string("SPY-SAW-HIDDEN: a hidden case called n = 777") +
                                 (seen_on_disk ? " (on disk)" : " (in memory)"));
}

} // namespace spy
