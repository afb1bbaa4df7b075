/* The mesh view of a replayed frame (RenderDoc's mesh viewer, as a table):
 * for one draw call, every vertex shader invocation with the attributes
 * the vertex fetch gave it, the position and varyings it wrote, and where
 * the viewport puts that position; with the draw's primitive counts. The
 * frame runs from its start to the draw with the graphics pipeline's
 * vertex probe armed (src/gfx/gfx_mesh.h). */
#ifndef WS_CAPTURE_REPLAY_MESH_H
#define WS_CAPTURE_REPLAY_MESH_H
#include <stdio.h>
#include "capture/replayer.h"
#include "gfx/gfx_mesh.h"

typedef struct ws_mesh_view {
    uint64_t call;                /* the draw call's index in the frame          */
    char call_text[512];          /* as --list prints it                         */
    ws_gfx_mesh mesh;             /* its vertex stage (owned copy)               */
    ws_gfx_draw_stats stats;      /* its primitive counts                        */
    char failure[640];            /* the frame's work failed at this draw (after
                                     its vertices were shaded): why; else ""   */
} ws_mesh_view;

/* Replay the frame up to draw call `call` and take its vertex stage. */
ws_status ws_replay_mesh_collect(ws_replay *r, uint64_t call, ws_mesh_view *out, char *err, size_t errlen);
/* Print at most `rows` invocations (UINT64_MAX: all). */
void ws_replay_mesh_print(const ws_mesh_view *v, uint64_t rows, FILE *out);
void ws_mesh_view_free(ws_mesh_view *v);
/* "CALL[:ROWS]" -> call, rows (UINT64_MAX when not given). */
ws_status ws_replay_parse_mesh(const char *text, uint64_t *call, uint64_t *rows, char *err, size_t errlen);
/* Collect and print (`--mesh CALL[:ROWS]`). */
ws_status ws_replay_mesh(ws_replay *r, uint64_t call, uint64_t rows, FILE *out, char *err, size_t errlen);
#endif
