/* Decoder + disassembler round trip through the LLVM assembler.
 *
 * usage: test_isa_disasm_clang <clang> <scratch-dir>
 * Every legal 16-bit parcel and many random legal 32-bit words are
 * disassembled; the text is assembled again by clang (as 32-bit
 * instructions) and decoded; the decoded fields must match, and 32-bit
 * words must come back bit for bit where no field is ignored. Branches and
 * jumps (absolute targets), SIMT ops (unknown to clang) and reserved
 * rounding modes are left out; they are covered by test_isa_disasm.
 * Exits 77 (skip) when clang is missing. */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "isa/isa.h"
#include "test.h"

#define SKIP 77
#define MAX_WORDS 120000

static int testable(const ws_inst *in)
{
    ws_op_class k = ws_op_class_of((ws_op)in->op);
    if (k == CLASS_INVALID || k == CLASS_BRANCH || k == CLASS_JUMP || k == CLASS_SIMT ||
        k == CLASS_BARRIER)
        return 0;
    if (in->rm == 5 || in->rm == 6) return 0;
    if (in->op == OP_FENCE) { /* fm, rs1, rd are ignored; empty sets have no syntax */
        unsigned f = (unsigned)in->imm;
        return (f >> 8) == 0 && (f & 0xF0) && (f & 0x0F);
    }
    return 1;
}

/* 32-bit words whose every bit survives the text form. */
static int exact_bits(const ws_inst *in)
{
    return in->len == 4 && in->op != OP_FENCE && in->op != OP_FENCE_I && !(in->op >= OP_LR_W && in->op <= OP_AMOMAXU_W) &&
           !(in->op == OP_ADD && in->rs1 == 0); /* printed as mv, assembled as addi */
}

/* Same instruction, allowing "mv" to be add rd, zero, rs or addi rd, rs, 0. */
static int same_fields(const ws_inst *x, const ws_inst *y)
{
    if (x->op == OP_ADD && x->rs1 == 0 && y->op == OP_ADDI)
        return y->rd == x->rd && y->rs1 == x->rs2 && y->imm == 0;
    if (x->op == OP_FENCE_I) return y->op == OP_FENCE_I;
    if (x->op == OP_FENCE) return y->op == OP_FENCE && (y->imm & 0xFF) == (x->imm & 0xFF);
    return x->op == y->op && x->rd == y->rd && x->rs1 == y->rs1 && x->rs2 == y->rs2 &&
           x->rs3 == y->rs3 && x->rm == y->rm && x->imm == y->imm;
}

/* The bytes of .text in an ELF32 relocatable object. */
static uint8_t *read_text(const char *path, size_t *len)
{
    size_t n;
    uint8_t *img = ws_test_read_file(path, &n);
    if (img && n <= sizeof(Elf32_Ehdr)) { free(img); img = NULL; }
    if (!img) return NULL;
    Elf32_Ehdr eh;
    memcpy(&eh, img, sizeof eh);
    uint8_t *out = NULL;
    if (eh.e_shoff + (size_t)eh.e_shnum * sizeof(Elf32_Shdr) <= (size_t)n && eh.e_shstrndx < eh.e_shnum) {
        Elf32_Shdr str, sh;
        memcpy(&str, img + eh.e_shoff + eh.e_shstrndx * sizeof sh, sizeof str);
        for (unsigned i = 0; i < eh.e_shnum && !out; i++) {
            memcpy(&sh, img + eh.e_shoff + i * sizeof sh, sizeof sh);
            if (str.sh_offset + sh.sh_name + 6 > (size_t)n || sh.sh_offset + sh.sh_size > (size_t)n) continue;
            if (strcmp((const char *)img + str.sh_offset + sh.sh_name, ".text") != 0) continue;
            out = malloc(sh.sh_size ? sh.sh_size : 1);
            if (out) { memcpy(out, img + sh.sh_offset, sh.sh_size); *len = sh.sh_size; }
        }
    }
    free(img);
    return out;
}

static uint32_t rng(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13; x ^= x >> 17; x ^= x << 5;
    return *s = x;
}

