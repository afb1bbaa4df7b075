/* Source correlation: a sample's PC (a device address) goes back to the
 * module's link address, then through the DWARF line map to file:line,
 * function and inline chain; the instruction itself is disassembled from
 * the module image. */
#include <stdlib.h>
#include <string.h>
#include "device/timing.h"
#include "isa/isa.h"
#include "profile/prof_internal.h"

/* The instruction at off of the module image; 0 if off is outside it. */
static int decode_at(const uint8_t *code, uint32_t size, uint32_t off, ws_inst *in)
{
    if (!code || off >= size || size - off < 2) return 0;
    uint32_t bits = 0;
    memcpy(&bits, code + off, size - off >= 4 ? 4 : 2);
    ws_decode(bits, in);
    return 1;
}

/* The instruction's text into buf ("" outside the image); its op (ws_op,
 * OP_ILLEGAL outside the image) returned. */
static uint16_t disasm_at(const uint8_t *code, uint32_t size, uint32_t off, uint32_t pc,
                          char *buf, size_t len)
{
    buf[0] = 0;
    ws_inst in;
    if (!decode_at(code, size, off, &in)) return OP_ILLEGAL;
    ws_disasm(&in, pc, buf, len);
    return in.op;
}

static int has_reg(const uint8_t *regs, size_t n, uint8_t r)
{
    for (size_t i = 0; i < n; i++)
        if (regs[i] == r) return 1;
    return 0;
}

/* Whether the consumer waits on the producer's destination only to
 * overwrite it (the scoreboard's write after write, docs/timing.md): it
 * writes that register and reads none the producer writes. */
static int waits_to_overwrite(const uint8_t *code, uint32_t size, uint32_t consumer, uint32_t producer)
{
    ws_inst c, p;
    if (!decode_at(code, size, consumer, &c) || !decode_at(code, size, producer, &p)) return 0;
    ws_op_timing ct, pt;
    ws_op_timing_of(&c, &ct);
    ws_op_timing_of(&p, &pt);
    if (!pt.dst || ct.more || pt.more) return 0; /* (register pairs, ecalls: not judged) */
    return ct.dst == pt.dst && !has_reg(ct.src, sizeof ct.src, pt.dst);
}

/* Code of the device headers (<warpscope/kernel.h>: barriers, thread ids,
 * atomics) is inlined into kernels; its lines mean nothing to the kernel's
 * author, so even with --inline callee such PCs go to the call site. */
static int is_device_header(const char *file)
{
    size_t n = file ? strlen(file) : 0, k = strlen("warpscope/kernel.h");
    return n >= k && !strcmp(file + n - k, "warpscope/kernel.h");
}

/* The function that frame f of the chain belongs to: frame 0 is the
 * innermost (inlined callee), frame ninline the out-of-line function. */
static const char *frame_function(const ws_line_info *li, uint32_t f, const char *outer)
{
    if (f == 0) return li->function;
    if (f < li->ninline) return li->inlined[f].function;
    return li->outer ? li->outer : outer;
}

static void lookup(const ws_line_map *map, uint32_t link_addr, const char *outer, prof_inline mode, prof_src *out)
{
    memset(out, 0, sizeof *out);
    ws_line_info li;
    if (!map || ws_line_map_lookup(map, link_addr, &li)) {
        /* no line (library code built without -g): its symbol names it */
        const char *sym = ws_line_map_symbol(map, link_addr);
        if (sym) out->function = strdup(sym);
        return;
    }
    /* Which frame to charge: the caller's line by default (an inlined
     * library call such as fmaf belongs to the user's statement), or the
     * innermost line outside the device headers with --inline callee. */
    uint32_t f = 0;
    if (mode == PROF_INLINE_CALLER) f = li.ninline;
    else
        while (f < li.ninline && is_device_header(f ? li.inlined[f - 1].call_file : li.file)) f++;
    const char *file = f ? li.inlined[f - 1].call_file : li.file;
    const char *fn = frame_function(&li, f, outer);
    if (file) out->file = strdup(file);
    out->line = f ? li.inlined[f - 1].call_line : li.line;
    if (fn) out->function = strdup(fn);
    if (li.ninline) {
        /* "callee <- caller (file:line of the call) <- ...", outermost last */
        char buf[512];
        size_t n = (size_t)snprintf(buf, sizeof buf, "%s", li.function ? li.function : "?");
        for (uint32_t i = 0; i < li.ninline && n < sizeof buf; i++) {
            const char *caller = frame_function(&li, i + 1, outer);
            n += (size_t)snprintf(buf + n, sizeof buf - n, " <- %s (%s:%u)", caller ? caller : "?",
                                  li.inlined[i].call_file ? li.inlined[i].call_file : "?",
                                  li.inlined[i].call_line);
        }
        out->inline_chain = strdup(buf);
    }
}

void prof_correlate_fault(prof_fault *fl, const ws_line_map *map, uint32_t base, uint32_t link_base,
                          const uint8_t *code, uint32_t code_size, const char *outer, prof_inline mode)
{
    prof_src_free(&fl->src);
    if (fl->pc < base) return;
    lookup(map, link_base + (fl->pc - base), outer, mode, &fl->src);
    disasm_at(code, code_size, fl->pc - base, fl->pc, fl->disasm, sizeof fl->disasm);
}

void prof_correlate(prof_pc *p, size_t n, const ws_line_map *map, uint32_t base,
                    uint32_t link_base, const uint8_t *code, uint32_t code_size, const char *outer,
                    prof_inline mode)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t off = p[i].pc - base;
        prof_src_free(&p[i].src);
        lookup(map, link_base + off, outer, mode, &p[i].src);
        p[i].op = disasm_at(code, code_size, off, p[i].pc, p[i].disasm, sizeof p[i].disasm);
        if (p[i].producer_pc) {
            uint32_t po = p[i].producer_pc - base;
            prof_src_free(&p[i].producer_src);
            lookup(map, link_base + po, outer, mode, &p[i].producer_src);
            disasm_at(code, code_size, po, p[i].producer_pc, p[i].producer_disasm,
                      sizeof p[i].producer_disasm);
            p[i].producer_waw = waits_to_overwrite(code, code_size, off, po);
        }
    }
}

void prof_no_line_text(const char *function, char *buf, size_t len)
{
    if (function) snprintf(buf, len, "no line information, in %.60s", function);
    else snprintf(buf, len, "no line information");
}

int prof_source_line(const char *file, uint32_t line, char *buf, size_t len)
{
    if (!file || !line || len < 2) return -1;
    FILE *f = fopen(file, "r");
    if (!f) return -1;
    uint32_t at = 1;
    int c, rc = line == 1 ? 0 : -1;
    size_t n = 0;
    while ((c = fgetc(f)) != EOF) {
        if (c == '\n') {
            if (at++ == line) break;
            if (at == line) rc = 0;
        } else if (at == line && n + 1 < len) {
            buf[n++] = c == '\t' ? ' ' : (char)c;
        }
    }
    fclose(f);
    buf[n] = 0;
    /* Trim leading blanks: the report indents on its own. */
    size_t s = 0;
    while (buf[s] == ' ') s++;
    memmove(buf, buf + s, n - s + 1);
    return rc;
}
