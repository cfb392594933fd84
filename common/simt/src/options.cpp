#include "simt/options.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>

namespace simt {

namespace {
uint64_t parse_number(const std::string& what, const std::string& text, uint64_t lo, uint64_t hi) {
    char* end = nullptr;
    errno = 0;
    unsigned long long v = std::strtoull(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || errno != 0 || v < lo || v > hi)
        throw std::invalid_argument(what + ": '" + text + "' is not a number between " +
                                    std::to_string(lo) + " and " + std::to_string(hi));
    return v;
}

// A parsed name, or an error that says which names there are.
template <class T>
T named(std::optional<T> parsed, const std::string& where, const std::string& what,
        const std::string& value, const char* names) {
    if (!parsed)
        throw std::invalid_argument(where + ": unknown " + what + " '" + value + "' (" + names +
                                    ")");
    return *parsed;
}

// A setting with two values, each with its spellings: true for the first.
bool either(const std::string& where, const std::string& value,
            std::initializer_list<const char*> yes, std::initializer_list<const char*> no,
            const char* names) {
    for (const char* spelling : yes)
        if (value == spelling) return true;
    for (const char* spelling : no)
        if (value == spelling) return false;
    throw std::invalid_argument(where + ": '" + value + "' is not " + names);
}

void apply(Options& o, const std::string& key, const std::string& value, const std::string& where) {
    if (key == "mode") {
        o.mode = named(parse_mode(value), where, "mode", value, "its, lockstep, pre-volta");
    } else if (key == "dispatch") {
        o.dispatch =
            named(parse_dispatch(value), where, "dispatch order", value, "in-order, shuffled");
    } else if (key == "seed") {
        o.seed = parse_number(where, value, 0, UINT64_MAX);
    } else if (key == "sms") {
        o.multiprocessors = static_cast<int>(parse_number(where, value, 1, 1024));
    } else if (key == "stack-kb") {
        o.stack_bytes = parse_number(where, value, 16, 65536) * 1024;
    } else if (key == "checks") {
        o.checks = either(where, value, {"on", "1"}, {"off", "0"}, "on or off");
    } else if (key == "visibility") {
        o.relaxed_visibility = either(where, value, {"relaxed"}, {"sc"}, "relaxed or sc");
    } else {
        throw std::invalid_argument(where + ": unknown emulator option");
    }
}
} // namespace

std::string to_string(Mode mode) {
    switch (mode) {
    case Mode::lockstep:
        return "lockstep";
    case Mode::pre_volta:
        return "pre-volta";
    case Mode::its:
        break;
    }
    return "its";
}
std::string to_string(Dispatch d) {
    return d == Dispatch::in_order ? "in-order" : "shuffled";
}
std::optional<Mode> parse_mode(const std::string& t) {
    if (t == "lockstep") return Mode::lockstep;
    if (t == "its") return Mode::its;
    if (t == "pre-volta" || t == "pre_volta") return Mode::pre_volta;
    return std::nullopt;
}
std::optional<Dispatch> parse_dispatch(const std::string& t) {
    if (t == "in-order" || t == "in_order") return Dispatch::in_order;
    if (t == "shuffled") return Dispatch::shuffled;
    return std::nullopt;
}

Options& options() {
    static Options o = [] {
        Options fresh;
        return fresh;
    }();
    static bool loaded = false;
    if (!loaded) {
        loaded = true;
        // A bad SIMT_* value ends the program here, said as a bad --simt- flag is (exit 2):
        // thrown on, it would end it from whatever runtime call first read the options, or
        // fail one test case of a test program and leave the rest to the defaults.
        try {
            load_options_from_environment();
        } catch (const std::invalid_argument& e) {
            std::fprintf(stderr, "simt: %s\n", e.what());
            std::exit(2);
        }
    }
    return o;
}

void load_options_from_environment() {
    Options& o = options();
    const std::pair<const char*, const char*> vars[] = {{"SIMT_MODE", "mode"},
                                                        {"SIMT_DISPATCH", "dispatch"},
                                                        {"SIMT_SEED", "seed"},
                                                        {"SIMT_SMS", "sms"},
                                                        {"SIMT_STACK_KB", "stack-kb"},
                                                        {"SIMT_CHECKS", "checks"},
                                                        {"SIMT_VISIBILITY", "visibility"}};
    for (auto [env, key] : vars)
        if (const char* v = std::getenv(env)) apply(o, key, v, env);
    if (const char* q = std::getenv("SIMT_QUIET")) {
        const std::string quiet = q;
        if (quiet == "1" || quiet == "yes" || quiet == "true" || quiet == "on")
            o.report_to_stderr = false;
        else if (quiet == "0" || quiet == "no" || quiet == "false" || quiet == "off" ||
                 quiet.empty())
            o.report_to_stderr = true;
        else
            throw std::invalid_argument("SIMT_QUIET: '" + quiet + "' is not 1 or 0 (yes or no)");
    }
}

int consume_cli_flags(int argc, char** argv) {
    int out = 1;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg.rfind("--simt-", 0) == 0) {
            auto eq = arg.find('=');
            if (eq == std::string::npos)
                throw std::invalid_argument(arg + ": expected --simt-<option>=<value>");
            apply(options(), arg.substr(7, eq - 7), arg.substr(eq + 1), arg.substr(0, eq));
        } else {
            argv[out++] = argv[i];
        }
    }
    argv[out] = nullptr;
    return out;
}

} // namespace simt
