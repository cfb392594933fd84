// Runtime API calls beyond the basics: pitched memory (cudaMallocPitch, cudaMemcpy2D and
// cudaMemset2D with their Async forms, also in a stream capture), stream-ordered allocation
// (cudaMallocAsync, cudaFreeAsync) and stream priorities. Their results on random data and their
// error codes. Built for both backends: the expectations are what an H200 (CUDA 13) gave; what
// only the emulator does is marked SCANLAB_BACKEND_SIMT.
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace {

// Fresh data on every run; a failing check shows the seed (each test captures it).
unsigned test_seed() {
    static const unsigned seed = std::random_device{}();
    return seed;
}
std::mt19937& random_engine() {
    static std::mt19937 engine(test_seed());
    return engine;
}
size_t random_size(size_t low, size_t high) {
    return std::uniform_int_distribution<size_t>(low, high)(random_engine());
}
std::vector<unsigned char> random_bytes(size_t n) {
    std::vector<unsigned char> bytes(n);
    std::uniform_int_distribution<int> byte(0, 255);
    for (auto& b : bytes) b = static_cast<unsigned char>(byte(random_engine()));
    return bytes;
}

// A failing call returns its error and leaves it as the last error, not sticky.
void check_fails_with(cudaError_t returned, cudaError_t expected) {
    CHECK(cudaGetErrorName(returned) == std::string(cudaGetErrorName(expected)));
    CHECK(cudaGetLastError() == expected);
    CHECK(cudaGetLastError() == cudaSuccess);
}

// Each element of a width x height float matrix whose rows are `pitch` bytes apart, times factor.
__global__ void scale_pitched(float* base, size_t pitch, int width, int height, float factor) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int y = static_cast<int>(blockIdx.y);
    if (x >= width || y >= height) return;
    float* row = reinterpret_cast<float*>(reinterpret_cast<char*>(base) + y * pitch);
    row[x] *= factor;
}

__global__ void add_one(int* data, int n) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) data[i] += 1;
}

} // namespace

// ---- cudaMallocPitch ---------------------------------------------------------------------------

TEST_CASE("cudaMallocPitch: rows 512-byte aligned, zero sizes, null arguments") {
    CAPTURE(test_seed());
    std::vector<size_t> widths = {1, 4, 100, 511, 512, 513, 1000, 4096, 5000};
    for (int i = 0; i < 4; ++i) widths.push_back(random_size(1, 20000));
    for (size_t width : widths) {
        CAPTURE(width);
        const size_t height = random_size(1, 8);
        void* p = nullptr;
        size_t pitch = 0;
        REQUIRE(cudaMallocPitch(&p, &pitch, width, height) == cudaSuccess);
        CHECK(p != nullptr);
        // The width rounded up to 512 bytes (as on an H200).
        CHECK(pitch == (width + 511) / 512 * 512);
        CHECK(reinterpret_cast<uintptr_t>(p) % 512 == 0);
        // Every byte of every row, padding included, is the program's: pitch * height bytes.
        REQUIRE(cudaMemset(p, 0x5A, pitch * height) == cudaSuccess);
        REQUIRE(cudaFree(p) == cudaSuccess);
    }
    float* typed = nullptr; // the template form, as in CUDA's header
    size_t pitch = 0;
    REQUIRE(cudaMallocPitch(&typed, &pitch, 3 * sizeof(float), 2) == cudaSuccess);
    CHECK(pitch == 512);
    REQUIRE(cudaFree(typed) == cudaSuccess);

    // A zero width or height: success, a null pointer and a pitch of 0.
    int sentinel = 0; // a pointer the calls must overwrite with null
    for (auto [width, height] : {std::pair<size_t, size_t>{0, 3}, {16, 0}, {0, 0}}) {
        void* p = &sentinel;
        pitch = 7;
        CHECK(cudaMallocPitch(&p, &pitch, width, height) == cudaSuccess);
        CHECK(p == nullptr);
        CHECK(pitch == 0);
    }
    void* p = nullptr;
    check_fails_with(cudaMallocPitch(nullptr, &pitch, 16, 3), cudaErrorInvalidValue);
    check_fails_with(cudaMallocPitch(&p, nullptr, 16, 3), cudaErrorInvalidValue);
    check_fails_with(cudaMallocPitch(&p, &pitch, size_t{1} << 40, 1), cudaErrorMemoryAllocation);
    check_fails_with(cudaMallocPitch(&p, &pitch, 16, size_t{1} << 40), cudaErrorMemoryAllocation);
}

