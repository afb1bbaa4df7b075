/* Warpscope device ABI: the numbers shared by host code, the simulator and
 * device code (kernels). Plain #defines only, so it is valid C for both the
 * host compiler and the RISC-V kernel compiler. Documented in docs/device.md. */
#ifndef WARPSCOPE_ABI_H
#define WARPSCOPE_ABI_H

/* ---- Memory map (32-bit device address space) ---- */
#define WS_NULL_GUARD_END     0x00010000u /* [0, 64 KiB) always faults          */
#define WS_GLOBAL_BASE        0x01000000u /* modules + allocations live here     */
#define WS_GLOBAL_MAX_END     0xBF000000u /* global arena never grows past this: */
                                          /* 16 MiB below the stacks stay unmapped, */
                                          /* so lane 0's stack overflow faults      */
#define WS_STACK_BASE         0xC0000000u /* per-lane stacks, one slot per lane  */
#define WS_STACK_END          0xD0000000u
#define WS_SHARED_BASE        0xD0000000u /* per-block shared memory window      */
#define WS_SHARED_END         0xE0000000u
#define WS_DEVREG_BASE        0xFFFF0000u /* device registers                    */
#define WS_RETIRE_ADDR        0xFFFF0000u /* kernel return address: lane retires */
/* The exit stub the debug bus shows around WS_RETIRE_ADDR (read-only): the
 * launch's "call" of the kernel, then the instruction that ends the thread
 * (kernel/src/exit_stub.S, docs/debugging.md). */
#define WS_EXIT_STUB_BASE     0xFFFEFFFCu
#define WS_EXIT_STUB_SIZE     8u
#define WS_EXIT_STUB_CALL     0x000280E7u /* jalr ra, 0(t0)                     */
#define WS_EXIT_STUB_END      0x0000000Bu /* tmc zero: the thread ends          */

/* Modules are linked at this address (kernel/warpscope.ld) and relocated by
 * the loader when placed elsewhere. */
#define WS_MODULE_LINK_BASE   WS_GLOBAL_BASE

/* ---- Identity CSRs (read-only, per lane) ---- */
#define WS_CSR_LANE_ID        0xCC0 /* lane index within the warp              */
#define WS_CSR_WARP_ID        0xCC1 /* warp slot index within the core         */
#define WS_CSR_CORE_ID        0xCC2 /* core index                              */
#define WS_CSR_ACTIVE_MASK    0xCC3 /* lanes executing this instruction        */
#define WS_CSR_TID_X          0xCC4 /* thread index in block                   */
#define WS_CSR_TID_Y          0xCC5
#define WS_CSR_TID_Z          0xCC6
#define WS_CSR_CTAID_X        0xCC7 /* block index in grid                     */
#define WS_CSR_CTAID_Y        0xCC8
#define WS_CSR_CTAID_Z        0xCC9
#define WS_CSR_NTID_X         0xCCA /* block dimensions                        */
#define WS_CSR_NTID_Y         0xCCB
#define WS_CSR_NTID_Z         0xCCC
#define WS_CSR_NCTAID_X       0xCCD /* grid dimensions                         */
#define WS_CSR_NCTAID_Y       0xCCE
#define WS_CSR_NCTAID_Z       0xCCF
#define WS_CSR_LAUNCH_ID      0xCD0 /* launch sequence number on the device    */
#define WS_CSR_DYN_SHARED     0xCD1 /* address of dynamic shared memory        */
#define WS_CSR_SHARED_SIZE    0xCD2 /* total shared bytes of this block        */
#define WS_CSR_TID_LINEAR     0xCD3 /* x + y*ntid.x + z*ntid.x*ntid.y          */
#define WS_CSR_WARP_IN_BLOCK  0xCD4 /* warp index within the block             */
/* Graphics system values of the lane's vertex or fragment (0 in kernels).
 * Each belongs to a stage: fragment shaders: SYS0 pixel x, SYS1 pixel y,
 * SYS2 flags (bit 0 front facing, bit 1 helper lane), SYS3 primitive index
 * in the draw (per instance); vertex shaders: VERTEX the vertex index;
 * both: SYS4 instance index (of the fragment's primitive) and DRAW. A read in
 * the other stage or in a kernel faults, and a shader that reads one on
 * every run is refused by ws_gfx_pipeline_create (the debugger shows
 * WS_GFX_WRONG_STAGE there). (Until 2026-11-28 a
 * vertex shader read its vertex index at SYS0, so ws_pixel_x() there was
 * the vertex.) */
