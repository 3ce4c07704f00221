# Enabling apt source packages (deb-src), as one function that tests can point at a temporary folder.
# Sourced by scripts/setup.sh and tests/scripts/apt_sources_test.sh; defines functions only.

# Prints 0-exit when an apt configuration folder already offers source packages: a deb822 stanza whose
# Types list deb-src, or a one-line `deb-src` entry, in sources.list or sources.list.d/.
#   $1  apt configuration folder (default /etc/apt)
kvcalc_deb_src_enabled() {
  local apt_dir="${1:-/etc/apt}" f
  for f in "$apt_dir/sources.list" "$apt_dir"/sources.list.d/*.sources "$apt_dir"/sources.list.d/*.list; do
    [[ -f $f ]] || continue
    if grep -Eqs '^[[:space:]]*Types:.*\bdeb-src\b|^[[:space:]]*deb-src[[:space:]]' "$f"; then return 0; fi
  done
  return 1
}

# Makes apt offer source packages from the distribution's own mirrors, writing one file of ours next to the
# distribution's lists (never editing theirs):
#   - deb822 layout (Debian 12 `debian.sources`, Ubuntu 24.04 `ubuntu.sources`): a copy of each stanza with
#     `Types: deb` turned into `Types: deb-src`, in sources.list.d/kvcalc-deb-src.sources;
#   - one-line layout (`sources.list`): each `deb` line as `deb-src`, in sources.list.d/kvcalc-deb-src.list.
# Writes nothing when source packages are already on. Prints what it did on stderr.
#   $1  apt configuration folder (default /etc/apt)
# Returns 0 when source packages are on afterwards, 1 (with a message saying what to do) when the folder has
# no distribution list it knows how to copy.
kvcalc_enable_deb_src() {
  local apt_dir="${1:-/etc/apt}" list_dir f
  list_dir="$apt_dir/sources.list.d"
  if kvcalc_deb_src_enabled "$apt_dir"; then
    echo "[setup] Debian source packages: already enabled" >&2
    return 0
  fi
  local deb822=() legacy=()
  for f in "$list_dir/debian.sources" "$list_dir/ubuntu.sources"; do
    if [[ -f $f ]] && grep -Eq '^[[:space:]]*Types:[[:space:]]*deb[[:space:]]*$' "$f"; then deb822+=("$f"); fi
  done
  if [[ -f $apt_dir/sources.list ]] && grep -Eq '^[[:space:]]*deb[[:space:]]' "$apt_dir/sources.list"; then
    legacy+=("$apt_dir/sources.list")
  fi
  if ((${#deb822[@]} == 0 && ${#legacy[@]} == 0)); then
    echo "[setup] cannot enable source packages: no debian.sources, ubuntu.sources or 'deb' line in" \
         "$apt_dir/sources.list was found. Add a deb-src entry for your distribution's mirror by hand," \
         "run 'apt-get update', then run this script again." >&2
    return 1
  fi
  mkdir -p "$list_dir"
  if ((${#deb822[@]})); then
    # A stanza is a paragraph; only its Types line changes, so the mirror, suites and signing key stay.
    sed -E 's/^([[:space:]]*Types:[[:space:]]*)deb[[:space:]]*$/\1deb-src/' "${deb822[@]}" >"$list_dir/kvcalc-deb-src.sources"
    echo "[setup] enabled Debian source packages: wrote $list_dir/kvcalc-deb-src.sources" >&2
  fi
  if ((${#legacy[@]})); then
    sed -nE 's/^([[:space:]]*)deb([[:space:]])/\1deb-src\2/p' "${legacy[@]}" >"$list_dir/kvcalc-deb-src.list"
    echo "[setup] enabled Debian source packages: wrote $list_dir/kvcalc-deb-src.list" >&2
  fi
  return 0
}
