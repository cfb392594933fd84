// #define bodies are plain text to the rewriter: launches in them are rewritten, but a
// __shared__ declaration there cannot be (its scope is only known where the macro is used).
#include "passes.h"

namespace simt::rewrite {

void reject_in_macros(const SourceFile& src) {
    for (const Directive& d : src.lexed().directives) {
        if (!d.is_define) continue;
        for (const Token& t : src.define_body(d)) {
            if (t.kind != TokenKind::Identifier) continue;
            if (t.text == "__shared__") {
                src.fail(t, "__shared__ inside a macro body is not supported by the simt "
                            "emulator; declare the variable in the kernel itself");
            }
            if (t.text == "__managed__") {
                src.fail(t, "__managed__ variables are not supported by the simt emulator");
            }
        }
    }
}

} // namespace simt::rewrite
