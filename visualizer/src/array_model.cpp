#include "array_model.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "scanlab/trace/value.h"

namespace scanlab::view {

namespace {

constexpr std::size_t kMaxReadsPerStore = 16; // arrows into one written cell

bool is_write(trace::AccessKind kind) {
    return kind != trace::AccessKind::load;
}

// The access width most instructions on the object use: the size of a cell.
std::uint32_t common_width(const trace::Trace& trace, const BlockIndex& block,
                           const std::vector<std::uint32_t>& positions) {
    std::map<std::uint32_t, std::uint64_t> counts;
    for (std::uint32_t p : positions) ++counts[trace.instructions[block.instructions[p]].width];
    std::uint32_t best = 4;
    std::uint64_t best_count = 0;
    for (auto [width, count] : counts) {
        if (count >= best_count) {
            best = width;
            best_count = count;
        }
    }
    return best;
}

struct Window {
    std::uint64_t first = 0;
    std::uint64_t last = 0;
    bool operator<(const Window& o) const {
        return std::pair(first, last) < std::pair(o.first, o.last);
    }
};

struct Fold {
    std::uint64_t origin = 0;
    std::uint64_t period = 0; // 0: no fold
};

// Equal windows written at a fixed spacing, with every touched element inside one of them.
Fold detect_fold(const std::set<Window>& windows, const std::set<std::uint64_t>& touched) {
    if (windows.size() < 2) return {};
    const std::uint64_t length = windows.begin()->last - windows.begin()->first + 1;
    std::vector<std::uint64_t> starts;
    for (const Window& w : windows) {
        if (w.last - w.first + 1 != length) return {};
        starts.push_back(w.first);
    }
    const std::uint64_t origin = starts.front();
    const std::uint64_t period = starts[1] - starts[0];
    if (period < length) return {};
    for (std::uint64_t s : starts)
        if ((s - origin) % period != 0) return {};
    for (std::uint64_t e : touched)
        if (e < origin || (e - origin) % period >= length) return {};
    return {origin, period};
}

} // namespace

ArrayModel::ArrayModel(const trace::Trace& trace, const BlockIndex& block, std::uint32_t object,
                       ArraySettings settings)
    : trace_(&trace), block_(&block), object_(object) {
    std::vector<std::uint32_t> positions;
    for (std::uint32_t p = 0; p < block.instruction_count(); ++p)
        if (trace.instructions[block.instructions[p]].memory == object) positions.push_back(p);
    cell_bytes_ = common_width(trace, block, positions);

    // Each lane's cells; the windows each step wrote; whether the object is written at all.
    std::set<std::uint64_t> touched;
    std::map<std::uint32_t, Window> step_window;
    std::vector<char> step_writes(block.step_count(), 0);
    std::vector<char> step_reads(block.step_count(), 0);
    std::uint32_t step = 0;
    for (std::uint32_t p : positions) {
        const auto& instruction = trace.instructions[block.instructions[p]];
        while (block.step_end(step) <= p) ++step;
        const bool write = is_write(instruction.kind);
        written_ = written_ || write;
        (write ? step_writes : step_reads)[step] = 1;
        const std::uint32_t parts = std::max<std::uint32_t>(1, instruction.width / cell_bytes_);
        for (const auto& lane : instruction.lanes) {
            const std::uint64_t first = lane.offset / cell_bytes_;
            for (std::uint32_t k = 0; k < parts; ++k) touched.insert(first + k);
            if (!write) continue;
            auto [it, inserted] = step_window.try_emplace(step, Window{first, first + parts - 1});
            it->second.first = std::min(it->second.first, first);
            it->second.last = std::max(it->second.last, first + parts - 1);
        }
    }

    if (settings.fold) {
        std::set<Window> windows;
        for (const auto& [s, w] : step_window) windows.insert(w);
        const Fold fold = detect_fold(windows, touched);
        fold_origin_ = fold.origin;
        fold_period_ = fold.period;
    }

    std::set<std::uint64_t> keys;
    for (std::uint64_t e : touched) keys.insert(fold_key(e));
    column_key_.assign(keys.begin(), keys.end());
    if (!column_key_.empty()) {
        const std::uint64_t range = column_key_.back() - column_key_.front() + 1;
        const std::uint64_t count = column_key_.size();
        // Untouched elements between touched ones are kept as empty columns (padding shows up),
        // unless the block touched only a sparse few of a large range.
        dense_ = range <= std::max<std::uint64_t>(4 * count, count + 4096);
        if (dense_) {
            const std::uint64_t first = column_key_.front();
            column_key_.resize(range);
            for (std::uint64_t i = 0; i < range; ++i) column_key_[i] = first + i;
        }
    }

    // Rows: the steps that write the object (or read it, if nothing writes it).
    const auto& shown = written_ ? step_writes : step_reads;
    bool initial = false;
    if (written_) {
        std::uint32_t first_row_step = block.step_count();
        for (std::uint32_t s = 0; s < block.step_count(); ++s) {
            if (settings.all_steps || shown[s]) {
                first_row_step = s;
                break;
            }
        }
        for (std::uint32_t s = 0; s <= std::min(first_row_step, block.step_count() - 1); ++s)
            if (step_reads[s]) initial = true;
    }
    if (initial) rows_.push_back(ArrayRow{});
    row_of_step_.assign(block.step_count(), initial ? 0 : -1);
    for (std::uint32_t s = 0; s < block.step_count(); ++s) {
        if (settings.all_steps || shown[s]) rows_.push_back(ArrayRow{s});
        row_of_step_[s] = rows_.empty() ? -1 : static_cast<int>(rows_.size()) - 1;
    }
    auto row_before_step = [&](std::uint32_t s) -> int {
        if (s == 0) return initial ? 0 : -1;
        return row_of_step_[s - 1];
    };

    // Events per column (counting sort keeps execution order), and arrows.
    // A thread's reads since its last store, for the arrows into what it writes next. Reads of
    // an earlier step count only while the thread has stored nothing since (a value carried in a
    // register across a barrier, as in an in-place scan).
    struct Pending {
        std::vector<std::pair<std::uint32_t, int>> reads; // column, source row
        std::uint32_t step = 0;                           // of the reads
        bool after_store = false;
    };
    std::vector<Pending> pending(std::max<std::uint32_t>(block.threads, 1));
    std::vector<std::pair<std::uint32_t, CellEvent>> flat;
    std::vector<Arrow> arrows;
    std::vector<std::uint32_t> arrow_rows;
    step = 0;
    for (std::uint32_t p : positions) {
        const auto& instruction = trace.instructions[block.instructions[p]];
        while (block.step_end(step) <= p) ++step;
        const bool write = is_write(instruction.kind);
        const std::uint32_t parts = std::max<std::uint32_t>(1, instruction.width / cell_bytes_);
        for (std::size_t l = 0; l < instruction.lanes.size(); ++l) {
            const auto& lane = instruction.lanes[l];
            const std::uint64_t first = lane.offset / cell_bytes_;
            for (std::uint32_t k = 0; k < parts; ++k) {
                const auto column = static_cast<std::uint32_t>(column_of_element(first + k));
                flat.push_back({column, CellEvent{p, static_cast<std::uint8_t>(l),
                                                  static_cast<std::uint8_t>(k), write}});
            }
            const auto column = static_cast<std::uint32_t>(column_of_element(first));
            Pending& thread = pending[std::min<std::size_t>(lane.thread, pending.size() - 1)];
            if (instruction.kind != trace::AccessKind::store) { // loads and atomics read
                if (thread.after_store || thread.step != step) thread.reads.clear();
                thread.after_store = false;
                thread.step = step;
                if (thread.reads.size() == kMaxReadsPerStore)
                    thread.reads.erase(thread.reads.begin());
                thread.reads.push_back({column, row_before_step(step)});
            }
            if (write) {
                const int row = row_of_step_[step];
                if (thread.step != step && thread.after_store) thread.reads.clear();
                for (auto [source_column, source_row] : thread.reads) {
                    if (source_row < 0 || row < 0 || source_row >= row) continue;
                    arrows.push_back(Arrow{p, static_cast<std::uint32_t>(source_row), source_column,
                                           column, lane.thread});
                    arrow_rows.push_back(static_cast<std::uint32_t>(row));
                }
                thread.after_store = true;
            }
        }
    }

    event_begin_.assign(column_count() + 1, 0);
    for (const auto& [column, event] : flat) ++event_begin_[column + 1];
    for (std::uint32_t c = 0; c < column_count(); ++c) event_begin_[c + 1] += event_begin_[c];
    events_.resize(flat.size());
    {
        std::vector<std::uint32_t> next(event_begin_.begin(), event_begin_.end() - 1);
        for (const auto& [column, event] : flat) events_[next[column]++] = event;
    }
    // Values come from writes only, for an object the block writes.
    value_event_begin_.assign(column_count() + 1, 0);
    for (std::uint32_t c = 0; c < column_count(); ++c) {
        for (const CellEvent* e = events_begin(c); e != events_end(c); ++e)
            if (!written_ || e->write) value_events_.push_back(*e);
        value_event_begin_[c + 1] = static_cast<std::uint32_t>(value_events_.size());
    }

    // Arrows grouped by the row of their store, sorted by the written column.
    arrow_begin_.assign(rows_.size() + 1, 0);
    for (std::size_t a = 0; a < arrows.size(); ++a) ++arrow_begin_[arrow_rows[a] + 1];
    for (std::size_t r = 0; r < rows_.size(); ++r) arrow_begin_[r + 1] += arrow_begin_[r];
    arrows_.resize(arrows.size());
    {
        std::vector<std::uint32_t> next(arrow_begin_.begin(), arrow_begin_.end() - 1);
        for (std::size_t a = 0; a < arrows.size(); ++a) arrows_[next[arrow_rows[a]]++] = arrows[a];
    }
    arrow_span_.assign(rows_.size(), 0);
    for (std::size_t r = 0; r < rows_.size(); ++r) {
        Arrow* begin = arrows_.data() + arrow_begin_[r];
        Arrow* end = arrows_.data() + arrow_begin_[r + 1];
        std::stable_sort(begin, end,
                         [](const Arrow& a, const Arrow& b) { return a.column < b.column; });
        for (const Arrow* a = begin; a != end; ++a) {
            const std::uint32_t span = a->column > a->source_column ? a->column - a->source_column
                                                                    : a->source_column - a->column;
            arrow_span_[r] = std::max(arrow_span_[r], span);
        }
    }
}

std::uint64_t ArrayModel::fold_key(std::uint64_t element) const {
    if (fold_period_ == 0) return element;
    return (element - fold_origin_) % fold_period_;
}

std::uint64_t ArrayModel::column_element(std::uint32_t column) const {
    const std::uint64_t key = column_key_[column];
    return fold_period_ == 0 ? key : fold_origin_ + key;
}

std::int64_t ArrayModel::column_of_element(std::uint64_t element) const {
    if (column_key_.empty()) return -1;
    if (fold_period_ != 0 && element < fold_origin_) return -1;
    const std::uint64_t key = fold_key(element);
    if (dense_) {
        if (key < column_key_.front() || key > column_key_.back()) return -1;
        return static_cast<std::int64_t>(key - column_key_.front());
    }
    auto it = std::lower_bound(column_key_.begin(), column_key_.end(), key);
    if (it == column_key_.end() || *it != key) return -1;
    return it - column_key_.begin();
}

int ArrayModel::row_at_or_before(std::uint32_t step) const {
    if (row_of_step_.empty()) return rows_.empty() ? -1 : 0;
    return row_of_step_[std::min<std::size_t>(step, row_of_step_.size() - 1)];
}

CellState ArrayModel::cell(std::uint32_t r, std::uint32_t column, std::uint32_t done) const {
    const CellEvent* all_begin = events_begin(column);
    const CellEvent* all_end = events_end(column);
    const bool initial_known = all_begin != all_end && !all_begin->write;
    const ArrayRow& row = rows_[r];
    if (!row.step) return CellState{initial_known ? all_begin : nullptr, false};

    const std::uint32_t step_begin = block_->step_begin[*row.step];
    const std::uint32_t limit = std::min(done, block_->step_end(*row.step));
    const CellEvent* begin = value_events_.data() + value_event_begin_[column];
    const CellEvent* end = value_events_.data() + value_event_begin_[column + 1];
    const CellEvent* it =
        std::partition_point(begin, end, [&](const CellEvent& e) { return e.position < limit; });
    if (it == begin) return CellState{initial_known ? all_begin : nullptr, false};
    const CellEvent* last = it - 1;
    return CellState{last, last->position >= step_begin};
}

std::vector<CellEvent> ArrayModel::sample_value_events(std::size_t count) const {
    std::vector<CellEvent> sample;
    if (value_events_.empty() || count == 0) return sample;
    const std::size_t stride = std::max<std::size_t>(1, value_events_.size() / count);
    for (std::size_t i = 0; i < value_events_.size() && sample.size() < count; i += stride)
        sample.push_back(value_events_[i]);
    return sample;
}

std::uint64_t ArrayModel::element_of(const CellEvent& event) const {
    const auto& lane = trace_->instructions[block_->instructions[event.position]].lanes[event.lane];
    return lane.offset / cell_bytes_ + event.part;
}

std::string cell_value_text(const trace::Trace& trace, const BlockIndex& block,
                            const CellEvent& event, std::uint32_t cell_bytes) {
    const auto& instruction = trace.instructions[block.instructions[event.position]];
    const auto& lane = instruction.lanes[event.lane];
    if (instruction.width <= cell_bytes)
        return trace::format_value(instruction.value_type, instruction.width, lane.value);
    // One cell of a wide access: its bytes, read as the access's element type when that fits.
    const std::uint32_t element = trace::value_type_size(instruction.value_type);
    if (element == 0 || element > cell_bytes || cell_bytes % element != 0) return "?";
    const auto part =
        trace::ValueBytes::from(lane.value.bytes.data() + event.part * cell_bytes, cell_bytes);
    return trace::format_value(instruction.value_type, cell_bytes, part);
}

} // namespace scanlab::view
