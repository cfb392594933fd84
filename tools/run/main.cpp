// The main job: runs every lab's reference solution on this backend and prints a table.
#include <cuda_runtime.h>

#include <cstdio>
#include <exception>
#include <random>
#include <string>

#include <CLI/CLI.hpp>
#include <scanlab/program_start.h>

#include "lab_descriptor.h"
#include "run_variant.h"

#ifdef SCANLAB_BACKEND_SIMT
#include "simt/options.h"
#endif

int main(int argc, char** argv) {
    using namespace scanlab::run;
#ifdef SCANLAB_BACKEND_SIMT
    const char* backend = "simt (CPU emulator)";
#else
    const char* backend = "cuda";
#endif
    if (!scanlab::take_emulator_flags(argc, argv)) return 2;
    uint64_t seed = std::random_device{}();
    CLI::App app{"Runs every lab's reference solution on this backend, checks it and prints a "
                 "table (`./scanlab run`)."};
    app.add_option("--seed", seed, "the inputs' random seed (default: a fresh one)");
#ifdef SCANLAB_BACKEND_SIMT
    app.footer("The emulator's flags are accepted too: --simt-mode=its|lockstep|pre-volta, "
               "--simt-dispatch=in-order|shuffled, --simt-seed=N (docs/emulator.md).");
#endif
    CLI11_PARSE(app, argc, argv);
    if (const std::string why = scanlab::missing_gpu(); !why.empty()) {
        std::printf("cuda backend: no GPU on this machine (%s), nothing to run\n", why.c_str());
        return 77;
    }
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, 0);
    std::printf("\nScan Lab: reference solutions on %s: %s (input seed %llu)\n", backend, prop.name,
                static_cast<unsigned long long>(seed));
#ifdef SCANLAB_BACKEND_SIMT
    std::printf("emulator: mode %s, dispatch %s, seed %llu\n",
                simt::to_string(simt::options().mode).c_str(),
                simt::to_string(simt::options().dispatch).c_str(),
                static_cast<unsigned long long>(simt::options().seed));
#endif
    std::printf("\n%-4s %-44s %-10s %10s %-8s %10s %12s\n", "lab", "what", "backend", "n",
                "correct", "time ms", "Melem/s");
    std::printf("%s\n", std::string(104, '-').c_str());
    int failures = 0, rows = 0;
    for (const scanlab::labs::LabDescriptor& lab : scanlab::labs::lab_descriptors()) {
        for (const scanlab::labs::Variant& variant : lab.variants) {
            if (variant.run_title.empty()) continue;
            ++rows;
            std::printf("%-4s %-44s ", lab.number.c_str(), variant.run_title.c_str());
            std::fflush(stdout);
            RunResult r;
            try {
                r = run_variant(lab, variant, seed);
            } catch (const std::exception& ex) {
                r.correct = false;
                r.detail = ex.what();
            }
            if (!r.correct) ++failures;
            std::printf("%-10s %10lld %-8s %10.3f %12.2f\n",
                        std::string(backend).substr(0, std::string(backend).find(' ')).c_str(), r.n,
                        r.correct ? "yes" : "NO", r.ms, r.ms > 0 ? r.n / (r.ms * 1e3) : 0.0);
            if (!r.correct || !r.detail.empty()) std::printf("     %s\n", r.detail.c_str());
        }
    }
    std::printf("\n%d lab(s) run, %d incorrect\n", rows, failures);
    return failures == 0 ? 0 : 1;
}
