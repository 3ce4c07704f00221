#!/usr/bin/env bash
# Renders README.md and docs/*.md to HTML pages under SITE_DIR/docs/ for the static site.
# Links keep working in both places: Markdown links to *.md become *.html, and absolute links to the
# published site (docs/site-url.txt) become relative, so the docs work from any host and sub-path.
# Usage: scripts/render-docs.sh SITE_DIR
set -euo pipefail
repo_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
site_dir="$1"
out_dir="$site_dir/docs"
mkdir -p "$out_dir"
site_url="$(head -n1 "$repo_dir/docs/site-url.txt")"

render() {  # render SRC.md OUT.html TITLE LINK_PREFIX_TO_STRIP
  local src="$1" out="$2" title="$3" strip="$4"
  {
    printf '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">\n'
    printf '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
    printf '<title>%s — kvcalc</title><link rel="icon" href="../favicon.svg" type="image/svg+xml">\n' "$title"
    printf '<link rel="stylesheet" href="docs.css"></head><body><nav><a href="../index.html">kvcalc calculator</a>%s</nav><main>\n' "$nav"
    cmark-gfm --unsafe -e table -e autolink -e strikethrough "$src" \
      | sed -E -e "s#href=\"${strip}([A-Za-z0-9_./-]+)\\.md(\"|\\#)#href=\"\\1.html\\2#g" \
               -e "s#(href|src)=\"${strip}(img|snapshots)/#\\1=\"\\2/#g" \
               -e "s#(href|src)=\"\\.\\./([A-Za-z0-9_-]+)\\.md#\\1=\"\\2.html#g" \
               -e "s#(href|src)=\"\\.\\./(web|tests|core|cli|imgui_ui|wasm)/#\\1=\"../#g" \
               -e "s#(href|src)=\"${site_url}#\1=\"../#g"
    printf '</main></body></html>\n'
  } >"$out"
}

# Navigation bar: the main pages that exist in this checkout (ACCURACY.md is generated, and may be absent).
nav=" · <a href=\"README.html\">README</a>"
for page in KV_MATH:KV\ math ACCURACY:Accuracy ARCHITECTURE:Architecture EMBEDDING:Embedding CLI:CLI URL:Links; do
  if [[ -f "$repo_dir/docs/${page%%:*}.md" ]]; then nav+=" · <a href=\"${page%%:*}.html\">${page#*:}</a>"; fi
done

render "$repo_dir/README.md" "$out_dir/README.html" "README" "docs/"
for md in "$repo_dir"/docs/*.md; do
  name="$(basename "$md" .md)"
  render "$md" "$out_dir/$name.html" "$name" ""
done
# Images and SVG snapshots the docs refer to.
for asset in "$repo_dir"/docs/*.svg "$repo_dir"/docs/*.png "$repo_dir"/docs/img/* "$repo_dir"/docs/snapshots/*; do
  [[ -f $asset ]] || continue
  rel="${asset#"$repo_dir"/docs/}"
  mkdir -p "$out_dir/$(dirname "$rel")"
  cp "$asset" "$out_dir/$rel"
done
cp "$repo_dir/web/docs.css" "$out_dir/docs.css"
