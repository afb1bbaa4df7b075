#!/usr/bin/env python3
"""Check that every #include in src/ and tools/ respects cmake/layers.txt.

usage: check_layers.py SOURCE_DIR [--pretend PATH FILE]
With --pretend, FILE (anywhere) is checked as if it lived at PATH in the
tree: the self-test shows a wrong include being caught that way.
Prints one line per violation, naming the file, the line and the include,
and a closing "N passed, N failed" line."""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def read_layers(root):
    layers = {}  # folder -> (rank, layer name)
    with open(os.path.join(root, "cmake", "layers.txt")) as f:
        rank = 0
        for line in f:
            line = line.split("#", 1)[0].split()
            if not line:
                continue
            for folder in line[1:]:
                layers[folder] = (rank, line[0])
            rank += 1
    return layers


def folder_of(layers, path):
    """The declared folder a repository path belongs to (longest match)."""
    best = None
    for folder in layers:
        if path == folder or path.startswith(folder + "/"):
            if best is None or len(folder) > len(best):
                best = folder
    return best


def resolve(root, src, inc):
    """Repository path of an include, or None for the public headers."""
    if inc.startswith("warpscope/"):
        return None
    here = os.path.dirname(src)
    for cand in (os.path.join(here, inc), os.path.join("src", inc), os.path.join("include", inc)):
        cand = os.path.normpath(cand)
        if os.path.exists(os.path.join(root, cand)):
            return None if cand.startswith("include/") else cand
    return os.path.normpath(os.path.join("src", inc))


def check(root, files, layers):
    passed = failed = 0
    for src, real in files:
        own = folder_of(layers, src)
        if own is None:
            continue
        with open(real, errors="replace") as f:
            for n, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = resolve(root, src, m.group(1))
                if target is None:
                    passed += 1
                    continue
                tf = folder_of(layers, target)
                if tf is None:
                    print(f"{src}:{n}: #include \"{m.group(1)}\": {target} is in no declared layer")
                    failed += 1
                elif layers[tf][0] > layers[own][0]:
                    print(f"{src}:{n}: #include \"{m.group(1)}\": layer '{layers[own][1]}' ({own}) "
                          f"must not include layer '{layers[tf][1]}' ({tf}), which is above it")
                    failed += 1
                else:
                    passed += 1
    return passed, failed


def main():
    root = sys.argv[1]
    layers = read_layers(root)
    if len(sys.argv) == 5 and sys.argv[2] == "--pretend":
        files = [(sys.argv[3], sys.argv[4])]
    else:
        files = []
        for top in ("src", "tools"):
            for d, _, names in os.walk(os.path.join(root, top)):
                for x in names:
                    if x.endswith((".c", ".h")):
                        full = os.path.join(d, x)
                        files.append((os.path.relpath(full, root), full))
    passed, failed = check(root, sorted(files), layers)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
