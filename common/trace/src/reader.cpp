#include "scanlab/trace/reader.h"

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <string>
#include <variant>
#include <system_error>
#include <vector>

#include "convert.h"
#include "read_unvalidated.h"
#include "json_read.h"
#include "scanlab/trace/validate.h"

namespace scanlab::trace {
namespace {

using detail::cat;
using detail::describe;
using detail::Json;
using detail::kTopLevelFields;
using detail::Path;

// The format nests 7 levels deep; anything deeper is not a trace (and must not exhaust memory).
constexpr std::size_t kMaxDepth = 10;
// No object of the format has more than 13 fields; more is not a trace (and keeps the
// duplicate-field check cheap).
constexpr std::size_t kMaxFields = 32;

constexpr std::string_view kNotATrace = "this is not a scanlab trace";

enum class Section {
    none,
    sources,
    memory,
    steps,
    instructions,
    block_events,
    findings,
    shuffles,
    mbarriers
};

Section section_of(std::string_view key) {
    if (key == "sources") return Section::sources;
    if (key == "memory") return Section::memory;
    if (key == "steps") return Section::steps;
    if (key == "instructions") return Section::instructions;
    if (key == "block_events") return Section::block_events;
    if (key == "findings") return Section::findings;
    if (key == "shuffles") return Section::shuffles;
    if (key == "mbarriers") return Section::mbarriers;
    return Section::none;
}

// Parses with nlohmann's callback parser and converts each element of the big arrays (sections)
// as soon as it is complete, then drops it from the DOM: memory stays near the size of the model,
// not of a DOM of the whole document. The callback also enforces what must be known early: that
// this is a scanlab trace of a supported version, nesting depth, duplicate and unknown fields.
class DocumentParser {
  public:
    DocumentParser(std::string_view text, const Limits& limits) : text_(text), limits_(limits) {}

    // Converts the document into a Trace; validate_trace() runs on it when `validate` is true.
    Trace parse(bool validate = true);

  private:
    struct Frame {
        bool is_array = false;
        std::size_t count = 0; // arrays: elements so far
        std::string key;       // objects: the current field
        std::vector<std::string> keys;
        bool child_open = false; // the current field or element has begun and not ended
    };

    bool on_event(Json::parse_event_t event, Json& parsed);
    void on_element(const Json* value, bool is_array);
    void on_key(const std::string& name);
    void check_top_level_value(const Json* value, bool is_array);
    void convert_element(const Json& element);
    // Refuses a document once `count` (what it holds so far) passes `limit`.
    void check_count(std::uint64_t count, std::uint64_t limit, std::string_view what,
                     std::string_view limit_name) const;
    [[noreturn]] void fail_here(const std::string& detail) const;
    std::string current_path() const;
    bool in_section_array() const {
        return open_ >= 2 && frames_[1].is_array && section_of(frames_[0].key) != Section::none;
    }
    // Frames are reused rather than reallocated: a trace opens millions of small objects.
    void push_frame(bool is_array) {
        if (open_ == frames_.size()) frames_.emplace_back();
        Frame& frame = frames_[open_++];
        frame.is_array = is_array;
        frame.count = 0;
        frame.key.clear();
        frame.keys.clear();
        frame.child_open = false;
    }

