/* A scene for the reference renderer: clip-space triangles with per-vertex
 * colours and the few fixed-function switches the graphics tests compare.
 * Plain data, no GL types, so Warpscope-side tests can build the same scene
 * for both renderers. */
#ifndef WS_GFX_REF_SCENE_H
#define WS_GFX_REF_SCENE_H
#include <stdint.h>

typedef struct ref_vertex {
    float pos[4];     /* clip-space position (x, y, z, w)  */
    float color[4];   /* RGBA, 0..1                         */
} ref_vertex;

enum { REF_BLEND_OPAQUE = 0, REF_BLEND_ALPHA = 1, REF_BLEND_ADD = 2 };
enum { REF_CULL_NONE = 0, REF_CULL_BACK = 1, REF_CULL_FRONT = 2 };

typedef struct ref_scene {
    uint32_t width, height;
    float clear[4];          /* clear colour                                       */
    float clear_depth;       /* clear depth, 0..1                                  */
    int depth_test;          /* 1: GL_LESS test + depth write; 0: off              */
    int blend;               /* REF_BLEND_*: alpha is SRC_ALPHA, ONE_MINUS_SRC_ALPHA
                                for rgb and alpha; add is ONE, ONE                 */
    int cull;                /* REF_CULL_*: front faces are CCW (the GL default)  */
    uint32_t ntris;
    const ref_vertex *verts; /* 3*ntris vertices, GL_TRIANGLES in order           */
} ref_scene;

#endif
