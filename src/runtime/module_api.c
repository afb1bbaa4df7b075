/* Loading kernel modules: parse the ELF, reserve space in global memory,
 * relocate, copy, and set the shadow map (code and constants read-only and
 * executable, data writable). Several modules can be resident. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "runtime/api_lock.h"
#include "runtime/code_pointers.h"
#include "runtime/func_symbols.h"
#include "runtime/issue_order.h"
#include "runtime/module_file.h"
#include "runtime/runtime.h"
#include "runtime/tools.h"
#include "device/debug/debug_hooks.h"

static void module_free(ws_module *m)
{
    if (!m) return;
    ws_elf_free(&m->img);
    free(m->kernels);
    free(m->elf);
    free(m->name);
    free(m);
}

/* After unload only the names survive: a stale kernel or module handle
 * still reads as "unloaded", never as freed memory or another module. */
static void module_strip(ws_module *m)
{
    free(m->elf);
    m->elf = NULL;
    m->elf_size = 0;
    free(m->img.bytes);
    free(m->img.writable);
    free(m->img.relocs);
    m->img.bytes = m->img.writable = NULL;
    m->img.relocs = NULL;
    m->img.nrelocs = 0;
    m->unloaded = 1;
}

static void ws_modules_free_retired(ws_device *dev)
{
    for (size_t i = 0; i < dev->nretired; i++) module_free(dev->retired[i]);
    free(dev->retired);
    dev->retired = NULL;
    dev->nretired = dev->retcap = 0;
}

void ws_modules_release_all(ws_device *dev)
{
    while (dev->nmodules) {
        ws_module *m = dev->modules[--dev->nmodules];
        if (dev->debug) ws_dbg_module_unloading(dev, m);
        ws_code_table_remove(dev, m);
        ws_code_invalidate(dev, m->base, m->size);
        ws_mem_free(&dev->mem, m->base, REGION_MODULE);
        module_free(m);
    }
    ws_modules_free_retired(dev);
    for (size_t i = 0; i < dev->ncode; i++) free(dev->code[i].orig), free(dev->code[i].order), free(dev->code[i].loop_end);
    free(dev->code);
    dev->code = NULL;
    dev->ncode = dev->codecap = dev->nmarked = dev->nordered = 0;
}

ws_status ws_module_check(ws_device *dev, const ws_module *mod, const char *fn)
{
    if (!mod) return ws_set_error(dev, WS_ERR_INVALID_ARG, "%s: module is NULL", fn);
    if (mod->dev != dev)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "%s: module '%s' belongs to another device", fn, mod->name);
    if (mod->unloaded)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "%s: module '%s' was unloaded; its handles are no "
                            "longer valid", fn, mod->name);
    return WS_OK;
}

ws_status ws_kernel_check(ws_device *dev, const ws_kernel *k, const char *fn)
{
    if (!k) return ws_set_error(dev, WS_ERR_INVALID_ARG, "%s: kernel is NULL", fn);
    const ws_module *m = k->mod;
    if (m->dev != dev)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "%s: kernel '%s' belongs to module '%s' of another "
                            "device; look it up on this device", fn, k->meta->name, m->name);
    if (m->unloaded)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "%s: kernel '%s' belongs to module '%s', which was "
                            "unloaded", fn, k->meta->name, m->name);
    return WS_OK;
}

/* Give back a module image's memory (a twin's is a tool buffer). */
static void free_image(ws_device *dev, const ws_module *m, int twin)
{
    if (twin) ws_mem_free_tool(&dev->mem, m->base);
    else ws_mem_free(&dev->mem, m->base, REGION_MODULE);
}

/* Place m's image at `at`, or where the arena has room; a tracer's twin
 * (twin) at the top of the arena with the tools' buffers, so the program's
 * own modules and allocations do not move when it is traced. */
