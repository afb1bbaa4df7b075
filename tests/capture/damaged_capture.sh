#!/bin/bash
# Damaged copies of two real captures (tests/capture/damaged_capture.c):
# the cube example, every frame (a zstd frame of several blocks), and the
# three frames of tests/capture/fault_frames.c, whose frame 1 faults.
#   damaged_capture.sh WARPSCOPE CAPTURE_DAMAGED WORKDIR CUBE FAULT_PROGRAM FAULT_KERNELS.elf
set -euo pipefail
ws=$1 test=$2 work=$3 cube=$4 fault_prog=$5 fault_elf=$6
rm -rf "$work"
mkdir -p "$work"
"$ws" capture -o "$work/cube.wscap" --frames all -- "$cube" > "$work/cube.out"
"$ws" capture -o "$work/fault.wscap" --frames 0-2 -- "$fault_prog" "$fault_elf" gfx > "$work/fault.out"
"$test" "$work/cube.wscap" "$work/fault.wscap" "$work"
