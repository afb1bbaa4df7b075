/* What bounds a launch: occupancy (theoretical, from the resources one block
 * takes, against achieved) and its limiter, the balance of work over the
 * cores, and an instruction roofline point: warp-instructions per 32-byte
 * sector of global/local traffic against the ridge between the device's
 * peak issue rate and its peak sector rate (the timing model's
 * parameters): memory- or compute-bound by the side of the ridge, or
 * latency-bound when neither rate reaches 60 % of its peak. */
#include <stdio.h>
#include <string.h>
#include "device/timing.h"
#include "profile/prof_internal.h"

void prof_limits_fill(prof_limits *o, const ws_device *dev, const ws_grid_run *L, const prof_counters *c)
{
    const ws_config *cfg = &dev->cfg;
    const ws_timing_params *tp = ws_timing_params_of(dev);
    memset(o, 0, sizeof *o);
    if (!c->valid || !tp || !c->cycles) return;
    o->valid = 1;
    o->warps_per_block = L->warps_per_block;
    o->limit_warps = cfg->warps_per_core / L->warps_per_block;
    uint32_t per_block_shared = (L->shared_total + 15u) & ~15u;
    o->limit_shared = per_block_shared ? cfg->shared_per_core / per_block_shared : 0;
    uint32_t bpc = o->limit_warps;
    o->limiter = "warp slots";
    if (o->limit_shared && o->limit_shared < bpc) { bpc = o->limit_shared; o->limiter = "shared memory"; }
    uint64_t grid_per_core = (L->total_blocks + cfg->cores - 1) / cfg->cores;
    /* Achieved occupancy is over every core's warp slots, the idle cores'
     * too: a grid smaller than what the cores hold allows only its own
     * warps over all of them (2 blocks of 2 warps on 4 cores of 8 slots:
     * 12.5 %, not the busiest core's 25 %, which no launch could reach). */
    double resident = (double)bpc * cfg->cores;
    if (grid_per_core < bpc) {
        bpc = (uint32_t)grid_per_core;
        o->limiter = "grid size";
        resident = (double)L->total_blocks;
    }
    o->blocks_per_core = bpc;
    o->total_blocks = L->total_blocks;
    o->cores = cfg->cores;
    o->theoretical_occupancy = resident * L->warps_per_block / ((double)cfg->cores * cfg->warps_per_core);
    o->achieved_occupancy = c->occupancy;
    /* balance: warp-instructions each core issued */
    uint32_t n = cfg->cores < WS_STATS_MAX_CORES ? cfg->cores : WS_STATS_MAX_CORES;
    uint64_t sum = 0, mx = 0, mn = UINT64_MAX;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t w = L->stats.core_warp_instructions[i];
        sum += w;
        if (w > mx) mx = w;
        if (w < mn) mn = w;
    }
    o->core_min = n ? mn : 0;
    o->core_max = mx;
    o->core_imbalance = sum ? (double)mx * n / (double)sum : 1.0;
    /* roofline */
    uint32_t nsched = tp->schedulers < cfg->warps_per_core ? tp->schedulers : cfg->warps_per_core;
    o->peak_ipc = (double)cfg->cores * nsched;
    /* sector_cycles = 0: the LSU ports have no bandwidth limit, so there is
     * no sector peak and no ridge (both stay 0): only the issue side. */
    o->peak_sectors_per_cycle = tp->sector_cycles ? (double)cfg->cores / tp->sector_cycles : 0;
    o->global_latency = tp->latency[WS_UNIT_LSU];
    o->sector_cycles = tp->sector_cycles;
    o->ipc = (double)c->warp_instructions / (double)c->cycles;
    o->sectors_per_cycle = (double)c->mem_sectors / (double)c->cycles;
    o->intensity = c->mem_sectors ? (double)c->warp_instructions / (double)c->mem_sectors : 0;
    o->ridge = o->peak_sectors_per_cycle ? o->peak_ipc / o->peak_sectors_per_cycle : 0;
    /* Below the ridge the sector rate caps the issue rate (intensity <
     * ridge is issue use < sector use). A unit can cap it before either:
     * an ALU pipe busy its initiation interval per instruction (fp at
     * interval 2 takes half the issue rate), or the MIO, one pass a cycle
     * for shared memory, shuffles and CSRs. When nothing is near its peak,
     * waiting (latency) is what bounds the launch. */
    double compute = o->ipc / o->peak_ipc;
    double memory = o->peak_sectors_per_cycle ? o->sectors_per_cycle / o->peak_sectors_per_cycle : 0;
    const char *compute_unit = NULL, *memory_unit = NULL;
    for (unsigned u = 0; u < PROF_UNITS && u < WS_UNIT_COUNT; u++) {
        if (u == WS_UNIT_LSU || !c->unit_instances[u]) continue; /* the LSU is the sector rate */
        double use = (double)c->unit_busy[u] / ((double)c->cycles * c->unit_instances[u]);
        if (u == WS_UNIT_MIO && use > memory) memory = use, memory_unit = prof_unit_name(u);
        else if (u != WS_UNIT_MIO && use > compute) compute = use, compute_unit = prof_unit_name(u);
    }
    o->bound_unit = NULL;
    if (compute < 0.6 && memory < 0.6) {
        o->bound = "latency";
    } else if (compute >= memory) {
        o->bound = "compute";
        o->bound_unit = compute_unit, o->bound_unit_use = compute;
    } else {
        o->bound = "memory";
        o->bound_unit = memory_unit, o->bound_unit_use = memory;
    }
}

