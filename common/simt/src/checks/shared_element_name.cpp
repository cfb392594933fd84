#include "shared_element_name.h"

#include <sstream>

#include "../engine.h"

namespace simt::detail {

namespace {

bool is_dynamic(const SharedAllocation& v) {
    return v.line == 0;
}

// The element size is known once the kernel declared a type (not "bytes", the default of a
// dynamic buffer nobody viewed yet).
bool has_element_type(const SharedAllocation& v) {
    return v.element.size > 0 && std::string(v.element.label) != "bytes";
}

// Floor division and its remainder, so that element -1 of a row-major array is [-1][last].
std::ptrdiff_t floor_div(std::ptrdiff_t a, std::ptrdiff_t b) {
    return a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0);
}

} // namespace

std::string shared_element_name(const SharedAllocation& v, std::ptrdiff_t byte) {
    std::ostringstream s;
    const auto size = static_cast<std::ptrdiff_t>(v.element.size);
    if (!has_element_type(v) || byte % size != 0) {
        s << "byte " << byte << " of "
          << (is_dynamic(v) ? std::string("the dynamic shared memory") : "'" + v.name + "'");
        return s.str();
    }
    std::ptrdiff_t flat = byte / size;
    if (is_dynamic(v)) {
        s << "element [" << flat << "] (" << v.element.label << ")";
        return s.str();
    }
    if (v.extents.rank == 0) {
        s << "element " << flat << " of '" << v.name << "'";
        return s.str();
    }
    std::ptrdiff_t index[4] = {};
    for (unsigned d = v.extents.rank - 1; d > 0; --d) {
        const auto extent = static_cast<std::ptrdiff_t>(v.extents.extent[d]);
        index[d] = flat - floor_div(flat, extent) * extent;
        flat = floor_div(flat, extent);
    }
    index[0] = flat;
    s << v.name;
    for (unsigned d = 0; d < v.extents.rank; ++d) s << "[" << index[d] << "]";
    return s.str();
}

std::string shared_variable_summary(const SharedAllocation& v) {
    std::ostringstream s;
    if (is_dynamic(v)) {
        s << "the dynamic shared memory (" << v.bytes << " bytes given at launch)";
        return s.str();
    }
    s << "'" << v.name << "' (" << v.bytes << " bytes";
    if (has_element_type(v)) {
        s << ": " << v.element.label;
        for (unsigned d = 0; d < v.extents.rank; ++d) s << "[" << v.extents.extent[d] << "]";
    }
    s << ")";
    return s.str();
}

} // namespace simt::detail
