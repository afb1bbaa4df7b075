/* The state model: every object of the captured device the program
 * created, by handle, with the id the capture names it by. Updated by
 * every call, captured or not, so it holds shapes and handles only; the
 * contents of memory, textures and targets are read back through the API
 * when a capture starts. Called with shim_g.lock held. */
#include <stdlib.h>
#include <string.h>
#include "capture/shim/shim.h"

/* Room for one more element; on host OOM the model is marked broken (a
 * capture started later says so) and NULL comes back. */
static void *grow(void *vp, size_t *n, size_t *cap, size_t elem)
{
    void **v = vp;
    if (*n == *cap) {
        size_t c = *cap ? *cap * 2 : 16;
        void *p = realloc(*v, c * elem);
        if (!p) { shim_g.model_broken = 1; return NULL; }
        *v = p;
        *cap = c;
    }
    return (char *)*v + (*n)++ * elem;
}
#define PUSH(vec) ((__typeof__((vec).v))grow(&(vec).v, &(vec).n, &(vec).cap, sizeof *(vec).v))
#define FIND(vec, handle)                                                       \
    for (size_t i = 0; i < (vec).n; i++)                                        \
        if ((vec).v[i].h == (handle)) return &(vec).v[i];                      \
    return NULL
#define REMOVE(vec, i) memmove(&(vec).v[i], &(vec).v[(i) + 1], ((vec).n-- - (i) - 1) * sizeof *(vec).v)

uint32_t shim_new_id(void) { return ++shim_g.next_id; }

static char *dup_str(const char *s)
{
    char *d = strdup(s ? s : "");
    if (!d) shim_g.model_broken = 1;
    return d;
}

