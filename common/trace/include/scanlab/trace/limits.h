#pragma once

#include <cstdint>

namespace scanlab::trace {

// Upper bounds a trace must respect. The reader refuses larger documents before they can take
// absurd memory, and the writer refuses to produce a trace the reader would refuse. The defaults
// are far above what a lab launch records (a few MB) and keep a loaded trace under ~2 GB.
struct Limits {
    std::uint64_t max_document_bytes = std::uint64_t{512} << 20;
    std::uint64_t max_sources = 1024;
    std::uint64_t max_source_lines = std::uint64_t{1} << 20; // over all files
    std::uint64_t max_memory_objects = std::uint64_t{1} << 16;
    std::uint64_t max_object_bytes = std::uint64_t{1} << 30; // a viewer may shadow an object
    std::uint64_t max_steps = std::uint64_t{1} << 20;
    std::uint64_t max_instructions = std::uint64_t{1} << 22;
    std::uint64_t max_lanes = std::uint64_t{1} << 24; // over all instructions
    std::uint64_t max_block_events = std::uint64_t{1} << 22;
    std::uint64_t max_findings = 4096; // the emulator reports at most 17 per launch
    std::uint64_t max_shuffles = std::uint64_t{1} << 22;
    std::uint64_t max_mbarrier_events = std::uint64_t{1} << 22;
    std::uint64_t max_expected_values = std::uint64_t{1} << 24; // over all objects
};

} // namespace scanlab::trace