/* A random word with a known major opcode, so most of them are legal. */
static uint32_t rnd_word(uint32_t *s)
{
    static const uint8_t opcodes[] = { 0x37, 0x17, 0x03, 0x23, 0x13, 0x33, 0x0F, 0x73,
                                       0x2F, 0x07, 0x27, 0x43, 0x47, 0x4B, 0x4F, 0x53 };
    uint32_t w = rng(s) & ~0x7Fu;
    uint8_t opc = opcodes[rng(s) % sizeof opcodes];
    if (opc == 0x53 || opc == 0x2F) { /* make funct7 / funct5 hit real ops more often */
        static const uint8_t f7[] = { 0x00, 0x04, 0x08, 0x0C, 0x2C, 0x10, 0x14, 0x50, 0x60, 0x68, 0x70, 0x78 };
        static const uint8_t f5[] = { 0x00, 0x01, 0x02, 0x03, 0x04, 0x08, 0x0C, 0x10, 0x14, 0x18, 0x1C };
        if (opc == 0x53) w = (w & 0x01FFFFFFu) | (uint32_t)f7[rng(s) % sizeof f7] << 25;
        else w = (w & 0x07FF8FFFu) | (uint32_t)f5[rng(s) % sizeof f5] << 27 | 2u << 12;
        if ((rng(s) & 3) == 0) w &= ~(0x1Fu << 20); /* rs2 = 0 for the unary ops */
    }
    if (opc >= 0x43 && opc <= 0x4F) w &= ~(3u << 25);
    if (opc == 0x73 && (rng(s) & 1)) w = (w & ~0xFFF00000u) | (uint32_t)(0xC00 + rng(s) % 3) << 20;
    return w | opc;
}

int main(int argc, char **argv)
{
    if (argc < 3 || access(argv[1], X_OK) != 0) {
        printf("skipped: clang not found\n");
        return SKIP;
    }
    static uint32_t words[MAX_WORDS];
    size_t nw = 0;
    for (uint32_t h = 0; h < 0x10000; h++) {
        ws_inst in;
        ws_decode(h, &in);
        if ((h & 3) != 3 && testable(&in)) words[nw++] = h;
    }
    size_t n16 = nw;
    uint32_t s = 0x1234567u;
    while (nw < MAX_WORDS) {
        uint32_t w = rnd_word(&s);
        ws_inst in;
        ws_decode(w, &in);
        if (testable(&in)) words[nw++] = w;
    }

    char spath[4096], opath[4096], cmd[12400];
    snprintf(spath, sizeof spath, "%s/isa_roundtrip_%d.s", argv[2], (int)getpid());
    snprintf(opath, sizeof opath, "%s/isa_roundtrip_%d.o", argv[2], (int)getpid());
    FILE *f = fopen(spath, "w");
    if (!f) { perror(spath); return 1; }
    fprintf(f, ".option norvc\n");
    for (size_t i = 0; i < nw; i++) {
        ws_inst in;
        char text[96];
        ws_decode(words[i], &in);
        ws_disasm(&in, 0, text, sizeof text);
        fprintf(f, "%s\n", text);
    }
    fclose(f);
    snprintf(cmd, sizeof cmd, "'%s' --target=riscv32-unknown-elf -march=rv32imafc -mno-relax -c '%s' -o '%s'",
             argv[1], spath, opath);
    int rc = system(cmd);
    CHECK_EQ_U(rc, 0);
    size_t len = 0;
    uint8_t *text = rc == 0 ? read_text(opath, &len) : NULL;
    CHECK(text != NULL);
    CHECK_EQ_U(len, nw * 4);
    long bad = 0;
    if (text && len == nw * 4) {
        for (size_t i = 0; i < nw; i++) {
            uint32_t w2;
            memcpy(&w2, text + 4 * i, 4);
            ws_inst x, y;
            ws_decode(words[i], &x);
            ws_decode(w2, &y);
            int ok = same_fields(&x, &y) && (!exact_bits(&x) || w2 == words[i]);
            if (!ok && bad++ < 20) {
                char t1[96], t2[96];
                ws_disasm(&x, 0, t1, sizeof t1);
                ws_disasm(&y, 0, t2, sizeof t2);
                fprintf(stderr, "round trip: 0x%08x \"%s\" -> 0x%08x \"%s\"\n", words[i], t1, w2, t2);
            }
        }
    }
    CHECK_EQ_U(bad, 0);
    printf("round trip through clang: %zu compressed + %zu 32-bit words\n", n16, nw - n16);
    free(text);
    remove(spath);
    remove(opath);
    return TEST_SUMMARY();
}
