/* A function whose call frame rows sit in .eh_frame (as picolibc's
 * assembly routines' do) with 30 compressed stack stores between two
 * rows: in a recording rewrite each store gets a helper call before it,
 * so the 1-byte advances between the rows need 2 bytes and the FDE no
 * longer fits its place (rewrite_cfi.c moves it to .debug_frame). */
        .cfi_sections .eh_frame
        .text
        .globl  spill_many
        .type   spill_many, @function
spill_many:
        .cfi_startproc
        addi    sp, sp, -128
        .cfi_def_cfa_offset 128
        .rept 30
        c.swsp  a0, 0(sp)
        .endr
        c.swsp  ra, 124(sp)
        .cfi_offset ra, -4
        .rept 30
        c.swsp  a1, 4(sp)
        .endr
        c.swsp  s0, 120(sp)
        .cfi_offset s0, -8
        .rept 30
        c.swsp  a2, 8(sp)
        .endr
        c.swsp  s1, 116(sp)
        .cfi_offset s1, -12
        .rept 30
        c.swsp  a3, 12(sp)
        .endr
        c.lwsp  s1, 116(sp)
        .cfi_restore s1
        c.lwsp  s0, 120(sp)
        .cfi_restore s0
        c.lwsp  ra, 124(sp)
        .cfi_restore ra
        addi    sp, sp, 128
        .cfi_def_cfa_offset 0
        ret
        .cfi_endproc
        .size   spill_many, .-spill_many
