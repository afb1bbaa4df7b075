#!/usr/bin/env bash
# Build with warnings as errors and run the whole test suite, then again
# under AddressSanitizer + UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
jobs="$(nproc)"

echo "== build (warnings are errors) and test"
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWS_WERROR=ON >/dev/null
cmake --build build-test -j"$jobs"
(cd build-test && ctest --output-on-failure -j"$jobs")

# optimised (-O2): the sanitizers check the same code, in a third of the time of -O0
echo "== build and test under ASan + UBSan"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWS_WERROR=ON -DWS_SANITIZE=ON >/dev/null
cmake --build build-asan -j"$jobs"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j"$jobs")
