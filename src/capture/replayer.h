/* The replayer: a captured frame (include/warpscope/capture.h,
 * docs/capture-replay.md) re-executed through the public runtime API on a
 * device of its own. Open builds the device with the captured
 * configuration and the objects that exist at the frame start (modules at
 * their captured bases, allocations at their captured addresses, textures,
 * render targets, pipelines, the graphics context); restore puts every
 * byte of that initial state back, so each pass of a loop starts where the
 * captured frame started and ends bit-identical to it.
 *
 * The frame debugger (replay_debug.c), pixel history (replay_pixel.c) and
 * the HTML report (replay_html.c) are built on these calls: they attach
 * what they need to ws_replay_device() and run the calls again.
 *
 * Errors: ws_replay_error() names the capture file and the call
 * ("cube.wscap: call 17 ws_gfx_draw: ..."). No global state. */
#ifndef WS_CAPTURE_REPLAYER_H
#define WS_CAPTURE_REPLAYER_H
#include <stddef.h>
#include <stdint.h>
#include "warpscope/graphics.h"
#include "warpscope/warpscope.h"

typedef struct ws_replay ws_replay;

/* What kind of call a recorded call is. */
typedef enum ws_replay_call_kind {
    WS_REPLAY_CALL_OTHER = 0,   /* state changes: malloc, set_*, create ...  */
    WS_REPLAY_CALL_COPY,        /* htod / dtod / memset / texture upload     */
    WS_REPLAY_CALL_LAUNCH,      /* ws_launch                                 */
    WS_REPLAY_CALL_DRAW,        /* ws_gfx_draw / ws_gfx_draw_indexed         */
    WS_REPLAY_CALL_CLEAR,       /* ws_gfx_clear                              */
    WS_REPLAY_CALL_SYNC,        /* synchronize, fence wait, reads back       */
    WS_REPLAY_CALL_FRAME        /* begin_frame / present                     */
} ws_replay_call_kind;

typedef struct ws_replay_call_info {
    uint64_t index;             /* 0 .. count-1, in the frame's order        */
    ws_replay_call_kind kind;
    const char *name;           /* "ws_gfx_draw_indexed"                     */
    char text[512];             /* the call with its arguments, as --list prints it */
    /* launches: the kernel; draws: the pipeline's shaders (else NULL/0) */
    const char *kernel;         /* kernel or fragment shader name            */
    uint32_t draw;              /* the draw's ordinal in the frame (draws; its
                                   device id, $draw, is ws_replay_first_draw
                                   more); as the device numbers draws, a draw
                                   of 0 vertices or 0 instances draws nothing
                                   and has none: WS_REPLAY_NO_DRAW           */
    uint32_t launch;            /* the launch's ordinal in the frame (launches) */
} ws_replay_call_info;

#define WS_REPLAY_NO_DRAW UINT32_MAX

typedef struct ws_replay_options {
    const char *config;         /* extra ws_config settings ("mode=timing"), or NULL */
} ws_replay_options;

/* Open a capture file: read and check it, open a device, build and
 * restore the initial state (ready for a first ws_replay_run). On failure
 * *out is NULL and err says why. */
ws_status ws_replay_open(const char *path, const ws_replay_options *opt, ws_replay **out, char *err,
                         size_t errlen);
/* The same from bytes in memory (kept until close); name stands for the file. */
ws_status ws_replay_open_memory(const void *data, size_t size, const char *name, const ws_replay_options *opt,
                                ws_replay **out, char *err, size_t errlen);
ws_status ws_replay_close(ws_replay *r);
const char *ws_replay_error(const ws_replay *r);
/* The replay's device: tools attach to it (debug hardware, probes). */
ws_device *ws_replay_device(ws_replay *r);
/* Every replay gives the frame's launches and draws the ids they had when
 * captured. For a capture that did not record them (older files): from the
 * next restore on, every replay numbers its launches as the first did (the
 * frame debugger: $launch and conditions on it hold across its replays);
 * without this call each replay's launches are numbered on. */
