// The directed-rounding intrinsics (simt/rounding.h): the operation under the asked rounding
// mode, then the thread's mode back. The operands go through volatile variables so that the
// compiler neither folds the operation nor moves it across the mode changes; no fiber switch
// can happen in between (this is runtime code, not instrumented).
#include <cfenv>
#include <cmath>

#include "simt/rounding.h"

namespace simt::detail {
namespace {

int fe_mode(Rounding mode) {
    switch (mode) {
    case Rounding::toward_zero:
        return FE_TOWARDZERO;
    case Rounding::up:
        return FE_UPWARD;
    case Rounding::down:
        return FE_DOWNWARD;
    case Rounding::nearest:
        break;
    }
    return FE_TONEAREST;
}

template <class T>
T rounded(int op, Rounding mode, T a, T b, T c) {
    volatile T x = a, y = b, z = c;
    volatile T result = 0;
    const int saved = std::fegetround();
    std::fesetround(fe_mode(mode));
    switch (op) {
    case kRoundAdd:
        result = x + y;
        break;
    case kRoundSub:
        result = x - y;
        break;
    case kRoundMul:
        result = x * y;
        break;
    case kRoundDiv:
        result = x / y;
        break;
    case kRoundSqrt:
        result = std::sqrt(static_cast<T>(x));
        break;
    case kRoundRcp:
        result = T(1) / x;
        break;
    default:
        result = std::fma(static_cast<T>(x), static_cast<T>(y), static_cast<T>(z));
        break;
    }
    std::fesetround(saved);
    return result;
}

} // namespace

float rounded_f(int op, Rounding mode, float a, float b, float c) {
    return rounded<float>(op, mode, a, b, c);
}
double rounded_d(int op, Rounding mode, double a, double b, double c) {
    return rounded<double>(op, mode, a, b, c);
}

} // namespace simt::detail
