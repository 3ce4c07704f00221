#!/usr/bin/env bash
# Installs what is missing, builds the static site (WebAssembly) and serves it on http://127.0.0.1:8000
# Usage: scripts/serve.sh [PORT]
set -euo pipefail
repo_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$repo_dir/scripts/lib/errors.sh"
port="${1:-8000}"
kvcalc_step "setup" "read the [setup] lines above: they name the failing step and what to do"
"$repo_dir/scripts/setup.sh" --no-browser
kvcalc_step "build the site" "read the [build-site.sh] lines above"
"$repo_dir/scripts/build-site.sh"
kvcalc_step "serve" "is port $port taken? give another: scripts/serve.sh 8080"
echo "kvcalc: serving $repo_dir/build/wasm-release/site on http://127.0.0.1:$port  (Ctrl+C stops)"
exec python3 -m http.server "$port" --bind 127.0.0.1 --directory "$repo_dir/build/wasm-release/site"
