#!/usr/bin/env bash
# Build (release) and run the device benchmark against qemu-riscv32.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-bench -j"$(nproc)" --target ws_bench
exec build-bench/bench/qemu_ratio/run-bench.sh "$@"
