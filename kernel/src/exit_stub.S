/* The device's exit stub, as gdb sees it (docs/debugging.md, "The kernel
 * frame"). Every lane starts in a kernel with ra = WS_RETIRE_ADDR
 * (0xffff0000); the hardware's launch acts as the call just before it, and
 * the word at 0xffff0000 is the instruction that ends the thread. This file
 * is never run: it is linked at those addresses so the gdb server can offer
 * it as a library whose symbol names the kernel's caller and whose CFI says
 * it is the outermost frame (ra undefined), so `bt` ends there, and so
 * `finish`, `until` and a watchpoint's scope breakpoint have a real
 * address to stop at. */
    .section .text.ws_exit, "ax"

/* Where gdb sees the device stand, with no warp resident, while the
 * program waits on a work distributor or command processor that one of
 * the debugger's debug machines halted (docs/debugging.md): the gdb
 * server's placeholder thread reports its pc here (target_dbg.c,
 * WS_GDB_WD_HELD_PC and WS_GDB_CP_HELD_PC), just below the stub. Never
 * run; the debug bus does not show these words. */
    .globl __ws_work_distributor_held
    .type __ws_work_distributor_held, @function
__ws_work_distributor_held:     /* 0xfffefff4 */
    .cfi_startproc
    .cfi_undefined ra
    .4byte 0x00000013
    .cfi_endproc
    .size __ws_work_distributor_held, . - __ws_work_distributor_held

    .globl __ws_command_processor_held
    .type __ws_command_processor_held, @function
__ws_command_processor_held:    /* 0xfffefff8 */
    .cfi_startproc
    .cfi_undefined ra
    .4byte 0x00000013
    .cfi_endproc
    .size __ws_command_processor_held, . - __ws_command_processor_held

    .globl __ws_thread_exit
    .type __ws_thread_exit, @function
__ws_thread_exit:
    .cfi_startproc
    .cfi_undefined ra
    .4byte 0x000280e7      /* jalr ra, 0(t0): the launch "calls" the kernel */
    .4byte 0x0000000b      /* 0xffff0000: tmc zero, the thread ends          */
    .cfi_endproc
    .size __ws_thread_exit, . - __ws_thread_exit

