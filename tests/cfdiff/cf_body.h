/* Interface between a generated control-flow program (gen_cf), the device
 * kernel (cf_kernel.c), the qemu start-up code (cf_qemu.c) and the host
 * test (test_cfdiff.c).
 *
 * Thread tid (global id) reads CF_IN words at in + tid * CF_IN and owns
 * CF_OUT words at out + tid * CF_OUT. cf_phase_a runs first; it returns 1
 * when the thread ends there (the device thread returns before the
 * barrier), else 0 with *x set. After a block barrier, thread t of the
 * block reads the x of thread (t * 7 + 3) % block size of its block (0 if
 * that thread ended) and runs cf_phase_b with it. */
#ifndef WS_CF_BODY_H
#define WS_CF_BODY_H
#include <stdint.h>
#ifdef CF_DEVICE /* the device build prints a line at every EMIT (printf order is compared) */
#include <warpscope/kernel.h>
#define CF_PRINT(tid, ph, n) printf("t%u %08x %u\n", (unsigned)(tid), (unsigned)(ph), (unsigned)(n))
/* warp vote, shuffle and active mask in divergent code: out[CF_VOTE_WORD]
 * depends on how lanes are grouped, so it is compared between device
 * configurations of one warp width, not with qemu */
#define VOTE(x) (vh = vh * 0x01000193u + ws_ballot((int)((x) & 1)) + (uint32_t)ws_shfl_xor((int)(x), 1) * 3u + \
                      (uint32_t)ws_shfl_down((int)(x), 2) * 5u + ws_active_mask())
#else
#define CF_PRINT(tid, ph, n) ((void)0)
#define VOTE(x) ((void)(x))
#endif
#define CF_VOTE_WORD 21

#define CF_IN 16
#define CF_OUT 24
#define CF_GRID 2
#define CF_BLOCK 40
#define CF_THREADS (CF_GRID * CF_BLOCK)

int cf_phase_a(uint32_t tid, const uint32_t *in, uint32_t *out, uint32_t *x);
void cf_phase_b(uint32_t tid, uint32_t x, const uint32_t *in, uint32_t *out);
#endif
