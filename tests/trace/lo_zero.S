/* An auipc/addi pair whose low part is 0 (the code and its target both
 * start a page), as the linker resolves some of libgcc's: disassembled,
 * the addi reads "mv a0, a0". The rewriter moves the code, so the pair
 * gets a non-zero low part, and the round trip must take the two as the
 * same instruction (trace.rewrite_roundtrip). */
        .text
        .balign 4096
        .globl  load_page_word
        .type   load_page_word, @function
load_page_word:
.Lpair:
        auipc   a0, %pcrel_hi(page_word)
        addi    a0, a0, %pcrel_lo(.Lpair)
        lw      a0, 0(a0)
        ret
        .size   load_page_word, .-load_page_word

        .section .rodata
        .balign 4096
page_word:
        .word   0x600d
