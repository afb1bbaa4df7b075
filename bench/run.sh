#!/usr/bin/env bash
# Build (release) and run the device benchmark: the device against
# qemu-riscv32 and the scaling over host threads (ws_bench), then timing
# mode against functional mode on the same kernels (timing_bench); issue
# 14's three ratios in one run. Arguments go to ws_bench (--json FILE).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-bench -j"$(nproc)" --target ws_bench timing_bench
build-bench/bench/qemu_ratio/run-bench.sh "$@"
echo
echo "timing mode against functional mode (both on one host thread; goal: at most 2x slower)"
exec build-bench/bench/timing/timing_bench build-bench/bench/timing/bench_kernels.elf 256 3
