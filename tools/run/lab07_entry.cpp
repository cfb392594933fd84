#include "entry_helpers.h"
#include "lookback_scan.h"

namespace {
using namespace scanlab::run;
using scanlab::ScanKind;

constexpr long long kRunN = kOnEmulator ? (1 << 18) : (1 << 24);

void packed(const int* in, int* out, long long n) {
    lab07::scan<scanlab::Sum<int>>(in, out, n, ScanKind::inclusive,
                                   {lab07::TileIds::atomic_counter, lab07::Descriptors::packed});
}
void separate(const int* in, int* out, long long n) {
    lab07::scan<scanlab::Sum<int>>(in, out, n, ScanKind::inclusive,
                                   {lab07::TileIds::atomic_counter, lab07::Descriptors::separate});
}
void by_block_index(const int* in, int* out, long long n) {
    lab07::scan<scanlab::Sum<int>>(in, out, n, ScanKind::inclusive,
                                   {lab07::TileIds::block_index, lab07::Descriptors::packed});
}

std::string record(const RecordRequest& r) {
    const long long n = r.n > 0 ? r.n : 32768;
    if (r.variant.empty() || r.variant == "packed")
        return record_device_scan(n, r.seed, packed, "lab 07: look-back scan, packed descriptors");
    if (r.variant == "separate")
        return record_device_scan(n, r.seed, separate,
                                  "lab 07: look-back scan, separate descriptors");
    if (r.variant == "block-index")
        return record_device_scan(n, r.seed, by_block_index,
                                  "lab 07: look-back scan, tile id = blockIdx (try it with "
                                  "--simt-dispatch=shuffled)");
    throw std::invalid_argument("lab 07 variants: packed (default), separate, block-index");
}

RegisterLab lab07{{"07", "decoupled look-back, single pass",
                   [](uint64_t seed) {
                       return time_device_scan(kRunN, seed, ScanKind::inclusive, packed);
                   },
                   record}};
} // namespace
