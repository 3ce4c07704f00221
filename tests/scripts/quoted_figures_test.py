#!/usr/bin/env python3
"""Checks the figures docs quote from kvcalc commands (tests/docs/quoted_figures.txt) against the CLI's output.

Usage: quoted_figures_test.py KVCALC_BINARY. Each row names a doc, the kvcalc arguments, the text the doc quotes and
the text the CLI prints for it; the test fails when the doc lost its text or the CLI no longer prints it (then
update the doc's figure and the row together)."""
import shlex
import subprocess
import sys
from pathlib import Path

repo = Path(__file__).resolve().parents[2]
kvcalc = sys.argv[1]
outputs: dict[str, str] = {}
failures = []
rows = 0
for number, line in enumerate((repo / "tests/docs/quoted_figures.txt").read_text().splitlines(), 1):
    if not line.strip() or line.startswith("#"):
        continue
    doc, args, doc_text, cli_text = (part.strip() for part in line.split(" | "))
    rows += 1
    if args not in outputs:
        run = subprocess.run([kvcalc, *shlex.split(args)], capture_output=True, text=True)
        if run.returncode >= 2:
            failures.append(f"row {number}: kvcalc {args} exited {run.returncode}: {run.stderr.strip()}")
        outputs[args] = run.stdout
    if doc_text not in (repo / doc).read_text():
        failures.append(f"row {number}: {doc} no longer says {doc_text!r}")
    if cli_text not in outputs[args]:
        failures.append(f"row {number}: kvcalc {args} no longer prints {cli_text!r} (quoted in {doc} as {doc_text!r})")
for f in failures:
    print(f, file=sys.stderr)
print(f"{rows} quoted figures, {len(failures)} stale")
sys.exit(1 if failures else 0)
