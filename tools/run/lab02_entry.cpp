#include "entry_helpers.h"
#include "work_efficient_scan.h"

namespace {
using namespace scanlab::run;
using scanlab::ScanKind;

void scan(const int* in, int* out, long long n) {
    lab02::work_efficient_scan<scanlab::Sum<int>>(in, out, static_cast<int>(n),
                                                  ScanKind::exclusive);
}

RegisterLab lab02{
    {"02", "work-efficient (Blelloch), one block",
     [](uint64_t seed) { return time_device_scan(lab02::kMaxN, seed, ScanKind::exclusive, scan); },
     [](const RecordRequest& r) {
         return record_device_scan(r.n > 0 ? r.n : 16, r.seed, scan,
                                   "lab 02: work_efficient_scan<Sum<int>>, exclusive");
     }}};
} // namespace
