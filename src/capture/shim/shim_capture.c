/* Capture: which calls are frames, and the file a chosen frame goes into
 * (docs/capture.md). At the start of the first captured frame the initial
 * state is read back through the API from the objects the state model
 * knows; then every recorded call is appended; at each captured frame's
 * end a digest of the results is read back. Called with shim_g.lock held.
 * A failure abandons the capture (no file) and never changes what the
 * program sees. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capture/shim/shim.h"
#include "warpscope/tool.h"

void shim_abandon(const char *fmt, ...)
{
    if (shim_g.cap != CAP_ACTIVE && shim_g.cap != CAP_WAITING) return;
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "warpscope capture: %s: capture abandoned\n", msg);
    if (shim_g.spec.status[0]) { /* for `warpscope capture`, which says why nothing was captured */
        FILE *f = fopen(shim_g.spec.status, "a");
        if (f) {
            fprintf(f, "%s\n", msg);
            fclose(f);
        }
    }
    if (shim_g.w) ws_capture_writer_abort(shim_g.w);
    shim_g.w = NULL;
    shim_g.cap = CAP_DONE;
    wscap_buf_free(&shim_g.held);
}

static void add(uint32_t type, uint64_t id, wscap_buf *b)
{
    if (shim_g.cap != CAP_ACTIVE) return;
    if (b->failed) { shim_abandon("%s: out of host memory", shim_g.spec.out); return; }
    if (shim_g.frames_done) { /* after a frame end: held until the next (held_write) */
        wscap_put_u32(&shim_g.held, type);
        wscap_put_u64(&shim_g.held, id);
        wscap_put_blob(&shim_g.held, b->data, b->len);
        if (shim_g.held.failed) shim_abandon("%s: out of host memory", shim_g.spec.out);
        return;
    }
    if (ws_capture_writer_add(shim_g.w, type, id, b->data, b->len) != WS_OK) shim_abandon("%s", shim_g.werr);
}

/* The held sections go into the file (a frame has ended, or the capture
 * ends between frames). */
static void held_write(void)
{
    wscap_cur c = wscap_cursor(shim_g.held.data, shim_g.held.len);
    while (shim_g.cap == CAP_ACTIVE && c.at < c.len) {
        uint32_t type = wscap_u32(&c);
        uint64_t id = wscap_u64(&c), n;
        const uint8_t *data = wscap_blob(&c, &n);
        if (!c.bad && ws_capture_writer_add(shim_g.w, type, id, data, (size_t)n) != WS_OK) shim_abandon("%s", shim_g.werr);
    }
    wscap_buf_free(&shim_g.held);
}

void shim_write_call(wscap_buf *b)
{
    if (!b) return;
    add(WS_CAPTURE_API_CALL, shim_g.calls++, b);
}

int shim_failure(ws_status st)
{
    return st == WS_ERR_KERNEL_FAULT || st == WS_ERR_KERNEL_ASSERT || st == WS_ERR_DEADLOCK || st == WS_ERR_TIMEOUT ||
           st == WS_ERR_INTERRUPTED;
}

void shim_write_failure(int own, uint64_t id, ws_status st, const char *name)
{
    shim_write_failure_report(own, id, st, name, NULL);
}

void shim_write_failure_report(int own, uint64_t id, ws_status st, const char *name, const char *report)
{
    if (shim_g.cap != CAP_ACTIVE) return;
    wscap_buf b = { 0 };
    wscap_put_u32(&b, (uint32_t)own);
    wscap_put_u32(&b, (uint32_t)st);
    wscap_put_str(&b, name);
    wscap_put_str(&b, report ? report : REAL(ws_last_error)(shim_g.dev));
    add(WSCAP_FAILURE, id, &b);
    wscap_buf_free(&b);
}

/* Read [addr, addr+size) back; NULL (capture abandoned) on failure. */
static uint8_t *read_alloc(const shim_alloc *a)
{
    uint8_t *p = malloc(a->size ? a->size : 1);
    if (!p) { shim_abandon("reading back 0x%08x: out of host memory", a->addr); return NULL; }
    ws_status st = REAL(ws_memcpy_dtoh)(shim_g.dev, p, a->addr, a->size);
    if (st != WS_OK) {
        shim_abandon("reading back allocation 0x%08x (%llu bytes): %s", a->addr, (unsigned long long)a->size,
                     REAL(ws_last_error)(shim_g.dev));
        free(p);
        return NULL;
    }
    return p;
}

