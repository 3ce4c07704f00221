#!/usr/bin/env bash
# Tests scripts/lib/apt-sources.sh (kvcalc_enable_deb_src) against temporary apt folders laid out like the
# machines setup.sh meets: Debian 12 deb822, Ubuntu 24.04 deb822, a one-line sources.list, deb-src already on,
# and a folder with nothing to copy. The list contents are the distributions' stock files.
# Prints "N passed, N failed" and exits non-zero on any failure.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../../scripts/lib/apt-sources.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
passed=0; failed=0
check() {  # check NAME CONDITION...
  local name=$1; shift
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $name" >&2; fi
}
same() { diff -u "$1" <(printf '%s' "$2") >&2; }

# 1. Debian 12 (bookworm) as installed: one deb822 file, two stanzas (main mirror + security).
d=$tmp/debian; mkdir -p "$d/sources.list.d"
cat >"$d/sources.list.d/debian.sources" <<'T'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
T
check "debian: returns 0" kvcalc_enable_deb_src "$d" 2>/dev/null
check "debian: writes the deb-src copy" same "$d/sources.list.d/kvcalc-deb-src.sources" 'Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
'
check "debian: leaves debian.sources alone" grep -q '^Types: deb$' "$d/sources.list.d/debian.sources"
check "debian: no one-line file" test ! -e "$d/sources.list.d/kvcalc-deb-src.list"
check "debian: enabled afterwards" kvcalc_deb_src_enabled "$d"
before=$(cat "$d/sources.list.d/kvcalc-deb-src.sources")
check "debian: second run returns 0" kvcalc_enable_deb_src "$d" 2>/dev/null
check "debian: second run changes nothing" same "$d/sources.list.d/kvcalc-deb-src.sources" "$before
"

# 2. Ubuntu 24.04 (noble): ubuntu.sources only, no debian.sources (the Debian-only loop used to fail here).
u=$tmp/ubuntu; mkdir -p "$u/sources.list.d"
cat >"$u/sources.list.d/ubuntu.sources" <<'T'
Types: deb
URIs: http://archive.ubuntu.com/ubuntu/
Suites: noble noble-updates noble-backports
Components: main restricted universe multiverse
Signed-By: /usr/share/keyrings/ubuntu-archive-keyring.gpg
T
check "ubuntu: returns 0" kvcalc_enable_deb_src "$u" 2>/dev/null
check "ubuntu: writes the deb-src copy" same "$u/sources.list.d/kvcalc-deb-src.sources" 'Types: deb-src
URIs: http://archive.ubuntu.com/ubuntu/
Suites: noble noble-updates noble-backports
Components: main restricted universe multiverse
Signed-By: /usr/share/keyrings/ubuntu-archive-keyring.gpg
'

# 3. Legacy one-line sources.list (Debian 11 style, with a comment and an options field).
l=$tmp/legacy; mkdir -p "$l"
cat >"$l/sources.list" <<'T'
# main mirror
deb http://deb.debian.org/debian bullseye main
deb [arch=amd64] http://security.debian.org/debian-security bullseye-security main
T
check "legacy: returns 0" kvcalc_enable_deb_src "$l" 2>/dev/null
check "legacy: writes deb-src lines" same "$l/sources.list.d/kvcalc-deb-src.list" 'deb-src http://deb.debian.org/debian bullseye main
deb-src [arch=amd64] http://security.debian.org/debian-security bullseye-security main
'
check "legacy: no deb822 file" test ! -e "$l/sources.list.d/kvcalc-deb-src.sources"

# 4. Source packages already on (Types: deb deb-src in the distribution's own file): nothing is written.
a=$tmp/already; mkdir -p "$a/sources.list.d"
printf 'Types: deb deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\n' \
  >"$a/sources.list.d/debian.sources"
check "already on: detected" kvcalc_deb_src_enabled "$a"
check "already on: returns 0" kvcalc_enable_deb_src "$a" 2>/dev/null
check "already on: writes nothing" test "$(ls "$a/sources.list.d")" = debian.sources
a2=$tmp/already-legacy; mkdir -p "$a2"
printf 'deb http://deb.debian.org/debian bookworm main\ndeb-src http://deb.debian.org/debian bookworm main\n' >"$a2/sources.list"
check "already on (one-line): returns 0 and writes nothing" bash -c \
  "source '$here/../../scripts/lib/apt-sources.sh'; kvcalc_enable_deb_src '$a2' 2>/dev/null && test ! -e '$a2/sources.list.d'"

# 5. Nothing to copy: a clear error, nothing written.
n=$tmp/none; mkdir -p "$n/sources.list.d"
msg=$(kvcalc_enable_deb_src "$n" 2>&1); rc=$?
check "none: returns 1" test "$rc" = 1
check "none: says what to do" grep -q "deb-src entry" <<<"$msg"
check "none: writes nothing" test -z "$(ls "$n/sources.list.d")"

echo "apt_sources: $passed passed, $failed failed"
[[ $failed == 0 ]]
