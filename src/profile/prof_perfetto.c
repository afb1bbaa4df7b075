/* Chrome/Perfetto trace-event JSON of warp states over time, rebuilt from
 * the samples: one process per core, one thread (track) per warp slot,
 * a slice per run of equal samples named by the state, and one track of
 * launches. Timestamps are cycles (the viewer shows them as µs); launches
 * are laid end to end. Writes only the events: the session wraps them. */
#include <stdlib.h>
#include <string.h>
#include "profile/prof_internal.h"

static int by_track(const void *a, const void *b)
{
    const ws_trace_record *x = a, *y = b;
    if (x->core != y->core) return x->core < y->core ? -1 : 1;
    if (x->warp != y->warp) return x->warp < y->warp ? -1 : 1;
    if (x->cycle != y->cycle) return x->cycle < y->cycle ? -1 : 1;
    if (x->pc != y->pc) return x->pc < y->pc ? -1 : 1;
    return (int)x->state - (int)y->state;
}

static void sep(FILE *f, int *first)
{
    fputs(*first ? "\n" : ",\n", f);
    *first = 0;
}

int prof_perfetto_write(FILE *f, const prof_data *d, uint32_t device_index)
{
    uint32_t pid0 = device_index * 1024;
    uint64_t offset = 0;
    int first = 1;
    /* A sample stands for `step` cycles: passes fill in between samples.
     * Each pass samples each period at a dithered cycle of its window of
     * about `step` cycles, so consecutive samples are up to two windows
     * apart: runs merge across gaps up to that. */
    uint64_t step = (1ull << d->opt->period_log2) / d->opt->passes;
    if (!step) step = 1;
    uint64_t win = ((1ull << d->opt->period_log2) + d->opt->passes - 1) / d->opt->passes;
    uint64_t gap = 2 * win - 1;
    uint64_t cap = d->opt->mode == WS_TRACE_ROUND_ROBIN
                       ? gap * d->cfg->cores * d->cfg->warps_per_core : gap;
    sep(f, &first);
    fprintf(f, "{\"ph\": \"M\", \"pid\": %u, \"name\": \"process_name\", \"args\": {\"name\": \"device %u launches\"}}",
            pid0 + 1023, device_index + 1);
    for (uint32_t c = 0; c < d->cfg->cores && c < 1023; c++) {
        sep(f, &first);
        fprintf(f, "{\"ph\": \"M\", \"pid\": %u, \"name\": \"process_name\", \"args\": {\"name\": \"device %u core %u\"}}",
                pid0 + c, device_index + 1, c);
        for (uint32_t w = 0; w < d->cfg->warps_per_core; w++) {
            sep(f, &first);
            fprintf(f, "{\"ph\": \"M\", \"pid\": %u, \"tid\": %u, \"name\": \"thread_name\", \"args\": {\"name\": \"warp %u\"}}",
                    pid0 + c, w, w);
        }
    }
    for (size_t i = 0; i < d->nlaunches; i++) {
        const prof_launch *L = &d->launches[i];
        sep(f, &first);
        fprintf(f, "{\"ph\": \"X\", \"pid\": %u, \"tid\": 0, \"name\": ", pid0 + 1023);
        prof_json_string(f, L->kernel); /* (a module's symbol: any bytes) */
        fprintf(f, ", \"ts\": %llu, \"dur\": %llu, \"args\": {\"launch\": %llu}}", (unsigned long long)offset,
                (unsigned long long)(L->cycles ? L->cycles : 1), (unsigned long long)L->id);
        ws_trace_record *r = NULL;
        if (L->nrecords && !(r = malloc(L->nrecords * sizeof *r))) return -1;
        if (r) { /* (a launch without samples has none to sort: qsort takes no NULL) */
            memcpy(r, L->records, L->nrecords * sizeof *r);
            qsort(r, L->nrecords, sizeof *r, by_track);
        }
        for (size_t j = 0; j < L->nrecords;) {
            /* Merge a run of samples of one warp with the same state and
             * launch, each within `cap` cycles of the previous one. */
            size_t e = j;
            uint64_t end = r[j].cycle + step;
            while (e + 1 < L->nrecords && r[e + 1].core == r[j].core && r[e + 1].warp == r[j].warp &&
                   r[e + 1].state == r[j].state && r[e + 1].cycle - r[e].cycle <= cap) {
                e++;
                end = r[e].cycle + step;
            }
            if (e + 1 < L->nrecords && r[e + 1].core == r[j].core && r[e + 1].warp == r[j].warp &&
                r[e + 1].cycle - r[e].cycle <= cap)
                end = r[e + 1].cycle; /* touch the next slice */
            /* The last sample's interval ends with the launch, not after it
             * in the next launch's time (a sample at its last cycle keeps one). */
            if (end > L->cycles) end = L->cycles > r[j].cycle ? L->cycles : r[j].cycle + 1;
            if (r[j].core < 1023) {
                sep(f, &first);
                fprintf(f, "{\"ph\": \"X\", \"pid\": %u, \"tid\": %u, \"name\": \"%s\", \"ts\": %llu, \"dur\": %llu, "
                           "\"args\": {\"pc\": \"0x%08x\", \"launch\": %llu, \"samples\": %zu}}",
                        pid0 + r[j].core, r[j].warp, prof_state_name(r[j].state),
                        (unsigned long long)(offset + r[j].cycle), (unsigned long long)(end - r[j].cycle),
                        r[j].pc, (unsigned long long)L->id, e - j + 1);
            }
            j = e + 1;
        }
        free(r);
        offset += L->cycles ? L->cycles : 1;
    }
    return ferror(f) ? -1 : 0;
}
