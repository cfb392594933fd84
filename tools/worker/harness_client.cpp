#include "harness_client.h"

#include "kernel_work.h"
#include "remote_backend.h"
#include "remote_tracing.h"

#include <cuda_runtime.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace scanlab::remote {
namespace {

// The worker's command line, one argument per line, from the grader.
constexpr const char* kArgvVariable = "SCANLAB_WORKER_ARGV";
// Seconds one call may take before the worker is killed (0 or unset: no limit).
constexpr const char* kTimeoutVariable = "SCANLAB_WORKER_CALL_TIMEOUT_S";
// Set when the worker runs under bubblewrap: a signal then shows as exit status 128 + n.
constexpr const char* kWrappedVariable = "SCANLAB_WORKER_WRAPPED";

std::vector<std::string> worker_argv() {
    const char* text = std::getenv(kArgvVariable);
    if (!text || !*text)
        throw std::runtime_error(
            std::string("this test program runs the lab's code in a worker process, but ") +
            kArgvVariable +
            " (the worker's command line, one argument per line) is not set: "
            "the grader sets it (tools/worker/README.md)");
    std::vector<std::string> argv;
    std::string arg;
    for (const char* c = text; *c; ++c) {
        if (*c == '\n') {
            argv.push_back(arg);
            arg.clear();
        } else {
            arg += *c;
        }
    }
    if (!arg.empty()) argv.push_back(arg);
    return argv;
}

double call_timeout_s() {
    const char* text = std::getenv(kTimeoutVariable);
    return text ? std::strtod(text, nullptr) : 0.0;
}

std::string signal_words(int sig) {
    const char* abbrev = sigabbrev_np(sig);
    const char* words = sigdescr_np(sig);
    return "signal " + std::to_string(sig) + " (" + (abbrev ? "SIG" + std::string(abbrev) : "?") +
           (words ? std::string(": ") + words : "") + ")";
}

std::string describe_status(int status) {
    if (WIFSIGNALED(status)) return "was killed by " + signal_words(WTERMSIG(status));
    const int code = WEXITSTATUS(status);
    const char* wrapped = std::getenv(kWrappedVariable);
    if (wrapped && *wrapped == '1' && code > 128 && code < 128 + 65)
        return "was killed by " + signal_words(code - 128); // bubblewrap's 128 + n
    return "exited with code " + std::to_string(code);
}

// The worker process: started on the first call, and again after one that ended it.
class Worker {
  public:
    ~Worker() { stop(); }

    // Sends the request and waits for the answer; throws std::runtime_error when the worker
    // dies, hangs or answers nonsense (then it is gone, and the next call starts another).
    Response call(const Request& request, const std::string& what) {
        if (!startup_failure_.empty()) throw std::runtime_error(what + ": " + startup_failure_);
        if (pid_ <= 0) start(what);
        const std::vector<std::uint8_t> message = encode(request);
        std::vector<std::uint8_t> answer;
        Received received = Received::closed;
        const double timeout = call_timeout_s();
        try {
            // An answer holds the call's memory again, and text of bounded size: nothing
            // larger is read (a worker cannot make the harness allocate what it likes).
            std::uint64_t memory = 0;
            for (const Region& region : request.regions) memory += 2 * region.contents.size();
            memory += 2 * kMaxObjectBytes * request.objects.size();
            if (send_message(to_worker_, message))
                received = receive_message(from_worker_, answer, timeout, memory + (8u << 20));
        } catch (const WireError& error) {
            stop();
            throw std::runtime_error(what + ": the worker process sent a malformed answer (" +
                                     error.what() + ")");
        }
        if (received == Received::timed_out) {
            stop();
            throw std::runtime_error(what + ": timed out: did not return within " +
                                     std::to_string(static_cast<int>(timeout)) +
                                     " s and was stopped (an endless loop in a kernel or on the "
                                     "host?)");
        }
        if (received == Received::closed) {
            const std::string how = stop();
            throw std::runtime_error(what + ": the process that runs the lab's code " + how +
                                     " during the call (a crash, or exit() in the lab's code)");
        }
        try {
            Response response = decode_response(answer, request);
            // A worker whose device is unusable after the call (a sticky CUDA error) ends after
            // answering: the next call starts a fresh one.
            if (backend::must_end(response.errors)) stop();
            return response;
        } catch (const WireError& error) {
            stop();
            throw std::runtime_error(what + ": the worker process sent a malformed answer (" +
                                     error.what() + ")");
        }
    }