/* "", or " by the fp pipes (81.3% busy)" when a unit set the bound */
static void bound_unit_text(char *t, size_t len, const prof_limits *o)
{
    t[0] = 0;
    if (!o->bound_unit) return;
    if (!strcmp(o->bound_unit, "mio"))
        snprintf(t, len, " by the MIO (%.1f%% busy: shared memory, shuffles, CSRs)", 100.0 * o->bound_unit_use);
    else
        snprintf(t, len, " by the %s pipes (%.1f%% busy)", o->bound_unit, 100.0 * o->bound_unit_use);
}

void prof_limits_text(FILE *f, const prof_limits *o)
{
    if (!o->valid) return;
    if (!strcmp(o->limiter, "grid size"))
        fprintf(f, "    occupancy: theoretical %.1f%% (%llu block%s of %u warp%s on %u cores, at most %u per core, "
                   "limited by grid size; warp slots allow %u",
                o->theoretical_occupancy * 100.0, (unsigned long long)o->total_blocks, o->total_blocks == 1 ? "" : "s",
                o->warps_per_block, o->warps_per_block == 1 ? "" : "s", o->cores, o->blocks_per_core, o->limit_warps);
    else
        fprintf(f, "    occupancy: theoretical %.1f%% (%u block%s of %u warp%s per core, limited by %s; warp slots allow %u",
                o->theoretical_occupancy * 100.0, o->blocks_per_core, o->blocks_per_core == 1 ? "" : "s",
                o->warps_per_block, o->warps_per_block == 1 ? "" : "s", o->limiter, o->limit_warps);
    if (o->limit_shared) fprintf(f, ", shared memory %u", o->limit_shared);
    fprintf(f, "), achieved %.1f%%\n", o->achieved_occupancy * 100.0);
    fprintf(f, "    balance: warp-instructions per core %llu..%llu, busiest core %.2fx the mean\n",
            (unsigned long long)o->core_min, (unsigned long long)o->core_max, o->core_imbalance);
    char by[96];
    bound_unit_text(by, sizeof by, o);
    if (!o->peak_sectors_per_cycle) { /* sector_cycles = 0 */
        fprintf(f, "    roofline: %.2f warp-instr per sector, no ridge (sector_cycles = 0: no sector rate limit); "
                   "%s-bound%s: issue %.3f of %.0f warp-instr/cycle (%.1f%%), memory %.3f sectors/cycle (no peak)\n",
                o->intensity, o->bound, by, o->ipc, o->peak_ipc, 100.0 * o->ipc / o->peak_ipc, o->sectors_per_cycle);
        return;
    }
    fprintf(f, "    roofline: %.2f warp-instr per sector, ridge %.2f (%s side); %s-bound%s: issue %.3f of %.0f "
               "warp-instr/cycle (%.1f%%), memory %.3f of %.2f sectors/cycle (%.1f%%)\n",
            o->intensity, o->ridge, o->intensity >= o->ridge ? "compute" : "memory", o->bound, by, o->ipc, o->peak_ipc, 100.0 * o->ipc / o->peak_ipc,
            o->sectors_per_cycle, o->peak_sectors_per_cycle, 100.0 * o->sectors_per_cycle / o->peak_sectors_per_cycle);
}

void prof_limits_json(FILE *f, const prof_limits *o)
{
    if (!o->valid) { fputs("null", f); return; }
    fprintf(f, "{\"theoretical_occupancy\": %.6f, \"achieved_occupancy\": %.6f, \"blocks_per_core\": %u, "
               "\"limiter\": \"%s\", \"blocks_allowed_by_warp_slots\": %u, \"blocks_allowed_by_shared_memory\": %u, "
               "\"core_warp_instructions_min\": %llu, \"core_warp_instructions_max\": %llu, \"core_imbalance\": %.6f, "
               "\"intensity\": %.6f, \"ridge\": ",
            o->theoretical_occupancy, o->achieved_occupancy, o->blocks_per_core, o->limiter, o->limit_warps,
            o->limit_shared, (unsigned long long)o->core_min, (unsigned long long)o->core_max, o->core_imbalance,
            o->intensity);
    /* null: no sector rate limit (sector_cycles = 0) */
    if (o->peak_sectors_per_cycle) fprintf(f, "%.6f", o->ridge);
    else fputs("null", f);
    fprintf(f, ", \"bound\": \"%s\", \"bound_unit\": ", o->bound);
    prof_json_string(f, o->bound_unit);
    fprintf(f, ", \"ipc\": %.6f, \"peak_ipc\": %.6f, \"sectors_per_cycle\": %.6f, "
               "\"peak_sectors_per_cycle\": ", o->ipc, o->peak_ipc, o->sectors_per_cycle);
    if (o->peak_sectors_per_cycle) fprintf(f, "%.6f}", o->peak_sectors_per_cycle);
    else fputs("null}", f);
}
