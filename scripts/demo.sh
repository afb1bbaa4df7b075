#!/usr/bin/env bash
# The main job: install what is needed, build, run every bundled example
# on the simulated GPU (each checks its result against a CPU reference and
# prints its launch statistics), then show the profiler and the debugger on
# two of them (scripts/demo_tools.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/tmpdir.sh
ws_check_tmpdir demo.sh
scripts/bootstrap.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)"
bash build/examples/run-examples.sh
exec scripts/demo_tools.sh build