  private:
    // Starts the worker and waits until it says it reached main(). One that cannot start
    // (a static constructor that exits, crashes or hangs) fails this and every later call.
    void start(const std::string& what) {
        const std::vector<std::string> args = worker_argv();
        ::signal(SIGPIPE, SIG_IGN); // a worker that died makes write() fail, not kill us
        int to[2], from[2];
        if (::pipe2(to, O_CLOEXEC) != 0 || ::pipe2(from, O_CLOEXEC) != 0)
            throw std::runtime_error(std::string("cannot make the worker's pipes: ") +
                                     std::strerror(errno));
        std::vector<char*> argv;
        for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        const pid_t pid = ::fork();
        if (pid < 0)
            throw std::runtime_error(std::string("cannot start the worker: ") +
                                     std::strerror(errno));
        if (pid == 0) {
            // Requests on fd 3, answers on fd 4; nothing else of ours (the report pipe above all)
            // reaches the worker.
            ::setpgid(0, 0);
            const int in = ::fcntl(to[0], F_DUPFD, 10), out = ::fcntl(from[1], F_DUPFD, 10);
            if (in < 0 || out < 0 || ::dup2(in, 3) != 3 || ::dup2(out, 4) != 4) ::_exit(126);
            ::close_range(5, ~0U, 0);
            ::unsetenv(kArgvVariable);
            ::unsetenv(kTimeoutVariable);
            ::unsetenv(kWrappedVariable);
            ::execvp(argv[0], argv.data());
            std::fprintf(stderr, "scanlab: cannot start the worker %s: %s\n", argv[0],
                         std::strerror(errno));
            ::_exit(127);
        }
        ::close(to[0]);
        ::close(from[1]);
        pid_ = pid;
        to_worker_ = to[1];
        from_worker_ = from[0];

        std::vector<std::uint8_t> hello;
        Received received = Received::closed;
        try {
            received = receive_message(from_worker_, hello, call_timeout_s(), 0);
        } catch (const WireError&) {
        }
        if (received == Received::message && hello.empty()) return;
        const std::string how = received == Received::timed_out
                                    ? "did not start within " +
                                          std::to_string(static_cast<int>(call_timeout_s())) +
                                          " s and was stopped"
                                    : stop();
        stop();
        startup_failure_ = "the process that runs the lab's code " + how +
                           " before main() (code that runs before main(), such as a static "
                           "constructor, ended or blocked it), so no call of the lab's code ran";
        throw std::runtime_error(what + ": " + startup_failure_);
    }

    // Ends the worker (if it still runs) and says how it ended.
    std::string stop() {
        if (pid_ <= 0) return "";
        ::close(to_worker_);
        ::close(from_worker_);
        int status = 0;
        pid_t done = ::waitpid(pid_, &status, WNOHANG);
        if (done == 0) {
            // Still running after it closed its end (or it hangs): give it a moment, then kill.
            for (int i = 0; i < 20 && done == 0; ++i) {
                ::usleep(10000);
                done = ::waitpid(pid_, &status, WNOHANG);
            }
            if (done == 0) {
                ::kill(-pid_, SIGKILL);
                ::kill(pid_, SIGKILL);
                done = ::waitpid(pid_, &status, 0);
            }
        }
        pid_ = -1;
        return done > 0 ? describe_status(status) : "ended";
    }

    pid_t pid_ = -1;
    int to_worker_ = -1, from_worker_ = -1;
    std::string startup_failure_;
};

Worker& worker() {
    static Worker process;
    return process;
}

[[noreturn]] void throw_again(Thrown thrown, const std::string& message) {
    switch (thrown) {
    case Thrown::invalid_argument:
        throw std::invalid_argument(message);
    case Thrown::out_of_range:
        throw std::out_of_range(message);
    case Thrown::length_error:
        throw std::length_error(message);
    case Thrown::logic_error:
        throw std::logic_error(message);
    case Thrown::bad_alloc:
        throw std::bad_alloc();
    case Thrown::unknown:
        throw std::runtime_error("the lab's code threw something that is not a std::exception");
    default:
        throw std::runtime_error(message);
    }
}

} // namespace