static ws_status place_module(ws_device *dev, ws_module *m, ws_addr at, int twin)
{
    char err[512];
    if (twin) {
        if (ws_mem_alloc_tool(&dev->mem, m->img.size, REGION_MODULE, &m->base))
            return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "%s: no room for the %u-byte instrumented module image",
                                m->name, m->img.size);
    } else if (at) {
        char what[512];
        snprintf(what, sizeof what, "ws_module_load_data_at(%s)", m->name);
        ws_status st = ws_check_placement(dev, what, at, m->img.size);
        if (st != WS_OK) return st;
        if (ws_mem_alloc_at(&dev->mem, at, m->img.size, REGION_MODULE))
            return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "%s: the %u bytes at 0x%08x are not free for the module "
                                "image", m->name, m->img.size, at);
        m->base = at;
    } else if (ws_mem_alloc(&dev->mem, m->img.size, REGION_MODULE, &m->base))
        return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "%s: no room for the %u-byte module image",
                            m->name, m->img.size);
    if (m->base != m->img.link_base && ws_elf_relocate(&m->img, m->base, err, sizeof err)) {
        free_image(dev, m, twin);
        return ws_set_error(dev, WS_ERR_BAD_MODULE, "%s", err);
    }
    m->size = m->img.size;
    memcpy(ws_mem_global_ptr(&dev->mem, m->base), m->img.bytes, m->size);
    for (uint32_t g = 0; g < m->size / 8; g++)
        ws_mem_mark(&dev->mem, m->base + g * 8, 8, m->img.writable[g] ? SHADOW_RW : SHADOW_RX);
    ws_code_invalidate(dev, m->base, m->size);
    return WS_OK;
}

/* The order a diverged warp issues the module's code in (issue_order.h),
 * from its placed code and its function symbols (none without symbols:
 * address order). -1 out of host memory. */
static int issue_order(ws_device *dev, const ws_module *m, ws_code_region *r)
{
    r->order = r->loop_end = NULL;
    if (r->text_hi <= r->text_lo || !m->elf) return 0;
    elf_version(EV_CURRENT);
    Elf *e = elf_memory((char *)m->elf, m->elf_size); /* libelf only reads it */
    if (!e) return 0;
    ws_func_syms syms;
    ws_func_syms_build(&syms, e);
    uint32_t *pairs = syms.n ? malloc(2 * syms.n * sizeof *pairs) : NULL;
    int rc = syms.n && !pairs ? -1 : 0;
    const uint32_t delta = m->base - m->link_base;
    const size_t n = pairs ? ws_func_syms_ranges(&syms, delta, pairs) : 0;
    ws_code_pointer *targets = NULL;
    size_t ntargets = 0;
    if (!rc && n) rc = ws_code_pointers(e, delta, r->text_lo, r->text_hi, &targets, &ntargets);
    if (!rc && n)
        rc = ws_issue_order(ws_mem_global_ptr(&dev->mem, r->text_lo), r->text_lo, r->text_hi - r->text_lo, pairs, n,
                            targets, ntargets, &r->order, &r->loop_end);
    free(targets);
    free(pairs);
    ws_func_syms_free(&syms);
    elf_end(e);
    return rc;
}

static ws_status build_kernels(ws_device *dev, ws_module *m)
{
    m->kernels = calloc(m->img.nkernels ? m->img.nkernels : 1, sizeof *m->kernels);
    if (!m->kernels) return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "%s: out of host memory", m->name);
    for (uint32_t i = 0; i < m->img.nkernels; i++) {
        m->kernels[i].mod = m;
        m->kernels[i].meta = &m->img.kernels[i];
        m->kernels[i].entry = m->img.kernels[i].entry - m->img.link_base + m->base;
    }
    return WS_OK;
}

/* The name of a module loaded from memory without one: "<memory>" for the
 * device's first, then "<memory 2>", "<memory 3>", ... in load order
 * (unloaded ones count: the device keeps them until it closes), so
 * reports, fault messages and the debugger tell them apart, the same in
 * every run. */
static const char *unnamed_name(const ws_device *dev, char *buf, size_t len)
{
    size_t n = 1;
    for (size_t i = 0; i < dev->nmodules; i++) n += dev->modules[i]->unnamed;
    for (size_t i = 0; i < dev->nretired; i++) n += dev->retired[i]->unnamed;
    if (n == 1) snprintf(buf, len, "<memory>");
    else snprintf(buf, len, "<memory %zu>", n);
    return buf;
}

