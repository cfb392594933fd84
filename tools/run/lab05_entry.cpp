#include "entry_helpers.h"
#include "warp_scan.h"

namespace {
using namespace scanlab::run;
using scanlab::ScanKind;

constexpr long long kRunN = kOnEmulator ? (1 << 18) : (1 << 24);

void global_scan(const int* in, int* out, long long n) {
    lab05::scan<scanlab::Sum<int>>(in, out, n, ScanKind::inclusive);
}

RegisterLab lab05{
    {"05", "warp-synchronous: shuffles, 16 items/thread",
     [](uint64_t seed) { return time_device_scan(kRunN, seed, ScanKind::inclusive, global_scan); },
     [](const RecordRequest& r) {
         return record_device_scan(r.n > 0 ? r.n : 8192, r.seed, global_scan,
                                   "lab 05: scan<Sum<int>>, inclusive");
     }}};
} // namespace
