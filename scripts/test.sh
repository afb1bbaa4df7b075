#!/usr/bin/env bash
# Build with warnings as errors and run the whole test suite, then again
# under AddressSanitizer + UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/tmpdir.sh
ws_check_tmpdir test.sh
scripts/bootstrap.sh
echo "== ($SECONDS s) bootstrap done"
jobs="$(nproc)"
# one test more than cores: many tests wait on gdb, OpenOCD or a browser
# part of the time (2 cores, warm build dir: -j3 12 % faster than -j2, -j4
# slower; in fresh-clone CI runs no difference: docs/testing.md)
tests=$((jobs + 1))

# configure DIR CC ARGS...: Ninja builds with C compiler CC (a build dir
# made earlier with another generator or compiler is configured afresh;
# CMake refuses to switch either in place)
configure() {
  local dir=$1 cc=$2; shift 2
  cc=$(command -v "$cc")
  if [ -f "$dir/CMakeCache.txt" ] && ! { grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$dir/CMakeCache.txt" &&
                                         grep -qx "CMAKE_C_COMPILER:[A-Z]*=$cc" "$dir/CMakeCache.txt"; }; then
    rm -rf "$dir/CMakeCache.txt" "$dir/CMakeFiles"
  fi
  cmake -G Ninja -S . -B "$dir" -DCMAKE_C_COMPILER="$cc" "$@" >/dev/null
}

# Devices opened with threads=0 (the default) take WARPSCOPE_THREADS: the
# suite runs once with the cores on two host threads and once, under the
# sanitizers, on one (docs/parallel.md).
echo "== build with gcc (warnings are errors) and test, cores on 2 host threads"
configure build-test gcc -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWS_WERROR=ON
cmake --build build-test -j"$jobs"
echo "== ($SECONDS s) plain build done"
(cd build-test && WARPSCOPE_THREADS=2 ctest --output-on-failure -j"$tests")
echo "== ($SECONDS s) plain suite done"

# optimised (-O2): the sanitizers check the same code, in a third of the time of -O0;
# with clang: its sanitized objects compile in a quarter of gcc's time (fast_exec.c
# 3.1 s against 13.1 s), and its warnings are errors too (docs/testing.md)
echo "== build with clang and test under ASan + UBSan, cores on 1 host thread"
# (the benchmarks are built, warnings as errors, in the first stage only; the
# kernel modules, device code, are the first stage's, copied)
configure build-asan clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWS_WERROR=ON -DWS_SANITIZE=ON -DWS_BENCH=OFF \
  -DWS_PREBUILT_KERNELS="$PWD/build-test"
cmake --build build-asan -j"$jobs"
echo "== ($SECONDS s) sanitizer build done"
(cd build-asan && WARPSCOPE_THREADS=1 ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j"$tests")
echo "== ($SECONDS s) sanitizer suite done"