static ws_status load_data(ws_device *dev, const void *image, size_t size, const char *name, ws_addr at,
                           ws_module **out)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_module_load_data"); /* before any refusal: it writes the device's error message */
    if (!out || (!image && size))
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_module_load_data: %s is NULL", out ? "image" : "out");
    *out = NULL;
    ws_status st = ws_cmd_drain(dev, 0);
    if (st != WS_OK) return st;
    ws_module *m = calloc(1, sizeof *m);
    char unnamed[32];
    if (m && (!name || !*name)) {
        m->unnamed = 1;
        name = unnamed_name(dev, unnamed, sizeof unnamed);
    }
    if (!m || !(m->name = strdup(name))) {
        free(m);
        return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "module load: out of host memory");
    }
    m->dev = dev;
    if (size && (m->elf = malloc(size))) { memcpy(m->elf, image, size); m->elf_size = size; }
    char err[512];
    if (ws_elf_parse(image, size, m->name, &m->img, err, sizeof err)) {
        module_free(m);
        return ws_set_error(dev, WS_ERR_BAD_MODULE, "%s", err);
    }
    if (dev->nmodules == dev->modcap) {
        size_t cap = dev->modcap ? dev->modcap * 2 : 4;
        ws_module **mods = realloc(dev->modules, cap * sizeof *mods);
        if (!mods) { module_free(m); return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "out of host memory"); }
        dev->modules = mods;
        dev->modcap = cap;
    }
    m->link_base = m->img.link_base; /* relocation rewrites img.link_base */
    if ((st = place_module(dev, m, at, 0)) != WS_OK) { module_free(m); return st; }
    if ((st = build_kernels(dev, m)) != WS_OK) {
        ws_mem_free(&dev->mem, m->base, REGION_MODULE);
        module_free(m);
        return st;
    }
    ws_code_region region = { .key = m, .name = m->name, .base = m->base, .size = m->size,
                              .link_base = m->link_base, .image = m->elf, .image_size = m->elf_size,
                              .text_lo = m->base + (m->img.text_start - m->img.link_base),
                              .text_hi = m->base + (m->img.text_end - m->img.link_base) };
    if (issue_order(dev, m, &region) || ws_code_table_add(dev, &region)) {
        free(region.order), free(region.loop_end);
        ws_mem_free(&dev->mem, m->base, REGION_MODULE);
        module_free(m);
        return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "module load: out of host memory");
    }
    dev->modules[dev->nmodules++] = m;
    *out = m;
    if (dev->debug) ws_dbg_module_loaded(dev, &region);
    ws_tools_module_loaded(dev, m);
    return WS_OK;
}

ws_status ws_module_load_data(ws_device *dev, const void *image, size_t size, const char *name,
                              ws_module **out)
{
    return load_data(dev, image, size, name, 0, out);
}

ws_status ws_module_load_data_at(ws_device *dev, const void *image, size_t size, const char *name, ws_addr base,
                                 ws_module **out)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_module_load_data_at");
    if (!base) return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_module_load_data_at: base is 0");
    return load_data(dev, image, size, name, base, out);
}

ws_status ws_module_load_twin(ws_device *dev, const void *image, size_t size, const char *name,
                              const uint32_t *orig, uint32_t norig, ws_module **out)
{
    *out = NULL;
    ws_module *m = calloc(1, sizeof *m);
    if (!m || !(m->name = strdup(name))) {
        free(m);
        return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "module load: out of host memory");
    }
    m->dev = dev;
    if (size && (m->elf = malloc(size))) { memcpy(m->elf, image, size); m->elf_size = size; }
    char err[512];
    ws_status st;
    if (!m->elf || ws_elf_parse(image, size, m->name, &m->img, err, sizeof err)) {
        st = ws_set_error(dev, m->elf ? WS_ERR_BAD_MODULE : WS_ERR_OUT_OF_MEMORY, "%s", m->elf ? err : "out of host memory");
        module_free(m);
        return st;
    }
    m->link_base = m->img.link_base;
    if ((st = place_module(dev, m, 0, 1)) != WS_OK) { module_free(m); return st; }
    ws_code_region region = { .key = m, .name = m->name, .base = m->base, .size = m->size,
                              .link_base = m->link_base, .image = m->elf, .image_size = m->elf_size,
                              .text_lo = m->base + (m->img.text_start - m->img.link_base),
                              .text_hi = m->base + (m->img.text_end - m->img.link_base) };
    if (norig && !(region.orig = malloc(2 * sizeof *region.orig * norig))) {
        free_image(dev, m, 1);
        module_free(m);
        return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "module load: out of host memory");
    }
    for (uint32_t i = 0; i < 2 * norig; i++) region.orig[i] = m->base + (orig[i] - m->link_base);
    region.norig = norig;
    if ((st = build_kernels(dev, m)) != WS_OK || issue_order(dev, m, &region) || ws_code_table_add(dev, &region)) {
        free(region.orig);
        free(region.order), free(region.loop_end);
        free_image(dev, m, 1);
        module_free(m);
        return st != WS_OK ? st : ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "module load: out of host memory");
    }
    *out = m;
    return WS_OK;
}

