// `#if 0` blocks (and the #else of `#if 1`) are commented-out code: the rewriter must not
// rewrite or reject what the compiler will never see. Other conditions cannot be evaluated
// here, so their blocks are all kept.
#pragma once

#include "lexer.h"

namespace simt::rewrite {

// Drops the code tokens and directives inside blocks that `#if 0` / `#if 1` disable.
void remove_disabled_blocks(Lexed& lexed);

} // namespace simt::rewrite
