/* The shim's frame around every call: resolving the runtime's functions,
 * the depth counter that records only the program's own calls, and the
 * lock that keeps the state model and the recorded order consistent. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "capture/shim/shim.h"

shim_global shim_g = { .lock = PTHREAD_MUTEX_INITIALIZER, .once = PTHREAD_ONCE_INIT };

/* Calls the runtime makes to its own exported functions reach the shim
 * too; only the outermost call on a thread is the program's. */
static _Thread_local int depth;

static void resolve(void)
{
    static const char *const names[SHIM_NFUNCS] = {
#define SHIM_NAME(n) #n,
        SHIM_FUNCS(SHIM_NAME)
#undef SHIM_NAME
    };
    for (int i = 0; i < SHIM_NFUNCS; i++) shim_g.fn[i] = dlsym(RTLD_NEXT, names[i]);
    const char *text = getenv("WARPSCOPE_CAPTURE");
    char err[256];
    if (text && *text) {
        if (shim_spec_parse(text, &shim_g.spec, err, sizeof err))
            fprintf(stderr, "warpscope capture: WARPSCOPE_CAPTURE: %s: nothing will be captured\n", err);
        else
            shim_g.enabled = 1;
    }
}

void shim_init(void)
{
    pthread_once(&shim_g.once, resolve);
}

void *shim_real(int index, const char *name)
{
    shim_init();
    void *f = shim_g.fn[index];
    if (!f) {
        /* No runtime behind the shim: nothing can be forwarded, and the
         * program cannot have linked what it calls. */
        fprintf(stderr, "warpscope capture: %s: no definition after the shim (is libwarpscope.so loaded?)\n", name);
        abort();
    }
    return f;
}

void shim_enter(shim_call *c, const ws_device *dev, uint32_t call)
{
    memset(c, 0, sizeof *c);
    c->call = call;
    c->outer = depth++ == 0;
    if (!c->outer || !dev) return;
    shim_init();
    pthread_mutex_lock(&shim_g.lock);
    if (shim_g.dev != dev) {
        pthread_mutex_unlock(&shim_g.lock);
        return;
    }
    c->rec = 1;
    if (call) shim_frame_pre(call);
}

void shim_enter_module(shim_call *c, const ws_module *mod, uint32_t call)
{
    memset(c, 0, sizeof *c);
    c->call = call;
    c->outer = depth++ == 0;
    if (!c->outer || !mod) return;
    shim_init();
    pthread_mutex_lock(&shim_g.lock);
    if (!shim_g.dev || !shim_module_find(mod)) { /* another device's module */
        pthread_mutex_unlock(&shim_g.lock);
        return;
    }
    c->rec = 1;
    shim_frame_pre(call);
}

wscap_buf *shim_payload(shim_call *c)
{
    if (!c->rec || !c->call || shim_g.cap != CAP_ACTIVE) return NULL;
    if (!c->has_payload) {
        c->has_payload = 1;
        wscap_put_u32(&c->buf, c->call);
    }
    return &c->buf;
}

static int is_sync(uint32_t call)
{
    return call == WSCAP_SYNCHRONIZE || call == WSCAP_FENCE_WAIT || call == WSCAP_DTOH || call == WSCAP_TARGET_READ;
}

/* Calls that take effect even when the wait reports a failure of queued
 * work: a present has ended its frame, a destroy has freed its object, and
 * a ws_free frees once the queue is empty (since 2026-11-29; a halted
 * command processor, WS_ERR_STOPPED, keeps its queue and the allocation). */
static int waits_after(uint32_t call, ws_status st)
{
    return call == WSCAP_PRESENT || call == WSCAP_TARGET_DESTROY || call == WSCAP_TEXTURE_DESTROY ||
           (call == WSCAP_FREE && st != WS_ERR_STOPPED);
}

int shim_counts(const shim_call *c, ws_status st)
{
    if (!c->rec) return 0;
    if (st == WS_OK) return 1;
    /* the wait happened (and the call's own effect); what failed was the
     * work it waited for */
    return (is_sync(c->call) || waits_after(c->call, st)) &&
           (st == WS_ERR_KERNEL_FAULT || st == WS_ERR_KERNEL_ASSERT || st == WS_ERR_DEADLOCK || st == WS_ERR_TIMEOUT ||
            st == WS_ERR_STOPPED || st == WS_ERR_INTERRUPTED);
}

ws_status shim_leave(shim_call *c, ws_status st)
{
    if (c->rec) {
        const char *name = c->call ? wscap_call_name(c->call) : c->name ? c->name : "?";
        if (c->call && shim_counts(c, st)) {
            /* calls without fields build no payload in their wrapper */
            if (shim_g.cap == CAP_ACTIVE && shim_g.model_broken) /* a payload may be missing its fields */
                shim_abandon("the state model ran out of host memory");
            uint64_t index = shim_g.calls;
            if (shim_g.cap == CAP_ACTIVE) shim_write_call(shim_payload(c));
            /* the replay must fail here too, and then go on */
            if (shim_failure(st) && shim_g.calls > index) shim_write_failure(1, index, st, name);
            shim_frame_post(c->call);
        } else if (shim_failure(st)) {
            /* a call not recorded (a module load or unload ...) waited for
             * the queue and reported its failure instead of doing its job:
             * the replay waits there and meets the failure too */
            shim_write_failure(0, shim_g.calls, st, name);
        }
        wscap_buf_free(&c->buf);
        pthread_mutex_unlock(&shim_g.lock);
    }
    depth--;
    return st;
}