void ws_replay_same_launch_ids(ws_replay *r);
/* The draw id the frame's first draw gets in every pass (the one it had
 * when captured; 0 for captures that did not record it). */
uint64_t ws_replay_first_draw(const ws_replay *r);

uint64_t ws_replay_call_count(const ws_replay *r);
ws_status ws_replay_describe_call(const ws_replay *r, uint64_t index, ws_replay_call_info *out);

/* Put the initial state back: objects created during the frame are
 * destroyed, objects destroyed during it re-created, every allocation's
 * and texture's and render target's bytes and the graphics context set to
 * what they were at the frame start. */
ws_status ws_replay_restore(ws_replay *r);

/* Called after call `index` was issued (its work queued, not necessarily
 * done). Return non-zero to stop the run after this call. */
typedef int (*ws_replay_after_fn)(void *user, ws_replay *r, uint64_t index);
/* Issue calls [from, to) (to = UINT64_MAX: to the end), then wait for
 * the device to finish them. */
ws_status ws_replay_run(ws_replay *r, uint64_t from, uint64_t to, ws_replay_after_fn after, void *user);
/* Is st (of ws_replay_run, or of a wait inside it) the frame's own work
 * failing, as it did when captured: a fault, an assert, a deadlock, the
 * watchdog? The frame then ends there; the debugger, the pixel and element
 * histories and the report show what came before. */
static inline int ws_replay_frame_failure(ws_status st)
{
    return st == WS_ERR_KERNEL_FAULT || st == WS_ERR_KERNEL_ASSERT || st == WS_ERR_DEADLOCK || st == WS_ERR_TIMEOUT;
}

/* Failures of the frame's work. A capture records every failure the
 * program met (WSCAP_FAILURE, capture_calls.h): a call that returned it,
 * or a call the capture does not hold that waited for the queue. A run
 * that meets the same failure at the same place (the same status) goes on
 * past it, as the program did, and lists it here; any other failure, or a
 * capture written before failures were recorded, stops the run with its
 * error as before. A tool that waits for the device inside a run (after a
 * draw, to read its results) waits with ws_replay_wait: a failure met
 * there early is the recorded one, and the work the program's queue
 * discarded after it (up to the call that reported it) is then not run. */
typedef struct ws_replay_failure {
    uint64_t call;              /* the call that reported it when captured;
                                   the call count: the device close after
                                   the last call                             */
    int own;                    /* 1: call `call` returned it; 0: a call the
                                   capture does not hold (`name`) met it just
                                   before call `call`                        */
    uint64_t met_after;         /* the replay met it after this call
                                   (UINT64_MAX: before the first)            */
    ws_status status;
    char name[48];              /* the reporting call ("ws_synchronize")     */
    char report[1024];          /* the replay's report (kernel or draw,
                                   block, thread, pc, address, line)         */
} ws_replay_failure;
/* The failures the capture records (in call order): own, call `call`
 * returned it; else a call the capture does not hold (`name`) met it
 * just before call `call`. */
typedef struct ws_replay_recorded_failure {
    uint64_t call;
    int own;                    /* 2: pending when the capture began (work
                                   queued before it failed); the program
                                   heard of it at the frame's first wait   */
    ws_status status;
    char name[48];
    char report[1024];          /* the original's report                     */
    uint64_t at;                /* body offset of its FAILURE section        */
} ws_replay_recorded_failure;
ws_status ws_replay_recorded_failures(const ws_replay *r, const ws_replay_recorded_failure **out, size_t *n);
/* The failures the last ws_replay_run met (valid until the next run). */
ws_status ws_replay_failures(const ws_replay *r, const ws_replay_failure **out, size_t *n);
/* Those failures as lines "call 7 ws_synchronize: REPORT\n" (cut to len). */
void ws_replay_failures_text(const ws_replay *r, char *buf, size_t len);
/* Wait for the replay's device inside a run (from an after callback):
 * WS_OK also when the frame's work failed as recorded (then listed by
 * ws_replay_failures); otherwise the device's status. */
