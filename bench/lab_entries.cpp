// The labs' benchmark entries, made from their descriptors: which table a variant is in follows
// from what the lab is (one block, segmented, another value type), and its repeated calls keep
// the lab's Workspace from the first call at a size until the run is over.
#include "bench.h"

#include <memory>

namespace scanlab::bench {
namespace {

constexpr std::int64_t kAnyN = std::int64_t(1) << 40;

Group group_of(const labs::LabDescriptor& lab, const labs::Variant& variant) {
    if (variant.value != ValueType::i32) return Group::types;
    if (lab.input == labs::Input::segmented) return Group::segmented;
    if (lab.input == labs::Input::keys) return Group::sort;
    return lab.one_block() ? Group::single_block : Group::global;
}

Entry entry_of(const labs::LabDescriptor& lab, const labs::Variant& variant) {
    Entry e;
    e.lab = lab.number;
    e.name = variant.bench_name;
    e.label = variant.bench_label;
    e.group = group_of(lab, variant);
    e.role = Role::lab;
    e.expect = lab.input == labs::Input::segmented ? Expect::segmented_inclusive
               : lab.input == labs::Input::keys    ? Expect::sorted
                                                   : Expect::inclusive;
    e.max_n = lab.one_block() ? lab.max_n : kAnyN;
    e.waits_for_gpu = variant.waits_for_gpu;
    e.value = variant.value;
    // The call that keeps the variant's temporary memory: made before the first call, dropped
    // (and the memory freed) after the last size.
    auto kept = std::make_shared<labs::Call>();
    const labs::Variant* v = &variant;
    e.prepare = [kept, v](std::int64_t) {
        if (!*kept) *kept = v->repeated_call();
    };
    e.call = [kept, typed = e.group == Group::types](const Operands& op) {
        labs::ScanCall call{.in = typed ? op.typed_in : op.in,
                            .out = typed ? op.typed_out : op.out,
                            .n = op.n,
                            .kind = ScanKind::inclusive,
                            .heads = op.heads};
        (*kept)(call);
    };
    e.release = [kept] { *kept = nullptr; };
    return e;
}

} // namespace

std::vector<Entry> lab_entries() {
    std::vector<Entry> all;
    for (const labs::LabDescriptor& lab : labs::lab_descriptors()) {
        if (lab.runs != labs::Runs::device) continue;
        for (const labs::Variant& variant : lab.variants)
            if (!variant.bench_name.empty()) all.push_back(entry_of(lab, variant));
    }
    return all;
}

} // namespace scanlab::bench
