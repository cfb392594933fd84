// scanlab-trace: records a lab's kernel on the emulator and reports its shared-memory bank
// conflicts and the emulator's findings (exit status 1 when there are any: the trace is still
// written); also summarizes an existing trace file.
//
//   scanlab_trace_<flavour> LAB [--n N] [--variant V] [--blocks all|0,1] [--seed S]
//                               [--out FILE.json] [--chrome FILE.json] [--max-instructions M]
//   scanlab_trace_<flavour> --summary FILE.json
// (--help lists the options; the emulator's --simt-* flags are accepted too.)
#include <scanlab/trace/analysis.h>
#include <scanlab/trace/chrome_export.h>
#include <scanlab/trace/error.h>
#include <scanlab/trace/expected_check.h>
#include <scanlab/trace/names.h>
#include <scanlab/trace/reader.h>
#include <scanlab/trace/trace.h>
#include <scanlab/trace/writer.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "expected.h"
#include "lab_descriptor.h"
#include "record.h"
#include "simt/options.h"
#include "simt/report.h"
#include "simt/trace.h"

namespace {
namespace st = scanlab::trace;

// A relative output path, inside the folder SCANLAB_TRACE_DIR names (if it is set).
std::string in_trace_dir(const std::string& path) {
    const char* dir = std::getenv("SCANLAB_TRACE_DIR");
    if (!dir || !*dir || path.empty() || path.front() == '/') return path;
    std::string joined = dir;
    if (joined.back() != '/') joined += '/';
    return joined + path;
}

const char* kind_name(st::AccessKind k) {
    return k == st::AccessKind::load ? "load" : k == st::AccessKind::store ? "store" : "atomic";
}

void print_summary(const st::Trace& trace) {
    const st::TraceAnalysis a = st::analyze_trace(trace);
    std::printf("kernel %s, grid (%u,%u,%u), block (%u,%u,%u): %zu warp instructions, %zu steps\n",
                trace.launch.kernel.c_str(), trace.launch.grid.x, trace.launch.grid.y,
                trace.launch.grid.z, trace.launch.block.x, trace.launch.block.y,
                trace.launch.block.z, trace.instructions.size(), trace.steps.size());
    if (trace.truncated) std::printf("note: %s\n", trace.truncated->message.c_str());
    std::printf("\nshared-memory bank conflicts (Nsight Compute's definition: wavefronts minus "
                "the ideal)\n");
    std::printf("%6s %6s %-28s %10s %10s %10s\n", "step", "block", "ended by", "loads", "stores",
                "conflicts");
    for (size_t i = 0; i < trace.steps.size(); ++i) {
        const st::SharedTotals& t = a.steps[i];
        std::string ended = "exit";
        if (const auto& b = trace.steps[i].barrier) {
            const st::SourceFile& f = trace.sources[b->file];
            auto slash = f.path.rfind('/');
            ended = "__syncthreads() " +
                    (slash == std::string::npos ? f.path : f.path.substr(slash + 1)) + ":" +
                    std::to_string(b->line);
        }
        std::printf("%6zu %6u %-28s %10llu %10llu %10llu\n", i, trace.steps[i].block, ended.c_str(),
                    static_cast<unsigned long long>(t.load.conflicts),
                    static_cast<unsigned long long>(t.store.conflicts),
                    static_cast<unsigned long long>(t.all().conflicts));
    }
    const st::SharedTotals& l = a.launch;
    std::printf("\nlaunch: %llu shared instructions, %llu wavefronts (ideal %llu): %llu load, "
                "%llu store, %llu atomic conflicts, %llu in all\n",
                static_cast<unsigned long long>(l.all().instructions),
                static_cast<unsigned long long>(l.all().wavefronts),
                static_cast<unsigned long long>(l.all().ideal_wavefronts),
                static_cast<unsigned long long>(l.load.conflicts),
                static_cast<unsigned long long>(l.store.conflicts),
                static_cast<unsigned long long>(l.atomic.conflicts),
                static_cast<unsigned long long>(l.all().conflicts));
    // The worst instructions, where to look first.
    std::vector<std::pair<uint64_t, size_t>> worst;
    for (size_t i = 0; i < trace.instructions.size(); ++i)
        if (a.instructions[i] && a.instructions[i]->conflicts > 0)
            worst.emplace_back(a.instructions[i]->conflicts, i);
    std::sort(worst.rbegin(), worst.rend());
    if (!worst.empty()) std::printf("\nworst instructions:\n");
    for (size_t k = 0; k < worst.size() && k < 5; ++k) {
        const st::WarpInstruction& w = trace.instructions[worst[k].second];
        const st::SourceFile& f = trace.sources[w.source.file];
        std::string text;
        for (const auto& line : f.lines)
            if (line.number == w.source.line) text = line.text;
        text.erase(0, text.find_first_not_of(' '));
        std::printf("  #%zu %s of '%s' by warp %u in step %u: %llu-way -> %llu conflicts  "
                    "line %u: %s\n",
                    worst[k].second, kind_name(w.kind), trace.memory[w.memory].name.c_str(), w.warp,
                    w.step,
                    static_cast<unsigned long long>(a.instructions[worst[k].second]->wavefronts),
                    static_cast<unsigned long long>(worst[k].first), w.source.line, text.c_str());
    }
}

// The findings the trace carries (races, faults...), with the report text; returns how many.
size_t print_findings(const st::Trace& trace) {
    if (trace.findings.empty()) {
        std::printf("\nfindings: none (the emulator's checks found nothing in this launch)\n");
        return 0;
    }
    std::printf("\nfindings: %zu (the emulator's reports; the trace carries them, and the viewer "
                "marks their cells and lanes)\n",
                trace.findings.size());
    for (size_t i = 0; i < trace.findings.size(); ++i) {
        const st::Finding& f = trace.findings[i];
        std::string where;
        for (const st::FindingAccess& a : f.accesses)
            if (a.recorded) {
                where = " (instruction #" + std::to_string(a.recorded->instruction) + ", step " +
                        std::to_string(trace.instructions[a.recorded->instruction].step) + ")";
                break;
            }
        std::printf("\nfinding %zu: %s%s%s\n%s", i, std::string(st::to_string(f.kind)).c_str(),
                    f.ends_launch ? ", ended the launch" : "", where.c_str(), f.message.c_str());
    }
    return trace.findings.size();
}

// The recorded results against the host reference (the trace's `expected`): what differs.
void print_expected(const st::Trace& trace) {
    if (!trace.expected) return;
    const st::ExpectedCheck check = st::check_expected(trace);
    const st::ValueType type = trace.expected->value_type;
    const auto text = [type](const st::ValueBytes& v) {
        return st::format_value(type, st::value_type_size(type), v);
    };
    if (check.elements.empty()) {
        std::printf("\nresults: the %llu elements the recorded blocks wrote match the %s\n",
                    static_cast<unsigned long long>(check.judged),
                    trace.expected->reference.c_str());
    } else {
        const st::ElementDifference& first = check.elements.front();
        std::printf("\nresults: %zu of the %llu elements the recorded blocks wrote differ from "
                    "the %s; first: %s[%llu] = %s, expected %s (instruction #%llu)\n",
                    check.elements.size(), static_cast<unsigned long long>(check.judged),
                    trace.expected->reference.c_str(), trace.memory[first.memory].name.c_str(),
                    static_cast<unsigned long long>(first.element), text(first.actual).c_str(),
                    text(first.expected).c_str(),
                    static_cast<unsigned long long>(first.instruction));
    }
    for (const st::TileDifference& tile : check.tiles)
        std::printf("tile %u published P = %s; the reference gives %s\n", tile.tile,
                    text(tile.actual).c_str(), text(tile.expected).c_str());
}

} // namespace

