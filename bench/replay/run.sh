#!/usr/bin/env bash
# Capture one frame of the cube example and time the frame debugger on it.
#   bench/replay/run.sh [BUILD_DIR]   (default build; built if needed)
set -euo pipefail
cd "$(dirname "$0")/../.."
b=${1:-build}
cmake --build "$b" -j2 --target warpscope_cli cube ws_replay_step_latency >/dev/null
cap=$(mktemp -d)/cube.wscap
"$b/bin/warpscope" capture -o "$cap" -- "$b/examples/cube/cube" 1 >/dev/null
"$b/bench/replay/ws_replay_step_latency" "$cap" 320 240