static int read_target(const shim_target *t, uint8_t **rgba, float **depth)
{
    size_t px = (size_t)t->w * t->hgt;
    *rgba = malloc(px * 4);
    *depth = t->depth ? malloc(px * sizeof(float)) : NULL;
    if (!*rgba || (t->depth && !*depth)) { shim_abandon("reading back target %u: out of host memory", t->id); goto fail; }
    if (REAL(ws_gfx_target_read)(shim_g.dev, t->h, *rgba, px * 4) != WS_OK ||
        (t->depth && REAL(ws_gfx_target_read_depth)(shim_g.dev, t->h, *depth, px) != WS_OK)) {
        shim_abandon("reading back target %u: %s", t->id, REAL(ws_last_error)(shim_g.dev));
        goto fail;
    }
    return 0;
fail:
    free(*rgba);
    free(*depth);
    return -1;
}

/* wscap_digest of every live allocation, then every live target. */
static int digest(uint64_t *out)
{
    uint64_t h = WSCAP_DIGEST_INIT;
    for (size_t i = 0; i < shim_g.allocs.n; i++) {
        const shim_alloc *a = &shim_g.allocs.v[i];
        uint8_t *p = read_alloc(a);
        if (!p) return -1;
        h = wscap_digest_alloc(h, a->addr, a->size, p);
        free(p);
    }
    for (size_t i = 0; i < shim_g.targets.n; i++) {
        const shim_target *t = &shim_g.targets.v[i];
        uint8_t *rgba;
        float *depth;
        if (read_target(t, &rgba, &depth)) return -1;
        size_t px = (size_t)t->w * t->hgt;
        h = wscap_digest_target(h, t->id, rgba, px * 4, depth, depth ? px * sizeof(float) : 0);
        free(rgba);
        free(depth);
    }
    *out = h;
    return 0;
}

static void initial_state(void)
{
    wscap_buf b = { 0 };
    for (size_t i = 0; i < shim_g.modules.n && shim_g.cap == CAP_ACTIVE; i++) {
        const shim_module *m = &shim_g.modules.v[i];
        wscap_put_str(&b, m->name);
        wscap_put_u32(&b, m->base);
        wscap_put_blob(&b, m->image, m->size);
        add(WS_CAPTURE_MODULE_IMAGE, m->id, &b);
        wscap_buf_free(&b);
    }
    for (size_t i = 0; i < shim_g.kernels.n && shim_g.cap == CAP_ACTIVE; i++) {
        const shim_kernel *k = &shim_g.kernels.v[i];
        wscap_put_u32(&b, k->module);
        wscap_put_str(&b, k->name);
        add(WSCAP_KERNEL, k->id, &b);
        wscap_buf_free(&b);
    }
    for (size_t i = 0; i < shim_g.allocs.n && shim_g.cap == CAP_ACTIVE; i++) {
        const shim_alloc *a = &shim_g.allocs.v[i];
        uint8_t *p = read_alloc(a);
        if (!p) break;
        wscap_put_u32(&b, a->addr);
        wscap_put_u64(&b, a->size);
        wscap_put_blob(&b, p, a->size);
        free(p);
        add(WS_CAPTURE_ALLOCATION, a->addr, &b);
        wscap_buf_free(&b);
    }
    for (size_t i = 0; i < shim_g.textures.n && shim_g.cap == CAP_ACTIVE; i++) {
        const shim_texture *t = &shim_g.textures.v[i];
        wscap_put_u32(&b, t->w);
        wscap_put_u32(&b, t->hgt);
        wscap_put_u32(&b, t->levels);
        for (uint32_t l = 0; l < t->levels; l++) {
            uint32_t w = t->w >> l ? t->w >> l : 1, h = t->hgt >> l ? t->hgt >> l : 1;
            size_t n = (size_t)w * h * 4;
            uint8_t *p = malloc(n);
            if (!p) { shim_abandon("reading back texture %u: out of host memory", t->id); break; }
            if (REAL(ws_gfx_texture_read)(shim_g.dev, t->h, l, p, n) != WS_OK) {
                shim_abandon("reading back texture %u level %u: %s", t->id, l, REAL(ws_last_error)(shim_g.dev));
                free(p);
                break;
            }
            wscap_put_blob(&b, p, n);
            free(p);
        }
        add(WS_CAPTURE_TEXTURE, t->id, &b);
        wscap_buf_free(&b);
    }
    for (size_t i = 0; i < shim_g.targets.n && shim_g.cap == CAP_ACTIVE; i++) {
        const shim_target *t = &shim_g.targets.v[i];
        uint8_t *rgba;
        float *depth;
        if (read_target(t, &rgba, &depth)) break;
        size_t px = (size_t)t->w * t->hgt;
        wscap_put_u32(&b, t->w);
        wscap_put_u32(&b, t->hgt);
        wscap_put_u32(&b, t->depth);
        wscap_put_blob(&b, rgba, px * 4);
        wscap_put_blob(&b, depth, depth ? px * sizeof(float) : 0);
        free(rgba);
        free(depth);
        add(WSCAP_TARGET, t->id, &b);
        wscap_buf_free(&b);
    }
    for (size_t i = 0; i < shim_g.pipelines.n && shim_g.cap == CAP_ACTIVE; i++) {
        wscap_put_pipeline(&b, &shim_g.pipelines.v[i].p);
        add(WS_CAPTURE_PIPELINE, shim_g.pipelines.v[i].id, &b);
        wscap_buf_free(&b);
    }
    /* The ids the next draw and launch get (the reads above ran the queue):
     * every replay pass gives them again, since shaders and kernels read
     * them (ws_draw_id(), ws_launch_id()). */
    shim_g.gfx.records_failures = 1; /* WSCAP_FAILURE sections */
    shim_g.gfx.has_ids = shim_g.dev && ws_gfx_next_draw_id(shim_g.dev, &shim_g.gfx.first_draw) == WS_OK &&
                         ws_next_launch_id(shim_g.dev, &shim_g.gfx.first_launch) == WS_OK;
    wscap_put_gfx_state(&b, &shim_g.gfx);
    add(WS_CAPTURE_GFX_STATE, 0, &b);
    wscap_buf_free(&b);
}

