// scanlab_replay_cuda: runs one lab's trace recipe on the GPU, exactly as `scanlab trace` runs it
// on the emulator, so that Nsight Compute can measure the same launches
// (scripts/ncu-bank-conflicts.sh --labs).
//   scanlab_replay_cuda LAB [--n N] [--variant V] [--seed S]
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>

#include "lab_descriptor.h"
#include "record.h"

int main(int argc, char** argv) {
    using namespace scanlab::run;
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s LAB [--n N] [--variant V] [--seed S]\n", argv[0]);
        return 2;
    }
    try {
        RecordRequest request;
        for (int i = 2; i + 1 < argc; i += 2) {
            std::string flag = argv[i];
            if (flag == "--n") request.n = std::stoll(argv[i + 1]);
            else if (flag == "--variant") request.variant = argv[i + 1];
            else if (flag == "--seed") request.seed = std::stoull(argv[i + 1]);
            else throw std::invalid_argument("unknown option " + flag);
        }
        std::string lab = argv[1];
        if (const scanlab::labs::LabDescriptor* entry = scanlab::labs::find_lab(lab)) {
            std::printf("%s\n", record_lab(*entry, request).c_str());
            return 0;
        }
        std::fprintf(stderr, "no lab %s\n", lab.c_str());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
}