#define WS_CSR_GFX_SYS0       0xCD8
#define WS_CSR_GFX_SYS1       0xCD9
#define WS_CSR_GFX_SYS2       0xCDA
#define WS_CSR_GFX_SYS3       0xCDB
#define WS_CSR_GFX_DRAW       0xCDC /* draw number on the device               */
#define WS_CSR_GFX_SYS4       0xCDD
#define WS_CSR_GFX_VERTEX     0xCDE /* vertex index (vertex shaders)           */
#define WS_GFX_WRONG_STAGE    0xFFFFFFFFu /* a value read outside its stage     */
#define WS_GFX_SYSVALS        5u    /* words per lane: SYS0..SYS4             */
#define WS_GFX_FLAG_FRONT     1u
#define WS_GFX_FLAG_HELPER    2u
#define WS_CSR_LANES_PER_WARP 0xFC0
#define WS_CSR_WARPS_PER_CORE 0xFC1
#define WS_CSR_CORES          0xFC2

/* ---- Environment calls: a7 selects the service ---- */
#define WS_ECALL_WRITE        64     /* a0=fd (1,2), a1=buf, a2=len: device printf */
#define WS_ECALL_EXIT         93     /* lane retires (a0 ignored)                  */
#define WS_ECALL_ASSERT       0x5701 /* a0=expr, a1=file, a2=line, a3=function     */
#define WS_ECALL_TRAP         0x5702 /* a0=message: abort() / __builtin_trap       */
/* Texture unit (fragment shaders): a0=texture slot, fa0=u, fa1=v, fa2=lod
 * (WS_ECALL_TEX_LOD only) -> fa0..fa3 = r, g, b, a. WS_ECALL_TEX takes the
 * level of detail from the 2x2 quad's coordinates. */
#define WS_ECALL_TEX          0x5710
#define WS_ECALL_TEX_LOD      0x5711
#define WS_ECALL_DISCARD      0x5712 /* the fragment writes nothing (it runs on as a helper) */

/* ---- SIMT custom-0 instructions (opcode 0x0B, R-type) ---- */
#define WS_OPC_CUSTOM0        0x0B
/* funct7 = 0 */
#define WS_F3_TMC             0
#define WS_F3_WSPAWN          1
#define WS_F3_SPLIT           2
#define WS_F3_JOIN            3
#define WS_F3_BAR             4
#define WS_F3_PRED            5
/* funct7 = 1 */
#define WS_F3_VOTE_ALL        0
#define WS_F3_VOTE_ANY        1
#define WS_F3_VOTE_UNI        2
#define WS_F3_VOTE_BALLOT     3
#define WS_F3_SHFL_UP         4
#define WS_F3_SHFL_DOWN       5
#define WS_F3_SHFL_BFLY       6
#define WS_F3_SHFL_IDX        7
/* funct7 = 2: float atomics. amofadd.s rd, rs2, (rs1): each active lane
 * in lane order adds rs2 (float bits in an integer register) to the float
 * at rs1, rounding to nearest even whatever frm says and raising no
 * fflags, and gets the old value in rd (as a GPU's float reduction unit). */
#define WS_F7_FATOMIC         2
#define WS_F3_AMOFADD_S       2
/* amofadd.d rd, rs2, (rs1): the same for a double at an 8-byte-aligned
 * address, rd and rs2 even register pairs (low word in the even one; an
 * odd register is illegal, x0 as a pair reads zeros and is not written). */
#define WS_F3_AMOFADD_D       3

/* Section that holds __shared__ variables; linked at WS_SHARED_BASE. */
#define WS_SHARED_SECTION     ".ws_shared"
/* Section that holds kernel entry points (functions marked WS_KERNEL). */
#define WS_KERNEL_SECTION     ".ws_kernels"
/* Sections that hold shaders (functions marked WS_VERTEX / WS_FRAGMENT). */
#define WS_VERTEX_SECTION     ".ws_vertex"
/* A non-loaded section that <warpscope/shader.h> puts in every module it is
 * built into: the module reads the system values at the CSRs above. A
 * module with shaders and without it was built before 2026-11-28, when a
 * vertex shader read its vertex index at SYS0: it keeps that meaning. */
#define WS_SYSVALS_SECTION    ".ws_sysvals"
#define WS_FRAGMENT_SECTION   ".ws_fragment"

#endif
