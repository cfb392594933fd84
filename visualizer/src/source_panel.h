#pragma once

// The source panel: the lines the trace carries, with the selected instruction's line and the
// current step's barrier highlighted. A click on a line moves to the next instruction on it.

#include <optional>

#include "loaded_trace.h"
#include "scanlab/trace/trace.h"
#include "selection.h"

namespace scanlab::view {

class SourcePanel {
  public:
    void draw(const LoadedTrace& loaded, Selection& selection);

  private:
    std::optional<trace::SourceLocation> followed_;
};

} // namespace scanlab::view
