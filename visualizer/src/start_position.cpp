#include "start_position.h"

#include "bank_view.h"
#include "tile_selection.h"

namespace scanlab::view {

std::string apply_start_position(App& app, const Options& options) {
    const LoadedTrace* loaded = app.loaded();
    if (!loaded) return "no trace is open";
    Selection& selection = app.selection();
    app.show(options.view);
    selection.colour_by_warp = options.by_warp;
    selection.array.all_steps = options.all_steps;
    selection.array.fold = !options.no_fold;
    const TraceIndex& index = loaded->index;
    if (index.blocks().empty()) return "the trace recorded no block's steps or instructions";

    if (options.instruction) {
        if (*options.instruction >= loaded->trace.instructions.size())
            return "--instruction " + std::to_string(*options.instruction) + ": the trace has " +
                   std::to_string(loaded->trace.instructions.size()) + " instructions";
        const Place place = index.instruction_place(*options.instruction);
        if (options.block && index.block(place.block).block != *options.block)
            return "--instruction " + std::to_string(*options.instruction) + " is in block " +
                   std::to_string(index.block(place.block).block) + ", not block " +
                   std::to_string(*options.block);
        selection.block = place.block;
        selection.cursor = cursor_after_instruction(index.block(place.block), place.position);
    } else if (options.block) {
        const int position = index.block_position(*options.block);
        if (position < 0) {
            std::string recorded;
            for (std::size_t b = 0; b < index.blocks().size() && b < 16; ++b)
                recorded += (b ? ", " : "") + std::to_string(index.block(b).block);
            if (index.blocks().size() > 16) recorded += ", ...";
            return "--block " + std::to_string(*options.block) +
                   ": nothing recorded for it; recorded blocks: " + recorded;
        }
        selection.block = static_cast<std::uint32_t>(position);
        selection.cursor = cursor_end(index.block(selection.block));
    }
    if (options.tile) {
        const auto& tiles = loaded->lookback.tiles();
        if (!loaded->lookback.look_back(*options.tile)) {
            if (tiles.empty())
                return "--tile " + std::to_string(*options.tile) +
                       ": the trace has no tile flags (not a look-back scan, or recorded "
                       "without simt::trace_tile_status)";
            return "--tile " + std::to_string(*options.tile) +
                   ": no block published a flag for it; tiles with flags: " +
                   std::to_string(tiles.front()) + ".." + std::to_string(tiles.back());
        }
        if (options.block && loaded->lookback.owner_of(*options.tile) != *options.block)
            return "--tile " + std::to_string(*options.tile) + " was taken by block " +
                   std::to_string(*loaded->lookback.owner_of(*options.tile)) + ", not block " +
                   std::to_string(*options.block);
        if (!options.block && !options.instruction)
            select_tile(*loaded, selection, *options.tile);
        else
            selection.tile = *options.tile;
    }
    const BlockIndex& block = index.block(selection.block);
    if (options.step) {
        if (*options.step >= block.step_count())
            return "--step " + std::to_string(*options.step) + ": block " +
                   std::to_string(block.block) + " has " + std::to_string(block.step_count()) +
                   " steps (0.." + std::to_string(block.step_count() - 1) + ")";
        selection.cursor = cursor_at_step_end(block, *options.step);
        // The bank view shows the step's worst shared-memory instruction.
        if (options.view == ViewKind::bank)
            if (auto worst = worst_instruction_in_step(*loaded, selection.block, *options.step))
                selection.cursor = cursor_after_instruction(block, *worst);
    }
    if (options.digit) selection.digit = *options.digit;
    if (options.view == ViewKind::radix && !app.radix_view().model(*loaded, selection))
        return "--view radix: " + app.radix_view().error();
    if (options.view == ViewKind::pipeline && !app.pipeline_view().model(*loaded, selection))
        return "--view pipeline: " + app.pipeline_view().error();
    if (options.finding) {
        if (!app.select_finding(*options.finding))
            return "--finding " + std::to_string(*options.finding) + ": the trace has " +
                   std::to_string(loaded->trace.findings.size()) + " finding(s)";
        if (options.object) return "give --finding or --object, not both";
        return {};
    }
    if (options.object) {
        std::string names;
        for (std::uint32_t object : block.objects) {
            if (loaded->trace.memory[object].name == *options.object) {
                selection.object = object;
                return {};
            }
            names += (names.empty() ? "" : ", ") + loaded->trace.memory[object].name;
        }
        return "--object " + *options.object + ": block " + std::to_string(block.block) +
               " accesses " + names;
    }
    return {};
}

} // namespace scanlab::view
