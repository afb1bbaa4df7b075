/* The frame debugger's modules as gdb libraries: every module the frame
 * ever has, listed once before gdb first resumes (replay_debug.c), and
 * their files. Calls nothing else of the frame debugger. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capture/replay_debug_int.h"
#include "gdbstub/target_dbg.h"

/* gdb reads the library list at the first resume's library stop and
 * never again, so the list names every module the frame ever has: those
 * of its initial state and those its own calls load (a capture of
 * `--frames all` loads every module inside the frame). Their addresses
 * come from the capture: the same in every replay. */
typedef struct module_scan {
    rd_target *t;
    ws_dbg_module *cur;          /* the modules loaded now (grows) */
    size_t cap;
    int failed;
} module_scan;

static int add_resident_modules(void *user, ws_replay *r, uint64_t index)
{
    (void)r;
    (void)index;
    module_scan *m = user;
    rd_target *t = m->t;
    size_t n = 0;
    for (;;) { /* n: how many there are, which may be more than fit */
        if (ws_debug_modules(t->dbg, m->cur, m->cap, &n)) return m->failed = 1;
        if (n <= m->cap) break;
        ws_dbg_module *grown = realloc(m->cur, n * sizeof *grown);
        if (!grown) return m->failed = 1;
        m->cur = grown;
        m->cap = n;
    }
    for (size_t i = 0; i < n; i++) {
        const ws_dbg_module *c = &m->cur[i];
        size_t k = 0; /* known: the same load (id), or the same module at the same place */
        while (k < t->nlibs && t->libs[k].id != c->id && (t->libs[k].base != c->base || strcmp(t->libs[k].name, c->name)))
            k++;
        if (k < t->nlibs || !c->image) continue;
        ws_dbg_module *grown = realloc(t->libs, (t->nlibs + 1) * sizeof *grown);
        if (grown) t->libs = grown;
        void *image = malloc(c->image_size ? c->image_size : 1);
        if (!grown || !image) {
            free(image);
            return m->failed = 1;
        }
        memcpy(image, c->image, c->image_size);
        t->libs[t->nlibs] = *c;
        t->libs[t->nlibs++].image = image;
    }
    return 0;
}

ws_status rd_list_modules(rd_target *t)
{
    module_scan *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(t->err, sizeof t->err, "listing the frame's modules: out of host memory");
        return WS_ERR_OUT_OF_MEMORY;
    }
    m->t = t;
    ws_status st = ws_replay_restore(t->r);
    if (st == WS_OK) add_resident_modules(m, t->r, 0);
    if (st == WS_OK && !m->failed) {
        st = ws_replay_run(t->r, 0, UINT64_MAX, add_resident_modules, m);
        /* a frame whose work faults has the modules it had up to there */
        if (ws_replay_frame_failure(st)) {
            snprintf(t->stops_early, sizeof t->stops_early, "%s", ws_replay_error(t->r));
            st = WS_OK;
        }
    }
    int failed = m->failed;
    free(m->cur);
    free(m);
    if (st != WS_OK || failed) {
        snprintf(t->err, sizeof t->err, "listing the frame's modules: %s",
                 st != WS_OK ? ws_replay_error(t->r) : ws_debug_error(t->dbg));
        return st != WS_OK ? st : WS_ERR_OUT_OF_MEMORY;
    }
    return WS_OK;
}

void rd_free_modules(rd_target *t)
{
    for (size_t i = 0; i < t->nlibs; i++) free((void *)t->libs[i].image);
    free(t->libs);
    t->libs = NULL;
    t->nlibs = 0;
}

ws_status rd_libraries(void *tp, char **xml, size_t *len)
{
    rd_target *t = tp;
    return ws_gdb_library_xml(t->libs, t->nlibs, xml, len, t->err, sizeof t->err);
}

ws_status rd_file(void *tp, const char *name, const uint8_t **data, size_t *size)
{
    rd_target *t = tp;
    return ws_gdb_module_file_in(t->libs, t->nlibs, name, data, size, t->err, sizeof t->err);
}