void ws_module_unload_twin(ws_device *dev, ws_module *m)
{
    if (!m) return;
    ws_code_table_remove(dev, m);
    ws_code_invalidate(dev, m->base, m->size);
    free_image(dev, m, 1);
    module_free(m);
}

ws_status ws_module_load_file(ws_device *dev, const char *path, ws_module **out)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_module_load_file");
    if (!path || !out)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_module_load_file: %s is NULL", out ? "path" : "out");
    *out = NULL;
    uint8_t *buf = NULL;
    size_t len = 0;
    char err[512];
    ws_status st = ws_module_file_read(path, &buf, &len, err, sizeof err);
    if (st != WS_OK) return ws_set_error(dev, st, "%s", err);
    st = ws_module_load_data(dev, buf, len, path, out);
    free(buf);
    return st;
}

ws_status ws_module_unload(ws_device *dev, ws_module *mod)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_module_unload");
    ws_status st = ws_module_check(dev, mod, "ws_module_unload");
    if (st != WS_OK) return st;
    size_t i = 0;
    while (i < dev->nmodules && dev->modules[i] != mod) i++;
    if (i == dev->nmodules)
        return ws_set_error(dev, WS_ERR_INTERNAL, "ws_module_unload: module '%s' is not in the device's table",
                            mod->name);
    /* Its kernels may still be queued. Work that failed is reported here,
     * like every call that waits for the queue, and nothing is unloaded:
     * the caller sees the fault, and may call again. */
    if ((st = ws_cmd_drain(dev, 0)) != WS_OK) return st;
    if (dev->nretired == dev->retcap) {
        size_t cap = dev->retcap ? dev->retcap * 2 : 4;
        ws_module **r = realloc(dev->retired, cap * sizeof *r);
        if (!r) return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "ws_module_unload: out of host memory");
        dev->retired = r;
        dev->retcap = cap;
    }
    ws_tools_module_unloading(dev, mod);
    if (dev->debug) ws_dbg_module_unloading(dev, mod);
    ws_code_table_remove(dev, mod);
    ws_code_invalidate(dev, mod->base, mod->size);
    ws_mem_free(&dev->mem, mod->base, REGION_MODULE);
    memmove(&dev->modules[i], &dev->modules[i + 1], (dev->nmodules - i - 1) * sizeof *dev->modules);
    dev->nmodules--;
    module_strip(mod);
    dev->retired[dev->nretired++] = mod;
    return WS_OK;
}

/* The queries below only read a module or kernel, but ws_module_unload on
 * another thread changes what they read, and their refusals write the
 * device's error message: they hold the API lock like every call (the
 * reading kind, so a tool's launch callback or the printf handler, whose
 * thread holds it already, may still ask). */

ws_status ws_module_base(const ws_module *mod, ws_addr *base, uint32_t *size)
{
    if (!mod) return WS_ERR_INVALID_ARG;
    WS_API_READ_LOCKED(mod->dev, "ws_module_base");
    if (mod->unloaded)
        return ws_set_error(mod->dev, WS_ERR_INVALID_ARG, "ws_module_base: module '%s' was unloaded", mod->name);
    if (base) *base = mod->base;
    if (size) *size = mod->size;
    return WS_OK;
}

ws_status ws_kernel_get(ws_module *mod, const char *name, ws_kernel **out)
{
    if (!mod) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(mod->dev, "ws_kernel_get");
    if (!name || !out)
        return ws_set_error(mod->dev, WS_ERR_INVALID_ARG, "ws_kernel_get: %s is NULL", out ? "name" : "out");
    *out = NULL;
    ws_status st = ws_module_check(mod->dev, mod, "ws_kernel_get");
    if (st != WS_OK) return st;
    for (uint32_t i = 0; i < mod->img.nkernels; i++)
        if (strcmp(mod->img.kernels[i].name, name) == 0) {
            *out = &mod->kernels[i];
            return WS_OK;
        }
    char list[512] = "";
    size_t n = 0;
    for (uint32_t i = 0; i < mod->img.nkernels && n < sizeof list - 64; i++)
        n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", mod->img.kernels[i].name);
    return ws_set_error(mod->dev, WS_ERR_NOT_FOUND, "%s: no kernel named '%s' (kernels: %s)",
                        mod->name, name, n ? list : "none; mark kernels with WS_KERNEL");
}

