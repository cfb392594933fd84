// The worker: the student's lab code, the emulator and this server, in a sandboxed process of
// its own (README.md). It says it is ready (an empty message), then reads calls from fd 3 and
// answers on fd 4, one at a time: it
// allocates the memory each call ships (device memory with the same contents, and on the
// emulator the same written words), calls the lab's function with the pointers translated, and
// sends back the memory, what the function threw, the error state and (on the emulator) the
// kernel-work watch's verdict. What differs between the emulator and a GPU is in
// remote_backend.h. Nothing it sends is trusted by the harness beyond being the lab's answer.
#include "remote_backend.h"
#include "remote_call.h"
#include "remote_tracing.h"
#include "worker_registry.h"

#include <cuda_runtime.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace scanlab::remote {
namespace {

constexpr int kRequests = 3;
constexpr int kAnswers = 4;

// A region as this process holds it.
struct Local {
    std::uint8_t* base = nullptr;
    std::size_t bytes = 0;
    bool device = false;
};

// One inaccessible page: what a non-null host pointer to zero elements points at here, so that
// touching it fails the call as touching the harness's memory would have been wrong.
void* guard_page() {
    static void* page = ::mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return page;
}

std::vector<Local> allocate(const Request& request) {
    std::vector<Local> local;
    for (const Region& region : request.regions) {
        Local l;
        l.bytes = region.contents.size();
        l.device = region.memory == Memory::device;
        if (l.device) {
            void* p = nullptr;
            if (cudaMalloc(&p, l.bytes ? l.bytes : 1) != cudaSuccess)
                throw std::runtime_error("the worker could not allocate the call's memory");
            backend::import_contents(p, region.contents.data(), l.bytes, region.written);
            l.base = static_cast<std::uint8_t*>(p);
        } else if (l.bytes > 0) {
            l.base = new std::uint8_t[l.bytes];
            std::memcpy(l.base, region.contents.data(), l.bytes);
        } else {
            l.base = static_cast<std::uint8_t*>(guard_page());
        }
        local.push_back(l);
    }
    return local;
}

void release(const std::vector<Local>& local) {
    for (const Local& l : local) {
        if (l.device)
            cudaFree(l.base);
        else if (l.bytes > 0)
            delete[] l.base;
    }
}

// The harness's address `address` in this process: inside a shipped region (or one past its
// end), moved with it; anywhere else, as it is.
void* translate(std::uint64_t address, const Request& request, const std::vector<Local>& local) {
    for (std::size_t i = 0; i < local.size(); ++i) {
        const Region& region = request.regions[i];
        const std::uint64_t size = region.contents.size();
        if (size > 0 && address >= region.base && address - region.base <= size)
            return local[i].base + (address - region.base);
    }
    for (std::size_t i = 0; i < local.size(); ++i) // host memory of zero elements
        if (request.regions[i].contents.empty() && address == request.regions[i].base)
            return local[i].base;
    return reinterpret_cast<void*>(address);
}

template <class Kind>
bool is(const std::exception& e) {
    return dynamic_cast<const Kind*>(&e) != nullptr;
}

/// The most specific standard kind of `e` that the harness throws again (Thrown).
Thrown kind_of(const std::exception& e) {
    if (is<std::invalid_argument>(e)) return Thrown::invalid_argument;
    if (is<std::out_of_range>(e)) return Thrown::out_of_range;
    if (is<std::length_error>(e)) return Thrown::length_error;
    if (is<std::logic_error>(e)) return Thrown::logic_error;
    if (is<std::bad_alloc>(e)) return Thrown::bad_alloc;
    return Thrown::runtime_error;
}

Response serve(const Request& request) {
    Response response;
    const Invoker* invoker = find_function(operator_key_of(request.function, request.op));
    const std::vector<Local> local = allocate(request);
    Arguments arguments;
    for (const std::uint64_t p : request.pointers)
        arguments.pointers.push_back(translate(p, request, local));
    arguments.scalars = request.scalars;
    arguments.objects = request.objects;
    // The objects (workspaces) are rebuilt before the call: their memory is not the call's.
    std::function<void()> call;
    try {
        // The harness's emulator settings, as its tests left them (an empty list: the ones
        // this process started with).
        if (!request.simt_options.empty()) backend::adopt_options(request.simt_options);
        // A function or instance the worker does not have: the call fails, its memory comes
        // back as it went.
        if (!invoker)
            throw std::runtime_error("the worker has no function " + request.function + "<" +
                                     request.op + "> (is the worker built from this lab?)");
        call = (*invoker)(arguments);
    } catch (const std::exception& e) {
        // Not the lab's exception (its code has not run): never one a test expects of it.
        response.thrown = Thrown::runtime_error;
        response.message = std::string("the worker could not set up the call: ") + e.what();
    }

    if (request.watching) {
        backend::watch_begin();
        for (const Watched& w : request.watched) {
            const void* p = translate(w.address, request, local);
            if (w.role == WatchRole::input)
                backend::watch_input(p, w.bytes);
            else
                backend::watch_output(p, w.bytes);
        }
    }
    // Free memory now and after the call: what the call left allocated is a leak the tests see.
    std::size_t free_before = 0, free_after = 0, total = 0;
    (void)cudaMemGetInfo(&free_before, &total);
    try {
        start_call_tracing(request);
        if (call) call();
    } catch (const std::exception& e) {
        response.thrown = kind_of(e), response.message = e.what();
    } catch (...) {
        response.thrown = Thrown::unknown;
    }
    // The call may return before its kernels end: their faults belong to it.
    const cudaError_t synchronized = cudaDeviceSynchronize();
    response.errors = backend::error_snapshot(synchronized);
    const bool measured = cudaMemGetInfo(&free_after, &total) == cudaSuccess;
    if (request.watching) response.provenance = backend::watch_end();
    finish_call_tracing(request, response);

    response.returned = arguments.returned;
    // The objects as the call left them; memory they grew by is theirs, not a leak.
    std::uint64_t object_growth = 0;
    for (std::size_t i = 0; i < request.objects.size(); ++i) {
        ObjectState state = request.objects[i];
        try {
            if (i < arguments.saves.size()) state = arguments.saves[i]();
        } catch (const std::exception&) {
            // Its memory cannot be read (a GPU left unusable by the call, whose error goes
            // back): the object as it came.
            if (!backend::must_end(response.errors)) throw;
        }
        response.objects.push_back(std::move(state));
        for (const Region& block : response.objects.back().blocks)
            object_growth += block.contents.size();
        for (const Region& block : request.objects[i].blocks)
            object_growth -= block.contents.size();
    }
    if (measured && free_after + object_growth < free_before)
        response.leaked_bytes = free_before - free_after - object_growth;

    for (std::size_t i = 0; i < local.size(); ++i) {
        Region back;
        back.base = request.regions[i].base;
        back.memory = request.regions[i].memory;
        if (!local[i].device) {
            if (local[i].bytes > 0)
                back.contents.assign(local[i].base, local[i].base + local[i].bytes);
        } else {
            try {
                back.contents = backend::read_device(local[i].base, local[i].bytes);
            } catch (const std::exception&) {
                // A GPU left unusable by the call (its error goes back): the memory as it came.
                back.contents = request.regions[i].contents;
            }
            back.written = backend::written_words(local[i].base, local[i].bytes);
        }
        response.regions.push_back(std::move(back));
    }
    backend::after_call(); // the next call starts clean; its errors went to the harness
    arguments.held.clear();
    release(local);
    return response;
}

} // namespace
} // namespace scanlab::remote

int main() {
    using namespace scanlab::remote;
    if (::fcntl(kRequests, F_GETFD) < 0 || ::fcntl(kAnswers, F_GETFD) < 0) {
        std::fprintf(stderr, "scanlab worker: runs a lab's code for a graded test program, which "
                             "starts it with its requests on fd 3 and answers on fd 4\n");
        return 2;
    }
    ::fcntl(kRequests, F_SETFD, FD_CLOEXEC);
    ::fcntl(kAnswers, F_SETFD, FD_CLOEXEC);
    backend::worker_start();
    // An empty message first: main() was reached (static constructors ran and returned).
    if (!send_message(kAnswers, {})) return 0;
    std::vector<std::uint8_t> message;
    for (;;) {
        try {
            if (receive_message(kRequests, message, 0) != Received::message) return 0;
            const Response response = serve(decode_request(message));
            if (!send_message(kAnswers, encode(response))) return 0;
            // A device left unusable (a sticky CUDA error): the harness starts a fresh worker.
            if (backend::must_end(response.errors)) return 0;
        } catch (const std::exception& error) {
            std::fprintf(stderr, "scanlab worker: %s\n", error.what());
            return 3;
        }
    }
}
