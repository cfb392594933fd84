// Lab 08's development benchmark: scanlab_bench's harness (main.cpp, report.cpp, the memcpy and
// CUB baselines) with these lab entries instead of the descriptors' (lab_entries.cpp): lab 07's
// solution and lab 08's solution, int32 sums in the global table and float, int64 and double sums
// in the types table, each type's lab 07 and lab 08 in the same rounds; lab 08 with the shape that
// scan() picks (DefaultShape) and, for int32, each explicit shape it picks from.
// scripts/bench-lab08.sh builds it with nvcc on a GPU machine.
#include "bench.h"

#include "../labs/07_decoupled_lookback/lookback_scan.h"
// The solution itself, so that every shape below is instantiated here.
#include "../solutions/08_hopper_scan/hopper_scan.cu"

#include <scanlab/operators.h>

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

namespace scanlab::bench {
namespace {

constexpr std::int64_t kAnyN = std::int64_t(1) << 40;

template <class T>
constexpr ValueType value_type_of() {
    if constexpr (std::is_same_v<T, std::int32_t>)
        return ValueType::i32;
    else if constexpr (std::is_same_v<T, float>)
        return ValueType::f32;
    else if constexpr (std::is_same_v<T, std::int64_t>)
        return ValueType::i64;
    else
        return ValueType::f64;
}

template <class T>
std::string type_suffix() {
    if constexpr (std::is_same_v<T, std::int32_t>)
        return "";
    else if constexpr (std::is_same_v<T, float>)
        return " float";
    else if constexpr (std::is_same_v<T, std::int64_t>)
        return " int64";
    else
        return " double";
}

// An entry of T sums: int32 in the global table, the other types in the types table (which hands
// the entry typed operands).
template <class T, class Workspace, class Scan>
Entry entry(std::string lab, std::string name, std::string label, Scan scan) {
    Entry e;
    e.lab = std::move(lab);
    e.value = value_type_of<T>();
    const bool typed = e.value != ValueType::i32;
    e.name = std::move(name) + type_suffix<T>();
    e.label = std::move(label) + type_suffix<T>();
    e.group = typed ? Group::types : Group::global;
    e.role = Role::lab;
    e.expect = Expect::inclusive;
    e.max_n = kAnyN;
    auto workspace = std::make_shared<std::unique_ptr<Workspace>>();
    e.prepare = [workspace](std::int64_t) {
        if (!*workspace) *workspace = std::make_unique<Workspace>();
    };
    e.call = [workspace, scan, typed](const Operands& op) {
        const T* in =
            typed ? static_cast<const T*>(op.typed_in) : reinterpret_cast<const T*>(op.in);
        T* out = typed ? static_cast<T*>(op.typed_out) : reinterpret_cast<T*>(op.out);
        scan(in, out, op.n, workspace->get());
    };
    e.release = [workspace] { workspace->reset(); };
    return e;
}

template <class Shape>
std::string shape_name() {
    if constexpr (std::is_same_v<Shape, lab08::DefaultShape>)
        return "default";
    else
        return "w" + std::to_string(Shape::kScannerWarps) + " s" + std::to_string(Shape::kStages) +
               " v" + std::to_string(Shape::kVectorsPerLane) + " l" +
               std::to_string(Shape::kLookBackWarps) + " b" +
               std::to_string(Shape::kMinBlocksPerSm);
}

template <class T, class Shape = lab08::DefaultShape>
Entry lab08_entry(const char* suffix) {
    return entry<T, lab08::Workspace>(
        "08", std::string("lab08.hopper_scan") + suffix, "lab08 " + shape_name<Shape>(),
        [](const T* in, T* out, std::int64_t n, lab08::Workspace* w) {
            lab08::scan<scanlab::Sum<T>, Shape>(in, out, n, ScanKind::inclusive, w);
        });
}

template <class T>
Entry lab07_entry() {
    return entry<T, lab07::Workspace>("07", "lab07.decoupled_lookback", "lab07 decoupled_lookback",
                                      [](const T* in, T* out, std::int64_t n, lab07::Workspace* w) {
                                          lab07::scan<scanlab::Sum<T>>(in, out, n,
                                                                       ScanKind::inclusive, {}, w);
                                      });
}

template <class T>
void add_type(std::vector<Entry>& all) {
    all.push_back(lab07_entry<T>());
    all.push_back(lab08_entry<T>(""));
}

} // namespace

std::vector<Entry> lab_entries() {
    std::vector<Entry> all;
    add_type<std::int32_t>(all);
    // The other shape scan() picks from (for 8-byte values), on int32 for comparison.
    all.push_back(lab08_entry<std::int32_t, lab08::EightByteShape>(".eight_byte_shape"));
    add_type<float>(all);
    add_type<std::int64_t>(all);
    add_type<double>(all);
    // The 4-byte values' shape on 8-byte values, for comparison.
    all.push_back(lab08_entry<std::int64_t, lab08::FourByteShape>(".four_byte_shape"));
    return all;
}

} // namespace scanlab::bench
