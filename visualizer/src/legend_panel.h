#pragma once

// The legend: what each colour and mark of the views means.

#include "selection.h"

namespace scanlab::view {

void draw_legend(const Selection& selection);

} // namespace scanlab::view
