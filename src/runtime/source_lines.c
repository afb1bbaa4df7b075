/* Source lines for device PCs, from the DWARF of the module that holds the
 * PC: "vecadd.c:13", and for code inlined into the kernel the chain of call
 * sites, innermost first. Fault reports use it (the device calls it through
 * dev->describe_pc, set at device open) so a kernel built with -g names the
 * faulting line, as compute-sanitizer users expect. Given the faulting lane,
 * the report goes on with the lines of the calls that led there (", called
 * from FILE:LINE in F"), unwound from the lane's registers and stack with
 * the modules' call-frame information: a fault inside a library function
 * (memset, a helper of another module) names the kernel line that called
 * it. */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdio.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include "runtime/runtime.h"
#include "runtime/source_lines.h"
#include "runtime/func_symbols.h"
#include "runtime/path_text.h"

/* The loaded code holding pc: the device's code table, which has the
 * program's modules and also the tracer's instrumented twins (whose line
 * tables are rebuilt), so a fault inside a twin names its source line. */
static const ws_code_region *code_at(const ws_device *dev, uint32_t pc)
{
    for (size_t i = 0; i < dev->ncode; i++) {
        const ws_code_region *r = &dev->code[i];
        if (pc - r->base < r->size) return r;
    }
    return NULL;
}

/* The name of a CU's file number (DW_AT_call_file). */
static const char *cu_file(Dwarf_Die *cu, Dwarf_Word idx)
{
    Dwarf_Files *files;
    size_t n;
    if (dwarf_getsrcfiles(cu, &files, &n) != 0 || idx >= n) return "?";
    const char *s = dwarf_filesrc(files, idx, NULL, NULL);
    return s ? s : "?";
}

static const char *scope_name(Dwarf_Die *d)
{
    Dwarf_Attribute a;
    const char *s = dwarf_formstring(dwarf_attr_integrate(d, DW_AT_name, &a));
    return s ? s : "?";
}

/* The CU whose ranges hold pc. Not dwarf_addrdie: it trusts .debug_aranges,
 * which the device library's CUs have and clang's do not. */
static int find_cu(Dwarf *dw, Dwarf_Addr pc, Dwarf_Die *out)
{
    Dwarf_Off off = 0, next;
    size_t hsize;
    while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
        if (dwarf_offdie(dw, off + hsize, out) && dwarf_haspc(out, pc) == 1) return 1;
        off = next;
    }
    return 0;
}

/* One level of the chain: a source line and the function it is in (NULL
 * when DWARF has no scope for it); how it is joined to the level before:
 * the fault's own line, a call site of inlined code, or a real call. */
enum { FR_AT = 0, FR_INLINED = 1, FR_CALLED = 2, FR_MORE = 3 };
typedef struct {
    const char *file;
    long line;        /* FR_MORE: how many levels are left out here */
    const char *func;
    int kind;
    unsigned long times; /* FR_CALLED: the same call this many times in a row (recursion) */
} src_frame;

/* Levels kept: the first MAX_HEAD, then the last MAX_TAIL (the kernel's
 * line among them) with a count of the ones between; calls unwound: up
 * to MAX_CALLS (a recursion as deep as a lane's stack allows). */
enum { MAX_HEAD = 48, MAX_TAIL = 16, MAX_FRAMES = MAX_HEAD + 1 + MAX_TAIL, MAX_CALLS = 100000 };

/* The inline chain for pc, innermost first; the last frame is the
 * function's own line. At most `room` frames (>= 1). Returns the number of
 * frames (0: no line information). */
