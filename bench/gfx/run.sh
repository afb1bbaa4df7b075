#!/bin/bash
# The graphics speed benchmark: Warpscope's pipeline (cube_ws, functional
# mode) and Mesa's llvmpipe on one rasteriser thread (cube_mesa) draw the
# same demo cube in the same run; prints both lines and the fps ratio.
# Usage: bench/gfx/run.sh BUILD_DIR [FRAMES]   (FRAMES defaults to 120)
set -euo pipefail
build=${1:?usage: run.sh BUILD_DIR [FRAMES]}
frames=${2:-120}
dir=$build/bench/gfx
ws=$("$dir/cube_ws" "$frames")
mesa=$(LP_NUM_THREADS=1 "$dir/cube_mesa" "$frames")
echo "$ws"
echo "$mesa"
fps() { sed -n 's/.* fps=\([0-9.]*\).*/\1/p' <<<"$1"; }
awk -v w="$(fps "$ws")" -v m="$(fps "$mesa")" \
    'BEGIN { printf "fps ratio ws/mesa=%.4f (mesa is %.1fx faster)\n", w / m, m / w }'
