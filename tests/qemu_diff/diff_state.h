/* Layout of one differential-test state block, shared by the generator,
 * the device kernel, the qemu start-up code and the host test. */
#ifndef WS_DIFF_STATE_H
#define WS_DIFF_STATE_H
#define DIFF_X 0          /* words 0..31: x registers (x0, sp, a0 unused) */
#define DIFF_F 32         /* words 32..63: f registers                     */
#define DIFF_FCSR 64      /* word 64: fcsr                                 */
#define DIFF_MEM 65       /* words 65..80: scratch memory                  */
#define DIFF_MEM_WORDS 16
#define DIFF_WORDS 81
#define DIFF_STATES 64    /* states per seed: two warps of 32 lanes        */
#endif