static int collect(Dwarf_Die *cu, uint32_t link_pc, src_frame *fr, int room)
{
    Dwarf_Line *line = dwarf_getsrc_die(cu, link_pc);
    int lineno = 0;
    const char *file = line ? dwarf_linesrc(line, NULL, NULL) : NULL;
    if (!file || dwarf_lineno(line, &lineno) != 0) return 0;
    int nf = 1;
    fr[0] = (src_frame){ file, lineno, NULL, FR_AT, 1 };
    /* dwarf_getscopes continues from an inlined function to the scopes of
     * its abstract definition, which ends the chain after one level; the
     * innermost scope's parents in the concrete tree give the whole chain. */
    Dwarf_Die *scopes = NULL, inner;
    int ns = dwarf_getscopes(cu, link_pc, &scopes);
    if (ns > 0) {
        inner = scopes[0];
        free(scopes);
        scopes = NULL;
        ns = dwarf_getscopes_die(&inner, &scopes);
    }
    for (int i = 0; i < ns; i++) {
        int tag = dwarf_tag(&scopes[i]);
        if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram) continue;
        fr[nf - 1].func = scope_name(&scopes[i]);
        if (tag == DW_TAG_subprogram || nf == room) break;
        Dwarf_Attribute a;
        Dwarf_Word f = 0, l = 0;
        dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_file, &a), &f);
        dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_line, &a), &l);
        fr[nf++] = (src_frame){ cu_file(cu, f), (long)l, NULL, FR_INLINED, 1 };
    }
    free(scopes);
    return nf;
}

/* Appends like snprintf at buf + n; returns the length the text needs. */
static size_t put_frame(char *buf, size_t len, size_t n, const src_frame *f, int base_only)
{
    static const char *const join[] = { " at ", ", inlined at ", ", called from " };
    int w;
    if (f->kind == FR_MORE) {
        w = snprintf(n < len ? buf + n : NULL, n < len ? len - n : 0, ", ... (%ld more)", f->line);
        return w < 0 ? n : n + (size_t)w;
    }
    if (!f->file) { /* a function without line information */
        w = snprintf(n < len ? buf + n : NULL, n < len ? len - n : 0, "%s%s (no line information)", join[f->kind],
                     f->func);
        return w < 0 ? n : n + (size_t)w;
    }
    const char *file = base_only ? ws_path_base(f->file) : f->file;
    char times[32] = "";
    if (f->times > 1) snprintf(times, sizeof times, " (%lu times)", f->times);
    w = snprintf(n < len ? buf + n : NULL, n < len ? len - n : 0, "%s%s:%ld%s%s%s", join[f->kind], file, f->line,
                 f->func ? " in " : "", f->func ? f->func : "", times);
    return w < 0 ? n : n + (size_t)w;
}

/* The chain as text: full paths; file names only; or only the fault's own
 * line, the first call that led there (the innermost caller: where the
 * user's code called a library function) and the outermost line (the
 * kernel's), the levels between left out. */
static size_t render(const src_frame *fr, int nf, int shorten, char *buf, size_t len)
{
    int first_call = nf;
    for (int i = 1; i < nf && first_call == nf; i++)
        if (fr[i].kind == FR_CALLED) first_call = i;
    size_t n = 0;
    for (int i = 0; i < nf;) {
        int keep = shorten < 2 || i == 0 || i == first_call || i == nf - 1;
        if (keep) {
            n = put_frame(buf, len, n, &fr[i], shorten > 0);
            i++;
            continue;
        }
        int j = i;
        long more = 0;
        for (; j < nf && j != first_call && j != nf - 1; j++) more += fr[j].kind == FR_MORE ? fr[j].line : 1;
        int w = snprintf(n < len ? buf + n : NULL, n < len ? len - n : 0, ", ... (%ld more)", more);
        n += w < 0 ? 0 : (size_t)w;
        i = j;
    }
    return n;
}

/* The levels of a chain as they are found, innermost first: the first
 * MAX_HEAD, the last MAX_TAIL, and how many fell between. */
typedef struct {
    src_frame head[MAX_HEAD], tail[MAX_TAIL];
    int nhead, ntail;
    long more;
    char text[32768];  /* the levels' names: DWARF's strings go with its module */
    size_t used;
} chain;

/* A copy of s that outlives the module's DWARF. */
static const char *chain_str(chain *c, const char *s)
{
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    if (n > sizeof c->text - c->used) return "?";
    char *d = memcpy(c->text + c->used, s, n);
    c->used += n;
    return d;
}

static src_frame *chain_last(chain *c)
{
    return c->ntail ? &c->tail[c->ntail - 1] : c->nhead ? &c->head[c->nhead - 1] : NULL;
}

static void chain_add(chain *c, const src_frame *in)
{
    src_frame f[1] = { *in };
    f->file = chain_str(c, in->file);
    f->func = chain_str(c, in->func);
    if (c->nhead < MAX_HEAD) {
        c->head[c->nhead++] = *f;
        return;
    }
    if (c->ntail == MAX_TAIL) {
        memmove(c->tail, c->tail + 1, (MAX_TAIL - 1) * sizeof *c->tail);
        c->ntail--;
        c->more++;
    }
    c->tail[c->ntail++] = *f;
}

