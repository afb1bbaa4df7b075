/* The replay's views as JSON documents for scripts (`warpscope replay
 * --json FILE`, docs/capture-replay-pixel.md, "JSON"): what the text
 * says, field by field (replay_json.c). */
#ifndef WS_CAPTURE_REPLAY_JSON_H
#define WS_CAPTURE_REPLAY_JSON_H
#include <stdio.h>
#include "capture/replay_mesh.h"
#include "capture/replay_pixel.h"

ws_status ws_replay_pixel_json(ws_replay *r, const ws_pixel_history *h, FILE *out, char *err, size_t errlen);
ws_status ws_replay_element_json(ws_replay *r, const ws_element_history *h, FILE *out, char *err, size_t errlen);
/* The call list (--list): every call as --list shows it, its kind, and
 * the failures the program met there when captured. */
ws_status ws_replay_list_json(ws_replay *r, FILE *out, char *err, size_t errlen);
/* The mesh view (--mesh), at most `rows` invocations (UINT64_MAX: all). */
ws_status ws_replay_mesh_json(const ws_mesh_view *v, uint64_t rows, FILE *out, char *err, size_t errlen);
#endif
