// Tests of the worker mechanism's parts that need no second process: the byte format (an answer
// the harness cannot trust is rejected, never read past its end) and the emulator's side of
// shipping device memory and errors (simt/remote_state.h). tests/grader/test_worker.py runs it
// and grades the planted submissions through the harness and worker end to end.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include "remote_argument.h"
#include "remote_call.h"

#include <simt/options.h>
#include <simt/remote_state.h>
#include <simt/report.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <stdexcept>
#include <vector>

using namespace scanlab::remote;

namespace {

std::mt19937_64& rng() {
    static std::mt19937_64 engine(std::random_device{}());
    return engine;
}

std::vector<std::uint8_t> random_bytes(std::size_t n) {
    std::vector<std::uint8_t> bytes(n);
    for (auto& b : bytes) b = static_cast<std::uint8_t>(rng()());
    return bytes;
}

Request random_request() {
    Request request;
    request.function = "lab01::naive_scan";
    request.op = "sum int32";
    const std::size_t words = 1 + rng()() % 300;
    Region device;
    device.base = 0x7000'0000'0000 + 4096 * (rng()() % 1000);
    device.memory = Memory::device;
    device.contents = random_bytes(4 * words);
    device.written.resize(words);
    for (auto& w : device.written) w = rng()() % 2;
    Region host;
    host.base = 0x5000'0000'0000;
    host.memory = Memory::host;
    host.contents = random_bytes(rng()() % 100);
    request.regions = {device, host};
    request.pointers = {device.base, device.base + 8, 0};
    request.scalars = {static_cast<std::int64_t>(rng()()), -1};
    ObjectState workspace;
    workspace.present = true;
    workspace.numbers = {static_cast<std::int64_t>(rng()() % 1000), 1};
    Region block;
    block.memory = Memory::device;
    block.contents = random_bytes(4 * (1 + rng()() % 50));
    block.written.resize(block.contents.size() / 4);
    for (auto& w : block.written) w = rng()() % 3;
    workspace.blocks = {block};
    request.objects = {workspace, ObjectState{}};
    request.simt_options = simt::remote::options_numbers();
    request.watching = true;
    request.watched = {{WatchRole::input, device.base, 12}, {WatchRole::output, host.base, 4}};
    request.tracing = true;
    request.trace_blocks.resize(rng()() % 5);
    for (auto& block : request.trace_blocks) block = static_cast<std::uint32_t>(rng()());
    request.trace_max_instructions = rng()() % (std::uint64_t{1} << 22);
    return request;
}

Response answer_to(const Request& request) {
    Response response;
    response.thrown = Thrown::invalid_argument;
    response.message = "n must not be negative";
    for (const Region& region : request.regions) {
        Region back = region;
        back.contents = random_bytes(region.contents.size());
        response.regions.push_back(back);
    }
    response.errors.last = 1;
    response.errors.sticky = 700;
    response.errors.fault_kind = static_cast<int>(simt::FaultKind::shared_race);
    response.errors.fault_error = 700;
    response.errors.fault_message = "a race";
    response.errors.site_file = "warp_scan.cu";
    response.errors.site_line = 80;
    response.errors.findings = {
        {static_cast<int>(simt::FaultKind::global_race), "a race", "scan.cu", 12, false},
        {static_cast<int>(simt::FaultKind::plain_load_spin), "a spin", "scan.cu", 40, true}};
    // The workspace grew in the call; the null one stays null.
    for (const ObjectState& object : request.objects) {
        ObjectState back = object;
        if (back.present) {
            back.numbers[1] = 0;
            back.blocks[0].contents = random_bytes(back.blocks[0].contents.size() + 64);
            back.blocks[0].written.assign(back.blocks[0].contents.size() / 4, 2);
        }
        response.objects.push_back(back);
    }
    response.returned = random_bytes(16);
    response.provenance = "the output was written by host code";
    response.leaked_bytes = rng()() % (std::uint64_t{1} << 30);
    response.traces.resize(1 + rng()() % 3);
    for (auto& trace : response.traces) {
        const std::vector<std::uint8_t> bytes = random_bytes(rng()() % 500);
        trace.assign(bytes.begin(), bytes.end());
    }
    return response;
}

} // namespace