/* A kernel's name and parameter list never change until its device
 * closes (unloading keeps them), so these two need no lock. */
const char *ws_kernel_name(const ws_kernel *k) { return k ? k->meta->name : NULL; }
uint32_t ws_kernel_param_count(const ws_kernel *k) { return k ? k->meta->nparams : 0; }

ws_status ws_kernel_param(const ws_kernel *k, uint32_t i, const char **name, const char **type_name)
{
    if (!k) return WS_ERR_INVALID_ARG;
    WS_API_READ_LOCKED(k->mod->dev, "ws_kernel_param");
    ws_status st = ws_kernel_check(k->mod->dev, k, "ws_kernel_param"); /* unloaded: a stale handle */
    if (st != WS_OK) return st;
    if (i >= k->meta->nparams)
        return ws_set_error(k->mod->dev, WS_ERR_INVALID_ARG, "ws_kernel_param: kernel '%s' has %u parameters, "
                            "no parameter %u", k->meta->name, k->meta->nparams, i);
    if (name) *name = k->meta->params[i].name;
    if (type_name) *type_name = k->meta->params[i].type_name;
    return WS_OK;
}

ws_status ws_kernel_param_type(const ws_kernel *k, uint32_t i, ws_param_type *out)
{
    if (!k) return WS_ERR_INVALID_ARG;
    WS_API_READ_LOCKED(k->mod->dev, "ws_kernel_param_type");
    ws_status st = ws_kernel_check(k->mod->dev, k, "ws_kernel_param_type");
    if (st != WS_OK) return st;
    if (!k->meta->has_params)
        return ws_set_error(k->mod->dev, WS_ERR_INVALID_ARG, "kernel '%s': the module has no parameter information "
                            "(DWARF) for it: build it from C with 'warpscope cc' without -g0 (a kernel "
                            "written in assembly has none: call it from a C kernel)", k->meta->name);
    if (!out || i >= k->meta->nparams)
        return ws_set_error(k->mod->dev, WS_ERR_INVALID_ARG, "ws_kernel_param_type: kernel '%s' %s", k->meta->name,
                            out ? "has no such parameter" : "(out is NULL)");
    const ws_elf_param *p = &k->meta->params[i];
    static const struct { ws_arg_type arg; uint8_t bits, is_signed; } map[] = {
        [WS_PARAM_I8] = { WS_TYPE_I32, 8, 1 },   [WS_PARAM_U8] = { WS_TYPE_U32, 8, 0 },
        [WS_PARAM_I16] = { WS_TYPE_I32, 16, 1 }, [WS_PARAM_U16] = { WS_TYPE_U32, 16, 0 },
        [WS_PARAM_I32] = { WS_TYPE_I32, 32, 1 }, [WS_PARAM_U32] = { WS_TYPE_U32, 32, 0 },
        [WS_PARAM_I64] = { WS_TYPE_I64, 64, 1 }, [WS_PARAM_U64] = { WS_TYPE_U64, 64, 0 },
        [WS_PARAM_F32] = { WS_TYPE_F32, 32, 1 }, [WS_PARAM_F64] = { WS_TYPE_F64, 64, 1 },
        [WS_PARAM_PTR] = { WS_TYPE_PTR, 32, 0 },
        [WS_PARAM_AGG] = { WS_TYPE_STRUCT, 0, 0 },
    };
    *out = (ws_param_type){ .arg = map[p->kind].arg, .bits = map[p->kind].bits,
                            .is_signed = map[p->kind].is_signed, .pointee_float = p->pointee_float,
                            .pointee_size = p->pointee_size, .pointee_unsigned = p->pointee_unsigned,
                            .size = map[p->kind].bits / 8 };
    if (p->kind == WS_PARAM_AGG) out->size = p->agg.size, out->bits = 8 * p->agg.size;
    return WS_OK;
}

