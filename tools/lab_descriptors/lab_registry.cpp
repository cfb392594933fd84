// The one list of labs, filled by each descriptor file's RegisterLab before main() runs.
#include "lab_descriptor.h"

#include <algorithm>

namespace scanlab::labs {
namespace {

std::vector<LabDescriptor>& registry() {
    static std::vector<LabDescriptor> labs;
    return labs;
}

} // namespace

RegisterLab::RegisterLab(LabDescriptor lab) {
    auto& labs = registry();
    // Kept in lab order: static initialisation runs in link order, which says nothing.
    const auto at = std::upper_bound(labs.begin(), labs.end(), lab.number,
                                     [](const std::string& number, const LabDescriptor& other) {
                                         return number < other.number;
                                     });
    labs.insert(at, std::move(lab));
}

const std::vector<LabDescriptor>& lab_descriptors() {
    return registry();
}

const LabDescriptor* find_lab(const std::string& number) {
    for (const LabDescriptor& lab : registry())
        if (lab.number == number) return &lab;
    return nullptr;
}

const Variant* LabDescriptor::traced_variant(const std::string& name) const {
    for (const Variant& v : variants)
        if (!v.trace_caption.empty() && (name.empty() || v.name == name)) return &v;
    return nullptr;
}

std::string LabDescriptor::traced_variant_list() const {
    std::string list;
    for (const Variant& v : variants) {
        if (v.trace_caption.empty() || v.name.empty()) continue;
        list += (list.empty() ? " " : ", ") + v.name + (list.empty() ? " (default)" : "");
    }
    if (list.empty()) return "lab " + number + " has no variants";
    return "lab " + number + " variants:" + list;
}

} // namespace scanlab::labs
