#!/bin/bash
# The frame report's pipeline state names each axis's wrap mode when they
# differ, and the front face beside the cull mode; the call list shows the
# sampler of each ws_gfx_set_texture. rd_gfx_program "sampler" binds a
# texture that repeats in u and clamps in v (slot 2) and one that clamps in
# both (slot 5), before its frame (so --frames all). (The state said
# "clamp" for the first, as if both axes clamped.)
#   sampler_state.sh WARPSCOPE PROGRAM SHADERS.elf
set -u
ws=$1 prog=$2 elf=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$ws" capture -o "$work/f.wscap" --frames all -- "$prog" "$elf" 1 sampler > "$work/capture.out" 2>&1 || { cat "$work/capture.out"; exit 1; }
"$ws" replay --html "$work/report" "$work/f.wscap" > "$work/html.out" 2>&1 || { cat "$work/html.out"; exit 1; }
fails=0
grep -q "texture 2: texture [0-9]* linear repeat u, clamp v$" "$work/report/index.html" ||
  { grep "texture [0-9]:" "$work/report/index.html" | head -3; echo "FAIL: slot 2's wrap modes"; fails=$((fails+1)); }
grep -q "texture 5: texture [0-9]* nearest clamp$" "$work/report/index.html" ||
  { grep "texture [0-9]:" "$work/report/index.html" | head -3; echo "FAIL: slot 5's wrap mode"; fails=$((fails+1)); }
# the call list shows the sampler each ws_gfx_set_texture gave (it showed
# the slot and the texture only)
"$ws" replay --list "$work/f.wscap" > "$work/list.out" 2>&1 || { cat "$work/list.out"; fails=$((fails+1)); }
grep -q "ws_gfx_set_texture(slot 2, texture [0-9]*, linear repeat u, clamp v)$" "$work/list.out" &&
  grep -q "ws_gfx_set_texture(slot 5, texture [0-9]*, nearest clamp)$" "$work/list.out" ||
  { cat "$work/list.out"; echo "FAIL: the call list's samplers"; fails=$((fails+1)); }
# the pipeline line names the front face beside the cull mode
grep -q "pipeline [0-9]*: vs=rdg_vs fs=rdg_fs list cull=none front=ccw depth=off blend=opaque$" "$work/report/index.html" ||
  { grep "pipeline [0-9]*:" "$work/report/index.html" | head -3; echo "FAIL: the pipeline line"; fails=$((fails+1)); }
echo "$fails failed"
[ "$fails" = 0 ]
