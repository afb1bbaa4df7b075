/* The shim's definitions of warpscope.h: forward, then update the state
 * model and record the call (capture_calls.h gives each payload). Queries
 * are forwarded only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capture/shim/shim.h"

/* ---- forwarded only ---- */
WS_API const char *ws_version(void) { return REAL(ws_version)(); }
WS_API const char *ws_status_name(ws_status s) { return REAL(ws_status_name)(s); }
WS_API void ws_config_default(ws_config *cfg) { REAL(ws_config_default)(cfg); }
WS_API ws_status ws_config_parse(ws_config *cfg, const char *text, char *err, size_t errlen)
{
    return REAL(ws_config_parse)(cfg, text, err, errlen);
}
WS_API ws_status ws_config_validate(const ws_config *cfg, char *err, size_t errlen)
{
    return REAL(ws_config_validate)(cfg, err, errlen);
}
WS_API const char *ws_last_error(const ws_device *dev) { return REAL(ws_last_error)(dev); }
WS_API ws_status ws_last_error_copy(const ws_device *dev, char *buf, size_t len)
{
    return REAL(ws_last_error_copy)(dev, buf, len);
}
WS_API ws_status ws_device_config(const ws_device *dev, ws_config *out) { return REAL(ws_device_config)(dev, out); }
WS_API ws_status ws_set_printf_handler(ws_device *dev, ws_printf_fn fn, void *user)
{
    return REAL(ws_set_printf_handler)(dev, fn, user);
}
WS_API ws_status ws_mem_info(const ws_device *dev, uint64_t *used, uint64_t *limit)
{
    return REAL(ws_mem_info)(dev, used, limit);
}
WS_API ws_status ws_module_base(const ws_module *mod, ws_addr *base, uint32_t *size)
{
    return REAL(ws_module_base)(mod, base, size);
}
WS_API const char *ws_kernel_name(const ws_kernel *k) { return REAL(ws_kernel_name)(k); }
WS_API ws_status ws_kernel_param(const ws_kernel *k, uint32_t i, const char **name, const char **type_name)
{
    return REAL(ws_kernel_param)(k, i, name, type_name);
}
WS_API uint32_t ws_kernel_param_count(const ws_kernel *k) { return REAL(ws_kernel_param_count)(k); }
WS_API ws_status ws_kernel_param_type(const ws_kernel *k, uint32_t i, ws_param_type *out)
{
    return REAL(ws_kernel_param_type)(k, i, out);
}
WS_API ws_status ws_fence(ws_device *dev, uint64_t *fence_id) { return REAL(ws_fence)(dev, fence_id); }
WS_API ws_status ws_last_launch_stats(const ws_device *dev, ws_launch_stats *out)
{
    return REAL(ws_last_launch_stats)(dev, out);
}
WS_API ws_status ws_last_launch_counters(const ws_device *dev, ws_timing_counters *out)
{
    return REAL(ws_last_launch_counters)(dev, out);
}
WS_API const char *ws_warp_state_label(unsigned s) { return REAL(ws_warp_state_label)(s); }
WS_API const char *ws_unit_label(unsigned u) { return REAL(ws_unit_label)(u); }

/* ---- device ---- */
WS_API ws_status ws_device_open(const ws_config *cfg, ws_device **out)
{
    shim_call c;
    shim_enter(&c, NULL, 0);
    /* The device to be captured runs its launches on one host thread, as
     * with any tool (docs/parallel.md): a program whose blocks race gives
     * what the replay, also on one thread, gives again. */
    ws_config one;
    shim_init(); /* (WARPSCOPE_CAPTURE read) */
    pthread_mutex_lock(&shim_g.lock);
    const int capturing = c.outer && shim_g.enabled && !shim_g.dev_seen;
    pthread_mutex_unlock(&shim_g.lock);
    if (capturing) {
        if (cfg) one = *cfg;
        else REAL(ws_config_default)(&one);
        one.threads = 1;
        cfg = &one;
    }
    ws_status st = REAL(ws_device_open)(cfg, out);
    if (c.outer && st == WS_OK && out && *out) {
        pthread_mutex_lock(&shim_g.lock);
        if (!shim_g.dev_seen) shim_device_opened(*out); /* only the first device is captured */
        pthread_mutex_unlock(&shim_g.lock);
    }
    return shim_leave(&c, st);
}

WS_API ws_status ws_device_close(ws_device *dev)
{
    shim_call c;
    shim_enter(&c, dev, 0);
    c.name = "ws_device_close";
    ws_status waited = WS_OK;
    if (c.rec) {
        shim_device_closing();
        waited = shim_g.close_status; /* the failure its wait would have reported */
    }
    ws_status st = REAL(ws_device_close)(dev);
    return shim_leave(&c, st == WS_OK ? waited : st);
}