// ---- cudaMemcpy2D and cudaMemset2D -------------------------------------------------------------

TEST_CASE("cudaMemcpy2D and cudaMemset2D move pitched rows and leave the padding alone") {
    CAPTURE(test_seed());
    const int width = static_cast<int>(random_size(1, 300)); // floats per row
    const int height = static_cast<int>(random_size(1, 40));
    const size_t row_bytes = width * sizeof(float);
    CAPTURE(width);
    CAPTURE(height);
    // Host matrices with rows a random number of bytes apart (at least a row).
    const size_t host_pitch = row_bytes + 4 * random_size(0, 10);
    std::vector<unsigned char> host = random_bytes(host_pitch * height);
    std::vector<float> values(static_cast<size_t>(width) * height);
    std::uniform_real_distribution<float> value(-100.0f, 100.0f);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const float v = value(random_engine());
            values[static_cast<size_t>(y) * width + x] = v;
            std::memcpy(host.data() + y * host_pitch + x * sizeof(float), &v, sizeof v);
        }

    float* device = nullptr;
    size_t pitch = 0;
    REQUIRE(cudaMallocPitch(&device, &pitch, row_bytes, height) == cudaSuccess);
    REQUIRE(cudaMemcpy2D(device, pitch, host.data(), host_pitch, row_bytes, height,
                         cudaMemcpyHostToDevice) == cudaSuccess);
    scale_pitched<<<dim3((width + 127) / 128, height), 128>>>(device, pitch, width, height, 2.0f);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);

    // Back into a host matrix of another pitch whose padding holds random bytes: those stay.
    const size_t out_pitch = row_bytes + random_size(1, 64);
    const std::vector<unsigned char> out_before = random_bytes(out_pitch * height);
    std::vector<unsigned char> out = out_before;
    REQUIRE(cudaMemcpy2D(out.data(), out_pitch, device, pitch, row_bytes, height,
                         cudaMemcpyDeviceToHost) == cudaSuccess);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            float v = 0;
            std::memcpy(&v, out.data() + y * out_pitch + x * sizeof(float), sizeof v);
            CHECK(v == 2.0f * values[static_cast<size_t>(y) * width + x]);
        }
        CHECK(std::memcmp(out.data() + y * out_pitch + row_bytes,
                          out_before.data() + y * out_pitch + row_bytes,
                          out_pitch - row_bytes) == 0);
    }

    // A sub-rectangle set byte-wise, then copied device to device into a second allocation and
    // back with cudaMemcpyDefault.
    const size_t sub_x = random_size(0, row_bytes - 1), sub_y = random_size(0, height - 1);
    const size_t sub_width = random_size(1, row_bytes - sub_x);
    const size_t sub_height = random_size(1, height - sub_y);
    const int fill = static_cast<int>(random_size(0, 255));
    char* corner = reinterpret_cast<char*>(device) + sub_y * pitch + sub_x;
    REQUIRE(cudaMemset2D(corner, pitch, fill, sub_width, sub_height) == cudaSuccess);
    void* copy = nullptr;
    size_t copy_pitch = 0;
    REQUIRE(cudaMallocPitch(&copy, &copy_pitch, row_bytes, height) == cudaSuccess);
    REQUIRE(cudaMemcpy2D(copy, copy_pitch, device, pitch, row_bytes, height,
                         cudaMemcpyDeviceToDevice) == cudaSuccess);
    std::vector<unsigned char> got(row_bytes * height);
    REQUIRE(cudaMemcpy2D(got.data(), row_bytes, copy, copy_pitch, row_bytes, height,
                         cudaMemcpyDefault) == cudaSuccess);
    for (int y = 0; y < height; ++y)
        for (size_t b = 0; b < row_bytes; ++b) {
            const bool inside = static_cast<size_t>(y) >= sub_y &&
                                static_cast<size_t>(y) < sub_y + sub_height && b >= sub_x &&
                                b < sub_x + sub_width;
            const float v = 2.0f * values[static_cast<size_t>(y) * width + b / sizeof(float)];
            unsigned char expected = 0;
            std::memcpy(&expected, reinterpret_cast<const unsigned char*>(&v) + b % sizeof(float),
                        1);
            if (inside) expected = static_cast<unsigned char>(fill);
            if (got[y * row_bytes + b] != expected) {
                CAPTURE(y);
                CAPTURE(b);
                CHECK(static_cast<int>(got[y * row_bytes + b]) == static_cast<int>(expected));
            }
        }
    // Host to host, with pitches.
    std::vector<unsigned char> twice(2 * row_bytes * height);
    REQUIRE(cudaMemcpy2D(twice.data(), 2 * row_bytes, got.data(), row_bytes, row_bytes, height,
                         cudaMemcpyHostToHost) == cudaSuccess);
    for (int y = 0; y < height; ++y)
        CHECK(std::memcmp(twice.data() + 2 * y * row_bytes, got.data() + y * row_bytes,
                          row_bytes) == 0);
    REQUIRE(cudaFree(copy) == cudaSuccess);
    REQUIRE(cudaFree(device) == cudaSuccess);
}