/* Levels of one frame: a call that repeats the level before it (the same
 * line of a recursion) counts there. */
static void chain_add_frame(chain *c, const src_frame *f, int n)
{
    src_frame *last = chain_last(c);
    if (n == 1 && f->kind == FR_CALLED && last && last->kind == FR_CALLED && last->line == f->line && f->file && last->file &&
        !strcmp(last->file, f->file) && (last->func == f->func || (last->func && f->func && !strcmp(last->func, f->func)))) {
        last->times++;
        return;
    }
    for (int i = 0; i < n; i++) chain_add(c, &f[i]);
}

/* The chain in order, with one FR_MORE level where levels were left out. */
static int chain_flat(const chain *c, src_frame *fr)
{
    int n = 0;
    for (int i = 0; i < c->nhead; i++) fr[n++] = c->head[i];
    if (c->more) fr[n++] = (src_frame){ "", c->more, NULL, FR_MORE, 1 };
    for (int i = 0; i < c->ntail; i++) fr[n++] = c->tail[i];
    return n;
}

/* One module's ELF and DWARF, opened while the unwinder is in its code. */
typedef struct {
    const ws_code_region *m;
    Elf *e;
    Dwarf *dw;
    Dwarf_CFI *dcfi, *ecfi; /* .debug_frame (owned by dw), .eh_frame (ours) */
    ws_func_syms funcs;     /* built at the first lookup */
    int funcs_read;
} mod_view;

static void mod_close(mod_view *v)
{
    ws_func_syms_free(&v->funcs);
    if (v->ecfi) dwarf_cfi_end(v->ecfi);
    if (v->dw) dwarf_end(v->dw);
    if (v->e) elf_end(v->e);
    memset(v, 0, sizeof *v);
}

static int mod_open(mod_view *v, const ws_code_region *m)
{
    if (v->m == m) return v->dw ? 0 : -1;
    mod_close(v);
    v->m = m;
    if (!m->image) return -1;
    v->e = elf_memory((char *)(uintptr_t)m->image, m->image_size); /* libelf only reads it */
    v->dw = v->e ? dwarf_begin_elf(v->e, DWARF_C_READ, NULL) : NULL;
    if (!v->dw) return -1;
    v->dcfi = dwarf_getcfi(v->dw);
    v->ecfi = dwarf_getcfi_elf(v->e);
    return 0;
}

/* The function symbol of the module holding link address a: its start,
 * or UINT32_MAX; *name its name when name is not NULL ("" if none). The
 * symbols are sorted once per opened module: the caller view of a
 * profile looks up several per sample. */
static uint32_t func_symbol(mod_view *v, uint32_t a, const char **name)
{
    if (!v->funcs_read) {
        v->funcs_read = 1;
        ws_func_syms_build(&v->funcs, v->e);
    }
    return ws_func_syms_find(&v->funcs, a, name);
}

static uint32_t func_start(mod_view *v, uint32_t a) { return func_symbol(v, a, NULL); }

/* The faulting lane as the unwinder sees it: x1..x31 of the frame being
 * unwound (valid: the ones known) and its own stack to read from. */
typedef struct {
    const ws_device *dev;
    const ws_warp *w;
    uint32_t lane;
    uint32_t r[32], valid;
} lane_regs;

/* A word of the lane's own stack (saved registers live there), 0; -1 if
 * addr is not in it. */
static int stack_word(const lane_regs *L, uint32_t addr, uint32_t *v)
{
    const ws_memory *mem = &L->dev->mem;
    uint32_t slot = L->w->stack_slot0 + L->lane, base = WS_STACK_BASE + (slot << mem->stack_shift);
    uint32_t off = addr - base;
    if ((addr & 3) || off > mem->stack_size - 4) return -1;
    memcpy(v, ws_mem_stack_ptr(mem, slot, off), 4);
    return 0;
}

/* Evaluate a CFI expression (the CFA's, or a register rule's) over L with
 * the frame's cfa. A register rule's value: a register, the word at the
 * location computed, or (DW_OP_stack_value) the value computed; *v. The
 * CFA's expression is a value (is_cfa). 0, or -1 if it cannot be known. */