/* ---- memory ---- */
WS_API ws_status ws_malloc(ws_device *dev, size_t size, ws_addr *out)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_MALLOC);
    ws_status st = REAL(ws_malloc)(dev, size, out);
    if (shim_counts(&c, st)) {
        shim_alloc_add(*out, size);
        wscap_buf *b = shim_payload(&c);
        if (b) { wscap_put_u64(b, size); wscap_put_u32(b, *out); }
    }
    return shim_leave(&c, st);
}

WS_API ws_status ws_malloc_at(ws_device *dev, ws_addr addr, size_t size)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_MALLOC);
    ws_status st = REAL(ws_malloc_at)(dev, addr, size);
    if (shim_counts(&c, st)) {
        shim_alloc_add(addr, size);
        wscap_buf *b = shim_payload(&c);
        if (b) { wscap_put_u64(b, size); wscap_put_u32(b, addr); }
    }
    return shim_leave(&c, st);
}

WS_API ws_status ws_free(ws_device *dev, ws_addr addr)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_FREE);
    ws_status st = REAL(ws_free)(dev, addr);
    if (shim_counts(&c, st)) {
        shim_alloc_remove(addr);
        wscap_buf *b = shim_payload(&c);
        if (b) wscap_put_u32(b, addr);
    }
    return shim_leave(&c, st);
}

WS_API ws_status ws_memcpy_htod(ws_device *dev, ws_addr dst, const void *src, size_t n)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_HTOD);
    ws_status st = REAL(ws_memcpy_htod)(dev, dst, src, n);
    wscap_buf *b = shim_counts(&c, st) ? shim_payload(&c) : NULL;
    if (b) { wscap_put_u32(b, dst); wscap_put_blob(b, src, n); } /* data copied only while capturing */
    return shim_leave(&c, st);
}

WS_API ws_status ws_memcpy_dtoh(ws_device *dev, void *dst, ws_addr src, size_t n)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_DTOH);
    ws_status st = REAL(ws_memcpy_dtoh)(dev, dst, src, n);
    wscap_buf *b = shim_counts(&c, st) ? shim_payload(&c) : NULL;
    if (b) { wscap_put_u32(b, src); wscap_put_u64(b, n); }
    return shim_leave(&c, st);
}

WS_API ws_status ws_memcpy_dtod(ws_device *dev, ws_addr dst, ws_addr src, size_t n)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_DTOD);
    ws_status st = REAL(ws_memcpy_dtod)(dev, dst, src, n);
    wscap_buf *b = shim_counts(&c, st) ? shim_payload(&c) : NULL;
    if (b) { wscap_put_u32(b, dst); wscap_put_u32(b, src); wscap_put_u64(b, n); }
    return shim_leave(&c, st);
}

WS_API ws_status ws_memset(ws_device *dev, ws_addr dst, int value, size_t n)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_MEMSET);
    ws_status st = REAL(ws_memset)(dev, dst, value, n);
    wscap_buf *b = shim_counts(&c, st) ? shim_payload(&c) : NULL;
    if (b) { wscap_put_u32(b, dst); wscap_put_u32(b, (uint32_t)value); wscap_put_u64(b, n); }
    return shim_leave(&c, st);
}

/* ---- modules and kernels ---- */
static void module_loaded(shim_call *c, ws_module *mod, const char *name, const void *image, size_t size)
{
    shim_module *m = shim_module_add(mod, name, image, size);
    wscap_buf *b = m ? shim_payload(c) : NULL;
    if (!b) return;
    wscap_put_u32(b, m->id);
    wscap_put_str(b, m->name);
    wscap_put_u32(b, m->base);
    wscap_put_blob(b, m->image, m->size);
}

/* The file's bytes, as the runtime just loaded them (NULL on failure). */
static uint8_t *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    uint8_t *p = NULL;
    long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (p = malloc((size_t)n + 1)) && fread(p, 1, (size_t)n, f) != (size_t)n) {
        free(p);
        p = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return p;
}

WS_API ws_status ws_module_load_file(ws_device *dev, const char *path, ws_module **out)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_MODULE_LOAD);
    ws_status st = REAL(ws_module_load_file)(dev, path, out);
    if (shim_counts(&c, st)) {
        size_t size = 0;
        uint8_t *image = read_file(path, &size);
        if (image) module_loaded(&c, *out, path, image, size);
        else shim_g.model_broken = 1; /* a capture cannot hold this module */
        free(image);
    }
    return shim_leave(&c, st);
}

