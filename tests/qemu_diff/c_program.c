/* Compiled C for the differential test: integer hashing, float math with
 * divisions and square roots, a sort, 64-bit arithmetic through libgcc and
 * a switch that compiles to a jump table. Results land in the state block.
 * Freestanding: no library calls, so the same object links for both sides. */
#include <stdint.h>
#include "diff_state.h"

static uint32_t hash(uint32_t x)
{
    for (int i = 0; i < 20; i++) x = (x ^ (x >> 15)) * 0x2c1b3c6du + (uint32_t)i;
    return x;
}

static uint32_t jump_table(uint32_t v)
{
    switch (v % 9) {
    case 0: return v * 3;
    case 1: return v ^ 0x55aa;
    case 2: return v >> 3;
    case 3: return v + 77;
    case 4: return ~v;
    case 5: return v * v;
    case 6: return v | 0xf0f0;
    case 7: return v - 1234567;
    default: return v << 5;
    }
}

void diff_c(uint32_t *s)
{
    uint32_t seed = s[1] ^ s[3];
    s[5] = hash(seed);
    uint32_t acc = 0;
    for (uint32_t i = 0; i < 40; i++) acc += jump_table(seed + i * 7919u);
    s[6] = acc;

    uint64_t a = ((uint64_t)s[7] << 32) | s[8], b = ((uint64_t)s[9] << 32) | (s[11] | 1u);
    uint64_t q = a / b, r = a % b, m = a * b;
    int64_t sq = (int64_t)a / (int64_t)(b | 1);
    s[12] = (uint32_t)q; s[13] = (uint32_t)(q >> 32); s[14] = (uint32_t)r; s[15] = (uint32_t)m;
    s[16] = (uint32_t)(m >> 32); s[17] = (uint32_t)sq; s[18] = (uint32_t)((uint64_t)sq >> 32);

    float x = (float)(s[19] % 10000) / 97.0f + 0.5f, y = 0.0f;
    for (int i = 1; i < 30; i++) {
        y += __builtin_sqrtf(x * (float)i) / (float)(i + 1);
        x = x * 0.97f + y / 13.0f;
    }
    union { float f; uint32_t u; } u = { y };
    s[20] = u.u;
    u.f = x;
    s[21] = u.u;

    uint32_t v[16];
    for (int i = 0; i < 16; i++) v[i] = hash(seed + (uint32_t)i) % 1000;
    for (int i = 0; i < 16; i++)
        for (int j = 0; j + 1 < 16 - i; j++)
            if (v[j] > v[j + 1]) { uint32_t t = v[j]; v[j] = v[j + 1]; v[j + 1] = t; }
    for (int i = 0; i < DIFF_MEM_WORDS; i++) s[DIFF_MEM + i] = v[i];
}
