#!/usr/bin/env bash
# Installs what is missing, builds the static site (WebAssembly) and serves it on http://127.0.0.1:8000
# Usage: scripts/serve.sh [PORT]
set -euo pipefail
repo_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
port="${1:-8000}"
"$repo_dir/scripts/setup.sh" --no-browser
"$repo_dir/scripts/build-site.sh"
echo "kvcalc: serving $repo_dir/build/wasm-release/site on http://127.0.0.1:$port  (Ctrl+C stops)"
exec python3 -m http.server "$port" --bind 127.0.0.1 --directory "$repo_dir/build/wasm-release/site"
