#include "conflict_free_scan.h"
#include "entry_helpers.h"

namespace {
using namespace scanlab::run;
using scanlab::ScanKind;

void padded(const int* in, int* out, long long n) {
    lab03::conflict_free_scan<scanlab::Sum<int>>(in, out, static_cast<int>(n), ScanKind::exclusive);
}
void unpadded(const int* in, int* out, long long n) {
    lab03::scan_unpadded<scanlab::Sum<int>>(in, out, static_cast<int>(n), ScanKind::exclusive);
}

RegisterLab lab03{
    {"03", "conflict-free (padded Blelloch), one block",
     [](uint64_t seed) { return time_device_scan(lab03::kMaxN, seed, ScanKind::exclusive, padded); },
     [](const RecordRequest& r) {
         const long long n = r.n > 0 ? r.n : 256;
         if (r.variant == "unpadded")
             return record_device_scan(n, r.seed, unpadded,
                                       "lab 03: scan_unpadded<Sum<int>>, exclusive");
         if (!r.variant.empty() && r.variant != "padded")
             throw std::invalid_argument("lab 03 variants: padded (default), unpadded");
         return record_device_scan(n, r.seed, padded,
                                   "lab 03: conflict_free_scan<Sum<int>>, exclusive");
     }}};
} // namespace