TEST_CASE("a request and its answer come through unchanged") {
    const Request request = random_request();
    const Request back = decode_request(encode(request));
    CHECK(back.function == request.function);
    CHECK(back.op == request.op);
    REQUIRE(back.regions.size() == request.regions.size());
    for (std::size_t i = 0; i < back.regions.size(); ++i) {
        CHECK(back.regions[i].base == request.regions[i].base);
        CHECK(back.regions[i].memory == request.regions[i].memory);
        CHECK(back.regions[i].contents == request.regions[i].contents);
        CHECK(back.regions[i].written == request.regions[i].written);
    }
    CHECK(back.pointers == request.pointers);
    CHECK(back.scalars == request.scalars);
    CHECK(back.watching);
    REQUIRE(back.watched.size() == 2);
    CHECK(back.watched[1].role == WatchRole::output);
    CHECK(back.watched[0].bytes == 12);
    CHECK(back.tracing);
    CHECK(back.trace_blocks == request.trace_blocks);
    CHECK(back.trace_max_instructions == request.trace_max_instructions);
    REQUIRE(back.objects.size() == 2);
    CHECK(back.objects[0].present);
    CHECK(back.objects[0].numbers == request.objects[0].numbers);
    REQUIRE(back.objects[0].blocks.size() == 1);
    CHECK(back.objects[0].blocks[0].contents == request.objects[0].blocks[0].contents);
    CHECK(back.objects[0].blocks[0].written == request.objects[0].blocks[0].written);
    CHECK_FALSE(back.objects[1].present);
    CHECK(back.simt_options == request.simt_options);

    const Response response = answer_to(request);
    const Response got = decode_response(encode(response), request);
    CHECK(got.thrown == Thrown::invalid_argument);
    CHECK(got.message == response.message);
    CHECK(got.regions[0].contents == response.regions[0].contents);
    CHECK(got.regions[0].written == response.regions[0].written);
    CHECK(got.errors.sticky == 700);
    CHECK(got.errors.fault_message == "a race");
    CHECK(got.provenance == response.provenance);
    CHECK(got.leaked_bytes == response.leaked_bytes);
    CHECK(got.traces == response.traces);
    REQUIRE(got.objects.size() == 2);
    CHECK(got.objects[0].numbers == response.objects[0].numbers);
    CHECK(got.objects[0].blocks[0].contents == response.objects[0].blocks[0].contents);
    CHECK_FALSE(got.objects[1].present);
    CHECK(got.returned == response.returned);
    CHECK(got.errors.site_file == "warp_scan.cu");
    CHECK(got.errors.site_line == 80);
    REQUIRE(got.errors.findings.size() == 2);
    CHECK(got.errors.findings[1].kind == static_cast<int>(simt::FaultKind::plain_load_spin));
    CHECK(got.errors.findings[1].message == "a spin");
    CHECK(got.errors.findings[1].line == 40);
    CHECK(got.errors.findings[1].ends_launch);
}