static int cfi_eval(const lane_regs *L, const Dwarf_Op *ops, size_t n, uint32_t cfa, int is_cfa, uint32_t *v)
{
    uint32_t st[8];
    size_t sp = 0;
    int value = is_cfa;
    for (size_t i = 0; i < n; i++) {
        const Dwarf_Op *o = &ops[i];
        uint8_t a = o->atom;
        uint32_t reg = 32;
        if (a >= DW_OP_reg0 && a <= DW_OP_reg31) reg = a - DW_OP_reg0;
        else if (a == DW_OP_regx) reg = o->number < 32 ? (uint32_t)o->number : 33;
        if (reg != 32) { /* the value is in a register */
            if (reg > 31 || !(L->valid >> reg & 1) || n != 1) return -1;
            *v = L->r[reg];
            return 0;
        }
        if (sp == sizeof st / sizeof *st) return -1;
        if (a >= DW_OP_lit0 && a <= DW_OP_lit31) st[sp++] = a - DW_OP_lit0;
        else if (a >= DW_OP_breg0 && a <= DW_OP_breg31) {
            uint32_t r = a - DW_OP_breg0;
            if (!(L->valid >> r & 1)) return -1;
            st[sp++] = L->r[r] + (uint32_t)o->number;
        } else if (a == DW_OP_bregx) {
            if (o->number > 31 || !(L->valid >> o->number & 1)) return -1;
            st[sp++] = L->r[o->number] + (uint32_t)o->number2;
        } else if (a == DW_OP_call_frame_cfa) st[sp++] = cfa;
        else if (a == DW_OP_const1u || a == DW_OP_const2u || a == DW_OP_const4u || a == DW_OP_constu ||
                 a == DW_OP_const1s || a == DW_OP_const2s || a == DW_OP_const4s || a == DW_OP_consts)
            st[sp++] = (uint32_t)o->number;
        else if (a == DW_OP_plus_uconst && sp) st[sp - 1] += (uint32_t)o->number;
        else if ((a == DW_OP_plus || a == DW_OP_minus) && sp >= 2) {
            sp--;
            st[sp - 1] = a == DW_OP_plus ? st[sp - 1] + st[sp] : st[sp - 1] - st[sp];
        } else if (a == DW_OP_deref && sp) {
            if (stack_word(L, st[sp - 1], &st[sp - 1])) return -1;
        } else if (a == DW_OP_stack_value) value = 1;
        else if (a != DW_OP_nop) return -1;
    }
    if (!sp) return -1;
    if (value) *v = st[sp - 1];
    else if (stack_word(L, st[sp - 1], v)) return -1;
    return 0;
}

/* Is the instruction before return address ret (link address) a call, one
 * that links register `link` (jal, jalr; for ra also c.jal, c.jalr)? Its
 * size in bytes (2 or 4), or 0. Read from the module's code in device
 * memory. (libgcc's register-save millicode is called through t0.) */
static int after_call(const ws_device *dev, const ws_code_region *m, uint32_t ret, uint32_t link)
{
    uint32_t a4 = ret - 4, a2 = ret - 2, w = 0;
    uint16_t h = 0;
    if (link == 1 && a2 >= m->text_lo && a2 + 2 <= m->text_hi && ws_mem_in_global(&dev->mem, a2)) {
        memcpy(&h, ws_mem_global_ptr(&dev->mem, a2), 2);
        if ((h & 0xF07F) == 0x9002 && (h & 0x0F80)) return 2; /* c.jalr rs1 */
        if ((h & 0xE003) == 0x2001) return 2;                 /* c.jal (RV32) */
    }
    if (a4 >= m->text_lo && a4 + 4 <= m->text_hi && ws_mem_in_global(&dev->mem, a4)) {
        memcpy(&w, ws_mem_global_ptr(&dev->mem, a4), 4);
        if ((w & 3) == 3 && ((w >> 7) & 31) == link && ((w & 0x7F) == 0x6F || (w & 0x707F) == 0x67))
            return 4; /* jal link / jalr link */
    }
    return 0;
}

