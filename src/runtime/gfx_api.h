/* The runtime's graphics context: the handles it gave out (so a stale or
 * foreign handle is an error, not a crash) and the state the next draw
 * snapshots. One per device, created on first use. */
#ifndef WS_RUNTIME_GFX_API_H
#define WS_RUNTIME_GFX_API_H
#include "device/device.h"
#include "gfx/gfx.h"

struct ws_gfx_target { ws_device *dev; ws_gfx_target_hw hw; };
struct ws_gfx_texture { ws_device *dev; ws_gfx_tex_hw hw; uint32_t bytes; };
struct ws_gfx_pipeline { ws_device *dev; ws_gfx_pipeline_hw hw; };

typedef struct ws_gfx_api {
    void **live;                 /* every live handle of this device          */
    size_t nlive, cap;
    ws_gfx_state st;             /* what the next draw snapshots              */
    ws_gfx_target *target;
    ws_gfx_pipeline *pipeline;
    ws_gfx_texture *tex[WS_GFX_MAX_TEXTURES];
    uint64_t next_draw, frame;
    int in_frame;
} ws_gfx_api;

/* The device's context, created on first use (NULL: out of memory, with
 * the error set). */
ws_gfx_api *ws_gfx_api_get(ws_device *dev, const char *fn);
int ws_gfx_api_track(ws_gfx_api *g, void *handle);
void ws_gfx_api_untrack(ws_gfx_api *g, void *handle);
int ws_gfx_api_is_live(const ws_gfx_api *g, const void *handle);
/* WS_OK if handle is a live `what` ("render target") of this device, else
 * the error, naming the call fn. */
ws_status ws_gfx_api_check(ws_device *dev, const void *handle, const char *what, const char *fn);
/* Device close: free every handle and the context. */
void ws_gfx_api_free(ws_device *dev);
/* Set a vertex buffer binding (slot < WS_GFX_MAX_BINDINGS) or the index
 * buffer (slot == WS_GFX_MAX_BINDINGS, with type) as a captured context
 * had it, without the setters' check that the range lies in a live
 * allocation: a program may free a bound buffer (the binding stays; the
 * draw checks it again), and a replayer restoring that context must put
 * the same binding back. Not a public call. */
ws_status ws_gfx_api_restore_buffer(ws_device *dev, uint32_t slot, ws_addr addr, uint32_t size,
                                    ws_gfx_index_type type);
/* Queue a graphics command (takes ownership of c, also on failure). */
ws_status ws_gfx_push(ws_device *dev, ws_gfx_cmd *c);

#endif