TEST_CASE("an answer that does not fit its call is rejected") {
    const Request request = random_request();
    const std::vector<std::uint8_t> good = encode(answer_to(request));

    // Cut anywhere: never read past the end.
    const std::size_t cut = rng()() % good.size();
    CHECK_THROWS_AS(decode_response({good.begin(), good.begin() + cut}, request), WireError);
    // Bytes after the end.
    std::vector<std::uint8_t> longer = good;
    longer.push_back(0);
    CHECK_THROWS_AS(decode_response(longer, request), WireError);
    // A region of another size (more memory than the harness shipped).
    Response bigger = answer_to(request);
    bigger.regions[1].contents.push_back(1);
    CHECK_THROWS_AS(decode_response(encode(bigger), request), WireError);
    // A written-word map of the wrong length, or one for host memory.
    Response map = answer_to(request);
    map.regions[0].written.pop_back();
    CHECK_THROWS_AS(decode_response(encode(map), request), WireError);
    map = answer_to(request);
    map.regions[1].written = {1};
    CHECK_THROWS_AS(decode_response(encode(map), request), WireError);
    // Another number of regions, an unknown exception kind, a fault kind that is none.
    Response fewer = answer_to(request);
    fewer.regions.pop_back();
    CHECK_THROWS_AS(decode_response(encode(fewer), request), WireError);
    std::vector<std::uint8_t> odd = good;
    odd[0] = 200;
    CHECK_THROWS_AS(decode_response(odd, request), WireError);
    Response kind = answer_to(request);
    kind.errors.fault_kind = simt::remote::kLastFaultKind + 1;
    CHECK_THROWS_AS(decode_response(encode(kind), request), WireError);
    // Traces the call did not ask for; a leak larger than any device.
    Request untraced = request;
    untraced.tracing = false;
    CHECK_THROWS_AS(decode_response(good, untraced), WireError);
    Response leak = answer_to(request);
    leak.leaked_bytes = std::uint64_t{1} << 50;
    CHECK_THROWS_AS(decode_response(encode(leak), request), WireError);
    // An object that comes back null (or one that was null with contents), another number of
    // objects, a return value larger than any value copied, a finding of no known kind.
    Response nulled = answer_to(request);
    nulled.objects[0] = ObjectState{};
    CHECK_THROWS_AS(decode_response(encode(nulled), request), WireError);
    Response filled = answer_to(request);
    filled.objects[1].numbers = {1};
    CHECK_THROWS_AS(decode_response(encode(filled), request), WireError);
    Response objects = answer_to(request);
    objects.objects.pop_back();
    CHECK_THROWS_AS(decode_response(encode(objects), request), WireError);
    Response returned = answer_to(request);
    returned.returned = random_bytes(65);
    CHECK_THROWS_AS(decode_response(encode(returned), request), WireError);
    Response finding = answer_to(request);
    finding.errors.findings[0].kind = simt::remote::kLastFaultKind + 1;
    CHECK_THROWS_AS(decode_response(encode(finding), request), WireError);
    // Random garbage: rejected or, rarely, read as something of the right shape; never a crash.
    for (int i = 0; i < 200; ++i) {
        try {
            (void)decode_response(random_bytes(rng()() % 200), request);
        } catch (const WireError&) {
        }
    }
}

TEST_CASE("device memory is shipped with the words that were written") {
    const std::size_t words = 64 + rng()() % 1000;
    int* source = nullptr;
    REQUIRE(cudaMalloc(&source, words * 4) == cudaSuccess);
    // Only some of it written by the host.
    const std::size_t first = rng()() % words, count = 1 + rng()() % (words - first);
    std::vector<int> values(count);
    for (int& v : values) v = static_cast<int>(rng()());
    REQUIRE(cudaMemcpy(source + first, values.data(), count * 4, cudaMemcpyHostToDevice) ==
            cudaSuccess);

    simt::remote::Allocation found;
    REQUIRE(simt::remote::find_device_allocation(source + words / 2, &found));
    CHECK(found.base == source);
    CHECK(found.bytes == words * 4);
    int on_host = 0;
    CHECK_FALSE(simt::remote::find_device_allocation(&on_host, &found));

    const std::vector<std::uint8_t> written = simt::remote::written_words(source, words * 4);
    for (std::size_t w = 0; w < words; ++w)
        CHECK(written[w] == (w >= first && w < first + count ? 1 : 0));

    // Into a fresh allocation: the same contents and the same written words.
    int* copy = nullptr;
    REQUIRE(cudaMalloc(&copy, words * 4) == cudaSuccess);
    simt::remote::import_contents(copy, source, words * 4, written);
    CHECK(std::memcmp(copy, source, words * 4) == 0);
    CHECK(simt::remote::written_words(copy, words * 4) == written);
    cudaFree(source);
    cudaFree(copy);
}

