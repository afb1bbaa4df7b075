#!/usr/bin/env bash
# Build (release) and run the timing-mode benchmark.
set -euo pipefail
cd "$(dirname "$0")/../.."
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-bench -j"$(nproc)" --target timing_bench
exec build-bench/bench/timing/timing_bench build-bench/bench/timing/bench_kernels.elf "$@"
