#include "keys.h"

#include <imgui.h>

#if IMGUI_VERSION_NUM < 18700
#include <GLFW/glfw3.h>
#endif

namespace scanlab::view {

namespace {

// Dear ImGui 1.87 named every key (ImGuiKey_*); before that (Debian 12 ships 1.86) a key is
// the backend's own code, here GLFW's.
#if IMGUI_VERSION_NUM >= 18700
using Code = ImGuiKey;
#define SCANLAB_KEY(imgui_name, glfw_name) ImGuiKey_##imgui_name
#else
using Code = int;
#define SCANLAB_KEY(imgui_name, glfw_name) GLFW_KEY_##glfw_name
#endif

Code code(Key key) {
    switch (key) {
    case Key::space:
        return SCANLAB_KEY(Space, SPACE);
    case Key::right:
        return SCANLAB_KEY(RightArrow, RIGHT);
    case Key::left:
        return SCANLAB_KEY(LeftArrow, LEFT);
    case Key::home:
        return SCANLAB_KEY(Home, HOME);
    case Key::end:
        return SCANLAB_KEY(End, END);
    case Key::up:
        return SCANLAB_KEY(UpArrow, UP);
    case Key::down:
        return SCANLAB_KEY(DownArrow, DOWN);
    case Key::equal:
        return SCANLAB_KEY(Equal, EQUAL);
    case Key::keypad_add:
        return SCANLAB_KEY(KeypadAdd, KP_ADD);
    case Key::minus:
        return SCANLAB_KEY(Minus, MINUS);
    case Key::keypad_subtract:
        return SCANLAB_KEY(KeypadSubtract, KP_SUBTRACT);
    case Key::digit0:
        return SCANLAB_KEY(0, 0);
    case Key::keypad0:
        return SCANLAB_KEY(Keypad0, KP_0);
    case Key::digit1:
        return SCANLAB_KEY(1, 1);
    case Key::digit2:
        return SCANLAB_KEY(2, 2);
    case Key::digit3:
        return SCANLAB_KEY(3, 3);
    case Key::w:
        return SCANLAB_KEY(W, W);
    case Key::t:
        return SCANLAB_KEY(T, T);
    case Key::f:
        return SCANLAB_KEY(F, F);
    case Key::l:
        return SCANLAB_KEY(L, L);
    case Key::h:
        return SCANLAB_KEY(H, H);
    case Key::o:
        return SCANLAB_KEY(O, O);
    case Key::f1:
        return SCANLAB_KEY(F1, F1);
    case Key::left_bracket:
        return SCANLAB_KEY(LeftBracket, LEFT_BRACKET);
    case Key::right_bracket:
        return SCANLAB_KEY(RightBracket, RIGHT_BRACKET);
    }
    return Code{};
}

#undef SCANLAB_KEY

} // namespace

bool key_pressed(Key key) {
    return ImGui::IsKeyPressed(code(key), true);
}

} // namespace scanlab::view