ws_status ws_replay_wait(ws_replay *r);
/* Does the capture record its failures (written 2026-11-27 or later)? */
int ws_replay_records_failures(const ws_replay *r);

/* A 64-bit digest of the frame's results as they are now: every render
 * target (colour and depth) and every live allocation's bytes, in a fixed
 * order. ws_replay_captured_hash gives the digest the original frame had
 * at its end (recorded at capture time). */
ws_status ws_replay_hash(ws_replay *r, uint64_t *out);
ws_status ws_replay_captured_hash(const ws_replay *r, uint64_t *out);

/* The captured frames' ends: after which call each ended and the digest
 * the original had there (a capture of several frames has one each). */
typedef struct ws_replay_frame {
    uint64_t frame;             /* the frame's number in the application     */
    uint64_t last_call;         /* the frame ended after this call           */
    uint64_t digest;
} ws_replay_frame;
ws_status ws_replay_frames(const ws_replay *r, const ws_replay_frame **out, size_t *n);

/* The live render targets by ascending capture id, for dumps and reports:
 * handles in out, their capture ids (the ids --list shows) in ids; either
 * may be NULL. *n is how many there are (up to max are written). */
ws_status ws_replay_targets(ws_replay *r, ws_gfx_target **out, uint32_t *ids, size_t max, size_t *n);
/* The live textures by ascending capture id, as ws_replay_targets. */
ws_status ws_replay_textures(ws_replay *r, ws_gfx_texture **out, uint32_t *ids, size_t max, size_t *n);
/* 1 if the capture's render target `id` has a depth image, else 0. */
int ws_replay_target_has_depth(const ws_replay *r, uint32_t id);
/* The live data allocations, by ascending address. */
ws_status ws_replay_buffers(ws_replay *r, uint32_t *addr, uint64_t *size, size_t max, size_t *n);
/* The render target bound when call `index` runs (NULL if none). */
ws_gfx_target *ws_replay_target_at(ws_replay *r, uint64_t index);
/* Its capture id (0 if none). Unlike the handle, the id names one target
 * of the frame: a target created after another was destroyed may get the
 * destroyed one's handle address back from the host allocator. */
uint32_t ws_replay_target_id_at(const ws_replay *r, uint64_t index);
/* The live handle of the render target with capture id `id` now (NULL:
 * not created yet, or destroyed). */
ws_gfx_target *ws_replay_target_by_id(ws_replay *r, uint32_t id);
/* Its size as the capture made it, whether or not it exists now. */
ws_status ws_replay_target_size(const ws_replay *r, uint32_t id, uint32_t *w, uint32_t *h);
/* The pixels a draw at call `index` may touch: its target, viewport and
 * scissor in common, as the pipeline computes them (docs/graphics.md),
 * [x0, x1) x [y0, y1) in rect; all zero when they have none in common.
 * WS_ERR_NOT_FOUND when no target is bound there. */
ws_status ws_replay_draw_rect(const ws_replay *r, uint64_t index, uint32_t rect[4]);
/* The graphics context when call `index` runs, as text lines
 * ("pipeline 2: vs=cube_vs fs=cube_fs cull=back depth=less write blend=opaque\n
 *  target 1 640x480 depth\nviewport ...\n"), for reports. */
ws_status ws_replay_state_text(ws_replay *r, uint64_t index, char *buf, size_t len);
/* Module images of the capture (for the debugger's library list). */
typedef struct ws_replay_module {
    const char *name;           /* the name the application loaded it by     */
    const void *image;
    size_t size;
    ws_module *module;          /* the replay's loaded module                */
} ws_replay_module;
ws_status ws_replay_modules(ws_replay *r, ws_replay_module *out, size_t max, size_t *n);

#endif
