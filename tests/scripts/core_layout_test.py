#!/usr/bin/env python3
"""The core's folders are floors (docs/ARCHITECTURE.md, "Folders"): a file may include headers of its own floor
or of a lower one, never of a higher one, and one engine's folder never includes another engine's. The top level
of core/src holds folders only (at most a dozen files). Only the layer kinds' fact sheet (core/src/model/layer_kinds.cpp)
names a layer kind in get_if, holds_alternative, std::get or an is_same type test;
everywhere else, front ends included, asks the fact sheet. Prints 'N passed, N failed'; exits non-zero on a failure."""
import os, re, sys

FLOORS = ["base", "model", "config", "engines", "catalog", "deployment", "io"]
RANK = {name: i for i, name in enumerate(FLOORS)}
RANK["util"] = RANK["base"]  # core/src/util implements include/kvcalc/base

core = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "core")
failures, checked = [], 0
repo = os.path.join(core, "..")
model_spec = open(os.path.join(core, "include", "kvcalc", "base", "model_spec.h"), encoding="utf-8").read()
kinds = re.search(r"using LayerCache\s*=\s*std::variant<([^>]*)>", model_spec).group(1).replace("\n", " ")
kinds = [k.strip() for k in kinds.split(",")]
kind_alt = "|".join(kinds)
variant_test = re.compile(
    rf"(holds_alternative|get_if|std::get)\s*<\s*({kind_alt})\s*>|is_same_v?\s*<[^;]*\b({kind_alt})\b")
fact_sheet = "core/src/model/layer_kinds.cpp"


def place(rel):
    """(floor, engine or None) of a path relative to core/src or core/include/kvcalc."""
    parts = rel.split("/")
    if len(parts) < 2 or parts[0] not in RANK:
        return None, None
    engine = parts[1] if parts[0] == "engines" and len(parts) > 2 else None
    return parts[0], engine


for root_name, root in (("src", os.path.join(core, "src")), ("include", os.path.join(core, "include", "kvcalc"))):
    top_files = [f for f in os.listdir(root) if os.path.isfile(os.path.join(root, f))]
    checked += 1
    if len(top_files) > 12 or (root_name == "include" and top_files):
        failures.append(f"{root_name}: files at the top level: {sorted(top_files)}")
    for dirpath, _, names in os.walk(root):
        for name in names:
            if not name.endswith((".cpp", ".h")):
                continue
            rel = os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/")
            floor, engine = place(rel)
            checked += 1
            if floor is None:
                failures.append(f"{root_name}/{rel}: not inside a floor folder ({', '.join(FLOORS)}, util)")
                continue
            text = open(os.path.join(dirpath, name), encoding="utf-8").read()
            for inc in re.findall(r'^\s*#\s*include\s+"([^"]+)"', text, re.M):
                checked += 1
                target = inc[len("kvcalc/"):] if inc.startswith("kvcalc/") else inc
                base_dir = os.path.join(core, "include", "kvcalc") if inc.startswith("kvcalc/") else os.path.join(core, "src")
                if not os.path.exists(os.path.join(base_dir, target)):
                    failures.append(f"{root_name}/{rel}: includes {inc}, which is not a core header")
                    continue
                inc_floor, inc_engine = place(target)
                if inc_floor is None:
                    failures.append(f"{root_name}/{rel}: includes {inc}, outside every floor")
                elif RANK[inc_floor] > RANK[floor]:
                    failures.append(f"{root_name}/{rel} [{floor}] includes {inc} [{inc_floor}], a higher floor")
                elif engine and inc_engine and engine != inc_engine:
                    failures.append(f"{root_name}/{rel}: engine {engine} includes engine {inc_engine}'s {inc}")

# Dispatch sites over the layer variant: every C++ file of the core and the front ends.
for top in ("core", "cli", "imgui_ui", "wasm"):
    for dirpath, _, names in os.walk(os.path.join(repo, top)):
        for name in names:
            if not name.endswith((".cpp", ".h")):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, repo).replace(os.sep, "/")
            if rel == fact_sheet:
                continue
            checked += 1
            for number, line in enumerate(open(path, encoding="utf-8"), 1):
                if variant_test.search(line):
                    failures.append(f"{rel}:{number}: tests the layer variant; ask the fact sheet ({fact_sheet})")

for f in failures:
    print("FAIL:", f, file=sys.stderr)
print(f"{checked - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
