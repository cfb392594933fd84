#include "record.h"

#include "lab_input.h"

#include <scanlab/cuda_check.h>
#include <scanlab/device_buffer.h>

#include <limits>
#include <stdexcept>
#include <vector>

namespace scanlab::run {

const labs::Variant& traced_variant(const labs::LabDescriptor& lab, const RecordRequest& request) {
    const labs::Variant* variant = lab.traced_variant(request.variant);
    if (variant == nullptr) throw std::invalid_argument(lab.traced_variant_list());
    return *variant;
}

std::string record_lab(const labs::LabDescriptor& lab, const RecordRequest& request,
                       const std::function<void(const RecordedInput&)>& before_call) {
    if (lab.runs == labs::Runs::host)
        return "lab " + lab.number + " runs on the host: there is no kernel to trace";
    const labs::Variant& variant = traced_variant(lab, request);
    const long long n = request.n > 0 ? request.n : lab.trace_n;
    const bool sort = lab.input == labs::Input::keys;
    const std::vector<int> in =
        random_ints(n, request.seed, 0, sort ? std::numeric_limits<int>::max() : 9);
    DeviceBuffer<int> d_in(in), d_out(in.size());
    std::vector<std::uint8_t> heads;
    if (lab.input == labs::Input::segmented) heads = random_heads(n, request.seed);
    DeviceBuffer<std::uint8_t> d_heads(heads);
    if (before_call) before_call({in, heads, lab.shown_kind, d_out.data(), lab.input});
    variant.call({.in = d_in.data(),
                  .out = d_out.data(),
                  .n = n,
                  .kind = lab.shown_kind,
                  .heads = d_heads.size() > 0 ? d_heads.data() : nullptr});
    SCANLAB_CUDA_CHECK(cudaDeviceSynchronize());
    return "lab " + lab.number + ": " + variant.trace_caption + ", n = " + std::to_string(n);
}

} // namespace scanlab::run
