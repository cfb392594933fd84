#pragma once

// The model a view draws, built from the selected block of a trace on first use and kept until
// another trace or block is selected. A model that cannot be built leaves the builder's message.

#include <cstdint>
#include <optional>
#include <string>

#include "loaded_trace.h"
#include "selection.h"

namespace scanlab::view {

template <class Model>
class BlockModelCache {
  public:
    // The model of the selected block, from build(trace, block), or nullptr when build threw
    // `Error` (error() then says why).
    template <class Error, class Build>
    const Model* get(const LoadedTrace& loaded, const Selection& selection, Build build) {
        const std::uint32_t block = loaded.index.block(selection.block).block;
        if (trace_ != &loaded.trace || block_ != block) {
            trace_ = &loaded.trace;
            block_ = block;
            model_.reset();
            error_.clear();
            try {
                model_ = build(loaded.trace, block);
            } catch (const Error& e) {
                error_ = e.what();
            }
        }
        return model_ ? &*model_ : nullptr;
    }
    const std::string& error() const { return error_; }

  private:
    const trace::Trace* trace_ = nullptr;
    std::uint32_t block_ = 0;
    std::optional<Model> model_;
    std::string error_;
};

} // namespace scanlab::view