/* Is the instruction at device address pc a return? The register it
 * returns through: 1 for ret (c.jr ra, jalr x0, 0(ra)), 5 for jr t0, the
 * alternate link register (libgcc's register-save millicode returns so);
 * 0 for any other instruction. Its function's epilogue has run: sp and the
 * saved registers are the caller's again, and the return address is in
 * that register, whatever the CFI says (clang describes no epilogue, and
 * the millicode's CFI is wrong once it has given back the unused part of
 * its frame). */
static uint32_t return_link(const ws_device *dev, const ws_code_region *m, uint32_t pc)
{
    uint16_t h = 0;
    uint32_t w = 0;
    if (pc < m->text_lo || pc + 2 > m->text_hi || !ws_mem_in_global(&dev->mem, pc)) return 0;
    memcpy(&h, ws_mem_global_ptr(&dev->mem, pc), 2);
    if (h == 0x8082) return 1; /* c.jr ra */
    if (h == 0x8282) return 5; /* c.jr t0 */
    if (pc + 4 > m->text_hi || !ws_mem_in_global(&dev->mem, pc + 3)) return 0;
    memcpy(&w, ws_mem_global_ptr(&dev->mem, pc), 4);
    if (w == 0x00008067u) return 1; /* jalr x0, 0(ra) */
    return w == 0x00028067u ? 5 : 0; /* jalr x0, 0(t0) */
}

/* The 32-bit instruction at device address a of module m, or 0. */
static uint32_t code_word(const ws_device *dev, const ws_code_region *m, uint32_t a)
{
    uint32_t w = 0;
    if (a < m->text_lo || a >= m->text_hi || m->text_hi - a < 4 || !ws_mem_in_global(&dev->mem, a) ||
        !ws_mem_in_global(&dev->mem, a + 3))
        return 0;
    memcpy(&w, ws_mem_global_ptr(&dev->mem, a), 4);
    return w;
}

static int is_auipc_t1(uint32_t w) { return (w & 0xFFF) == 0x317; }          /* auipc t1, hi */
static int is_jr_t1(uint32_t w) { return (w & 0xFFFFF) == 0x30067; }         /* jalr x0, lo(t1) */
static uint32_t i_imm(uint32_t w) { return (uint32_t)((int32_t)w >> 20); }

/* Is the instruction at device address pc a far tail jump, `auipc t1, hi;
 * jr lo(t1)` (GCC's `tail`), the lane at either half? Its target, or 0.
 * The jumping function's epilogue has run, so the lane's frame is the
 * target's at its entry: GCC's -msave-restore epilogue frees its locals
 * and jumps to __riscv_restore_N, and its CFI describes the two jump
 * instructions as if the millicode had already popped the saved
 * registers, which it has not. */
static uint32_t tail_jump_target(const ws_device *dev, const ws_code_region *m, uint32_t pc)
{
    uint32_t w = code_word(dev, m, pc), next = code_word(dev, m, pc + 4), prev = 0;
    if (is_auipc_t1(w) && is_jr_t1(next)) return pc + (w & 0xFFFFF000u) + i_imm(next);
    if (is_jr_t1(w) && pc >= 4 && is_auipc_t1(prev = code_word(dev, m, pc - 4)))
        return pc - 4 + (prev & 0xFFFFF000u) + i_imm(w);
    return 0;
}

/* The link address whose CFI describes the lane's frame at link (the
 * innermost frame): a tail jump's target when it enters another function
 * of the module at its first instruction, else link itself. */
static uint32_t frame_link(const ws_device *dev, mod_view *v, uint32_t pc, uint32_t link)
{
    const ws_code_region *m = v->m;
    const uint32_t target = tail_jump_target(dev, m, pc);
    if (!target) return link;
    const uint32_t tlink = target - m->base + m->link_base;
    return func_start(v, tlink) == tlink && func_start(v, link) != tlink ? tlink : link;
}

/* The register the CFI of link address `link` names as its return address
 * column, 0 without CFI. */
static uint32_t cfi_return_column(mod_view *v, uint32_t link)
{
    Dwarf_Frame *fs = NULL;
    if (v->dcfi && dwarf_cfi_addrframe(v->dcfi, link, &fs) != 0) fs = NULL;
    if (!fs && v->ecfi && dwarf_cfi_addrframe(v->ecfi, link, &fs) != 0) fs = NULL;
    if (!fs) return 0;
    int ra = dwarf_frame_info(fs, NULL, NULL, NULL);
    free(fs);
    return ra > 0 && ra < 32 ? (uint32_t)ra : 0;
}

