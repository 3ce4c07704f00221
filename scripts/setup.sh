#!/usr/bin/env bash
# Installs what kvcalc needs on a Debian/Ubuntu machine, idempotently. What it changes on the system:
#   - installs Debian packages (compilers, emscripten, header-only libraries, SDL2 for the desktop app, clang's
#     fuzzing runtime, Chromium, a font) with apt-get;
#   - when apt offers no source packages yet, writes /etc/apt/sources.list.d/kvcalc-deb-src.sources (or .list),
#     a deb-src copy of the distribution's own list (scripts/lib/apt-sources.sh), and runs apt-get update;
#   - downloads the SDL2 and Dear ImGui *source* packages and builds SDL2 for wasm32 once, into
#     $KVCALC_DEPS_DIR (default ~/.cache/kvcalc), so later runs and CI reuse it;
#   - installs playwright-core from npm into ./node_modules (drives Debian's Chromium; downloads no browser).
# Usage: scripts/setup.sh [--no-browser]   (--no-browser skips Chromium and playwright-core)
set -euo pipefail
repo_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$repo_dir/scripts/lib/errors.sh"
source "$repo_dir/scripts/lib/apt-sources.sh"

want_browser=1
[[ "${1:-}" == "--no-browser" ]] && want_browser=0

deps_dir="${KVCALC_DEPS_DIR:-$HOME/.cache/kvcalc}"
mkdir -p "$deps_dir"

sudo_cmd=()
if [[ "$(id -u)" != 0 ]]; then sudo_cmd=(sudo); fi

log() { printf '[setup] %s\n' "$*" >&2; }

apt_updated=0
apt_update_once() { if [[ $apt_updated == 0 ]]; then "${sudo_cmd[@]}" apt-get update -qq; apt_updated=1; fi; }

# ---- 1. Debian packages ---------------------------------------------------------------------------------
kvcalc_step "Debian packages" "check that apt-get works (network to the Debian mirror, no other apt process running), then run scripts/setup.sh again"
packages=(cmake g++ make emscripten nlohmann-json3-dev doctest-dev libsdl2-dev fonts-dejavu-core fonttools cmark-gfm
          clang-14 libclang-rt-14-dev nodejs npm python3 xz-utils libcurl4-openssl-dev)
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
  kvcalc_step "enable Debian source packages" "add a deb-src entry for your distribution's mirror to /etc/apt (see docs/BUILDING.md), run 'apt-get update', then run scripts/setup.sh again"
  if ! kvcalc_deb_src_enabled /etc/apt; then
    if [[ ${#sudo_cmd[@]} == 0 ]]; then
      kvcalc_enable_deb_src /etc/apt
    else
      "${sudo_cmd[@]}" bash -c "source '$repo_dir/scripts/lib/apt-sources.sh' && kvcalc_enable_deb_src /etc/apt"
    fi
    apt_updated=0
  fi
  apt_update_once
  kvcalc_step "download SDL2 and Dear ImGui source packages" "see $deps_dir/apt-source.log; 'apt-get source libsdl2 imgui' must work (source packages enabled, then apt-get update)"
  log "downloading SDL2 and Dear ImGui source packages"
  (cd "$src_dir" && apt-get source --download-only libsdl2 imgui >"$deps_dir/apt-source.log" 2>&1)
  (cd "$src_dir" && for t in libsdl2_*.orig.tar.*; do tar xf "$t"; done && for t in imgui_*.orig.tar.*; do tar xf "$t"; done)
fi
sdl_src="$(ls -d "$src_dir"/SDL2-*/ | head -n1)"; sdl_src="${sdl_src%/}"
imgui_src="$(ls -d "$src_dir"/imgui-*/ | head -n1)"; imgui_src="${imgui_src%/}"
sdl_version="${sdl_src##*/SDL2-}"
log "SDL2 source: $sdl_src; Dear ImGui source: $imgui_src"

# ---- 3. SDL2 for wasm32 (cached by version) ---------------------------------------------------------------
kvcalc_step "build SDL2 for wasm32" "see $deps_dir/sdl2-wasm-configure.log and $deps_dir/sdl2-wasm-build.log; delete $deps_dir/sdl2-wasm-build and run scripts/setup.sh again"
export NODE_PATH=/usr/share/nodejs
# Built for size (-Oz) with only what the page uses (video, events, timers): no audio, joystick, haptic, sensor,
# power or offscreen video (docs/PAGE.md, Size). The "-min" suffix keeps it apart from older caches, and sorts
# after them, so cmake/ThirdParty.cmake picks it.
sdl_prefix="$deps_dir/sdl2-wasm-$sdl_version-min"
if [[ ! -f "$sdl_prefix/lib/libSDL2.a" ]]; then
  log "building SDL2 $sdl_version for wasm32 (about 5 minutes on 2 cores, once)"
  rm -rf "$deps_dir/sdl2-wasm-build"
  emcmake cmake -S "$sdl_src" -B "$deps_dir/sdl2-wasm-build" -DSDL_SHARED=OFF -DSDL_STATIC=ON -DSDL_TEST=OFF \
    -DSDL_AUDIO=OFF -DSDL_JOYSTICK=OFF -DSDL_HAPTIC=OFF -DSDL_HIDAPI=OFF -DSDL_SENSOR=OFF -DSDL_POWER=OFF \
    -DSDL_OFFSCREEN=OFF -DSDL_RENDER=OFF \
    -DCMAKE_BUILD_TYPE=MinSizeRel "-DCMAKE_C_FLAGS_MINSIZEREL=-Oz -DNDEBUG" -DCMAKE_INSTALL_PREFIX="$sdl_prefix" \
    >"$deps_dir/sdl2-wasm-configure.log" 2>&1
  cmake --build "$deps_dir/sdl2-wasm-build" -j"$(nproc)" >"$deps_dir/sdl2-wasm-build.log" 2>&1
  cmake --install "$deps_dir/sdl2-wasm-build" >/dev/null
  rm -rf "$deps_dir/sdl2-wasm-build"
fi
log "SDL2 wasm library: $sdl_prefix/lib/libSDL2.a"

# ---- 4. playwright-core (browser tests) --------------------------------------------------------------------
kvcalc_step "npm install playwright-core" "check that the npm registry is reachable ('npm view playwright-core version'), then run scripts/setup.sh again"
if [[ $want_browser == 1 && ! -d "$repo_dir/node_modules/playwright-core" ]]; then
  log "installing playwright-core from npm (no browser download; tests use /usr/bin/chromium)"
  (cd "$repo_dir" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund --silent >/dev/null)
fi
log "done"
