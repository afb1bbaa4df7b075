/* The pixel-history probe: debug hardware in the graphics pipeline. Armed
 * with one pixel (x, y), it records every clear and every fragment that
 * reaches that pixel of whatever target a command writes, in API order:
 * what the fragment shader returned, whether it discarded, the depth test
 * and its result, and the pixel's colour and depth before and after. The
 * pixel-history tool (src/capture/replay_pixel.c) reads the records.
 *
 * Disarmed, each stage pays one pointer test per lane; armed or not, the
 * pipeline computes the same results (the probe only reads the target).
 * Arm, read and disarm only while the device is idle (after
 * ws_synchronize): the records are written as the command processor runs. */
#ifndef WS_GFX_GFX_PROBE_H
#define WS_GFX_GFX_PROBE_H
#include <stddef.h>
#include <stdint.h>
#include "warpscope/graphics.h" /* ws_gfx_compare */
#include "warpscope/warpscope.h"

typedef enum ws_gfx_probe_event {
    WS_GFX_PROBE_CLEAR = 0,       /* a clear wrote the pixel                    */
    WS_GFX_PROBE_WRITTEN,         /* passed the depth test (or none): blended in */
    WS_GFX_PROBE_DISCARDED,       /* the fragment shader called ws_discard      */
    WS_GFX_PROBE_EARLY_Z_FAILED,  /* failed the depth test before shading       */
    WS_GFX_PROBE_DEPTH_FAILED     /* failed the depth test after shading        */
} ws_gfx_probe_event;

typedef struct ws_gfx_probe_rec {
    ws_gfx_probe_event event;
    uint64_t draw_id;             /* the draw's id (ws_gfx_draw_stats); clears: ~0 */
    uint64_t command;             /* clears and draws executed since arming, from 0 */
    uint32_t target;              /* device address of the target's colour image */
    uint32_t prim;                /* primitive index in the draw (per instance)  */
    uint32_t instance;            /* its instance (as ws_instance_id())          */
    uint32_t instances;           /* the draw's instance count                  */
    int front;                    /* the primitive faced the viewer             */
    int shaded;                   /* the fragment shader ran (color is valid)    */
    float color[4];               /* its output before clamping (clears: the clear colour) */
    float depth;                  /* the fragment's window depth (clears: the clear depth) */
    int depth_test;               /* the draw tested depth against a depth image */
    int depth_write;              /* ... and wrote the depths that passed        */
    ws_gfx_compare depth_compare;
    int has_depth;                /* the target has a depth image               */
    float depth_before, depth_after;
    uint8_t before[4], after[4];  /* the pixel's RGBA8 before and after         */
} ws_gfx_probe_rec;

/* Arm the probe at pixel (x, y) (row 0 at the top), dropping old records. */
ws_status ws_gfx_probe_arm(ws_device *dev, uint32_t x, uint32_t y);
ws_status ws_gfx_probe_disarm(ws_device *dev);
/* The records so far; *recs stays valid until the device runs more work,
 * the probe is re-armed, emptied or disarmed. Not armed: an error. */
ws_status ws_gfx_probe_records(ws_device *dev, const ws_gfx_probe_rec **recs, size_t *n);
/* Drop the records so far, staying armed (the command count goes on). */
ws_status ws_gfx_probe_empty(ws_device *dev);
const char *ws_gfx_probe_event_name(ws_gfx_probe_event e);

#endif