/* At the first instruction of a function that returns through another
 * register than ra (libgcc's __riscv_save_N, entered by `jal t0`), that
 * register; else 0. Nothing is saved yet there, but the millicode's CFI
 * describes its later entry points as if the frame were already set up. */
static uint32_t entry_link(mod_view *v, uint32_t link)
{
    if (func_start(v, link) != link) return 0;
    const uint32_t col = cfi_return_column(v, link);
    return col != 1 ? col : 0;
}

/* The frame of a lane that has not saved its return address (a leaf, a
 * return, a millicode's entry): it is still in register `via`, and must
 * follow a call from another function. 0, or -1. */
static int unwind_unsaved(lane_regs *L, mod_view *v, uint32_t link, uint32_t via, uint32_t *ret)
{
    const ws_code_region *m = v->m;
    if (!(L->valid >> via & 1)) return -1;
    *ret = L->r[via];
    const ws_code_region *rm = code_at(L->dev, *ret);
    if (!rm || !after_call(L->dev, rm, *ret, via)) return -1;
    if (rm == m && func_start(v, *ret - 1 - m->base + m->link_base) == func_start(v, link)) return -1;
    L->valid &= ~(1u << via); /* the caller's own: only its CFI knows where it is */
    return 0;
}

/* The frame of pc (a device address; is_ret: a return address, in a
 * caller's frame) one level up: its return address, and L becomes the
 * caller's registers. With CFI for pc, by its rules; without, or at a
 * return, only for the innermost frame, as a leaf (an assembly routine
 * such as memset): the return address is still in ra (t0 in the
 * register-save millicode), and must follow a call from another function.
 * *via: the register the frame returns through (1: ra), 0 when it is
 * returning through t0: the millicode has set up its caller's frame, whose
 * registers are then those at the return address, not at the call before
 * it. 0, or -1 where the chain ends. */
static int unwind(lane_regs *L, mod_view *v, uint32_t pc, int is_ret, uint32_t *ret, uint32_t *via)
{
    const ws_code_region *m = v->m;
    const uint32_t link = pc - (uint32_t)is_ret - m->base + m->link_base;
    Dwarf_Frame *fs = NULL;
    uint32_t unsaved = 0; /* the register holding a return address not saved yet */
    if (!is_ret) unsaved = return_link(L->dev, m, pc);
    if (unsaved == 5 && cfi_return_column(v, link) != 5) unsaved = 0; /* a computed jump through t0 */
    if (!is_ret && !unsaved) unsaved = entry_link(v, link);
    const uint32_t cfi_link = is_ret ? link : frame_link(L->dev, v, pc, link);
    if (!unsaved && v->dcfi && dwarf_cfi_addrframe(v->dcfi, cfi_link, &fs) != 0) fs = NULL;
    if (!unsaved && !fs && v->ecfi && dwarf_cfi_addrframe(v->ecfi, cfi_link, &fs) != 0) fs = NULL;
    if (!fs) {
        if (is_ret) return -1;
        const uint32_t reg = unsaved ? unsaved : 1;
        *via = reg == 5 && return_link(L->dev, m, pc) == 5 ? 0 : reg;
        return unwind_unsaved(L, v, link, reg, ret);
    }
    Dwarf_Op *ops = NULL, mem[3];
    size_t nops = 0;
    uint32_t cfa = 0;
    int rc = -1;
    if (dwarf_frame_cfa(fs, &ops, &nops) == 0 && nops && cfi_eval(L, ops, nops, 0, 1, &cfa) == 0) {
        int ra = dwarf_frame_info(fs, NULL, NULL, NULL);
        lane_regs up = *L;
        up.valid = 0;
        for (int r = 1; r < 32; r++) {
            if (dwarf_frame_register(fs, r, mem, &ops, &nops) != 0) continue;
            /* same value; also the return column of the register-save
             * millicode (t0), which the ABI's default rules call clobbered
             * but the millicode keeps: it returns through it */
            if (!nops && (!ops || (r == ra && ra != 1))) {
                up.valid |= L->valid & (1u << r);
                up.r[r] = L->r[r];
            } else if (nops && cfi_eval(L, ops, nops, cfa, 0, &up.r[r]) == 0) {
                up.valid |= 1u << r;
            }
        }
        up.r[2] = cfa; /* the caller's sp: the CFA, by definition */
        up.valid |= 1u << 2;
        if (ra > 0 && ra < 32 && (up.valid >> ra & 1)) {
            *ret = up.r[ra];
            *via = (uint32_t)ra;
            *L = up;
            rc = 0;
        }
    }
    free(fs);
    return rc;
}

