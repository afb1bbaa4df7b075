/* A small frame for the pixel-history tests: a 32x32 target with depth and
 * a list of calls (clear, draws that write, fail the early and the late
 * depth test, blend, discard, miss the pixel, two primitives in one draw,
 * copies into a buffer), issued one at a time through the public API.
 * The probe test drives it directly; the other tests write it as a
 * capture file and replay it. */
#ifndef WS_TESTS_PIXEL_SCENE_H
#define WS_TESTS_PIXEL_SCENE_H
#include "capture/replayer.h"
#include "warpscope/abi.h"

#define SCENE_W 32
#define SCENE_H 32
#define SCENE_PX 10    /* the pixel every draw but one covers */
#define SCENE_PY 12
#define SCENE_NPIPES 5
#define SCENE_BUF_BYTES 64

typedef struct scene {
    ws_device *dev;
    ws_module *mod;
    ws_gfx_target *target;
    ws_gfx_pipeline *pipe[SCENE_NPIPES];
    ws_addr vb, buf;
} scene;

/* Open a device, load the shaders, make the objects. 0 on success. */
int scene_open(scene *s, const char *shader_elf, char *err, size_t errlen);
void scene_close(scene *s);
/* Put the target (colour 0, depth 1), the buffer and the context back as
 * they are before call 0, and wait. */
ws_status scene_restore(scene *s);
size_t scene_call_count(void);
/* The vertex buffer's vertex i: position (4 floats), then colour (4). */
size_t scene_vertex_count(void);
void scene_vertex(size_t i, float out[8]);
/* Call i's description; issue it. */
void scene_call_info(size_t i, struct ws_replay_call_info *out);
ws_status scene_call(scene *s, size_t i);
/* Pipeline description lines for call i (what the context is then). */
void scene_state_text(size_t i, char *buf, size_t len);

/* The same frame as a capture file (the codec of src/capture/capture_calls.h),
 * every object created inside the frame, allocations at fixed addresses:
 * for the real replayer. SCENE_CAPTURE_PREFIX calls (creating the objects)
 * come before the calls above, which keep their order. 0 on success. */
#define SCENE_CAPTURE_PREFIX 16
#define SCENE_CAPTURE_BUF (WS_GLOBAL_BASE + 0x201000u)
int scene_write_capture(const char *path, const char *shader_elf, char *err, size_t errlen);

#endif
