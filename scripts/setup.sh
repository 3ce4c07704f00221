#!/usr/bin/env bash
# Installs what kvcalc needs on a Debian/Ubuntu machine, idempotently:
#   - Debian packages (compilers, emscripten, header-only libraries, SDL2 for the desktop app, Chromium, a font)
#   - SDL2 and Dear ImGui sources from Debian's *source* packages, and SDL2 built for wasm32 once,
#     cached under $KVCALC_DEPS_DIR (default ~/.cache/kvcalc) so later runs and CI reuse it
#   - playwright-core from npm, for the browser tests (drives Debian's Chromium; downloads no browser)
# Usage: scripts/setup.sh [--no-browser]   (--no-browser skips Chromium and playwright-core)
set -euo pipefail

want_browser=1
[[ "${1:-}" == "--no-browser" ]] && want_browser=0

repo_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
deps_dir="${KVCALC_DEPS_DIR:-$HOME/.cache/kvcalc}"
mkdir -p "$deps_dir"

sudo_cmd=()
if [[ "$(id -u)" != 0 ]]; then sudo_cmd=(sudo); fi

log() { printf '[setup] %s\n' "$*" >&2; }

# ---- 1. Debian packages ---------------------------------------------------------------------------------
packages=(cmake g++ make emscripten nlohmann-json3-dev doctest-dev libsdl2-dev libimgui-dev fonts-dejavu-core fonttools cmark-gfm
          nodejs npm python3 xz-utils)
# Browser tests use Debian's Chromium unless CHROMIUM_PATH names another Chromium-based browser.
if [[ $want_browser == 1 && ! -x "${CHROMIUM_PATH:-}" ]]; then packages+=(chromium); fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# node/npm may come from outside Debian on some machines: accept any working binaries.
if command -v node >/dev/null && command -v npm >/dev/null; then
  missing=("${missing[@]/nodejs}"); missing=("${missing[@]/npm}")
fi
read -r -a missing <<<"${missing[*]}"
apt_updated=0
apt_update_once() { if [[ $apt_updated == 0 ]]; then "${sudo_cmd[@]}" apt-get update -qq; apt_updated=1; fi; }
if ((${#missing[@]})); then
  log "installing Debian packages: ${missing[*]}"
  apt_update_once
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
else
  log "Debian packages: all present"
fi

# ---- 2. SDL2 + Dear ImGui sources (Debian source packages) -----------------------------------------------
src_dir="$deps_dir/src"
mkdir -p "$src_dir"
have_src() { compgen -G "$src_dir/SDL2-*/CMakeLists.txt" >/dev/null && compgen -G "$src_dir/imgui-*/imgui.cpp" >/dev/null; }
if ! have_src; then
  if ! grep -rqs '^Types:.*deb-src\|^deb-src ' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    log "enabling Debian source packages"
    deb822=(/etc/apt/sources.list.d/debian.sources /etc/apt/sources.list.d/ubuntu.sources)
    if [[ -f ${deb822[0]} || -f ${deb822[1]} ]]; then
      for f in "${deb822[@]}"; do [[ -f $f ]] && sed 's/^Types: deb$/Types: deb-src/' "$f"; done \
        | "${sudo_cmd[@]}" tee /etc/apt/sources.list.d/kvcalc-deb-src.sources >/dev/null
    elif [[ -f /etc/apt/sources.list ]]; then
      grep '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' \
        | "${sudo_cmd[@]}" tee /etc/apt/sources.list.d/kvcalc-deb-src.list >/dev/null
    fi
    apt_updated=0
  fi
  apt_update_once
  log "downloading SDL2 and Dear ImGui source packages"
  (cd "$src_dir" && apt-get source --download-only libsdl2 imgui >/dev/null 2>&1)
  (cd "$src_dir" && for t in libsdl2_*.orig.tar.*; do tar xf "$t"; done && for t in imgui_*.orig.tar.*; do tar xf "$t"; done)
fi
sdl_src="$(ls -d "$src_dir"/SDL2-*/ | head -n1)"; sdl_src="${sdl_src%/}"
imgui_src="$(ls -d "$src_dir"/imgui-*/ | head -n1)"; imgui_src="${imgui_src%/}"
sdl_version="${sdl_src##*/SDL2-}"
log "SDL2 source: $sdl_src; Dear ImGui source: $imgui_src"

# ---- 3. SDL2 for wasm32 (cached by version) ---------------------------------------------------------------
export NODE_PATH=/usr/share/nodejs
sdl_prefix="$deps_dir/sdl2-wasm-$sdl_version"
if [[ ! -f "$sdl_prefix/lib/libSDL2.a" ]]; then
  log "building SDL2 $sdl_version for wasm32 (about 6 minutes on 2 cores, once)"
  rm -rf "$deps_dir/sdl2-wasm-build"
  emcmake cmake -S "$sdl_src" -B "$deps_dir/sdl2-wasm-build" -DSDL_SHARED=OFF -DSDL_STATIC=ON -DSDL_TEST=OFF \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$sdl_prefix" >"$deps_dir/sdl2-wasm-configure.log" 2>&1
  cmake --build "$deps_dir/sdl2-wasm-build" -j"$(nproc)" >"$deps_dir/sdl2-wasm-build.log" 2>&1
  cmake --install "$deps_dir/sdl2-wasm-build" >/dev/null
  rm -rf "$deps_dir/sdl2-wasm-build"
fi
log "SDL2 wasm library: $sdl_prefix/lib/libSDL2.a"

# ---- 4. playwright-core (browser tests) --------------------------------------------------------------------
if [[ $want_browser == 1 && ! -d "$repo_dir/node_modules/playwright-core" ]]; then
  log "installing playwright-core from npm (no browser download; tests use /usr/bin/chromium)"
  (cd "$repo_dir" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund --silent >/dev/null)
fi
log "done"
