#pragma once

// The array view: one row per step of the selected block, the cells of one memory object with
// their values at the end of that step, and arrows from the cells each thread read to the cell
// it wrote. Cells written in the row's step are filled with their thread's (or warp's) colour;
// values carried over are grey; the selected instruction's cells are framed in yellow. Rows of
// steps not reached yet are empty outlines, so playing the trace draws the algorithm row by row.

#include <cstdint>
#include <memory>

#include <imgui.h>

#include "array_model.h"
#include "canvas.h"
#include "loaded_trace.h"
#include "selection.h"

namespace scanlab::view {

// The object the array view starts with: the block's most accessed shared object, else its most
// accessed object.
std::uint32_t default_array_object(const trace::Trace& trace, const BlockIndex& block);

class ArrayView {
  public:
    // The view's own controls (object, folding, rows, colours), then the drawing.
    void draw_controls(const LoadedTrace& loaded, Selection& selection);
    void draw(const LoadedTrace& loaded, Selection& selection, ImVec2 size);

    Canvas& canvas() { return canvas_; }
    // The model drawn last (for tests and the status line); null before the first draw.
    const ArrayModel* model() const { return model_.get(); }

  private:
    const ArrayModel& model_for(const LoadedTrace& loaded, Selection& selection);
    void tooltip(const LoadedTrace& loaded, const Selection& selection, std::uint32_t row,
                 std::uint32_t column) const;

    struct Key {
        const LoadedTrace* trace = nullptr;
        std::uint32_t block = 0;
        std::uint32_t object = 0;
        bool fold = true;
        bool all_steps = false;
        bool operator==(const Key&) const = default;
    };
    Canvas canvas_;
    std::unique_ptr<ArrayModel> model_;
    Key key_;
    float base_cell_width_ = 24.0f;
    float base_row_gap_ = 24.0f;
    float widest_value_ = 0.0f; // text width of the widest value in a sample of the cells
    int followed_row_ = -1;
};

} // namespace scanlab::view