TEST_CASE("words a kernel left behind stay so when shipped") {
    const std::size_t words = 16 + rng()() % 500;
    std::vector<std::uint8_t> written(words);
    for (auto& w : written) w = rng()() % 3; // unwritten, by the host, left by a kernel
    const std::vector<std::uint8_t> contents = random_bytes(4 * words);
    int* memory = nullptr;
    REQUIRE(cudaMalloc(&memory, words * 4) == cudaSuccess);
    simt::remote::import_contents(memory, contents.data(), words * 4, written);
    CHECK(simt::remote::written_words(memory, words * 4) == written);
    // A host write makes a word the host's again.
    const int value = 5;
    REQUIRE(cudaMemcpy(memory, &value, 4, cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK(simt::remote::written_words(memory, 4)[0] == simt::remote::kWritten);
    cudaFree(memory);
}

TEST_CASE("the emulator's settings travel as numbers") {
    const simt::Options saved = simt::options();
    std::vector<std::int64_t> numbers = simt::remote::options_numbers();
    simt::options().mode = simt::Mode::lockstep;
    simt::options().dispatch = simt::Dispatch::shuffled;
    simt::options().seed = rng()();
    simt::options().multiprocessors = 1 + static_cast<int>(rng()() % 64);
    simt::options().report_to_stderr = false;
    const std::vector<std::int64_t> changed = simt::remote::options_numbers();
    simt::remote::adopt_options(numbers);
    CHECK(simt::remote::options_numbers() == numbers);
    simt::remote::adopt_options(changed);
    CHECK(simt::options().mode == simt::Mode::lockstep);
    CHECK(simt::options().dispatch == simt::Dispatch::shuffled);
    CHECK(simt::remote::options_numbers() == changed);
    // Not a list of settings: rejected, and nothing changes.
    CHECK_THROWS_AS(simt::remote::adopt_options({1, 2}), std::invalid_argument);
    numbers[0] = 7; // no such mode
    CHECK_THROWS_AS(simt::remote::adopt_options(numbers), std::invalid_argument);
    CHECK(simt::remote::options_numbers() == changed);
    simt::options() = saved;
}

TEST_CASE("a fault of the worker's call becomes this process's sticky error") {
    simt::reset_device();
    simt::remote::ErrorSnapshot snapshot;
    snapshot.sticky = static_cast<int>(cudaErrorIllegalAddress);
    snapshot.fault_kind = static_cast<int>(simt::FaultKind::illegal_address);
    snapshot.fault_error = snapshot.sticky;
    snapshot.fault_message = "simt: illegal address in kernel k at naive_scan.cu:42\n";
    snapshot.site_file = "naive_scan.cu";
    snapshot.site_line = 42;
    snapshot.findings = {
        {static_cast<int>(simt::FaultKind::illegal_address), "k", "naive_scan.cu", 42, true}};
    simt::remote::adopt_errors(snapshot);
    CHECK(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
    CHECK(simt::last_fault().kind == simt::FaultKind::illegal_address);
    CHECK(simt::last_fault().message == snapshot.fault_message);
    CHECK(simt::last_fault().site.line == 42);
    REQUIRE(simt::last_fault().findings.size() == 1);
    CHECK(simt::last_fault().findings[0].kind == simt::FaultKind::illegal_address);
    CHECK(simt::last_fault().findings[0].ends_launch);
    const simt::remote::ErrorSnapshot again = simt::remote::error_snapshot();
    CHECK(again.sticky == snapshot.sticky);
    CHECK(again.fault_kind == snapshot.fault_kind);
    simt::reset_device();
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    // Nothing to adopt: the state stays clean.
    simt::remote::adopt_errors({});
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
}

TEST_CASE("a host range is n elements of host memory, none for n <= 0") {
    // A proxy ships it as host memory (remote_argument.h), never as a copied value or a device
    // pointer; the worker's function takes the plain pointer.
    static_assert(HostRangeArgument<HostRange<const double>>);
    static_assert(ProxyArgument<HostRange<int>> && !RemoteArgument<HostRange<int>>);
    static_assert(!CopiedValue<HostRange<int>> && ShippedPointer<int*>);
    double values[5] = {};
    CHECK(host_range(static_cast<const double*>(values), 5).bytes() == 5 * sizeof(double));
    CHECK(host_range(values, 0).bytes() == 0);
    CHECK(host_range(values, -1).bytes() == 0);
    CHECK(host_range(values, 3).first == values);
}
