#include "remote_call.h"

#include "remote_backend.h"

namespace scanlab::remote {
namespace {

constexpr std::uint64_t kMaxRegions = 64;
constexpr std::uint64_t kMaxArguments = 64;
constexpr std::uint64_t kMaxText = 1 << 20; // a message, a fault report
constexpr std::uint64_t kMaxLeak = std::uint64_t{1} << 40;
constexpr std::uint64_t kMaxTraces = 1024; // launches recorded in one call
constexpr std::uint64_t kMaxTraceBlocks = 1 << 20;
constexpr std::uint64_t kMaxFindings = 4096;    // of one fault report
constexpr std::uint64_t kMaxReturnedBytes = 64; // a value copied bit for bit

void write_memory(Writer& out, const Region& region) {
    out.block(region.contents.data(), region.contents.size());
    out.block(region.written.data(), region.written.size());
}

void read_memory(Reader& in, Region& region) {
    region.contents = in.block();
    region.written = in.block();
    // Device memory has one byte per word on the emulator, none on a GPU (remote_backend.h).
    const std::uint64_t words = (region.contents.size() + 3) / 4;
    const bool mapped = region.memory == Memory::device && backend::kEmulator;
    if (mapped ? region.written.size() != words : !region.written.empty())
        throw WireError("a region's written-word map does not match its size");
}

void write_object(Writer& out, const ObjectState& object) {
    out.u8(object.present ? 1 : 0);
    out.u64(object.numbers.size());
    for (const std::int64_t n : object.numbers) out.i64(n);
    out.u64(object.blocks.size());
    for (const Region& block : object.blocks) write_memory(out, block);
}

ObjectState read_object(Reader& in) {
    ObjectState object;
    object.present = in.u8() != 0;
    object.numbers.resize(in.count(kMaxArguments));
    for (std::int64_t& n : object.numbers) n = in.i64();
    object.blocks.resize(in.count(kMaxRegions));
    std::uint64_t bytes = 0;
    for (Region& block : object.blocks) {
        block.memory = Memory::device;
        read_memory(in, block);
        bytes += block.contents.size();
    }
    if (bytes > kMaxObjectBytes) throw WireError("an object holds more memory than any call needs");
    if (!object.present && (!object.numbers.empty() || !object.blocks.empty()))
        throw WireError("a null object with contents");
    return object;
}

Memory read_memory_kind(Reader& in) {
    const std::uint8_t kind = in.u8();
    if (kind > 1) throw WireError("unknown memory kind");
    return static_cast<Memory>(kind);
}

} // namespace

std::vector<std::uint8_t> encode(const Request& request) {
    Writer out;
    out.string(request.function);
    out.string(request.op);
    out.u64(request.regions.size());
    for (const Region& region : request.regions) {
        out.u64(region.base);
        out.u8(static_cast<std::uint8_t>(region.memory));
        write_memory(out, region);
    }
    out.u64(request.pointers.size());
    for (const std::uint64_t p : request.pointers) out.u64(p);
    out.u64(request.scalars.size());
    for (const std::int64_t s : request.scalars) out.i64(s);
    out.u64(request.objects.size());
    for (const ObjectState& object : request.objects) write_object(out, object);
    out.u64(request.simt_options.size());
    for (const std::int64_t n : request.simt_options) out.i64(n);
    out.u8(request.watching ? 1 : 0);
    out.u64(request.watched.size());
    for (const Watched& w : request.watched) {
        out.u8(static_cast<std::uint8_t>(w.role));
        out.u64(w.address);
        out.u64(w.bytes);
    }
    out.u8(request.tracing ? 1 : 0);
    out.u64(request.trace_blocks.size());
    for (const std::uint32_t block : request.trace_blocks) out.u64(block);
    out.u64(request.trace_max_instructions);
    return out.bytes();
}

Request decode_request(const std::vector<std::uint8_t>& bytes) {
    Reader in(bytes);
    Request request;
    request.function = in.string(kMaxText);
    request.op = in.string(kMaxText);
    request.regions.resize(in.count(kMaxRegions));
    for (Region& region : request.regions) {
        region.base = in.u64();
        region.memory = read_memory_kind(in);
        read_memory(in, region);
    }
    request.pointers.resize(in.count(kMaxArguments));
    for (std::uint64_t& p : request.pointers) p = in.u64();
    request.scalars.resize(in.count(kMaxArguments));
    for (std::int64_t& s : request.scalars) s = in.i64();
    request.objects.resize(in.count(kMaxArguments));
    for (ObjectState& object : request.objects) object = read_object(in);
    request.simt_options.resize(in.count(kMaxArguments));
    for (std::int64_t& n : request.simt_options) n = in.i64();
    request.watching = in.u8() != 0;
    request.watched.resize(in.count(kMaxRegions));
    for (Watched& w : request.watched) {
        const std::uint8_t role = in.u8();
        if (role > 1) throw WireError("unknown watch role");
        w.role = static_cast<WatchRole>(role);
        w.address = in.u64();
        w.bytes = in.u64();
    }
    request.tracing = in.u8() != 0;
    request.trace_blocks.resize(in.count(kMaxTraceBlocks));
    for (std::uint32_t& block : request.trace_blocks) {
        const std::uint64_t index = in.u64();
        if (index > UINT32_MAX) throw WireError("a traced block index out of range");
        block = static_cast<std::uint32_t>(index);
    }
    request.trace_max_instructions = in.u64();
    if (!in.at_end()) throw WireError("a request has bytes after its end");
    return request;
}

std::vector<std::uint8_t> encode(const Response& response) {
    Writer out;
    out.u8(static_cast<std::uint8_t>(response.thrown));
    out.string(response.message);
    out.u64(response.regions.size());
    for (const Region& region : response.regions) write_memory(out, region);
    out.u64(response.objects.size());
    for (const ObjectState& object : response.objects) write_object(out, object);
    out.block(response.returned.data(), response.returned.size());
    out.i64(response.errors.last);
    out.i64(response.errors.sticky);
    out.i64(response.errors.fault_kind);
    out.i64(response.errors.fault_error);
    out.string(response.errors.fault_message);
    out.string(response.errors.site_file);
    out.i64(response.errors.site_line);
    out.u64(response.errors.findings.size());
    for (const simt::remote::FindingSnapshot& finding : response.errors.findings) {
        out.i64(finding.kind);
        out.string(finding.message);
        out.string(finding.file);
        out.i64(finding.line);
        out.u8(finding.ends_launch ? 1 : 0);
    }
    out.string(response.provenance);
    out.u64(response.leaked_bytes);
    out.u64(response.traces.size());
    for (const std::string& trace : response.traces) out.string(trace);
    return out.bytes();
}

Response decode_response(const std::vector<std::uint8_t>& bytes, const Request& request) {
    Reader in(bytes);
    Response response;
    const std::uint8_t thrown = in.u8();
    if (thrown > static_cast<std::uint8_t>(Thrown::unknown))
        throw WireError("unknown exception kind");
    response.thrown = static_cast<Thrown>(thrown);
    response.message = in.string(kMaxText);
    if (in.u64() != request.regions.size())
        throw WireError("the answer has another number of regions than the call");
    response.regions.resize(request.regions.size());
    for (std::size_t i = 0; i < request.regions.size(); ++i) {
        Region& region = response.regions[i];
        region.base = request.regions[i].base;
        region.memory = request.regions[i].memory;
        read_memory(in, region);
        if (region.contents.size() != request.regions[i].contents.size())
            throw WireError("a region came back with another size");
    }
    if (in.u64() != request.objects.size())
        throw WireError("the answer has another number of objects than the call");
    for (const ObjectState& sent : request.objects) {
        response.objects.push_back(read_object(in));
        if (response.objects.back().present != sent.present)
            throw WireError("an object came back null or non-null that was not");
    }
    response.returned = in.block(kMaxReturnedBytes);
    // Error codes are small positive numbers; a fault kind is one of simt::FaultKind's (none on
    // a GPU).
    const auto code = [&](std::int64_t limit) {
        const std::int64_t v = in.i64();
        if (v < 0 || v > limit) throw WireError("an error code out of range");
        return static_cast<int>(v);
    };
    response.errors.last = code(100000);
    response.errors.sticky = code(100000);
    response.errors.fault_kind = code(backend::last_fault_kind());
    response.errors.fault_error = code(100000);
    response.errors.fault_message = in.string(kMaxText);
    response.errors.site_file = in.string(kMaxText);
    response.errors.site_line = code(INT32_MAX);
    response.errors.findings.resize(in.count(kMaxFindings));
    for (simt::remote::FindingSnapshot& finding : response.errors.findings) {
        finding.kind = code(backend::last_fault_kind());
        finding.message = in.string(kMaxText);
        finding.file = in.string(kMaxText);
        finding.line = code(INT32_MAX);
        finding.ends_launch = in.u8() != 0;
    }
    response.provenance = in.string(kMaxText);
    response.leaked_bytes = in.u64();
    if (response.leaked_bytes > kMaxLeak) throw WireError("a leak larger than any device");
    response.traces.resize(in.count(request.tracing ? kMaxTraces : 0));
    for (std::string& trace : response.traces) trace = in.string();
    if (!in.at_end()) throw WireError("an answer has bytes after its end");
    return response;
}

} // namespace scanlab::remote