Call::Call(std::string function, std::string op) {
    request_.function = std::move(function);
    request_.op = std::move(op);
}

void Call::pointer(const void* p, Memory memory, std::size_t host_bytes) {
    const auto address = reinterpret_cast<std::uintptr_t>(p);
    request_.pointers.push_back(address);
    if (!p) return;
    if (memory == Memory::host) {
        host_ranges_.push_back({address, address + host_bytes});
        return;
    }
    backend::Allocation allocation;
    if (!backend::find_device_allocation(p, &allocation))
        return; // not device memory: passed as it is, and the worker's backend says so
    const auto base = reinterpret_cast<std::uint64_t>(allocation.base);
    for (const Region& region : request_.regions)
        if (region.base == base) return;
    Region region = backend::device_block(allocation.base, allocation.bytes);
    region.base = base;
    request_.regions.push_back(std::move(region));
}

std::vector<std::uint8_t> Call::run() {
    // Host ranges that overlap (an in-place scan) travel as one region.
    std::sort(host_ranges_.begin(), host_ranges_.end(),
              [](const HostSpan& a, const HostSpan& b) { return a.first < b.first; });
    std::vector<HostSpan> merged;
    for (const HostSpan& range : host_ranges_) {
        if (!merged.empty() && range.first < merged.back().last && range.first != range.last)
            merged.back().last = std::max(merged.back().last, range.last);
        else
            merged.push_back(range);
    }
    for (const HostSpan& range : merged) {
        Region region;
        region.base = range.first;
        region.memory = Memory::host;
        const auto* bytes = reinterpret_cast<const std::uint8_t*>(range.first);
        region.contents.assign(bytes, bytes + (range.last - range.first));
        request_.regions.push_back(std::move(region));
    }
    const auto* watch = backend::kEmulator ? test::active_kernel_work_watch() : nullptr;
    if (watch) { // none on a GPU: nothing watches there (kernel_work.h)
        request_.watching = true;
        for (const test::WatchedRange& range : *watch)
            request_.watched.push_back({range.output ? WatchRole::output : WatchRole::input,
                                        reinterpret_cast<std::uint64_t>(range.device_ptr),
                                        range.bytes});
    }

    request_.simt_options = backend::options_numbers();
    ask_for_traces(request_);

    const std::string what = request_.function + "<" + request_.op + ">";
    const Response response = worker().call(request_, what);
    for (const Region& region : response.regions) {
        if (region.memory == Memory::host)
            std::memcpy(reinterpret_cast<void*>(region.base), region.contents.data(),
                        region.contents.size());
        else {
            backend::import_contents(reinterpret_cast<void*>(region.base), region.contents.data(),
                                     region.contents.size(), region.written);
            backend::watch_imported(reinterpret_cast<void*>(region.base), region.contents.size());
        }
    }
    for (std::size_t i = 0; i < restores_.size(); ++i)
        if (restores_[i] && response.objects[i].present) restores_[i](response.objects[i]);
    if (response.leaked_bytes > 0) {
        // The worker's leak, held here for good, as the leaking call would have left it.
        void* leak = nullptr;
        if (cudaMalloc(&leak, response.leaked_bytes) != cudaSuccess) (void)cudaGetLastError();
    }
    // On a GPU a CUDA error of the call cannot become the harness's own: it is thrown below.
    const std::string device_error = backend::adopt_errors(response.errors);
    adopt_traces(response);
    if (!response.provenance.empty()) test::note_remote_kernel_work(response.provenance);
    if (response.thrown != Thrown::nothing) throw_again(response.thrown, response.message);
    if (!device_error.empty()) throw std::runtime_error(what + ": " + device_error);
    return response.returned;
}

} // namespace scanlab::remote