/* Open the file and write the configuration and the initial state.
 * in_frame: the first recorded call comes inside an open graphics frame
 * (a range of launches can start there), so the replay opens one. */
static void begin_capture(int in_frame)
{
    shim_g.gfx.in_frame = in_frame;
    if (shim_g.model_broken) { shim_abandon("the state model is incomplete (host memory ran out, or a module file could not be read back)"); return; }
    if (ws_capture_writer_open(shim_g.spec.out, &shim_g.w, shim_g.werr, sizeof shim_g.werr) != WS_OK) {
        shim_g.w = NULL;
        shim_abandon("%s", shim_g.werr);
        return;
    }
    shim_g.cap = CAP_ACTIVE;
    shim_g.calls = 0;
    shim_g.frames_done = 0;
    wscap_buf b = { 0 };
    wscap_put_config(&b, &shim_g.cfg);
    add(WS_CAPTURE_DEVICE_CONFIG, 0, &b);
    wscap_buf_free(&b);
    /* Reading the initial state runs work the program queued and has not
     * waited for yet (between graphics frames, before launch A): if it
     * fails, the failure is the program's, pending when the capture
     * begins. Recorded as such (own 2) and handed back, so the program's
     * next wait reports it and discards what it queued since, as without
     * the capture (the read-back took it and abandoned the capture). */
    ws_status st = REAL(ws_synchronize)(shim_g.dev);
    char report[1024] = "";
    if (shim_failure(st)) REAL(ws_last_error_copy)(shim_g.dev, report, sizeof report); /* whole, whatever other threads do */
    initial_state();
    if (shim_failure(st)) {
        shim_write_failure_report(2, 0, st, "work queued before the capture", report);
        ws_tool_hand_back(shim_g.dev, st, report);
    }
}

static void finish_capture(void)
{
    if (shim_g.cap != CAP_ACTIVE) return;
    held_write();
    if (shim_g.cap != CAP_ACTIVE) return;
    ws_capture_writer *w = shim_g.w;
    shim_g.w = NULL;
    shim_g.cap = CAP_DONE;
    if (ws_capture_writer_close(w) != WS_OK)
        fprintf(stderr, "warpscope capture: %s: capture abandoned\n", shim_g.werr);
}

static void frame_begin_section(void)
{
    wscap_buf b = { 0 };
    wscap_put_u64(&b, shim_g.frame);
    wscap_put_u32(&b, shim_g.reason);
    add(WS_CAPTURE_FRAME_BEGIN, shim_g.frame, &b);
    wscap_buf_free(&b);
}

static void frame_end_section(void)
{
    uint64_t h;
    if (shim_g.cap != CAP_ACTIVE || digest(&h)) return;
    wscap_buf b = { 0 };
    wscap_put_u64(&b, shim_g.frame);
    wscap_put_u64(&b, h);
    add(WS_CAPTURE_FRAME_END, shim_g.frame, &b);
    wscap_buf_free(&b);
    held_write();
    if (shim_g.cap == CAP_ACTIVE) shim_g.frames_done++;
}

