/* The vertex probe (gfx_mesh.h): each draw's vertex stage replaces the
 * copy, so after a draw the probe holds that draw's vertices. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gfx/gfx_int.h"
#include "gfx/gfx_mesh.h"

void ws_gfx_mesh_free(ws_gfx_mesh *m)
{
    free(m->vertex);
    free(m->instance);
    free(m->in);
    free(m->out);
    free(m->window);
    memset(m, 0, sizeof *m);
}

/* Room for m's n invocations in m's arrays (the fields say how many
 * floats); -1 when out of host memory. */
static int alloc_arrays(ws_gfx_mesh *m)
{
    m->vertex = malloc(m->n * sizeof *m->vertex + 1);
    m->instance = malloc(m->n * sizeof *m->instance + 1);
    m->in = malloc(m->n * m->vin_floats * sizeof *m->in + 1);
    m->out = malloc(m->n * m->vout_floats * sizeof *m->out + 1);
    m->window = malloc(m->n * 3 * sizeof *m->window + 1);
    return m->vertex && m->instance && m->in && m->out && m->window ? 0 : -1;
}

int ws_gfx_mesh_copy(const ws_gfx_mesh *m, ws_gfx_mesh *dst)
{
    *dst = *m;
    if (alloc_arrays(dst)) {
        ws_gfx_mesh_free(dst);
        return -1;
    }
    memcpy(dst->vertex, m->vertex, m->n * sizeof *m->vertex);
    memcpy(dst->instance, m->instance, m->n * sizeof *m->instance);
    memcpy(dst->in, m->in, m->n * m->vin_floats * sizeof *m->in);
    memcpy(dst->out, m->out, m->n * m->vout_floats * sizeof *m->out);
    memcpy(dst->window, m->window, m->n * 3 * sizeof *m->window);
    return 0;
}

ws_status ws_gfx_mesh_arm(ws_device *dev)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    ws_gfx_device *g = gfx_hw(dev);
    if (!g) return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "vertex probe: out of host memory");
    if (g->mesh) ws_gfx_mesh_free(g->mesh);
    else if (!(g->mesh = calloc(1, sizeof *g->mesh)))
        return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "vertex probe: out of host memory");
    return WS_OK;
}

ws_status ws_gfx_mesh_disarm(ws_device *dev)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    if (dev->gfx && dev->gfx->mesh) {
        ws_gfx_mesh_free(dev->gfx->mesh);
        free(dev->gfx->mesh);
        dev->gfx->mesh = NULL;
    }
    return WS_OK;
}

ws_status ws_gfx_mesh_read(ws_device *dev, const ws_gfx_mesh **m)
{
    if (!dev || !m) return WS_ERR_INVALID_ARG;
    const ws_gfx_mesh *p = dev->gfx ? dev->gfx->mesh : NULL;
    if (!p) return ws_set_error(dev, WS_ERR_INVALID_ARG, "vertex probe: not armed");
    if (p->lost)
        return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "vertex probe: draw %llu's %llu vertices: out of host memory",
                            (unsigned long long)p->draw_id, (unsigned long long)p->n);
    if (!p->valid) return ws_set_error(dev, WS_ERR_NOT_FOUND, "vertex probe: no draw has shaded vertices since arming");
    *m = p;
    return WS_OK;
}

void gfx_mesh_record(gfx_draw *d, uint64_t n, const float *in, const float *out, const uint32_t *sys)
{
    ws_gfx_mesh *m = d->dev->gfx->mesh;
    const ws_gfx_cmd *c = d->cmd;
    const ws_gfx_pipeline_hw *p = &d->st->pipe;
    ws_gfx_mesh_free(m);
    m->valid = 1;
    m->draw_id = c->draw_id;
    snprintf(m->shader, sizeof m->shader, "%s", p->vs.name ? p->vs.name : "?");
    m->count = c->count, m->instances = c->instances, m->first = c->first, m->first_instance = c->first_instance;
    m->indexed = c->indexed, m->base_vertex = c->base_vertex;
    m->topology = p->desc.topology, m->cull = p->desc.cull, m->front_face = p->desc.front_face;
    m->nattributes = p->desc.nattributes;
    for (uint32_t a = 0; a < m->nattributes; a++) m->format[a] = p->desc.attributes[a].format;
    m->vin_floats = p->vin_floats, m->vout_floats = p->vout_floats, m->n = n;
    if (alloc_arrays(m)) {
        const uint64_t id = m->draw_id;
        ws_gfx_mesh_free(m);
        m->lost = 1, m->draw_id = id, m->n = n;
        return;
    }
    memcpy(m->in, in, n * p->vin_floats * sizeof *m->in);
    memcpy(m->out, out, n * p->vout_floats * sizeof *m->out);
    for (uint64_t i = 0; i < n; i++) {
        m->vertex[i] = sys[i * WS_GFX_SYSVALS];
        m->instance[i] = sys[i * WS_GFX_SYSVALS + 1];
        float *w = m->window + i * 3, inv_w;
        if (!gfx_window_of(d->st, m->out + i * p->vout_floats, w, &inv_w)) w[0] = w[1] = w[2] = NAN;
    }
}