int main(int argc, char** argv) {
    using namespace scanlab::run;
    try {
        argc = simt::consume_cli_flags(argc, argv);
        CLI::App app{"Records a lab's kernel on the emulator and prints its shared-memory bank "
                     "conflicts and the emulator's findings (exit status 1 when there are any); "
                     "or summarizes a trace file (`./scanlab trace`, docs/visualizer.md)."};
        std::string first, summary;
        RecordRequest request;
        std::string out, chrome, blocks = "0";
        simt::TraceSettings settings;
        CLI::Option* summary_option =
            app.add_option("--summary", summary, "print an existing trace's summary instead")
                ->check(CLI::ExistingFile);
        std::vector<CLI::Option*> recording = {
            app.add_option("lab", first, "the lab to record: 01 or 1, ..., 09"),
            app.add_option("--n", request.n, "elements (default: the lab's own trace size)")
                ->check(CLI::NonNegativeNumber),
            app.add_option("--variant", request.variant, "a lab's variant (e.g. unpadded)"),
            app.add_option("--seed", request.seed, "the input's random seed"),
            app.add_option("--out", out, "the trace file (default: labNN[-variant].trace.json)"),
            app.add_option("--chrome", chrome, "also write a Chrome trace-viewer file"),
            app.add_option("--max-instructions", settings.max_instructions,
                           "then the trace is cut (and says so)"),
            app.add_option("--blocks", blocks, "all, or the blocks to record: 0,1,..."),
        };
        app.footer("The emulator's flags are accepted too: --simt-mode=..., --simt-dispatch=..., "
                   "--simt-seed=N (docs/emulator.md).");
        CLI11_PARSE(app, argc, argv);
        for (const CLI::Option* option : recording)
            if (summary_option->count() > 0 && option->count() > 0) {
                std::fprintf(stderr, "scanlab trace: --summary reads a trace; %s records one\n",
                             option->get_name().c_str());
                return 2;
            }
        if (!summary.empty()) {
            const st::Trace trace = st::read_trace_file(summary);
            print_summary(trace);
            print_findings(trace);
            print_expected(trace);
            return 0;
        }
        if (first.empty()) {
            std::fprintf(stderr, "scanlab trace: give a lab (e.g. 01) or --summary FILE.json; "
                                 "--help lists the options\n");
            return 2;
        }
        settings.blocks.clear();
        if (blocks != "all") {
            std::stringstream list(blocks);
            for (std::string b; std::getline(list, b, ',');) {
                if (b.empty() || b.find_first_not_of("0123456789") != std::string::npos) {
                    std::fprintf(stderr,
                                 "scanlab trace: --blocks %s: not 'all' or a list of "
                                 "block indices\n",
                                 blocks.c_str());
                    return 2;
                }
                settings.blocks.push_back(static_cast<unsigned>(std::stoul(b)));
            }
        }
        std::string lab = first.size() == 1 ? "0" + first : first;
        const scanlab::labs::LabDescriptor* entry = scanlab::labs::find_lab(lab);
        if (!entry) {
            std::string known;
            for (const auto& l : scanlab::labs::lab_descriptors()) known += " " + l.number;
            std::fprintf(stderr, "scanlab trace: no lab '%s' (labs:%s)\n", first.c_str(),
                         known.c_str());
            return 2;
        }
        if (entry->runs == scanlab::labs::Runs::device) {
            try {
                (void)traced_variant(*entry, request);
            } catch (const std::invalid_argument& e) {
                std::fprintf(stderr, "scanlab trace: --variant %s: %s\n", request.variant.c_str(),
                             e.what());
                return 2;
            }
        }
        if (out.empty())
            out = "lab" + lab + (request.variant.empty() ? "" : "-" + request.variant) +
                  ".trace.json";
        // `./scanlab trace` runs this from the repository root and names the folder for the
        // traces, so that the paths printed below work from there (and in `./scanlab view`).
        out = in_trace_dir(out);
        if (!chrome.empty()) chrome = in_trace_dir(chrome);
        // The findings are printed below, from the trace, after the summary: the emulator need
        // not print its reports as they happen too.
        simt::options().report_to_stderr = false;
        simt::start_tracing(settings);
        // A kernel that faults makes the recording's CUDA calls fail; its trace is still written,
        // with the fault among its findings.
        std::string what, failure;
        ExpectedScan expected; // the reference results, for the viewer's marks
        try {
            what = record_lab(*entry, request,
                              [&](const RecordedInput& input) { expected.register_output(input); });
        } catch (const std::exception& e) {
            failure = e.what();
        }
        std::vector<st::Trace> traces = simt::stop_tracing();
        simt::clear_trace_expected();
        expected.complete(traces);
        if (failure.empty())
            std::printf("%s\n", what.c_str());
        else
            std::printf("the recorded run failed: %s\n", failure.c_str());
        if (traces.empty()) {
            std::printf("no kernel was launched: nothing to trace\n");
            // A launch refused before it ran (a bad configuration) has a report, and no trace.
            if (!simt::last_fault().message.empty())
                std::printf("%s", simt::last_fault().message.c_str());
            return 1;
        }
        size_t findings = 0;
        for (size_t k = 0; k < traces.size(); ++k) {
            std::string path = out;
            if (k > 0) {
                auto dot = path.rfind(".json");
                path.insert(dot == std::string::npos ? path.size() : dot, "." + std::to_string(k));
            }
            st::write_trace_file(traces[k], path); // throws, naming the path and why
            std::printf("\ntrace of launch %zu written to %s\n", k + 1, path.c_str());
            print_summary(traces[k]);
            findings += print_findings(traces[k]);
            print_expected(traces[k]);
            if (!chrome.empty() && k == 0) {
                std::ofstream c(chrome);
                st::export_chrome_trace(traces[k], c);
                std::printf("block schedule for Perfetto / chrome://tracing: %s\n", chrome.c_str());
            }
        }
        const char* command = std::getenv("SCANLAB_COMMAND");
        std::printf("\nsee it: %s view %s\n", command && *command ? command : "./scanlab",
                    out.c_str());
        if (findings > 0) {
            std::printf("\nthe kernel is not correct: %zu finding(s) above (the trace was "
                        "recorded in lockstep, so its values may look right anyway)\n",
                        findings);
            return 1;
        }
        if (!failure.empty()) return 1;
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "scanlab trace: %s\n", e.what());
        return 1;
    }
}
