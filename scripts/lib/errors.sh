# One ERR trap for the project's scripts: a failing command never exits silently. Each script names its
# current step with `kvcalc_step NAME HINT`; on failure the trap prints the script, the step, the line and
# the command that failed, and the hint saying what to do.
# Sourced by scripts/setup.sh, scripts/test.sh, scripts/serve.sh and scripts/build-site.sh.
kvcalc_step_name="start"
kvcalc_step_hint=""
kvcalc_step() { kvcalc_step_name="$1"; kvcalc_step_hint="${2:-}"; }
kvcalc_on_error() {
  local rc=$1 line=$2 cmd=$3 script="${0##*/}"
  trap - ERR
  printf '\n[%s] FAILED in step "%s" (line %s, exit %s): %s\n' "$script" "$kvcalc_step_name" "$line" "$rc" "$cmd" >&2
  if [[ -n $kvcalc_step_hint ]]; then printf '[%s] what to do: %s\n' "$script" "$kvcalc_step_hint" >&2; fi
  exit "$rc"
}
set -E
trap 'kvcalc_on_error $? $LINENO "$BASH_COMMAND"' ERR
