#pragma once

// The bank view: the 32 banks of shared memory for one warp instruction, each lane placed in the
// bank of the word it touches (distinct words of one bank stacked: each extra word is one more
// wavefront, a conflict), the conflict degree, and heat strips of the conflicts per step of the
// block and per shared instruction of the current step, so the worst ones stand out.

#include <cstdint>
#include <optional>
#include <vector>

#include <imgui.h>

#include "bank_layout.h"
#include "canvas.h"
#include "loaded_trace.h"
#include "selection.h"

namespace scanlab::view {

// The shared-memory instruction the bank view shows: the last executed one if it is shared,
// else the latest shared one before it, else the block's first. Global index.
std::optional<std::uint64_t> bank_instruction(const LoadedTrace& loaded,
                                              const Selection& selection);
// The shared instruction of a step (block-relative) with the most conflicts: its position in
// the block.
std::optional<std::uint32_t> worst_instruction_in_step(const LoadedTrace& loaded,
                                                       std::uint32_t block, std::uint32_t step);

class BankView {
  public:
    void draw(const LoadedTrace& loaded, Selection& selection, ImVec2 size);
    Canvas& canvas() { return canvas_; }

  private:
    void draw_step_strip(const LoadedTrace& loaded, Selection& selection, float width);
    void draw_instruction_strip(const LoadedTrace& loaded, Selection& selection, float width,
                                std::optional<std::uint64_t> shown);
    void draw_banks(const LoadedTrace& loaded, const trace::WarpInstruction& instruction,
                    ImVec2 size);

    Canvas canvas_;
    std::optional<std::uint64_t> layout_instruction_;
    const LoadedTrace* layout_trace_ = nullptr;
    BankLayout layout_;
    float base_column_width_ = 30.0f;
    float base_box_height_ = 18.0f;
    std::optional<std::uint64_t> layout_fitted_; // the instruction the sizes were fitted to
};

} // namespace scanlab::view
