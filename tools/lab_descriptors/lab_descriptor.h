// What the tools know about a lab, written once per lab (tools/lab_descriptors/labNN.cpp): which
// functions to call, on what input, at which sizes, and the variants each tool shows. The main
// job (tools/run), the tracer and its GPU replay (tools/trace) and the GPU benchmark (bench/) all
// read these descriptors; none of them names a lab's functions itself. Adding a lab means its
// files under labs/ and solutions/ plus one descriptor file (docs/design.md, "Labs described
// once, for every tool").
//
// A descriptor file is compiled into each tool next to the lab's library (the student's or the
// solution's, for one backend): the calls are the lab's own templates, instantiated there. It
// ends with the description of the lab's graded functions for the grader's harness and worker
// (lab_remote.h), which is nothing in these tools.
#pragma once

#include <scanlab/scan_kind.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace scanlab::labs {

/// The value type a variant scans. Every tool but the benchmark's types table uses int32.
enum class ValueType { i32, f32, i64, f64 };

/// Calls `f.template operator()<T>()` with the C++ type T of `value` and returns its result: the
/// one place a ValueType becomes a type.
template <class F>
decltype(auto) with_value_type(ValueType value, F&& f) {
    switch (value) {
    case ValueType::i32:
        return f.template operator()<std::int32_t>();
    case ValueType::f32:
        return f.template operator()<float>();
    case ValueType::i64:
        return f.template operator()<std::int64_t>();
    case ValueType::f64:
        return f.template operator()<double>();
    }
    throw std::invalid_argument("not a ValueType: " + std::to_string(static_cast<int>(value)));
}

/// One call's operands: n elements of the variant's value type at in and out (device pointers,
/// or host pointers for a lab that runs on the host), and the kind of scan.
struct ScanCall {
    const void* in = nullptr;
    void* out = nullptr;
    std::int64_t n = 0;
    ScanKind kind = ScanKind::inclusive;
    /// Segmented labs only: a segment starts at element 0 and at every i with heads[i] != 0.
    const std::uint8_t* heads = nullptr;

    template <class T>
    const T* input() const {
        return static_cast<const T*>(in);
    }
    template <class T>
    T* output() const {
        return static_cast<T*>(out);
    }
};

/// Enqueues one scan on the legacy default stream (or, for a host lab, runs it).
using Call = std::function<void(const ScanCall&)>;

/// One way of calling a lab (lab 03 padded or unpadded, lab 07's descriptor layouts...).
struct Variant {
    std::string name = {}; // the tracer's --variant; "" for a lab's only variant
    ValueType value = ValueType::i32;
    Call call = {}; // each call on its own: the lab allocates what it needs
    /// A call that keeps the lab's temporary memory (its Workspace) from one call to the next,
    /// as its interface recommends for repeated calls; the memory goes with the returned Call.
    /// Empty: `call` keeps nothing.
    std::function<Call()> repeated = {};
    // What each tool shows of it. An empty text leaves the variant out of that tool.
    std::string trace_caption = {}; // "conflict_free_scan<Sum<int>>, exclusive" (the tracer)
    std::string run_title = {};     // a row of the main job: "conflict-free (padded Blelloch), ..."
    std::string bench_name = {};    // benchmark id, unique, no commas: "lab03.conflict_free_scan"
    std::string bench_label = {};   // the benchmark tables' text: "lab03 conflict_free_scan"
    /// True when a call waits for the GPU before it returns (it frees memory, say): the
    /// benchmark cannot hold the GPU while such calls are enqueued (bench/gpu_hold.h).
    bool waits_for_gpu = false;

    /// A call for repeated use: `repeated()` where the variant has one, else `call`.
    Call repeated_call() const { return repeated ? repeated() : call; }
};

/// A Call that runs scan(in, out, n, kind, rest...) on the variant's values, the signature the
/// one-call labs share (n converted to the function's own count type).
template <class T, class Count, class... Rest>
Call scan_call(void (*scan)(const T*, T*, Count, ScanKind, Rest...),
               std::type_identity_t<Rest>... rest) {
    return [scan, rest...](const ScanCall& c) {
        scan(c.input<T>(), c.output<T>(), static_cast<Count>(c.n), c.kind, rest...);
    };
}

/// `v` with its `call` and `repeated` made from one function f(const ScanCall&, Workspace*):
/// nullptr for a call on its own, a Workspace kept across calls for repeated ones.
template <class Workspace, class F>
Variant with_workspace(Variant v, F f) {
    v.call = [f](const ScanCall& c) { f(c, static_cast<Workspace*>(nullptr)); };
    v.repeated = [f]() -> Call {
        auto space = std::make_shared<Workspace>();
        return [f, space](const ScanCall& c) { f(c, space.get()); };
    };
    return v;
}

enum class Runs {
    host,   // a host function on host memory (lab 00): no kernel to trace or benchmark
    device, // enqueues kernels on the default stream
};

enum class Input {
    values,    // in -> out
    segmented, // in and head flags -> out, a scan that restarts at every head
    keys,      // in -> out sorted ascending (a stable sort of the int32 keys; `kind` unused)
};

struct LabDescriptor {
    std::string number = {}; // "03"
    Runs runs = Runs::device;
    Input input = Input::values;
    /// The most elements one call takes: a one-block lab's kMaxN; 0 for any n.
    std::int64_t max_n = 0;
    /// The kind the main job and the tracer run (the benchmark always times inclusive scans);
    /// unused by a sort (Input::keys).
    ScanKind shown_kind = ScanKind::inclusive;
    /// The main job scans this many independent slices of max_n elements, one call each (lab
    /// 01: 64 blocks, the emulator benchmark's workload); 1 for every other lab.
    int run_slices = 1;
    /// The main job's size for a lab of any n; 0: its default (2^18 elements on the emulator,
    /// 2^24 on a GPU). A one-block lab runs at max_n.
    std::int64_t run_n = 0;
    std::int64_t trace_n = 0;           // the tracer's default size
    std::vector<Variant> variants = {}; // the first is the default

    bool one_block() const { return max_n > 0; }
    /// The tracer's variant called `name` (empty: the first it records); nullptr if none is.
    const Variant* traced_variant(const std::string& name) const;
    /// "lab 03 variants: padded (default), unpadded" (or "lab 01 has no variants"), for a
    /// --variant that traced_variant() does not know.
    std::string traced_variant_list() const;
};

/// Every lab compiled into this program, in lab order.
const std::vector<LabDescriptor>& lab_descriptors();
/// The lab numbered `number` ("03"), or nullptr.
const LabDescriptor* find_lab(const std::string& number);

/// `RegisterLab lab03{describe()};` at namespace scope in a descriptor file adds the lab.
struct RegisterLab {
    explicit RegisterLab(LabDescriptor lab);
};

} // namespace scanlab::labs