TEST_CASE("cudaMemcpy2D and cudaMemset2D: error codes as on a GPU") {
    CAPTURE(test_seed());
    const size_t width = random_size(2, 500), height = random_size(2, 20);
    CAPTURE(width);
    CAPTURE(height);
    char* device = nullptr;
    size_t pitch = 0;
    REQUIRE(cudaMallocPitch(&device, &pitch, width, height) == cudaSuccess);
    std::vector<unsigned char> host = random_bytes(width * height);
    REQUIRE(cudaMemset2D(device, pitch, 0x11, width, height) == cudaSuccess);

    // A pitch smaller than the width: rows would overlap.
    check_fails_with(
        cudaMemcpy2D(device, pitch, host.data(), width - 1, width, height, cudaMemcpyHostToDevice),
        cudaErrorInvalidPitchValue);
    check_fails_with(
        cudaMemcpy2D(device, width - 1, host.data(), width, width, height, cudaMemcpyHostToDevice),
        cudaErrorInvalidPitchValue);
    check_fails_with(cudaMemcpy2DAsync(device, pitch, host.data(), width - 1, width, height,
                                       cudaMemcpyHostToDevice, nullptr),
                     cudaErrorInvalidPitchValue);
    // ... of one row: an invalid value.
    check_fails_with(
        cudaMemcpy2D(device, width - 1, host.data(), width, width, 1, cudaMemcpyHostToDevice),
        cudaErrorInvalidValue);
    // Nothing to copy: success, whatever the pointers and pitches.
    CHECK(cudaMemcpy2D(device, pitch, host.data(), width, 0, height, cudaMemcpyHostToDevice) ==
          cudaSuccess);
    CHECK(cudaMemcpy2D(device, pitch, host.data(), width, width, 0, cudaMemcpyHostToDevice) ==
          cudaSuccess);
    CHECK(cudaMemcpy2D(nullptr, 0, nullptr, 0, 0, 0, cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK(cudaMemcpy2D(nullptr, pitch, host.data(), width, 0, height, cudaMemcpyHostToDevice) ==
          cudaSuccess);
    CHECK(cudaGetLastError() == cudaSuccess);
    // Null pointers, an unknown direction, a direction that does not fit the pointers.
    check_fails_with(
        cudaMemcpy2D(nullptr, pitch, host.data(), width, width, height, cudaMemcpyHostToDevice),
        cudaErrorInvalidValue);
    check_fails_with(
        cudaMemcpy2D(device, pitch, nullptr, width, width, height, cudaMemcpyHostToDevice),
        cudaErrorInvalidValue);
    check_fails_with(cudaMemcpy2D(device, pitch, host.data(), width, width, height,
                                  static_cast<cudaMemcpyKind>(7)),
                     cudaErrorInvalidMemcpyDirection);
    check_fails_with(
        cudaMemcpy2D(host.data(), width, device, pitch, width, height, cudaMemcpyHostToDevice),
        cudaErrorInvalidValue);
    check_fails_with(
        cudaMemcpy2D(device, pitch, host.data(), width, width, height, cudaMemcpyDeviceToDevice),
        cudaErrorInvalidValue);
    // Rows past the end of the allocation; a pitch over the device's maximum.
    std::vector<unsigned char> big(width * (height + 1));
    check_fails_with(
        cudaMemcpy2D(device, pitch, big.data(), width, width, height + 1, cudaMemcpyHostToDevice),
        cudaErrorInvalidValue);
    check_fails_with(
        cudaMemcpy2D(big.data(), width, device, pitch, width, height + 1, cudaMemcpyDeviceToHost),
        cudaErrorInvalidValue);
    check_fails_with(
        cudaMemcpy2D(device, size_t{1} << 32, host.data(), width, width, 2, cudaMemcpyHostToDevice),
        cudaErrorInvalidValue);
#ifdef SCANLAB_BACKEND_SIMT
    // The emulator checks every row before it copies one: a failed copy changed nothing.
    std::vector<unsigned char> after(width * height);
    REQUIRE(cudaMemcpy2D(after.data(), width, device, pitch, width, height,
                         cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(after == std::vector<unsigned char>(width * height, 0x11));
#endif

    // cudaMemset2D: several rows need a pitch of at least the width (an invalid value here).
    check_fails_with(cudaMemset2D(device, width - 1, 3, width, height), cudaErrorInvalidValue);
    check_fails_with(cudaMemset2DAsync(device, width - 1, 3, width, height, nullptr),
                     cudaErrorInvalidValue);
    CHECK(cudaMemset2D(device, width - 1, 3, width, 1) == cudaSuccess); // one row needs none
    CHECK(cudaMemset2D(device, pitch, 3, 0, height) == cudaSuccess);
    CHECK(cudaMemset2D(device, pitch, 3, width, 0) == cudaSuccess);
    CHECK(cudaMemset2D(nullptr, pitch, 3, 0, height) == cudaSuccess);
    check_fails_with(cudaMemset2D(nullptr, pitch, 3, width, height), cudaErrorInvalidValue);
    check_fails_with(cudaMemset2D(device, pitch, 3, width, height + 1), cudaErrorInvalidValue);
    check_fails_with(cudaMemset2D(host.data(), width, 3, width, height), cudaErrorInvalidValue);
    REQUIRE(cudaFree(device) == cudaSuccess);
}

#ifdef SCANLAB_BACKEND_SIMT
// A size near 2^64 (a student's (n - 1) * sizeof(T) with n = 0) once wrapped the range check's
// end address and crashed the copy; it is past the end of any allocation.
TEST_CASE("sizes near 2^64 are refused, not copied") {
    CAPTURE(test_seed());
    const size_t bytes = random_size(1, 4096);
    void* device = nullptr;
    REQUIRE(cudaMalloc(&device, bytes) == cudaSuccess);
    std::vector<unsigned char> host = random_bytes(bytes);
    for (const size_t huge : {SIZE_MAX, SIZE_MAX - 4096, SIZE_MAX - bytes + 1}) {
        CAPTURE(huge);
        check_fails_with(cudaMemcpy(device, host.data(), huge, cudaMemcpyHostToDevice),
                         cudaErrorInvalidValue);
        check_fails_with(cudaMemcpy(host.data(), device, huge, cudaMemcpyDeviceToHost),
                         cudaErrorInvalidValue);
        check_fails_with(cudaMemset(device, 0, huge), cudaErrorInvalidValue);
        check_fails_with(cudaMemset2D(device, 512, 0, 16, huge), cudaErrorInvalidValue);
        void* never = nullptr;
        check_fails_with(cudaMalloc(&never, huge), cudaErrorMemoryAllocation);
        CHECK(never == nullptr);
    }
    REQUIRE(cudaFree(device) == cudaSuccess);
}
#endif

TEST_CASE("cudaMemcpy2DAsync and cudaMemset2DAsync in a stream and in a stream capture") {
    CAPTURE(test_seed());
    const size_t width = random_size(1, 700), height = random_size(1, 16);
    CAPTURE(width);
    CAPTURE(height);
    cudaStream_t stream = nullptr;
    REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);
    unsigned char* device = nullptr;
    size_t pitch = 0;
    REQUIRE(cudaMallocPitch(&device, &pitch, width, height) == cudaSuccess);
    const std::vector<unsigned char> first = random_bytes(width * height);
    std::vector<unsigned char> got(width * height);

    REQUIRE(cudaMemcpy2DAsync(device, pitch, first.data(), width, width, height,
                              cudaMemcpyHostToDevice, stream) == cudaSuccess);
    REQUIRE(cudaMemcpy2DAsync(got.data(), width, device, pitch, width, height,
                              cudaMemcpyDeviceToHost, stream) == cudaSuccess);
    REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
    CHECK(got == first);

    // Captured: the copies and the set become graph nodes that run at the graph's launch (the
    // host sides page-locked, as a GPU's graph copies need).
    const std::vector<unsigned char> second = random_bytes(width * height);
    unsigned char* pinned_in = nullptr;
    unsigned char* pinned_out = nullptr;
    REQUIRE(cudaMallocHost(&pinned_in, width * height) == cudaSuccess);
    REQUIRE(cudaMallocHost(&pinned_out, width * height) == cudaSuccess);
    std::memcpy(pinned_in, second.data(), width * height);
    std::memset(pinned_out, 0, width * height);
    const int fill = static_cast<int>(random_size(0, 255));
    const size_t set_rows = random_size(1, height);
    REQUIRE(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal) == cudaSuccess);
    REQUIRE(cudaMemcpy2DAsync(device, pitch, pinned_in, width, width, height,
                              cudaMemcpyHostToDevice, stream) == cudaSuccess);
    REQUIRE(cudaMemset2DAsync(device, pitch, fill, width, set_rows, stream) == cudaSuccess);
    REQUIRE(cudaMemcpy2DAsync(pinned_out, width, device, pitch, width, height,
                              cudaMemcpyDeviceToHost, stream) == cudaSuccess);
    cudaGraph_t graph = nullptr;
    REQUIRE(cudaStreamEndCapture(stream, &graph) == cudaSuccess);
    CHECK(std::vector<unsigned char>(pinned_out, pinned_out + width * height) ==
          std::vector<unsigned char>(width * height, 0)); // nothing ran yet
    cudaGraphExec_t exec = nullptr;
    REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
    REQUIRE(cudaGraphLaunch(exec, stream) == cudaSuccess);
    REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
    std::vector<unsigned char> expected = second;
    std::memset(expected.data(), fill, width * set_rows);
    CHECK(std::vector<unsigned char>(pinned_out, pinned_out + width * height) == expected);

    REQUIRE(cudaGraphExecDestroy(exec) == cudaSuccess);
    REQUIRE(cudaGraphDestroy(graph) == cudaSuccess);
    REQUIRE(cudaFreeHost(pinned_in) == cudaSuccess);
    REQUIRE(cudaFreeHost(pinned_out) == cudaSuccess);
    REQUIRE(cudaFree(device) == cudaSuccess);
    REQUIRE(cudaStreamDestroy(stream) == cudaSuccess);
}

// ---- cudaMallocAsync and cudaFreeAsync ---------------------------------------------------------

TEST_CASE("cudaMallocAsync and cudaFreeAsync: stream-ordered memory works as cudaMalloc's") {
    CAPTURE(test_seed());
    cudaStream_t stream = nullptr;
    REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);
    const int n = static_cast<int>(random_size(1, 5000));
    CAPTURE(n);
    std::vector<int> values(n);
    std::uniform_int_distribution<int> value(-1000000, 1000000);
    for (int& v : values) v = value(random_engine());

    int* data = nullptr;
    REQUIRE(cudaMallocAsync(&data, n * sizeof(int), stream) == cudaSuccess);
    REQUIRE(data != nullptr);
    CHECK(reinterpret_cast<uintptr_t>(data) % 256 == 0);
    cudaPointerAttributes attributes{};
    REQUIRE(cudaPointerGetAttributes(&attributes, data) == cudaSuccess);
    CHECK(attributes.type == cudaMemoryTypeDevice);
    REQUIRE(cudaMemcpyAsync(data, values.data(), n * sizeof(int), cudaMemcpyHostToDevice, stream) ==
            cudaSuccess);
    add_one<<<(n + 255) / 256, 256, 0, stream>>>(data, n);
    std::vector<int> got(n);
    REQUIRE(cudaMemcpyAsync(got.data(), data, n * sizeof(int), cudaMemcpyDeviceToHost, stream) ==
            cudaSuccess);
    REQUIRE(cudaFreeAsync(data, stream) == cudaSuccess);
    REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
    for (int i = 0; i < n; ++i) CHECK(got[i] == values[i] + 1);

    // Freed twice, a pointer into an allocation, host memory: invalid values.
    check_fails_with(cudaFreeAsync(data, stream), cudaErrorInvalidValue);
    char* block = nullptr;
    REQUIRE(cudaMallocAsync(reinterpret_cast<void**>(&block), 64, stream) == cudaSuccess);
    check_fails_with(cudaFreeAsync(block + 4, stream), cudaErrorInvalidValue);
    check_fails_with(cudaFreeAsync(got.data(), stream), cudaErrorInvalidValue);
    // Either family frees the other's memory; the legacy default stream works too.
    REQUIRE(cudaFree(block) == cudaSuccess);
    void* plain = nullptr;
    REQUIRE(cudaMalloc(&plain, 64) == cudaSuccess);
    REQUIRE(cudaFreeAsync(plain, stream) == cudaSuccess);
    REQUIRE(cudaMallocAsync(&plain, 64, nullptr) == cudaSuccess);
    REQUIRE(cudaFreeAsync(plain, nullptr) == cudaSuccess);
    // Zero bytes: success and a null pointer; a null pointer frees nothing.
    int sentinel = 0; // a pointer the calls must overwrite with null
    void* none = &sentinel;
    CHECK(cudaMallocAsync(&none, 0, stream) == cudaSuccess);
    CHECK(none == nullptr);
    CHECK(cudaFreeAsync(nullptr, stream) == cudaSuccess);
    check_fails_with(cudaMallocAsync(nullptr, 16, stream), cudaErrorInvalidValue);
    none = &sentinel;
    check_fails_with(cudaMallocAsync(&none, size_t{1} << 50, stream), cudaErrorMemoryAllocation);
    CHECK(none == nullptr);
    REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
    REQUIRE(cudaStreamDestroy(stream) == cudaSuccess);
}

#ifdef SCANLAB_BACKEND_SIMT
TEST_CASE("cudaMallocAsync in a stream capture: memory nodes are refused by name") {
    CAPTURE(test_seed());
    cudaStream_t stream = nullptr;
    REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);
    void* kept = nullptr;
    REQUIRE(cudaMalloc(&kept, 16) == cudaSuccess);
    REQUIRE(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal) == cudaSuccess);
    void* p = nullptr;
    check_fails_with(cudaMallocAsync(&p, 16, stream), cudaErrorNotSupported);
    check_fails_with(cudaFreeAsync(kept, stream), cudaErrorNotSupported);
    cudaGraph_t graph = nullptr;
    REQUIRE(cudaStreamEndCapture(stream, &graph) == cudaSuccess);
    REQUIRE(cudaGraphDestroy(graph) == cudaSuccess);
    REQUIRE(cudaFree(kept) == cudaSuccess); // the refused free freed nothing
    REQUIRE(cudaStreamDestroy(stream) == cudaSuccess);
}
#endif

