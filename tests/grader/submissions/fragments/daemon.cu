#include <unistd.h>

#include <fstream>
#include <string>

namespace {

const bool started = [] {
    if (fork() == 0) {
        setsid();
        if (fork() == 0) {
            sleep(4);
            std::ofstream("@OUT@/results.json") << "{\"score\": 1000, \"tests\": []}\n";
            std::ofstream("@OUT@/daemon-was-here") << "yes\n";
        }
        _exit(0);
    }
    return true;
}();

} // namespace
