/* The timing model's memory side: how many passes a warp's shared-memory
 * access takes (bank conflicts) and how many 32-byte sectors its global or
 * local access touches (coalescing). Pure functions of the lanes'
 * addresses. */
#include "device/timing_model.h"

/* Shared memory: 32 banks of 4-byte words; a warp access takes as many
 * passes as the most distinct words any one bank must deliver (lanes
 * reading the same word share it). An atomic's lanes never share: each
 * reads, modifies and writes the word in turn, so lanes on one word take
 * one pass each, as on GPUs (a histogram's hot bin serialises). */
uint32_t ws_timing_bank_passes(const uint32_t *base, uint32_t imm, uint32_t g, uint32_t full, uint32_t nl, int atomic)
{
    if (atomic) {
        uint8_t lanes[32] = { 0 };
        uint32_t passes = 1;
        for (uint32_t m = g; m; m &= m - 1) {
            uint32_t b = ((base[__builtin_ctz(m)] + imm) >> 2) & 31;
            if (++lanes[b] > passes) passes = lanes[b];
        }
        return passes;
    }
    /* The usual case first: no bank holds two distinct words (one pass).
     * For a full warp: note one word per bank, then check every lane's. */
    if (g == full) {
        uint32_t word[32], first[32] = { 0 }, same = 1;
        for (uint32_t l = 0; l < nl; l++) word[l] = (base[l] + imm) >> 2;
        for (uint32_t l = 0; l < nl; l++) first[word[l] & 31] = word[l];
        for (uint32_t l = 0; l < nl; l++) same &= first[word[l] & 31] == word[l];
        if (same) return 1;
    }
    uint32_t words[32][32];
    uint8_t n[32] = { 0 };
    uint32_t passes = 1;
    for (uint32_t m = g; m; m &= m - 1) {
        uint32_t word = (base[__builtin_ctz(m)] + imm) >> 2, b = word & 31, i = 0;
        while (i < n[b] && words[b][i] != word) i++;
        if (i == n[b]) {
            words[b][n[b]++] = word;
            if (n[b] > passes) passes = n[b];
        }
    }
    return passes;
}

/* A global atomic: lanes naming one word take turns (each reads, modifies
 * and writes it in lane order), as a GPU's L2 atomic unit serialises
 * them: the most lanes any one word has (1 when every lane has its own). */
uint32_t ws_timing_word_turns(const uint32_t *base, uint32_t imm, uint32_t g)
{
    const uint32_t w0 = (base[__builtin_ctz(g)] + imm) >> 2;
    uint32_t diff = 0;
    for (uint32_t m = g; m; m &= m - 1) diff |= ((base[__builtin_ctz(m)] + imm) >> 2) ^ w0;
    if (!diff) return ws_lane_count(g); /* the usual contended case: one counter */
    uint32_t words[32], count[32], n = 0, most = 1;
    for (uint32_t m = g; m; m &= m - 1) {
        const uint32_t w = (base[__builtin_ctz(m)] + imm) >> 2;
        uint32_t i = 0;
        while (i < n && words[i] != w) i++;
        if (i == n) words[n] = w, count[n++] = 1;
        else if (++count[i] > most) most = count[i];
    }
    return most;
}

static inline uint32_t popcount64(uint64_t v) /* without a libgcc call (no POPCNT in the base ISA) */
{
    v = v - ((v >> 1) & 0x5555555555555555ull);
    v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
    return (uint32_t)((((v + (v >> 4)) & 0x0F0F0F0F0F0F0F0Full) * 0x0101010101010101ull) >> 56);
}

/* Global and local memory: distinct 32-byte sectors. Local (stack)
 * addresses are mapped to the word-interleaved layout GPUs use (word k of
 * lane l at k * lanes + l), so a warp's spill of one slot is contiguous. */
uint32_t ws_timing_sectors(const ws_device *dev, const ws_warp *w, const uint32_t *base, uint32_t imm,
                        uint32_t g, int local)
{
    uint32_t s[32], n = 0, sorted = 1, far = 0;
    const uint32_t nl = dev->cfg.lanes_per_warp, shift = dev->mem.stack_shift;
    if (!local && g == dev->full_mask && nl == 32) { /* 32 lanes: counted loops the compiler vectorises */
        uint32_t down = 0, same = 0; /* sectors are below 2^27: a step down has its top bit set */
        /* each lane's sector and its neighbour's from the registers: read
         * back from s, the neighbours' unaligned loads would wait on the
         * stores just made (a store-forwarding stall per vector) */
        for (uint32_t i = 1; i < 32; i++) {
            const uint32_t d = ((base[i] + imm) >> 5) - ((base[i - 1] + imm) >> 5);
            down |= d >> 31;
            same += d == 0;
        }
        if (!down) return 1 + 31 - same;
        for (uint32_t l = 0; l < 32; l++) s[l] = (base[l] + imm) >> 5;
        /* Rows of a 2-D block (blockDim.x = 16, 8, ..): the first p lanes
         * ascending, then the same sectors again for each further row. */
        uint32_t p = 1;
        while (s[p] >= s[p - 1]) p++; /* (a step down exists) */
        if (32 % p == 0) {
            uint32_t repeats = 1, changes = 0;
            for (uint32_t i = p; i < 32; i++) repeats &= s[i] == s[i - p];
            if (repeats) {
                for (uint32_t i = 1; i < p; i++) changes += s[i] != s[i - 1];
                return 1 + changes;
            }
        }
        n = 32;
        sorted = 0;
    } else if (!local && g == dev->full_mask) { /* a full warp */
        for (uint32_t l = 0; l < nl; l++) s[l] = (base[l] + imm) >> 5;
        n = nl;
    } else {
        for (uint32_t m = g; m; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctz(m), a = base[l] + imm;
            if (local) {
                uint32_t so = a - WS_STACK_BASE, slot = so >> shift, off = so & (dev->mem.stack_size - 1);
                uint32_t lane = slot - w->stack_slot0;
                a = (uint32_t)((uint64_t)(slot / nl) * (dev->mem.stack_size / 4) * nl * 4 +
                               ((uint64_t)(off >> 2) * nl + lane % nl) * 4);
            }
            s[n++] = a >> 5;
        }
    }
    /* Ascending (consecutive lanes, rows of a stride): count the changes. */
    uint32_t changes = 0;
    for (uint32_t i = 1; i < n && sorted; i++) {
        sorted &= s[i] >= s[i - 1];
        changes += s[i] != s[i - 1];
    }
    if (sorted) return 1 + changes;
    /* Every sector within [s[0] - 31, s[0] + 32]: one bit each. */
    const uint32_t bias = s[0] - 31;
    for (uint32_t i = 0; i < n; i++) far |= (s[i] - bias) >> 6;
    if (!far) {
        uint64_t bits = 0;
        for (uint32_t i = 0; i < n; i++) bits |= 1ull << (s[i] - bias);
        return popcount64(bits);
    }
    uint32_t distinct = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = 0;
        while (j < i && s[j] != s[i]) j++;
        distinct += j == i;
    }
    return distinct;
}