/* index of the first allocation at or above addr */
static size_t alloc_lower(ws_addr addr)
{
    size_t lo = 0, hi = shim_g.allocs.n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (shim_g.allocs.v[mid].addr < addr) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

void shim_alloc_add(ws_addr addr, uint64_t size)
{
    size_t at = alloc_lower(addr);
    if (!PUSH(shim_g.allocs)) return;
    shim_alloc *v = shim_g.allocs.v;
    memmove(&v[at + 1], &v[at], (shim_g.allocs.n - 1 - at) * sizeof *v);
    v[at] = (shim_alloc){ addr, size };
}

void shim_alloc_remove(ws_addr addr)
{
    size_t at = alloc_lower(addr);
    if (at < shim_g.allocs.n && shim_g.allocs.v[at].addr == addr) REMOVE(shim_g.allocs, at);
}

shim_module *shim_module_find(const ws_module *h) { FIND(shim_g.modules, h); }
shim_kernel *shim_kernel_find(const ws_kernel *h) { FIND(shim_g.kernels, h); }
shim_texture *shim_texture_find(const ws_gfx_texture *h) { FIND(shim_g.textures, h); }
shim_target *shim_target_find(const ws_gfx_target *h) { FIND(shim_g.targets, h); }
shim_pipeline *shim_pipeline_find(const ws_gfx_pipeline *h) { FIND(shim_g.pipelines, h); }

uint32_t shim_kernel_id(const ws_kernel *h) { shim_kernel *k = h ? shim_kernel_find(h) : NULL; return k ? k->id : 0; }
uint32_t shim_texture_id(const ws_gfx_texture *h) { shim_texture *t = h ? shim_texture_find(h) : NULL; return t ? t->id : 0; }
uint32_t shim_target_id(const ws_gfx_target *h) { shim_target *t = h ? shim_target_find(h) : NULL; return t ? t->id : 0; }
uint32_t shim_pipeline_id(const ws_gfx_pipeline *h) { shim_pipeline *p = h ? shim_pipeline_find(h) : NULL; return p ? p->id : 0; }

shim_module *shim_module_add(ws_module *h, const char *name, const void *image, size_t size)
{
    uint8_t *copy = malloc(size ? size : 1);
    char *n = dup_str(name);
    shim_module *m = copy && n ? PUSH(shim_g.modules) : NULL;
    if (!m) { free(copy); free(n); shim_g.model_broken = 1; return NULL; }
    memcpy(copy, image, size);
    *m = (shim_module){ .h = h, .id = shim_new_id(), .name = n, .image = copy, .size = size };
    uint32_t msize;
    if (REAL(ws_module_base)(h, &m->base, &msize) != WS_OK) m->base = 0;
    return m;
}

void shim_module_remove(const ws_module *h)
{
    for (size_t i = 0; i < shim_g.modules.n; i++) {
        shim_module *m = &shim_g.modules.v[i];
        if (m->h != h) continue;
        for (size_t k = shim_g.kernels.n; k-- > 0;) /* its kernel handles die with it */
            if (shim_g.kernels.v[k].module == m->id) {
                free(shim_g.kernels.v[k].name);
                REMOVE(shim_g.kernels, k);
            }
        free(m->name);
        free(m->image);
        REMOVE(shim_g.modules, i);
        return;
    }
}

shim_kernel *shim_kernel_add(ws_kernel *h, uint32_t module, const char *name)
{
    shim_kernel *k = shim_kernel_find(h);
    if (k) return k; /* the same handle again: the same id */
    char *n = dup_str(name);
    k = n ? PUSH(shim_g.kernels) : NULL;
    if (!k) { free(n); return NULL; }
    *k = (shim_kernel){ .h = h, .id = shim_new_id(), .module = module, .name = n };
    return k;
}

shim_texture *shim_texture_add(ws_gfx_texture *h)
{
    shim_texture *t = PUSH(shim_g.textures);
    if (!t) return NULL;
    *t = (shim_texture){ .h = h, .id = shim_new_id() };
    if (REAL(ws_gfx_texture_levels)(h, &t->w, &t->hgt, &t->levels) != WS_OK) shim_g.model_broken = 1;
    return t;
}

void shim_texture_remove(const ws_gfx_texture *h)
{
    for (size_t i = 0; i < shim_g.textures.n; i++)
        if (shim_g.textures.v[i].h == h) {
            uint32_t id = shim_g.textures.v[i].id;
            for (int s = 0; s < WS_GFX_MAX_TEXTURES; s++) /* the runtime unbinds it */
                if (shim_g.gfx.texture[s] == id) shim_g.gfx.texture[s] = 0;
            REMOVE(shim_g.textures, i);
            return;
        }
}

shim_target *shim_target_add(ws_gfx_target *h, uint32_t w, uint32_t hgt, uint32_t depth)
{
    shim_target *t = PUSH(shim_g.targets);
    if (t) *t = (shim_target){ .h = h, .id = shim_new_id(), .w = w, .hgt = hgt, .depth = depth };
    return t;
}

void shim_target_remove(const ws_gfx_target *h)
{
    for (size_t i = 0; i < shim_g.targets.n; i++)
        if (shim_g.targets.v[i].h == h) {
            if (shim_g.gfx.target == shim_g.targets.v[i].id) shim_g.gfx.target = 0;
            REMOVE(shim_g.targets, i);
            return;
        }
}

shim_pipeline *shim_pipeline_add(ws_gfx_pipeline *h, const ws_gfx_pipeline_desc *d)
{
    shim_pipeline *p = PUSH(shim_g.pipelines);
    if (!p) return NULL;
    *p = (shim_pipeline){ .h = h, .id = shim_new_id() };
    p->p.desc = *d;
    p->p.vs = shim_kernel_id(d->vertex_shader);
    p->p.fs = shim_kernel_id(d->fragment_shader);
    p->p.desc.vertex_shader = p->p.desc.fragment_shader = NULL; /* no pointers in the file */
    return p;
}

void shim_pipeline_remove(const ws_gfx_pipeline *h)
{
    for (size_t i = 0; i < shim_g.pipelines.n; i++)
        if (shim_g.pipelines.v[i].h == h) {
            if (shim_g.gfx.pipeline == shim_g.pipelines.v[i].id) shim_g.gfx.pipeline = 0;
            REMOVE(shim_g.pipelines, i);
            return;
        }
}

void shim_model_reset(void)
{
    for (size_t i = 0; i < shim_g.modules.n; i++) { free(shim_g.modules.v[i].name); free(shim_g.modules.v[i].image); }
    for (size_t i = 0; i < shim_g.kernels.n; i++) free(shim_g.kernels.v[i].name);
    free(shim_g.modules.v); free(shim_g.kernels.v); free(shim_g.textures.v);
    free(shim_g.targets.v); free(shim_g.pipelines.v); free(shim_g.allocs.v);
    memset(&shim_g.modules, 0, sizeof shim_g.modules);
    memset(&shim_g.kernels, 0, sizeof shim_g.kernels);
    memset(&shim_g.textures, 0, sizeof shim_g.textures);
    memset(&shim_g.targets, 0, sizeof shim_g.targets);
    memset(&shim_g.pipelines, 0, sizeof shim_g.pipelines);
    memset(&shim_g.allocs, 0, sizeof shim_g.allocs);
    memset(&shim_g.gfx, 0, sizeof shim_g.gfx);
}