/* The lane as the unwinder starts: all its registers (w NULL: none). */
static void lane_init(lane_regs *L, const ws_device *dev, const ws_warp *w, uint32_t lane)
{
    memset(L, 0, sizeof *L);
    L->dev = dev, L->w = w, L->lane = lane;
    if (!w) return;
    for (uint32_t r = 1; r < 32; r++) L->r[r] = w->x[r][lane];
    L->valid = ~1u;
}

/* One level up the lane's calls: *pc becomes the return address (*is_ret
 * set) and L the caller's registers. The chain moves up the stack (a
 * corrupt one ends it, -1): a frame without stack of its own (a leaf) now
 * and then, never two in a row. The register-save millicode, entered
 * through t0 before its caller's frame exists, does not count: it cannot
 * recurse, and its caller is flat too until the millicode returns. */
static int step_up(lane_regs *L, mod_view *v, uint32_t *pc, int *is_ret, int *flat)
{
    const uint32_t sp = L->r[2];
    uint32_t ret = 0, via = 1;
    if (unwind(L, v, *pc, *is_ret, &ret, &via)) return -1;
    if (via == 1) *flat = L->r[2] == sp ? *flat + 1 : 0;
    if (L->r[2] < sp || *flat > 1 || (*flat && ret == *pc)) return -1;
    *pc = ret;
    *is_ret = via != 0; /* (0: the caller resumes at ret, its frame set up) */
    return 0;
}

/* Write " at FILE:LINE[ in F, inlined at FILE:LINE in G...][, called from
 * ...]" for pc, in at most len bytes. With a lane (w non-NULL), the calls
 * that led to pc follow, unwound from the lane's registers and stack. A
 * chain too long for len is shortened (file names without directories,
 * then inner levels left out) rather than cut, so the fault's own line,
 * the innermost call and the kernel's own line are always there. */
static void describe(const ws_device *dev, uint32_t pc, const ws_warp *w, uint32_t lane, char *buf, size_t len)
{
    chain *ch = calloc(1, sizeof *ch);
    if (!ch) return;
    int is_ret = 0, flat = 0;
    mod_view v;
    memset(&v, 0, sizeof v);
    lane_regs L;
    lane_init(&L, dev, w, lane);
    for (int call = 0; call <= MAX_CALLS; call++) {
        const ws_code_region *m = code_at(dev, pc);
        if (!m) {
            /* no code here (the exit stub above the kernel, or a bad jump
             * target at the fault): at the fault, the line that jumped,
             * if the lane's ra says it was a call */
            if (is_ret || !w) break;
            const ws_code_region *c = code_at(dev, L.r[1]);
            if (!c || !after_call(dev, c, L.r[1], 1)) break;
            pc = L.r[1];
            is_ret = 1;
            continue;
        }
        if (mod_open(&v, m)) break;
        const uint32_t link = pc - (uint32_t)is_ret - m->base + m->link_base;
        Dwarf_Die cu;
        src_frame fr[MAX_HEAD];
        int got = find_cu(v.dw, link, &cu) ? collect(&cu, link, fr, MAX_HEAD) : 0;
        if (got) {
            fr[0].kind = is_ret ? FR_CALLED : FR_AT;
            chain_add_frame(ch, fr, got);
        } else if (call == 0) { /* no line here (a library's assembly, libgcc): its function's name */
            const char *name = "";
            func_symbol(&v, link, &name);
            if (name[0]) chain_add(ch, &(src_frame){ NULL, 0, name, FR_AT, 1 });
        }
        if (!w || step_up(&L, &v, &pc, &is_ret, &flat)) break;
    }
    mod_close(&v);
    src_frame fr[MAX_FRAMES];
    int nf = chain_flat(ch, fr), shorten = 0; /* (their names live in ch) */
    while (nf && shorten < 3 && render(fr, nf, shorten, buf, len) >= len) shorten++;
    if (nf && shorten == 3 && len > 4) memcpy(buf + len - 4, "...", 4); /* even that is too long: cut, and say so */
    free(ch);
}

