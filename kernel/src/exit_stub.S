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
    .globl __ws_thread_exit
    .type __ws_thread_exit, @function
__ws_thread_exit:
    .cfi_startproc
    .cfi_undefined ra
    .4byte 0x000280e7      /* jalr ra, 0(t0): the launch "calls" the kernel */
    .4byte 0x0000000b      /* 0xffff0000: tmc zero, the thread ends          */
    .cfi_endproc
    .size __ws_thread_exit, . - __ws_thread_exit
