#!/bin/bash
# The README's "short tour", command for command, so the README stays
# true: every command there runs from a scratch directory in which
# `build` is this build tree and `examples` the sources, and must exit 0.
# Interactive commands (a gdb server that waits for gdb) are left out.
# Usage: readme_tour.sh README.md BUILD_DIR EXAMPLES_SRC WORKDIR
set -u
readme=$1 build=$2 examples=$3 work=$4
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
ln -s "$build" build && ln -s "$examples" examples
awk '/^## A short tour/ { f = 1 } f && /^```sh/ { g = 1; next } g && /^```/ { exit } g { print }' "$readme" |
    sed 's/  *# .*$//' > tour.txt
pass=0 fail=0 skipped=0
while IFS= read -r cmd; do
    [ -z "$cmd" ] && continue
    if [[ "$cmd" == *" debug "* || "$cmd" == *"--debug"* ]]; then skipped=$((skipped + 1)); continue; fi
    timeout 120 bash -c "$cmd" > out.txt 2>&1
    rc=$?
    if [ $rc = 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL (exit $rc): $cmd"; tail -5 out.txt; fi
done < tour.txt
# the tour is not empty, and the interactive ones (debug, debug --record,
# replay --debug) are the only ones left out
[ $((pass + fail)) -ge 10 ] && [ $skipped -le 3 ] || { echo "FAIL: the tour has $((pass + fail)) commands, $skipped skipped"; fail=$((fail + 1)); }
echo "$pass passed, $fail failed ($skipped interactive commands left out)"
[ $fail = 0 ]
