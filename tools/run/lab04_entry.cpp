#include "entry_helpers.h"
#include "multi_block_scan.h"

namespace {
using namespace scanlab::run;
using scanlab::ScanKind;

constexpr long long kRunN = kOnEmulator ? (1 << 18) : (1 << 24);

void propagate(const int* in, int* out, long long n) {
    lab04::scan_then_propagate<scanlab::Sum<int>>(in, out, n, ScanKind::inclusive);
}
void reduce_first(const int* in, int* out, long long n) {
    lab04::reduce_then_scan<scanlab::Sum<int>>(in, out, n, ScanKind::inclusive);
}

std::string record(const RecordRequest& r) {
    const long long n = r.n > 0 ? r.n : 4096;
    if (r.variant == "reduce-then-scan")
        return record_device_scan(n, r.seed, reduce_first,
                                  "lab 04: reduce_then_scan<Sum<int>>, inclusive");
    if (!r.variant.empty() && r.variant != "scan-then-propagate")
        throw std::invalid_argument("lab 04 variants: scan-then-propagate, reduce-then-scan");
    return record_device_scan(n, r.seed, propagate,
                              "lab 04: scan_then_propagate<Sum<int>>, inclusive");
}

RegisterLab lab04a{{"04", "multi-block: scan-then-propagate",
                    [](uint64_t seed) {
                        return time_device_scan(kRunN, seed, ScanKind::inclusive, propagate);
                    },
                    record}};
RegisterLab lab04b{{"04", "multi-block: reduce-then-scan",
                    [](uint64_t seed) {
                        return time_device_scan(kRunN, seed, ScanKind::inclusive, reduce_first);
                    },
                    record}};
} // namespace
