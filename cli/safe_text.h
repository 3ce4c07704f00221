// Text from users and config.json files made safe to print or embed: no terminal control sequences, valid XML.
#pragma once
#include <string>
#include <string_view>

namespace kvcli {

/// `text` with every C0 control except '\n' (ESC, BEL, NUL, …), DEL, every C1 control (U+0080–U+009F, which
/// some terminals read as CSI/OSC) and every byte that is not part of valid UTF-8 replaced by '?'. Other UTF-8
/// (×, ≥, names in any script) is kept, except the Unicode bidi controls (U+061C, U+200E/F, U+202A–E,
/// U+2066–9), also replaced by '?' because they reorder the text around them. The result is also valid XML 1.0 character data once '&' and '<' are
/// escaped. A config.json "architectures": ["\u001b]0;title\u0007"] cannot retitle the terminal through it.
std::string safe_text(std::string_view text);

}  // namespace kvcli
