/* The mesh view (src/capture/replay_mesh.c, the vertex probe of
 * src/gfx/gfx_mesh.c) on the pixel-history test frame written as a
 * capture: every draw's vertex invocations carry the vertex buffer's
 * vertices in order (the frame draws without indices), the pass-through
 * vertex shader's outputs equal its inputs, each window position is the
 * viewport transform of the position (32x32 target, depth range 0..1,
 * computed here in double), the primitive counts are the draw's; a
 * second collection is byte for byte the first; calls that are not draws
 * and calls past the frame are refused with a message; the printed table
 * has a row per invocation.
 * usage: test_mesh_view gfx_shaders.elf WORKDIR */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "../test.h"
#include "capture/replay_mesh.h"
#include "pixel_scene.h"

static void check_draw(ws_replay *r, uint64_t call, uint32_t first, uint32_t count)
{
    char err[1024];
    ws_mesh_view v, again;
    CHECK(ws_replay_mesh_collect(r, call, &v, err, sizeof err) == WS_OK);
    const ws_gfx_mesh *m = &v.mesh;
    CHECK_EQ_U(m->n, count);
    CHECK_EQ_U(m->vin_floats, 8);
    CHECK_EQ_U(m->vout_floats, 8);
    CHECK_EQ_U(m->nattributes, 2);
    CHECK(!strcmp(m->shader, "ref_vs"));
    CHECK_EQ_U(v.stats.primitives_in, count / 3);
    if (m->n != count || m->vin_floats != 8 || m->vout_floats != 8) { ws_mesh_view_free(&v); return; }
    for (uint32_t i = 0; i < count; i++) {
        float want[8];
        scene_vertex(first + i, want);
        CHECK_EQ_U(m->vertex[i], first + i);
        CHECK_EQ_U(m->instance[i], 0);
        CHECK(!memcmp(m->in + i * 8, want, sizeof want));
        CHECK(!memcmp(m->out + i * 8, want, sizeof want)); /* ref_vs passes everything through */
        const double w = want[3], x = (want[0] / w + 1) * SCENE_W / 2, y = (1 - want[1] / w) * SCENE_H / 2,
                     z = (want[2] / w + 1) / 2;
        const float *win = m->window + i * 3;
        CHECK(fabs(win[0] - x) < 1e-4 && fabs(win[1] - y) < 1e-4 && fabs(win[2] - z) < 1e-6);
    }
    CHECK(ws_replay_mesh_collect(r, call, &again, err, sizeof err) == WS_OK);
    CHECK(again.mesh.n == m->n && !memcmp(again.mesh.out, m->out, m->n * 8 * sizeof(float)) &&
          !memcmp(again.mesh.window, m->window, m->n * 3 * sizeof(float)) &&
          !memcmp(&again.stats.primitives_in, &v.stats.primitives_in, 5 * sizeof(uint64_t)));
    ws_mesh_view_free(&again);
    /* the table: a header, then a row per invocation */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ws_replay_mesh_print(&v, UINT64_MAX, f);
    fclose(f);
    CHECK_STR_CONTAINS(text, "vertex shader ref_vs, triangle list");
    CHECK_STR_CONTAINS(text, "inputs: in0 float4, in1 float4; outputs: position and 4 varyings");
    size_t lines = 0;
    for (const char *p = text; *p; p++) lines += *p == '\n';
    CHECK_EQ_U(lines, 4 + count);
    free(text);
    ws_mesh_view_free(&v);
}

/* The table by hand: a shader's NaN prints as nan, a vertex with no
 * window position (w <= 0) shows - there, and a projected one whose
 * position has a NaN shows the NaN it projects to. */
static void check_nan_cells(void)
{
    float in[1] = { 1 }, out[4] = { NAN, 0, 0, -1 }, win[3] = { NAN, NAN, NAN };
    uint32_t vertex = 7, instance = 0;
    ws_mesh_view v;
    memset(&v, 0, sizeof v);
    v.mesh.n = 1, v.mesh.count = 1, v.mesh.instances = 1, v.mesh.nattributes = 1, v.mesh.format[0] = WS_GFX_FLOAT1;
    v.mesh.vin_floats = 1, v.mesh.vout_floats = 4;
    v.mesh.vertex = &vertex, v.mesh.instance = &instance, v.mesh.in = in, v.mesh.out = out, v.mesh.window = win;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ws_replay_mesh_print(&v, UINT64_MAX, f);
    fclose(f);
    const char *row = text ? strstr(text, "\n       0 ") : NULL;
    CHECK(row != NULL);
    if (row) {
        CHECK_STR_CONTAINS(row, "nan");
        CHECK_STR_CONTAINS(row, "         -          -          -\n");
    }
    free(text);
    /* w = 1 projects: a NaN x gives a NaN window x, shown as nan beside
     * the window y and depth (it showed -, the mark of w <= 0) */
    out[3] = 1, win[1] = 25, win[2] = 0.5f;
    text = NULL;
    f = open_memstream(&text, &len);
    ws_replay_mesh_print(&v, UINT64_MAX, f);
    fclose(f);
    row = text ? strstr(text, "\n       0 ") : NULL;
    CHECK(row != NULL);
    if (row) CHECK_STR_CONTAINS(row, "        nan         25        0.5\n");
    free(text);
}

int main(int argc, char **argv)
{
    if (argc != 3) { fprintf(stderr, "usage: test_mesh_view gfx_shaders.elf WORKDIR\n"); return 2; }
    char path[4200], err[1024];
    mkdir(argv[2], 0777);
    snprintf(path, sizeof path, "%s/scene.wscap", argv[2]);
    if (scene_write_capture(path, argv[1], err, sizeof err)) { fprintf(stderr, "%s\n", err); return 1; }
    ws_replay *r;
    if (ws_replay_open(path, NULL, &r, err, sizeof err) != WS_OK) { fprintf(stderr, "%s\n", err); return 1; }
    const uint64_t ncalls = ws_replay_call_count(r);
    uint32_t draws = 0, first = 0;
    for (uint64_t i = 0; i < ncalls; i++) {
        ws_replay_call_info ci;
        CHECK(ws_replay_describe_call(r, i, &ci) == WS_OK);
        if (ci.kind != WS_REPLAY_CALL_DRAW) continue;
        const uint32_t count = first == 15 ? 6 : 3; /* the scene's draws: 3 vertices, one of 6 */
        check_draw(r, i, first, count);
        first += count;
        draws++;
    }
    CHECK_EQ_U(draws, 7);
    CHECK_EQ_U(first, scene_vertex_count());
    ws_mesh_view v;
    CHECK(ws_replay_mesh_collect(r, SCENE_CAPTURE_PREFIX + 1, &v, err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "is ws_gfx_clear, not a draw");
    CHECK(ws_replay_mesh_collect(r, ncalls, &v, err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "no call");
    uint64_t call, rows;
    CHECK(ws_replay_parse_mesh("19:4", &call, &rows, err, sizeof err) == WS_OK && call == 19 && rows == 4);
    CHECK(ws_replay_parse_mesh("0x13", &call, &rows, err, sizeof err) == WS_OK && call == 19 && rows == UINT64_MAX);
    CHECK(ws_replay_parse_mesh("19:0", &call, &rows, err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK(ws_replay_parse_mesh("-1", &call, &rows, err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK(ws_replay_parse_mesh("3x", &call, &rows, err, sizeof err) == WS_ERR_INVALID_ARG);
    ws_replay_close(r);
    check_nan_cells();
    return TEST_SUMMARY();
}
