#!/usr/bin/env bash
# Capture one frame of the cube example and time the frame debugger on it.
#   bench/replay/run.sh [BUILD_DIR]   (default build; built if needed)
set -euo pipefail
cd "$(dirname "$0")/../.."
b=${1:-build}
cmake --build "$b" -j2 --target warpscope_cli cube ws_replay_step_latency >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cap=$tmp/cube.wscap
ws=$(cd "$b" && pwd)
(cd "$tmp" && "$ws/bin/warpscope" capture -o "$cap" -- "$ws/examples/cube/cube" 1 >/dev/null) # cube writes its PNGs here
"$ws/bench/replay/ws_replay_step_latency" "$cap" 320 240
