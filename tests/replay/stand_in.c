/* A test-only stand-in for the replayer (src/capture/replay.h): "opening a
 * capture" builds the pixel-history test frame (pixel_scene.c) from the
 * shader module named by the path, and the calls are that frame's. It
 * keeps the contract the tools rely on: restore puts the frame's start
 * back, run issues calls in order with the after-callback and then waits.
 * Linked into the pixel tests only, never into the library. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capture/replay.h"
#include "pixel_scene.h"

struct ws_replay {
    scene s;
    char err[512];
};

static ws_status fail(ws_replay *r, ws_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err, sizeof r->err, fmt, ap);
    va_end(ap);
    return st;
}

ws_status ws_replay_open(const char *path, const ws_replay_options *opt, ws_replay **out, char *err, size_t errlen)
{
    (void)opt;
    *out = NULL;
    ws_replay *r = calloc(1, sizeof *r);
    if (!r) { snprintf(err, errlen, "out of memory"); return WS_ERR_OUT_OF_MEMORY; }
    if (scene_open(&r->s, path, err, errlen)) { free(r); return WS_ERR_INVALID_ARG; }
    *out = r;
    return WS_OK;
}

ws_status ws_replay_close(ws_replay *r)
{
    if (r) scene_close(&r->s);
    free(r);
    return WS_OK;
}

const char *ws_replay_error(const ws_replay *r) { return r->err; }
ws_device *ws_replay_device(ws_replay *r) { return r->s.dev; }
uint64_t ws_replay_call_count(const ws_replay *r) { (void)r; return scene_call_count(); }

ws_status ws_replay_describe_call(const ws_replay *r, uint64_t index, struct ws_replay_call_info *out)
{
    if (index >= scene_call_count())
        return fail((ws_replay *)r, WS_ERR_INVALID_ARG, "stand-in: no call %llu", (unsigned long long)index);
    scene_call_info((size_t)index, out);
    return WS_OK;
}

ws_status ws_replay_restore(ws_replay *r)
{
    ws_status st = scene_restore(&r->s);
    return st == WS_OK ? st : fail(r, st, "stand-in: restore: %s", ws_last_error(r->s.dev));
}

ws_status ws_replay_run(ws_replay *r, uint64_t from, uint64_t to, ws_replay_after_fn after, void *user)
{
    uint64_t n = scene_call_count();
    if (to > n) to = n;
    for (uint64_t i = from; i < to; i++) {
        ws_status st = scene_call(&r->s, (size_t)i);
        if (st != WS_OK) {
            struct ws_replay_call_info ci;
            scene_call_info((size_t)i, &ci);
            return fail(r, st, "stand-in: call %llu %s: %s", (unsigned long long)i, ci.name, ws_last_error(r->s.dev));
        }
        if (after && after(user, r, i)) break;
    }
    ws_status st = ws_synchronize(r->s.dev);
    return st == WS_OK ? st : fail(r, st, "stand-in: %s", ws_last_error(r->s.dev));
}

ws_status ws_replay_hash(ws_replay *r, uint64_t *out)
{
    (void)out;
    return fail(r, WS_ERR_UNSUPPORTED, "stand-in: no hash");
}

ws_status ws_replay_captured_hash(const ws_replay *r, uint64_t *out)
{
    (void)out;
    return fail((ws_replay *)r, WS_ERR_UNSUPPORTED, "stand-in: no hash");
}

ws_status ws_replay_targets(ws_replay *r, ws_gfx_target **out, size_t max, size_t *n)
{
    *n = 1;
    if (max) out[0] = r->s.target;
    return WS_OK;
}

ws_gfx_target *ws_replay_target_at(ws_replay *r, uint64_t index)
{
    return index < scene_call_count() ? r->s.target : NULL;
}

ws_status ws_replay_state_text(ws_replay *r, uint64_t index, char *buf, size_t len)
{
    (void)r;
    scene_state_text((size_t)index, buf, len);
    return WS_OK;
}

ws_status ws_replay_modules(ws_replay *r, ws_replay_module *out, size_t max, size_t *n)
{
    (void)out;
    (void)max;
    *n = 0;
    return fail(r, WS_ERR_UNSUPPORTED, "stand-in: no modules");
}

scene *stand_in_scene(ws_replay *r) { return &r->s; }