static int wanted(uint64_t frame)
{
    switch (shim_g.spec.kind) {
    case SHIM_FRAMES_RANGE: return frame >= shim_g.spec.first && frame <= shim_g.spec.last;
    case SHIM_FRAMES_KEY:
        if (!shim_g.key_pending) return 0;
        shim_g.key_pending = 0;
        return 1;
    default: return 0;
    }
}

/* A frame (sync or graphics) begins before the call being made. */
static void frame_start(uint64_t frame, uint32_t reason)
{
    shim_g.in_frame = 1;
    shim_g.frame = frame;
    shim_g.reason = reason;
    if (shim_g.spec.kind == SHIM_FRAMES_LAUNCHES) return;
    if (shim_g.cap == CAP_WAITING && shim_g.enabled && wanted(frame)) {
        begin_capture(0); /* the frame's own begin_frame is its first call */
        shim_g.speculative = reason == WSCAP_FRAME_SYNC;
    }
    if (shim_g.cap == CAP_ACTIVE) frame_begin_section();
}

static void frame_end(void)
{
    shim_g.in_frame = 0;
    if (shim_g.cap != CAP_ACTIVE || shim_g.spec.kind == SHIM_FRAMES_LAUNCHES) return;
    frame_end_section();
    shim_g.speculative = 0;
    if ((shim_g.spec.kind == SHIM_FRAMES_RANGE && shim_g.frame >= shim_g.spec.last) ||
        shim_g.spec.kind == SHIM_FRAMES_KEY)
        finish_capture();
}

void shim_frame_pre(uint32_t call)
{
    if (call == WSCAP_BEGIN_FRAME) {
        if (!shim_g.gfx_mode && shim_g.in_frame) {
            /* The program draws: what looked like a sync frame was set-up. */
            if (shim_g.cap == CAP_ACTIVE && shim_g.speculative) {
                ws_capture_writer_abort(shim_g.w);
                shim_g.w = NULL;
                wscap_buf_free(&shim_g.held);
                shim_g.cap = CAP_WAITING;
                if (shim_g.spec.kind == SHIM_FRAMES_KEY) shim_g.key_pending = 1;
            } else if (shim_g.cap == CAP_ACTIVE && shim_g.spec.kind == SHIM_FRAMES_ALL) {
                frame_end_section();
            }
            shim_g.in_frame = 0;
        } else if (shim_g.in_frame) {
            frame_end(); /* a begin_frame without a present ends the open frame */
        }
        shim_g.gfx_mode = 1;
        frame_start(shim_g.gfx_frames++, WSCAP_FRAME_GRAPHICS);
    } else if (!shim_g.gfx_mode && !shim_g.in_frame) {
        frame_start(shim_g.sync_frames++, WSCAP_FRAME_SYNC);
    }
    if (call == WSCAP_LAUNCH && shim_g.spec.kind == SHIM_FRAMES_LAUNCHES && shim_g.enabled &&
        shim_g.cap == CAP_WAITING && shim_g.launches == shim_g.spec.first) {
        begin_capture(shim_g.gfx_mode && shim_g.in_frame);
        if (shim_g.cap == CAP_ACTIVE) {
            wscap_buf b = { 0 };
            wscap_put_u64(&b, shim_g.spec.first);
            wscap_put_u32(&b, WSCAP_FRAME_LAUNCHES);
            add(WS_CAPTURE_FRAME_BEGIN, shim_g.spec.first, &b);
            wscap_buf_free(&b);
        }
    }
}

void shim_frame_post(uint32_t call)
{
    if (call == WSCAP_LAUNCH && shim_g.launches++ == shim_g.spec.last && shim_g.cap == CAP_ACTIVE &&
        shim_g.spec.kind == SHIM_FRAMES_LAUNCHES) {
        /* The digest runs the queue the program has not waited for yet:
         * a failure there is the program's, met at its next wait. Recorded
         * there (after the last call) and handed back to the program, whose
         * next wait reports it (the digest would otherwise have taken it
         * and abandoned the capture). */
        ws_status st = REAL(ws_synchronize)(shim_g.dev);
        char report[1024] = "";
        if (shim_failure(st)) {
            shim_write_failure(0, shim_g.calls, st, "the program's next wait, after the capture");
            REAL(ws_last_error_copy)(shim_g.dev, report, sizeof report); /* whole, whatever other threads do */
        }
        uint64_t saved = shim_g.frame;
        shim_g.frame = shim_g.spec.first;
        frame_end_section();
        shim_g.frame = saved;
        finish_capture();
        if (shim_failure(st)) ws_tool_hand_back(shim_g.dev, st, report);
    }
    int sync = call == WSCAP_SYNCHRONIZE || call == WSCAP_FENCE_WAIT || call == WSCAP_DTOH || call == WSCAP_TARGET_READ;
    if (shim_g.in_frame && ((!shim_g.gfx_mode && sync) || (shim_g.gfx_mode && call == WSCAP_PRESENT))) frame_end();
}

