/* The vertex probe: debug hardware beside vertex shading. Armed, it keeps
 * a copy of what the vertex stage of the most recent draw fetched and what
 * its shader wrote, with each vertex's window position (the viewport
 * transform the clipper applies), for the mesh view of a replayed frame
 * (src/capture/replay_mesh.c). Disarmed, a draw pays one pointer test;
 * armed or not, the pipeline computes the same results (the probe only
 * reads). Arm, read and disarm only while the device is idle. */
#ifndef WS_GFX_GFX_MESH_H
#define WS_GFX_GFX_MESH_H
#include <stdint.h>
#include "warpscope/graphics.h"

typedef struct ws_gfx_mesh {
    int valid;                     /* a draw's vertex stage ran since arming  */
    uint64_t draw_id;
    char shader[64];               /* the vertex shader's name                 */
    uint32_t count, instances, first, first_instance, indexed;
    int32_t base_vertex;
    ws_gfx_topology topology;
    ws_gfx_cull cull;
    ws_gfx_winding front_face;
    uint32_t nattributes;
    ws_gfx_format format[WS_GFX_MAX_ATTRIBUTES];
    uint32_t vin_floats, vout_floats; /* per invocation: inputs; position + varyings */
    uint64_t n;                    /* invocations: count x instances           */
    uint32_t *vertex, *instance;   /* n each: the vertex index (with base_vertex) and instance */
    float *in, *out;               /* n x vin_floats, n x vout_floats          */
    float *window;                 /* n x 3: window x, y (pixels, y down) and depth; NaN where w <= 0 */
    int lost;                      /* out of host memory: the copy is incomplete */
} ws_gfx_mesh;

ws_status ws_gfx_mesh_arm(ws_device *dev);
ws_status ws_gfx_mesh_disarm(ws_device *dev);
/* The most recent draw's vertex stage since arming; *m stays valid until
 * the device runs more work or the probe is disarmed. Not armed, or no draw
 * shaded vertices since arming: an error. */
ws_status ws_gfx_mesh_read(ws_device *dev, const ws_gfx_mesh **m);
/* A copy of m that owns its arrays (-1: out of host memory, dst freed), and
 * freeing one (its arrays; every field zero after). */
int ws_gfx_mesh_copy(const ws_gfx_mesh *m, ws_gfx_mesh *dst);
void ws_gfx_mesh_free(ws_gfx_mesh *m);
#endif