// ---- Stream priorities -------------------------------------------------------------------------

TEST_CASE("stream priorities: the range, clamping, flags") {
    CAPTURE(test_seed());
    int least = 99, greatest = 99;
    REQUIRE(cudaDeviceGetStreamPriorityRange(&least, &greatest) == cudaSuccess);
    CHECK(greatest <= least); // lower numbers are greater priorities
#ifdef SCANLAB_BACKEND_SIMT
    CHECK(least == 0); // an H200's (CUDA 13)
    CHECK(greatest == -5);
#endif
    CHECK(cudaDeviceGetStreamPriorityRange(nullptr, &greatest) == cudaSuccess);
    CHECK(cudaDeviceGetStreamPriorityRange(&least, nullptr) == cudaSuccess);
    CHECK(cudaDeviceGetStreamPriorityRange(nullptr, nullptr) == cudaSuccess);

    const int inside = static_cast<int>(random_size(0, least - greatest)) + greatest;
    for (int asked : {greatest - 100, greatest - 1, greatest, inside, least, least + 1, 1000}) {
        for (unsigned flags : {unsigned{cudaStreamDefault}, unsigned{cudaStreamNonBlocking}}) {
            CAPTURE(asked);
            CAPTURE(flags);
            cudaStream_t s = nullptr;
            REQUIRE(cudaStreamCreateWithPriority(&s, flags, asked) == cudaSuccess);
            int priority = 99;
            REQUIRE(cudaStreamGetPriority(s, &priority) == cudaSuccess);
            CHECK(priority == std::min(std::max(asked, greatest), least)); // clamped
            unsigned got_flags = 99;
            REQUIRE(cudaStreamGetFlags(s, &got_flags) == cudaSuccess);
            CHECK(got_flags == flags);
            // Work in it runs as in any stream.
            int* one = nullptr;
            REQUIRE(cudaMallocAsync(&one, sizeof(int), s) == cudaSuccess);
            REQUIRE(cudaMemsetAsync(one, 0, sizeof(int), s) == cudaSuccess);
            add_one<<<1, 1, 0, s>>>(one, 1);
            int result = 0;
            REQUIRE(cudaMemcpyAsync(&result, one, sizeof(int), cudaMemcpyDeviceToHost, s) ==
                    cudaSuccess);
            REQUIRE(cudaFreeAsync(one, s) == cudaSuccess);
            REQUIRE(cudaStreamSynchronize(s) == cudaSuccess);
            CHECK(result == 1);
            REQUIRE(cudaStreamDestroy(s) == cudaSuccess);
        }
    }
    int priority = 99;
    REQUIRE(cudaStreamGetPriority(nullptr, &priority) == cudaSuccess);
    CHECK(priority == 0); // the default stream's
    cudaStream_t s = nullptr;
    check_fails_with(cudaStreamCreateWithPriority(nullptr, 0, 0), cudaErrorInvalidValue);
    check_fails_with(cudaStreamCreateWithPriority(&s, 2, 0), cudaErrorInvalidValue);
    check_fails_with(cudaStreamCreateWithFlags(&s, 5), cudaErrorInvalidValue);
    REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
    check_fails_with(cudaStreamGetPriority(s, nullptr), cudaErrorInvalidValue);
    REQUIRE(cudaStreamDestroy(s) == cudaSuccess);
}