static void on_sigusr1(int sig)
{
    (void)sig;
    shim_g.key_pending = 1;
}

void shim_device_opened(ws_device *dev)
{
    shim_g.dev = dev;
    shim_g.dev_seen = 1;
    REAL(ws_device_config)(dev, &shim_g.cfg);
    if (!shim_g.enabled) return;
    if (shim_g.spec.status[0]) { /* `warpscope capture` tells "no device seen" (a static program) from "no frame" */
        FILE *f = fopen(shim_g.spec.status, "a");
        if (f) {
            fputs("#device\n", f);
            fclose(f);
        }
    }
    if (shim_g.spec.kind == SHIM_FRAMES_KEY) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_sigusr1;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESTART;
        sigaction(SIGUSR1, &sa, NULL);
    }
    if (shim_g.spec.kind == SHIM_FRAMES_ALL) begin_capture(0);
}

/* A frame that had not ended when `why` happened, after frames that did:
 * its sections (held since the last frame end) are dropped, so the file
 * ends with the last complete frame, and the user is told which. */
static void drop_open_frame(const char *why)
{
    fprintf(stderr, "warpscope capture: frame %llu had not ended when %s: it is left out; the %llu frame%s that "
                    "ended before it %s kept in %s\n", (unsigned long long)shim_g.frame, why,
            (unsigned long long)shim_g.frames_done, shim_g.frames_done == 1 ? "" : "s",
            shim_g.frames_done == 1 ? "is" : "are", shim_g.spec.out);
    wscap_buf_free(&shim_g.held);
    shim_g.in_frame = 0;
}

/* The captured device is closing: a capture still open ends here. */
void shim_device_closing(void)
{
    shim_g.close_status = WS_OK;
    if (shim_g.cap == CAP_ACTIVE) {
        /* Closing waits for the queued work: if it fails, the close
         * reports it. The shim waits first, records the failure and gives
         * the program's close its status (the digest below would
         * otherwise take the report and abandon the capture). */
        ws_status st = REAL(ws_synchronize)(shim_g.dev);
        if (shim_failure(st)) {
            shim_g.close_status = st;
            shim_write_failure(0, shim_g.calls, st, "ws_device_close");
        }
        if (shim_g.in_frame && shim_g.spec.kind != SHIM_FRAMES_LAUNCHES) {
            if (shim_g.gfx_mode && shim_g.spec.kind != SHIM_FRAMES_ALL && shim_g.frames_done)
                drop_open_frame("the device was closed");
            else if (shim_g.gfx_mode && shim_g.spec.kind != SHIM_FRAMES_ALL)
                shim_abandon("frame %llu had not ended when the device was closed", (unsigned long long)shim_g.frame);
            else
                frame_end_section(); /* closing waits for the work like a synchronisation */
        }
        if (shim_g.cap == CAP_ACTIVE && !shim_g.frames_done)
            shim_abandon("the device was closed before the chosen frames ended");
        finish_capture();
    }
    shim_g.in_frame = 0;
    shim_g.dev = NULL;
    shim_model_reset();
}

/* At exit with a capture open (the device never closed): the frames that
 * ended are kept and the file is closed, the frame the exit cut off (if
 * any) is dropped; with none ended, no file. Nothing here touches the
 * device: each kept frame's digest was read at its end, and the runtime
 * may be in any state now (another thread's work, exit from a callback).
 * trylock: exit() may come while a recorded call holds the lock (on this
 * thread, from a printf handler, or on another thread): a section may be
 * half-made then, so the capture is left unfinished and `warpscope
 * capture` removes the temporary file. */
__attribute__((destructor)) static void shim_exit(void)
{
    if (pthread_mutex_trylock(&shim_g.lock)) return;
    if (shim_g.cap == CAP_ACTIVE && shim_g.frames_done) {
        if (shim_g.in_frame) drop_open_frame("the program exited with the device still open");
        finish_capture();
    } else if (shim_g.cap == CAP_ACTIVE) {
        shim_abandon("the program exited with the device still open");
    }
    pthread_mutex_unlock(&shim_g.lock);
}
