# cmake -DIN=<file> -DOUT=<file.cpp> -DNAME=<C++ name> -DNAMESPACE=<ns> -P EmbedFile.cmake
# Writes a C++ source defining `const unsigned char NAME[]` (the file's bytes) and `const std::size_t NAME_BYTES`
# (here NAMEBytes), so a binary carries a file without a virtual file system.
file(READ "${IN}" _hex HEX)
string(LENGTH "${_hex}" _len)
math(EXPR _bytes "${_len} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," _body "${_hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" _body "${_body}")
file(WRITE "${OUT}" "// Generated from ${IN} by cmake/EmbedFile.cmake; do not edit.\n#include <cstddef>\n"
  "namespace ${NAMESPACE} {\nextern const unsigned char ${NAME}[] = {\n${_body}\n};\n"
  "extern const std::size_t ${NAME}Bytes = ${_bytes};\n}\n")