WS_API ws_status ws_module_load_data(ws_device *dev, const void *image, size_t size, const char *name, ws_module **out)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_MODULE_LOAD);
    ws_status st = REAL(ws_module_load_data)(dev, image, size, name, out);
    if (shim_counts(&c, st)) module_loaded(&c, *out, name, image, size);
    return shim_leave(&c, st);
}

WS_API ws_status ws_module_load_data_at(ws_device *dev, const void *image, size_t size, const char *name, ws_addr base,
                                        ws_module **out)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_MODULE_LOAD);
    ws_status st = REAL(ws_module_load_data_at)(dev, image, size, name, base, out);
    if (shim_counts(&c, st)) module_loaded(&c, *out, name, image, size);
    return shim_leave(&c, st);
}

WS_API ws_status ws_module_unload(ws_device *dev, ws_module *mod)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_MODULE_UNLOAD);
    shim_module *m = c.rec ? shim_module_find(mod) : NULL;
    uint32_t id = m ? m->id : 0;
    ws_status st = REAL(ws_module_unload)(dev, mod);
    if (shim_counts(&c, st)) {
        shim_module_remove(mod);
        wscap_buf *b = shim_payload(&c);
        if (b) wscap_put_u32(b, id);
    }
    return shim_leave(&c, st);
}

WS_API ws_status ws_kernel_get(ws_module *mod, const char *name, ws_kernel **out)
{
    shim_call c;
    shim_enter_module(&c, mod, WSCAP_KERNEL_GET);
    ws_status st = REAL(ws_kernel_get)(mod, name, out);
    if (shim_counts(&c, st)) {
        shim_module *m = shim_module_find(mod);
        shim_kernel *k = shim_kernel_add(*out, m->id, name);
        wscap_buf *b = k ? shim_payload(&c) : NULL;
        if (b) { wscap_put_u32(b, k->id); wscap_put_u32(b, k->module); wscap_put_str(b, k->name); }
    }
    return shim_leave(&c, st);
}

/* ---- launches and synchronisation ---- */
static uint64_t arg_bits(const ws_arg *a)
{
    switch (a->type) {
    case WS_TYPE_I64: case WS_TYPE_U64: return a->v.u64;
    case WS_TYPE_F64: { uint64_t u; memcpy(&u, &a->v.f64, 8); return u; }
    case WS_TYPE_F32: { uint32_t u; memcpy(&u, &a->v.f32, 4); return u; }
    case WS_TYPE_PTR: return a->v.ptr;
    case WS_TYPE_STRUCT: return a->v.bytes.size; /* (its bytes follow the arguments) */
    default: return a->v.u32; /* I32 and U32: the 32-bit pattern */
    }
}

WS_API ws_status ws_launch(ws_device *dev, ws_kernel *k, ws_dim3 grid, ws_dim3 block, uint32_t dynamic_shared,
                           const ws_arg *args, size_t nargs)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_LAUNCH);
    ws_status st = REAL(ws_launch)(dev, k, grid, block, dynamic_shared, args, nargs);
    wscap_buf *b = shim_counts(&c, st) ? shim_payload(&c) : NULL;
    if (b) {
        uint32_t id = shim_kernel_id(k);
        if (!id) shim_abandon("ws_launch of a kernel the capture does not know");
        wscap_put_u32(b, id);
        uint32_t dims[6] = { grid.x, grid.y, grid.z, block.x, block.y, block.z };
        for (int i = 0; i < 6; i++) wscap_put_u32(b, dims[i]);
        wscap_put_u32(b, dynamic_shared);
        wscap_put_u32(b, (uint32_t)nargs);
        for (size_t i = 0; i < nargs; i++) {
            wscap_put_u32(b, (uint32_t)args[i].type);
            wscap_put_u64(b, arg_bits(&args[i]));
        }
        /* then each struct's bytes, in order: a reader from before structs
         * by value stops at their type with the launch's own error */
        for (size_t i = 0; i < nargs; i++)
            if (args[i].type == WS_TYPE_STRUCT) wscap_put_blob(b, args[i].v.bytes.data, args[i].v.bytes.size);
    }
    return shim_leave(&c, st);
}

WS_API ws_status ws_synchronize(ws_device *dev)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_SYNCHRONIZE);
    return shim_leave(&c, REAL(ws_synchronize)(dev));
}

WS_API ws_status ws_fence_wait(ws_device *dev, uint64_t fence_id)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_FENCE_WAIT);
    return shim_leave(&c, REAL(ws_fence_wait)(dev, fence_id));
}