void ws_source_describe_pc(const ws_device *dev, uint32_t pc, const ws_warp *w, uint32_t lane, char *buf,
                           size_t len)
{
    if (!len) return;
    buf[0] = 0;
    describe(dev, pc, w, lane, buf, len);
}

size_t ws_source_unit_spans(const ws_device *dev, uint32_t pc, ws_code_span *out, size_t max)
{
    const ws_code_region *m = code_at(dev, pc);
    mod_view v;
    memset(&v, 0, sizeof v);
    size_t n = 0;
    Dwarf_Die cu;
    if (m && !mod_open(&v, m) && find_cu(v.dw, pc - m->base + m->link_base, &cu)) {
        Dwarf_Addr base, lo, hi;
        ptrdiff_t off = 0;
        while (n < max && (off = dwarf_ranges(&cu, off, &base, &lo, &hi)) > 0)
            out[n++] = (ws_code_span){ (uint32_t)(lo - m->link_base + m->base), (uint32_t)(hi - m->link_base + m->base) };
    }
    mod_close(&v);
    return n;
}

static int in_spans(const ws_code_span *s, size_t n, uint32_t a)
{
    for (size_t i = 0; i < n; i++)
        if (a - s[i].lo < s[i].hi - s[i].lo) return 1;
    return 0;
}

/* The lane's own next instruction: its registers are those of the moment
 * before it (a sample's PC may be the instruction the warp just issued). */
static uint32_t lane_pc(const ws_warp *w, uint32_t lane)
{
    return w->group >> lane & 1 ? w->group_pc : w->pc[lane];
}

/* The symbol of device address pc in module m ("" if none), into buf. */
static void symbol_at(mod_view *v, const ws_code_region *m, uint32_t pc, char *buf, size_t len)
{
    const char *name = "";
    if (m && !mod_open(v, m)) func_symbol(v, pc - m->base + m->link_base, &name);
    snprintf(buf, len, "%s", name);
}

struct ws_source_cache {
    mod_view v;
};

ws_source_cache *ws_source_cache_new(void) { return calloc(1, sizeof(ws_source_cache)); }

void ws_source_cache_free(ws_source_cache *c)
{
    if (!c) return;
    mod_close(&c->v);
    free(c);
}

int ws_source_call_from(const ws_device *dev, ws_source_cache *cache, uint32_t sampled, const ws_warp *w,
                        uint32_t lane, const ws_code_span *spans, size_t nspans, uint32_t *call, char *callee,
                        size_t len)
{
    ws_source_cache own;
    memset(&own, 0, sizeof own);
    mod_view *v = cache ? &cache->v : &own.v;
    lane_regs L;
    lane_init(&L, dev, w, lane);
    uint32_t pc = lane_pc(w, lane);
    int is_ret = 0, flat = 0, rc = -1;
    char below[64]; /* the function the frame being unwound is in */
    symbol_at(v, code_at(dev, sampled), sampled, below, sizeof below);
    for (int level = 0; level <= MAX_CALLS; level++) {
        const ws_code_region *m = code_at(dev, pc);
        if (!m || mod_open(v, m)) break;
        /* a return address just after the call; at level 0 the lane's own
         * pc, when the instruction sampled was the callee's return */
        if (in_spans(spans, nspans, pc - 1) && (is_ret || (pc != sampled && in_spans(spans, nspans, pc)))) {
            uint32_t size = (uint32_t)after_call(dev, m, pc, 1);
            if (!size && !is_ret) break; /* not a return: the lane is in the kernel's code */
            *call = pc - (size ? size : 1);
            if (len) snprintf(callee, len, "%s", below);
            rc = 0;
            break;
        }
        if (level) symbol_at(v, m, pc - 1, below, sizeof below);
        else if (in_spans(spans, nspans, pc)) break; /* (at the kernel's own code) */
        else symbol_at(v, m, pc, below, sizeof below);
        if (step_up(&L, v, &pc, &is_ret, &flat)) break;
    }
    if (!cache) mod_close(&own.v);
    return rc;
}
