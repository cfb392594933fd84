#pragma once

// What the array view shows for one memory object in one block, derived once when the block or
// the object is chosen: the cells (elements the block touched), the rows (the steps that changed
// the object), every access of each cell in execution order, and the arrows from the cells a
// thread read to the cell it then wrote.
//
// Double-buffered arrays are folded: when the steps write equal-sized windows of the object at a
// fixed spacing (buffer[2][n], or temp[pout * n + i]), cell i of every window shares column i,
// and each row shows the window its step wrote. A Hillis-Steele scan of n elements then reads as
// the textbook picture: n columns and log2(n) + 1 rows.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "scanlab/trace/trace.h"
#include "trace_index.h"

namespace scanlab::view {

// One lane's access to one cell.
struct CellEvent {
    std::uint32_t position = 0; // instruction position in the block
    std::uint8_t lane = 0;      // index into the instruction's lanes
    std::uint8_t part = 0;      // which cell of a wide access (an int4 load covers 4 int cells)
    bool write = false;         // store or atomic
};

// A row: the state of the object at the end of a step; or, first, the values the block found in
// cells it read before writing them (`step` empty).
struct ArrayRow {
    std::optional<std::uint32_t> step; // position in BlockIndex::steps
};

struct Arrow {
    std::uint32_t position = 0; // the store's instruction position in the block
    std::uint32_t source_row = 0;
    std::uint32_t source_column = 0;
    std::uint32_t column = 0; // written cell, in the store's row
    std::uint32_t thread = 0;
};

struct ArraySettings {
    bool fold = true;       // fold double buffers onto shared columns when detected
    bool all_steps = false; // one row per step, not only the steps that change the object
};

// The value a cell shows in a row, and why.
struct CellState {
    const CellEvent* event = nullptr; // the access that gave the value; null: not known yet
    bool active = false;              // written (or, for a read-only object, read) in the row
};

class ArrayModel {
  public:
    ArrayModel() = default;
    ArrayModel(const trace::Trace& trace, const BlockIndex& block, std::uint32_t object,
               ArraySettings settings);

    std::uint32_t object() const { return object_; }
    std::uint32_t cell_bytes() const { return cell_bytes_; }
    bool folded() const { return fold_period_ != 0; }
    std::uint64_t fold_period() const { return fold_period_; }
    bool written() const { return written_; }

    std::uint32_t column_count() const { return static_cast<std::uint32_t>(column_key_.size()); }
    std::uint32_t row_count() const { return static_cast<std::uint32_t>(rows_.size()); }
    const ArrayRow& row(std::uint32_t r) const { return rows_[r]; }
    // The element index a column stands for (the first window's, when folded).
    std::uint64_t column_element(std::uint32_t column) const;
    // The column of an element of the object, or -1 when the block never touched it.
    std::int64_t column_of_element(std::uint64_t element) const;
    // The row showing the state at the end of a step (position in the block), or -1.
    int row_at_or_before(std::uint32_t step) const;

    // The cell at the end of row r's step, with only the first `done` instructions executed.
    CellState cell(std::uint32_t r, std::uint32_t column, std::uint32_t done) const;
    std::uint64_t element_of(const CellEvent& event) const;

    // Arrows into row r, sorted by column; and the widest horizontal span among them.
    const Arrow* arrows_begin(std::uint32_t r) const { return arrows_.data() + arrow_begin_[r]; }
    const Arrow* arrows_end(std::uint32_t r) const { return arrows_.data() + arrow_begin_[r + 1]; }
    std::uint32_t arrow_span(std::uint32_t r) const { return arrow_span_[r]; }
    std::size_t arrow_count() const { return arrows_.size(); }

    // Up to `count` of the accesses that set values, spread over the whole object (to size cells).
    std::vector<CellEvent> sample_value_events(std::size_t count) const;

    // The events of a column, in execution order.
    const CellEvent* events_begin(std::uint32_t column) const {
        return events_.data() + event_begin_[column];
    }
    const CellEvent* events_end(std::uint32_t column) const {
        return events_.data() + event_begin_[column + 1];
    }

  private:
    std::uint64_t fold_key(std::uint64_t element) const;

    const trace::Trace* trace_ = nullptr;
    const BlockIndex* block_ = nullptr;
    std::uint32_t object_ = 0;
    std::uint32_t cell_bytes_ = 4;
    std::uint64_t fold_period_ = 0; // elements; 0: not folded
    std::uint64_t fold_origin_ = 0;
    bool written_ = false;
    std::vector<std::uint64_t> column_key_; // sorted fold keys of the columns
    bool dense_ = true;                     // column = key - column_key_.front()
    std::vector<ArrayRow> rows_;
    std::vector<int> row_of_step_;           // per block step: the row at or before it, or -1
    std::vector<std::uint32_t> event_begin_; // all accesses, per column
    std::vector<CellEvent> events_;
    std::vector<std::uint32_t> value_event_begin_; // the accesses that set values, per column
    std::vector<CellEvent> value_events_;
    std::vector<std::uint32_t> arrow_begin_;
    std::vector<Arrow> arrows_;
    std::vector<std::uint32_t> arrow_span_;
};

// The text a cell shows: the value (or its part of a wide access), "?" when not recorded.
std::string cell_value_text(const trace::Trace& trace, const BlockIndex& block,
                            const CellEvent& event, std::uint32_t cell_bytes);

} // namespace scanlab::view