    std::string_view text_;
    const Limits& limits_;
    Trace trace_;
    std::vector<Frame> frames_;
    std::size_t open_ = 0; // frames_[0..open_) are the containers open now
    std::uint64_t source_lines_ = 0;
    std::uint32_t version_ = 0; // the document's, once read
    std::uint64_t lanes_ = 0;
};

std::string DocumentParser::current_path() const {
    std::string path;
    for (std::size_t i = 0; i < open_; ++i) {
        const Frame& frame = frames_[i];
        // Past a completed field or element, the problem lies in the container itself.
        if (i + 1 == open_ && !frame.child_open) break;
        if (frame.is_array) {
            path += cat('[', frame.count == 0 ? 0 : frame.count - 1, ']');
        } else if (!frame.key.empty()) {
            if (!path.empty()) path += '.';
            path += detail::clipped(frame.key);
        }
    }
    return path;
}

void DocumentParser::fail_here(const std::string& detail) const {
    throw TraceError(current_path(), detail);
}

bool DocumentParser::on_event(Json::parse_event_t event, Json& parsed) {
    using Event = Json::parse_event_t;
    switch (event) {
    case Event::object_start:
    case Event::array_start:
        on_element(nullptr, event == Event::array_start);
        if (open_ >= kMaxDepth) fail_here(cat("nested deeper than ", kMaxDepth, " levels"));
        push_frame(event == Event::array_start);
        return true;
    case Event::key:
        on_key(parsed.get_ref<const std::string&>());
        return true;
    case Event::value:
        on_element(&parsed, false);
        return true;
    case Event::object_end:
    case Event::array_end:
        --open_;
        if (open_ > 0) frames_[open_ - 1].child_open = false;
        if (event == Event::object_end && open_ == 2 && in_section_array()) {
            convert_element(parsed);
            return false; // converted: drop it from the DOM
        }
        return true;
    }
    return true;
}

// A value or container begins inside the innermost open container.
void DocumentParser::on_element(const Json* value, bool is_array) {
    if (open_ == 0) {
        if (is_array) fail_here(cat("the document is an array, not an object: ", kNotATrace));
        return;
    }
    Frame& parent = frames_[open_ - 1];
    if (parent.is_array) ++parent.count;
    parent.child_open = true;
    if (open_ == 1) check_top_level_value(value, is_array);
    if (open_ == 2 && in_section_array() && (value || is_array))
        fail_here("expected an object, got " +
                  (value ? describe(*value) : std::string("an array")));
    if (value) parent.child_open = false; // a scalar is complete when it is reported
}

void DocumentParser::on_key(const std::string& name) {
    Frame& frame = frames_[open_ - 1];
    if (frame.keys.size() >= kMaxFields)
        fail_here(cat("more than ", kMaxFields, " fields in one object"));
    frame.key = name;
    frame.child_open = true;
    if (std::find(frame.keys.begin(), frame.keys.end(), name) != frame.keys.end())
        fail_here("duplicate field");
    frame.keys.push_back(name);
    if (open_ != 1) return;

    // Format and version come first, so that nothing else is read under the wrong rules.
    const std::size_t position = frame.keys.size() - 1;
    if (position == 0 && name != "format")
        throw TraceError("", cat("the document does not begin with \"format\": \"scanlab-trace\" "
                                 "(its first field is \"",
                                 detail::clipped(name), "\"): ", kNotATrace));
    if (position == 1 && name != "version")
        throw TraceError(
            "", cat("the second field must be \"version\", not \"", detail::clipped(name), '"'));
    if (std::find(std::begin(kTopLevelFields), std::end(kTopLevelFields), name) ==
        std::end(kTopLevelFields))
        fail_here("unknown field");
}

void DocumentParser::check_top_level_value(const Json* value, bool is_array) {
    const std::string& key = frames_[0].key;
    const std::string got = value ? describe(*value) : is_array ? "an array" : "an object";
    if (key == "format") {
        if (!value || !value->is_string() || value->get_ref<const std::string&>() != kFormatName)
            fail_here(cat("expected \"", kFormatName, "\", got ", got, ": ", kNotATrace));
    } else if (key == "version") {
        if (!value || !value->is_number_integer()) fail_here(cat("expected an integer, got ", got));
        if (!value->is_number_unsigned() || value->get<std::uint64_t>() < kOldestFormatVersion ||
            value->get<std::uint64_t>() > kFormatVersion)
            fail_here(cat("unsupported version ", value->dump(), "; this reader supports versions ",
                          kOldestFormatVersion, " to ", kFormatVersion));
        version_ = value->get<std::uint32_t>();
    } else if (key == "findings" && version_ < 2) {
        fail_here(cat("findings are a field of version 2; this document says version ", version_));
    } else if ((key == "shuffles" || key == "expected") && version_ < 3) {
        fail_here(cat(key, " is a field of version 3; this document says version ", version_));
    } else if (key == "mbarriers" && version_ < 4) {
        fail_here(cat("mbarriers is a field of version 4; this document says version ", version_));
    }
}

void DocumentParser::check_count(std::uint64_t count, std::uint64_t limit, std::string_view what,
                                 std::string_view limit_name) const {
    if (count > limit)
        throw TraceError(frames_[0].key, cat("more than ", limit, ' ', what, " (Limits::",
                                             limit_name, "); refusing to load a trace this large"));
}

void DocumentParser::convert_element(const Json& element) {
    const Path section(frames_[0].key);
    const std::size_t position = frames_[1].count - 1;
    const Path path(section, position);
    switch (section_of(frames_[0].key)) {
    case Section::sources:
        check_count(trace_.sources.size() + 1, limits_.max_sources, "source files", "max_sources");
        trace_.sources.push_back(detail::read_source(element, path));
        source_lines_ += trace_.sources.back().lines.size();
        check_count(source_lines_, limits_.max_source_lines, "source lines", "max_source_lines");
        break;
    case Section::memory:
        check_count(trace_.memory.size() + 1, limits_.max_memory_objects, "memory objects",
                    "max_memory_objects");
        trace_.memory.push_back(detail::read_memory_object(element, path, position));
        break;
    case Section::steps:
        check_count(trace_.steps.size() + 1, limits_.max_steps, "steps", "max_steps");
        trace_.steps.push_back(detail::read_step(element, path, position));
        break;
    case Section::instructions:
        check_count(trace_.instructions.size() + 1, limits_.max_instructions, "instructions",
                    "max_instructions");
        trace_.instructions.push_back(detail::read_instruction(element, path, position));
        lanes_ += trace_.instructions.back().lanes.size();
        check_count(lanes_, limits_.max_lanes, "lanes in all", "max_lanes");
        break;
    case Section::block_events:
        check_count(trace_.block_events.size() + 1, limits_.max_block_events, "block events",
                    "max_block_events");
        trace_.block_events.push_back(detail::read_block_event(element, path));
        break;
    case Section::findings:
        check_count(trace_.findings.size() + 1, limits_.max_findings, "findings", "max_findings");
        trace_.findings.push_back(detail::read_finding(element, path));
        break;
    case Section::shuffles:
        check_count(trace_.shuffles.size() + 1, limits_.max_shuffles, "shuffles", "max_shuffles");
        trace_.shuffles.push_back(detail::read_shuffle(element, path));
        break;
    case Section::mbarriers:
        check_count(trace_.mbarriers.size() + 1, limits_.max_mbarrier_events, "mbarrier events",
                    "max_mbarrier_events");
        trace_.mbarriers.push_back(detail::read_mbarrier_event(element, path));
        break;
    case Section::none:
        break;
    }
}

// nlohmann's message without its "[json.exception.x.n] " and "parse error at ...: " prefixes.
std::string nlohmann_reason(std::string_view what) {
    if (what.starts_with("[json.exception.")) {
        const std::size_t end = what.find("] ");
        if (end != std::string_view::npos) what.remove_prefix(end + 2);
    }
    if (what.starts_with("parse error")) {
        const std::size_t colon = what.find(": ");
        if (colon != std::string_view::npos) what.remove_prefix(colon + 2);
    }
    return std::string(what);
}

Trace DocumentParser::parse(bool validate) {
    if (text_.size() > limits_.max_document_bytes)
        throw TraceError("", cat("the document has ", text_.size(), " bytes; the limit is ",
                                 limits_.max_document_bytes, " (Limits::max_document_bytes)"));
    if (text_.find_first_not_of(" \t\r\n") == std::string_view::npos)
        throw TraceError("", cat("the document is empty (", text_.size(), " bytes)"));

    Json root;
    try {
        root = Json::parse(text_.begin(), text_.end(),
                           [this](int, Json::parse_event_t event, Json& parsed) {
                               return on_event(event, parsed);
                           });
    } catch (const Json::parse_error& error) {
        // error.byte counts the bytes read, the offending one included.
        const std::size_t offset =
            std::min<std::size_t>(error.byte == 0 ? 0 : error.byte - 1, text_.size());
        const std::string_view before = text_.substr(0, offset);
        const std::size_t line =
            1 + static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n'));
        const std::size_t line_start = before.rfind('\n');
        const std::size_t column =
            offset - (line_start == std::string_view::npos ? 0 : line_start + 1) + 1;
        throw TraceError(current_path(),
                         cat(offset >= text_.size() ? "truncated JSON" : "invalid JSON",
                             " at byte offset ", offset, " (line ", line, ", column ", column,
                             "): ", nlohmann_reason(error.what())));
    } catch (const Json::exception& error) {
        // Number overflow ("1e999") and similar; they carry no position.
        throw TraceError(current_path(), cat("invalid JSON: ", nlohmann_reason(error.what())));
    }

    if (!root.is_object())
        throw TraceError("",
                         cat("the document is ", describe(root), ", not an object: ", kNotATrace));
    // Unknown and duplicate fields were refused while parsing.
    const auto field = [&root](std::string_view name) -> const Json& {
        const auto it = root.find(name);
        if (it == root.end())
            throw TraceError("", cat("missing field \"", name, '"',
                                     name == "format" ? cat(": ", kNotATrace) : std::string()));
        return *it;
    };
    field("format");
    field("version");
    const Path launch_path("launch");
    trace_.launch = detail::read_launch(field("launch"), launch_path);
    const Path truncated_path("truncated");
    trace_.truncated = detail::read_truncation(field("truncated"), truncated_path);
    for (const auto name : {"sources", "memory", "steps", "instructions", "block_events"}) {
        const Path path(name);
        detail::read_array(field(name), path); // elements were converted while parsing
    }
    if (version_ >= 2) detail::read_array(field("findings"), Path("findings"));
    // Version 3's optional sections: shuffles were converted while parsing.
    if (const auto it = root.find("shuffles"); it != root.end())
        detail::read_array(*it, Path("shuffles"));
    // Version 4's optional section, converted while parsing.
    if (const auto it = root.find("mbarriers"); it != root.end())
        detail::read_array(*it, Path("mbarriers"));
    if (const auto it = root.find("expected"); it != root.end())
        trace_.expected = detail::read_expected(*it, Path("expected"));
    if (version_ < 2)
        for (std::size_t i = 0; i < trace_.block_events.size(); ++i)
            if (std::holds_alternative<TileLook>(trace_.block_events[i].what))
                throw TraceError(cat("block_events[", i, "]"),
                                 cat("look events are part of version 2; this document says "
                                     "version ",
                                     version_));
    if (validate) validate_trace(trace_, limits_);
    return std::move(trace_);
}

} // namespace

Trace read_trace_text(std::string_view text, const Limits& limits) {
    return DocumentParser(text, limits).parse();
}

Trace detail::read_trace_unvalidated(std::string_view text, const Limits& limits) {
    return DocumentParser(text, limits).parse(false);
}

Trace read_trace(std::istream& in, const Limits& limits) {
    std::string text;
    char chunk[1 << 16];
    while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
        text.append(chunk, static_cast<std::size_t>(in.gcount()));
        if (text.size() > limits.max_document_bytes)
            throw TraceError("", cat("the document has more than ", limits.max_document_bytes,
                                     " bytes (Limits::max_document_bytes)"));
    }
    if (in.bad()) throw TraceError("", "reading the trace failed (stream error)");
    return read_trace_text(text, limits);
}

Trace read_trace_file(const std::filesystem::path& path, const Limits& limits) {
    std::error_code error;
    if (std::filesystem::is_directory(path, error))
        throw TraceError("",
                         cat("cannot read trace file '", path.string(), "': it is a directory"));
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw TraceError("", cat("cannot open trace file '", path.string(),
                                 "': ", std::generic_category().message(errno)));
    return read_trace(in, limits);
}

} // namespace scanlab::trace
