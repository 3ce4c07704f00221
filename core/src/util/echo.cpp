#include "kvcalc/base/echo.h"

#include "util/text.h"

namespace kvcalc {

std::string echo_cut(std::string_view value) {
    std::size_t cut = value.size();
    if (cut > kMaxEchoBytes) {
        cut = kMaxEchoBytes;
        while (cut > 0 && (static_cast<unsigned char>(value[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
    }
    std::string out = text::without_bidi(value.substr(0, cut));
    if (cut < value.size()) out += "…";
    return out;
}

}  // namespace kvcalc
