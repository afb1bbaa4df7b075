#!/usr/bin/env python3
"""The textured, lit, depth-tested demo cube through Warpscope's pipeline
(bench/gfx/cube_ws) and through Mesa's llvmpipe (bench/gfx/cube_mesa) at
640x480, frames 0, 3, 7 and 20: the covered pixels must be the same, and
colours close (texture filtering and lighting follow the same formulas, but
llvmpipe computes its level of detail and interpolates its own way).
usage: cube_vs_mesa.py CUBE_WS CUBE_MESA WORKDIR"""
import os
import subprocess
import sys

CLEAR = bytes([26, 26, 38])  # cube_clear_rgba (0.1, 0.1, 0.15) in 8 bits


def load_ppm(path):
    data = open(path, "rb").read()
    magic, size, maxval, pixels = data.split(b"\n", 3)
    w, h = map(int, size.split())
    assert magic == b"P6" and maxval == b"255" and len(pixels) == w * h * 3, path
    return w, h, pixels


def main():
    ws, mesa, work = sys.argv[1:4]
    env = dict(os.environ, LP_NUM_THREADS="1")
    # Mesa's shader cache in the work directory, not the user's home (every
    # run left ~/.cache/mesa_shader_cache), unless the caller chose
    if not any(k in env for k in ("MESA_SHADER_CACHE_DIR", "MESA_GLSL_CACHE_DIR", "MESA_SHADER_CACHE_DISABLE")):
        env["MESA_SHADER_CACHE_DIR"] = os.path.join(os.path.abspath(work), "mesa_shader_cache")
    failed = 0
    for frames in (1, 4, 8, 21):  # each program saves its last frame
        a, b = os.path.join(work, f"ws_{frames}.ppm"), os.path.join(work, f"mesa_{frames}.ppm")
        subprocess.run([ws, str(frames), a], check=True, stdout=subprocess.DEVNULL)
        subprocess.run([mesa, str(frames), b], check=True, stdout=subprocess.DEVNULL, env=env)
        w, h, pa = load_ppm(a)
        _, _, pb = load_ppm(b)
        covered = coverage_diff = close = worst = 0
        for i in range(w * h):
            x, y = pa[3 * i:3 * i + 3], pb[3 * i:3 * i + 3]
            if (x != CLEAR) != (y != CLEAR):
                coverage_diff += 1
                continue
            if y == CLEAR:
                continue
            covered += 1
            d = max(abs(x[k] - y[k]) for k in range(3))
            worst = max(worst, d)
            close += d <= 1
        ok = coverage_diff == 0 and covered > 20000 and worst <= 8 and close >= 0.97 * covered
        print(f"frame {frames - 1}: {covered} px covered, {coverage_diff} coverage differences, "
              f"{close / max(covered, 1):.2%} within 1/255, largest difference {worst}/255: {'ok' if ok else 'FAIL'}")
        failed += not ok
    print(f"{4 - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
