/* The fast engine's run loop (fast_exec.c includes it once per
 * instruction set it is compiled for): FX_RUN is the function's name,
 * FX_TARGET its target attribute. What it calls is in fast_exec.c. */
static FX_TARGET int FX_RUN(ws_device *dev, ws_warp *w, ws_launch_stats *st, uint32_t budget, uint32_t *issued,
                            uint32_t *inserted)
{
    static const void *const labels[FX_NHANDLERS] = {
        [FX_STOP] = &&h_stop, [FX_END] = &&h_end, [FX_NOP] = &&h_nop, [FX_LI] = &&h_li,
        [FX_ADDI] = &&h_addi, [FX_SLTI] = &&h_slti, [FX_SLTIU] = &&h_sltiu, [FX_XORI] = &&h_xori,
        [FX_ORI] = &&h_ori, [FX_ANDI] = &&h_andi, [FX_SLLI] = &&h_slli, [FX_SRLI] = &&h_srli,
        [FX_SRAI] = &&h_srai, [FX_ADD] = &&h_add, [FX_SUB] = &&h_sub, [FX_SLL] = &&h_sll,
        [FX_SLT] = &&h_slt, [FX_SLTU] = &&h_sltu, [FX_XOR] = &&h_xor, [FX_SRL] = &&h_srl,
        [FX_SRA] = &&h_sra, [FX_OR] = &&h_or, [FX_AND] = &&h_and, [FX_MUL] = &&h_mul,
        [FX_MULH] = &&h_mulh, [FX_MULHSU] = &&h_mulhsu, [FX_MULHU] = &&h_mulhu, [FX_DIV] = &&h_div,
        [FX_DIVU] = &&h_divu, [FX_REM] = &&h_rem, [FX_REMU] = &&h_remu, [FX_LOAD] = &&h_load,
        [FX_STORE] = &&h_store, [FX_CSR] = &&h_csr, [FX_FLOAT] = &&h_float, [FX_BEQ] = &&h_beq,
        [FX_BNE] = &&h_bne, [FX_BLT] = &&h_blt, [FX_BGE] = &&h_bge, [FX_BLTU] = &&h_bltu,
        [FX_BGEU] = &&h_bgeu, [FX_JAL] = &&h_jal, [FX_JALR] = &&h_jalr, [FX_LW] = &&h_lw,
        [FX_FLW] = &&h_flw, [FX_SW] = &&h_sw, [FX_FSW] = &&h_fsw, [FX_CSR_TID] = &&h_csr_tid,
        [FX_CSR_UNI] = &&h_csr_uni, [FX_CSR_LANE] = &&h_csr_lane,
        [FX_CSR_MASK] = &&h_csr_mask, [FX_ATOMIC] = &&h_atomic, [FX_ADDI_SP] = &&h_addi_sp,
        [FX_ADD_SP] = &&h_add_sp, [FX_SUB_SP] = &&h_sub_sp, [FX_CREDIT] = &&h_credit,
    };
    struct ws_fast_cache *c = dev->fast && w->core < dev->cfg.cores ? &dev->fast[w->core] : NULL;
    if (c && !c->pages && (c->pages = calloc(dev->ncode_pages, sizeof *c->pages))) c->npages = dev->ncode_pages;
    if (!c || !c->pages) { *issued = *inserted = 0; return 0; } /* no host memory: the interpreter */
    const uint32_t g = w->group;
    const int full = g == UINT32_MAX && dev->cfg.lanes_per_warp == 32;
    /* a draw's fragment lanes may be helpers, whose stores go through
     * ws_lane_stores (asked once per run, not per store) */
    const int shading = dev->current && dev->current->sysval;
    const uint64_t count = ws_lane_count(g);
    const uint64_t instret0 = w->instret;
    uint32_t (*const x)[WS_MAX_LANES] = w->x;
    uint32_t k = 0, loads = 0, stores = 0, atomics = 0, pc = w->group_pc, taken = 0;
    int faulted = 0;
    /* A divergent group (other lanes wait at other_min_pc) runs while it
     * stays below them, as the interpreter's next-PC rule has it: each
     * transfer checks its target and counts a loop turn for the
     * starvation guard (simt.c), and a block whose straight-line code
     * reaches other_min_pc runs only up to it (`cut_at`: the instruction
     * count at which the group ends, where its next PC reaches the
     * others). `lim` is the sooner of that and the budget. */
    const uint32_t omp = w->other_min_pc;
    const int div = w->has_others, ordered = dev->nordered != 0;
    uint32_t starve = w->starve, lim = budget, cut_at = UINT32_MAX;
    /* Inserted code (FX_CREDIT, fast_exec.c): `blim` is the budget's
     * limit on k, raised by each credit entry (counted in k, as one entry
     * CUT counts) and the run it leads; `credits` such entries and `ins`
     * inserted instructions passed, the run ending at k == run_end. */
    uint32_t blim = budget, credits = 0, ins = 0, run_end = 0;
    *inserted = 0;
    fx_block *b = lookup(dev, c, w, pc), *nb;
    fx_op *op;
/* Entering block b_ (at pc) as a divergent group: set the cut if its code
 * reaches the other lanes (none of it below them: leave it to the
 * interpreter). In issue order (ws_issue_key) a block's keys need not
 * rise: every op is looked at. */
#define CUT(b_) do {                                                                   \
        if (ordered) {                                                                 \
            if ((b_)->key_max < omp && !w->other_floor && !(b_)->header) break;        \
            uint32_t below_ = 0;                                                       \
            while (below_ < (b_)->n && !ws_group_yields_at(dev, w, (b_)->ops[below_].pc)) below_++; \
            if (below_ < (b_)->n) {                                                    \
                if (!below_) goto stop;                                                \
                cut_at = k + below_;                                                   \
                if (cut_at < lim) lim = cut_at;                                        \
            }                                                                          \
        } else if ((b_)->ops[(b_)->n - 1].pc >= omp) {                                 \
            uint32_t below_ = 0;                                                       \
            while ((b_)->ops[below_].pc < omp) below_++;                               \
            if (!below_) goto stop;                                                    \
            cut_at = k + below_;                                                       \
            if (cut_at < lim) lim = cut_at;                                            \
        } } while (0)
    if (!b) goto stop;
    if (div) CUT(b);
    op = b->ops;

#define NEXT do { op++; k++; goto dispatch; } while (0)
/* A full warp computes into a local row first: rd is often rs1, which
 * makes the compiler's alias check send an in-place loop to scalar code. */
#define SET_RD(rd, expr) do {                                                          \
        if (full) { uint32_t t_[32]; for (int l = 0; l < 32; l++) t_[l] = (expr);      \
                    memcpy(x[rd], t_, sizeof t_); }                                     \
        else { for (uint32_t m_ = g; m_; m_ &= m_ - 1) { int l = __builtin_ctz(m_); x[rd][l] = (expr); } } \
    } while (0)
#define RR(o, expr) h_##o: { const uint32_t rd = op->rd, rs1 = op->rs1, rs2 = op->rs2;  \
        SET_RD(rd, expr); } NEXT;
/* The same for ops with a whole-row form: a full warp's rows are vector
 * values (a_ = rs1's row, b_ = rs2's), read before rd's is written, so no
 * local row and no alias check. */
#define ROW(r) ({ fx_row v_; memcpy(&v_, x[r], sizeof v_); v_; })
#define LANES_RD(rd, expr) for (uint32_t m_ = g; m_; m_ &= m_ - 1) { int l = __builtin_ctz(m_); x[rd][l] = (expr); }
#define RRV(o, vexpr, expr) h_##o: { const uint32_t rd = op->rd, rs1 = op->rs1, rs2 = op->rs2;          \
        if (full) { const fx_row a_ = ROW(rs1), b_ = ROW(rs2), r_ = (vexpr); memcpy(x[rd], &r_, sizeof r_); } \
        else LANES_RD(rd, expr) } NEXT;
#define RIV(o, vexpr, expr) h_##o: { const uint32_t rd = op->rd, rs1 = op->rs1, imm = op->imm;          \
        if (full) { const fx_row a_ = ROW(rs1), r_ = (vexpr); memcpy(x[rd], &r_, sizeof r_); }            \
        else LANES_RD(rd, expr) } NEXT;
/* A full warp first asks whether all or no lanes branch (and/or
 * reductions that vectorise); the mask is built only when they split. */
#define BR(o, cond) h_##o: { const uint32_t rs1 = op->rs1, rs2 = op->rs2;             \
        taken = 0;                                                                    \
        if (full) {                                                                   \
            uint32_t all_ = 1, any_ = 0;                                              \
            for (int l = 0; l < 32; l++) { uint32_t c_ = (cond); all_ &= c_; any_ |= c_; } \
            if (all_) taken = g;                                                      \
            else if (any_) for (int l = 0; l < 32; l++) taken |= (uint32_t)(cond) << l; \
        } else {                                                                      \
            for (uint32_t m_ = g; m_; m_ &= m_ - 1) { int l = __builtin_ctz(m_); taken |= (uint32_t)(cond) << l; } \
        } } goto branch;
/* Continue in block nb_ at pc (the interpreter takes a block a divergent
 * group may not finish). */
#define GO(nb_) do { b = (nb_); op = b->ops; if (div) CUT(b); goto dispatch; } while (0)
/* A divergent group has transferred to pc (turn_: a loop turn): it ends
 * there if pc reaches the other lanes, or if it has now starved them
 * long enough. */
#define TRANSFER_CHECK(turn_) do { if (div) {                                           \
        if (ws_group_yields_at(dev, w, pc)) goto leave;                                \
        if ((turn_) && ++starve >= WS_STARVE_LIMIT) {                                  \
            ws_ev_emit(dev, WS_EV_SCHED, WS_EV_SCHED_STARVE, w->core,                  \
                       (uint32_t)(w - dev->cores[w->core].warps));                     \
            goto leave;                                                                \
        } } } while (0)
/* A call (+1) or return (-1) to pc moves the group's depth; a divergent
 * group then ends its run (its threshold changed: simt.c) after the
 * interpreter's checks, or leaves if the other lanes now go first. */
#define CALL_CHECK(delta_, turn_) do {                                                  \
        ws_simt_call_depth(dev, w, (delta_));                                          \
        if (div) {                                                                     \
            if (ws_group_yields_at(dev, w, pc)) goto leave;                            \
            if ((turn_) && ++starve >= WS_STARVE_LIMIT) {                              \
                ws_ev_emit(dev, WS_EV_SCHED, WS_EV_SCHED_STARVE, w->core,              \
                           (uint32_t)(w - dev->cores[w->core].warps));                 \
                goto leave;                                                            \
            }                                                                          \
            goto stop;                                                                 \
        } } while (0)
/* Before a call into the interpreter's code: the state it would see. */
#define SYNC() do { w->instret = instret0 + k + 1 - credits; w->group_pc = op->pc; } while (0)

dispatch:
    if (k == lim) {
        pc = op->pc;
        if (k == cut_at) goto leave; /* the last instruction's next PC reached the others */
        goto stop;
    }
    goto *labels[op->h];

h_stop:
    pc = op->pc;
    goto stop;
h_end: /* straight-line code continues in the next block */
    pc = op->pc;
    if (!(nb = b->succ[1]) && !(nb = b->succ[1] = lookup(dev, c, w, pc))) goto stop;
    GO(nb);
h_nop: NEXT;
h_credit: /* the next op->imm entries are inserted code: outside the quantum */
    k++;
    credits++;
    ins += op->imm;
    run_end = k + op->imm;
    blim = blim > UINT32_MAX - op->imm - 1 ? UINT32_MAX : blim + op->imm + 1;
    lim = blim < cut_at ? blim : cut_at;
    op++;
    goto dispatch;
h_li: { const uint32_t rd = op->rd, imm = op->imm; LANES(x[rd][l] = imm); } NEXT;
    RIV(addi, a_ + imm, x[rs1][l] + imm)
    RIV(slti, (fx_row)-((fx_srow)a_ < (int32_t)imm), (int32_t)x[rs1][l] < (int32_t)imm)
    RIV(sltiu, (fx_row)-(a_ < imm), x[rs1][l] < imm)
    RIV(xori, a_ ^ imm, x[rs1][l] ^ imm)
    RIV(ori, a_ | imm, x[rs1][l] | imm)
    RIV(andi, a_ & imm, x[rs1][l] & imm)
    RIV(slli, a_ << imm, x[rs1][l] << imm)
    RIV(srli, a_ >> imm, x[rs1][l] >> imm)
    RIV(srai, (fx_row)((fx_srow)a_ >> (int32_t)imm), (uint32_t)((int32_t)x[rs1][l] >> imm))
    RRV(add, a_ + b_, x[rs1][l] + x[rs2][l])
    RRV(sub, a_ - b_, x[rs1][l] - x[rs2][l])
    RRV(sll, a_ << (b_ & 31), x[rs1][l] << (x[rs2][l] & 31))
    RRV(slt, (fx_row)-((fx_srow)a_ < (fx_srow)b_), (int32_t)x[rs1][l] < (int32_t)x[rs2][l])
    RRV(sltu, (fx_row)-(a_ < b_), x[rs1][l] < x[rs2][l])
    RRV(xor, a_ ^ b_, x[rs1][l] ^ x[rs2][l])
    RRV(srl, a_ >> (b_ & 31), x[rs1][l] >> (x[rs2][l] & 31))
    RRV(sra, (fx_row)((fx_srow)a_ >> (fx_srow)(b_ & 31)), (uint32_t)((int32_t)x[rs1][l] >> (x[rs2][l] & 31)))
    RRV(or, a_ | b_, x[rs1][l] | x[rs2][l])
    RRV(and, a_ & b_, x[rs1][l] & x[rs2][l])
    RRV(mul, a_ * b_, x[rs1][l] * x[rs2][l])
    RR(mulh, (uint32_t)(((int64_t)(int32_t)x[rs1][l] * (int32_t)x[rs2][l]) >> 32))
    RR(mulhsu, (uint32_t)(((int64_t)(int32_t)x[rs1][l] * (int64_t)x[rs2][l]) >> 32))
    RR(mulhu, (uint32_t)(((uint64_t)x[rs1][l] * x[rs2][l]) >> 32))
    RR(div, x[rs2][l] == 0 ? UINT32_MAX
            : ((int32_t)x[rs1][l] == INT32_MIN && (int32_t)x[rs2][l] == -1) ? x[rs1][l]
            : (uint32_t)((int32_t)x[rs1][l] / (int32_t)x[rs2][l]))
    RR(divu, x[rs2][l] ? x[rs1][l] / x[rs2][l] : UINT32_MAX)
    RR(rem, x[rs2][l] == 0 ? x[rs1][l]
            : ((int32_t)x[rs1][l] == INT32_MIN && (int32_t)x[rs2][l] == -1) ? 0
            : (uint32_t)((int32_t)x[rs1][l] % (int32_t)x[rs2][l]))
    RR(remu, x[rs2][l] ? x[rs1][l] % x[rs2][l] : x[rs1][l])

/* sp (x2) written: the new values first, checked against each lane's
 * stack (a stack overflow faults at the instruction, sp unchanged) */
#define SP(o, expr) h_##o##_sp: { const uint32_t rs1 = op->rs1, rs2 = op->rs2, imm = op->imm;   \
        uint32_t sp_[WS_MAX_LANES];                                                   \
        (void)rs2; (void)imm;                                                         \
        LANES(sp_[l] = (expr));                                                       \
        const uint32_t bad_ = ws_sp_below_stack(dev, w, g, sp_);                      \
        if (bad_) { SYNC(); ws_sp_overflow_raise(dev, w, bad_, sp_, op->pc); goto fault; } \
        LANES(x[2][l] = sp_[l]); } NEXT;
    SP(addi, x[rs1][l] + imm)
    SP(add, x[rs1][l] + x[rs2][l])
    SP(sub, x[rs1][l] - x[rs2][l])
#undef SP

h_load:
    SYNC();
    w->fp_used |= op->in.op == OP_FLW;
    if (ws_lane_loads(dev, w, &op->in, g, op->pc)) goto fault;
    if (op->rd == 0) memset(x[0], 0, sizeof x[0]);
    loads++;
    NEXT;
h_lw:
    if (word_loads(dev, op, x[op->rs1], op->imm, g, full, x[op->rd], FX_ISA) ||
        stack_loads(dev, w, x[op->rs1], op->imm, g, full, x[op->rd])) {
        if (op->rd == 0) memset(x[0], 0, sizeof x[0]);
        loads++;
        NEXT;
    }
    goto h_load;
h_flw:
    if (word_loads(dev, op, x[op->rs1], op->imm, g, full, w->f[op->rd], FX_ISA) ||
        stack_loads(dev, w, x[op->rs1], op->imm, g, full, w->f[op->rd])) {
        w->fp_used = 1;
        loads++;
        NEXT;
    }
    goto h_load;
h_sw: /* a fragment's helper lanes store through ws_lane_stores, which drops their stores */
    if ((!(shading && ws_lane_helpers(dev, w, g)) && word_stores(dev, op, x[op->rs1], op->imm, g, full, x[op->rs2])) ||
        stack_stores(dev, w, x[op->rs1], op->imm, g, full, x[op->rs2])) { stores++; NEXT; }
    goto h_store;
h_fsw:
    if ((!(shading && ws_lane_helpers(dev, w, g)) && word_stores(dev, op, x[op->rs1], op->imm, g, full, w->f[op->rs2])) ||
        stack_stores(dev, w, x[op->rs1], op->imm, g, full, w->f[op->rs2])) { stores++; NEXT; }
    goto h_store;
h_csr_tid: { const uint32_t rd = op->rd; const uint16_t *tid = w->tid[op->imm - WS_CSR_TID_X];
    LANES(x[rd][l] = tid[l]); } NEXT;
h_csr_uni: { const uint32_t rd = op->rd, v = csr_uniform(dev, w, op->imm); LANES(x[rd][l] = v); } NEXT;
h_csr_lane: { const uint32_t rd = op->rd; LANES(x[rd][l] = (uint32_t)l); } NEXT;
h_csr_mask: { const uint32_t rd = op->rd; LANES(x[rd][l] = g); } NEXT;
h_store:
    SYNC();
    if (ws_lane_stores(dev, w, &op->in, g, op->pc)) goto fault;
    stores++;
    NEXT;
h_csr:
    SYNC();
    if (ws_warp_exec_csr(dev, w, &op->in, g, op->pc)) goto fault;
    if (op->rd == 0) memset(x[0], 0, sizeof x[0]);
    NEXT;
h_atomic:
    SYNC();
    if (ws_warp_exec_atomic(dev, w, &op->in, g, op->pc)) goto fault;
    if (op->rd == 0) memset(x[0], 0, sizeof x[0]);
    atomics++;
    NEXT;
h_float:
    SYNC();
    w->fp_used = 1;
    if (ws_warp_exec_float(dev, w, &op->in, g, op->pc)) goto fault;
    if (op->rd == 0) memset(x[0], 0, sizeof x[0]);
    NEXT;

    BR(beq, x[rs1][l] == x[rs2][l])
    BR(bne, x[rs1][l] != x[rs2][l])
    BR(blt, (int32_t)x[rs1][l] < (int32_t)x[rs2][l])
    BR(bge, (int32_t)x[rs1][l] >= (int32_t)x[rs2][l])
    BR(bltu, x[rs1][l] < x[rs2][l])
    BR(bgeu, x[rs1][l] >= x[rs2][l])

h_jal:
    if (op->rd) { const uint32_t rd = op->rd, link = op->pc + op->in.len; LANES(x[rd][l] = link); }
    k++;
    pc = op->pc + op->imm;
    if (op->rd == 1) CALL_CHECK(1, 0);
    TRANSFER_CHECK(op->rd == 0 && pc < op->pc);
    if (!(nb = b->succ[0]) && !(nb = b->succ[0] = lookup(dev, c, w, pc))) goto stop;
    GO(nb);
h_jalr: {
    const uint32_t rs1 = op->rs1, imm = op->imm, rd = op->rd, link = op->pc + op->in.len;
    const uint32_t t0 = (x[rs1][__builtin_ctz(g)] + imm) & ~1u;
    uint32_t same = 1;
    LANES({ uint32_t t = (x[rs1][l] + imm) & ~1u; w->pc[l] = t; same &= t == t0; });
    if (rd) LANES(x[rd][l] = link);
    k++;
    const int call = ws_call_delta(rd, rs1, 1, t0);
    if (!same) { /* per-lane targets, already in w->pc[]: pick again */
        if (call) ws_simt_call_depth(dev, w, call);
        w->group_pc = op->pc;
        w->group = 0;
        goto done;
    }
    pc = t0;
    if (call) CALL_CHECK(call, rd == 0 && pc < op->pc);
    TRANSFER_CHECK(rd == 0 && pc < op->pc);
    if (b->jr_blk && b->jr_pc == pc) nb = b->jr_blk;
    else if ((nb = lookup(dev, c, w, pc))) b->jr_blk = nb, b->jr_pc = pc;
    else goto stop;
    GO(nb);
}

branch:
    k++;
    if (taken == 0) {
        pc = op->pc + op->in.len;
        TRANSFER_CHECK(0);
        if (!(nb = b->succ[1]) && !(nb = b->succ[1] = lookup(dev, c, w, pc))) goto stop;
    } else if (taken == g) {
        pc = op->pc + op->imm;
        TRANSFER_CHECK(pc < op->pc);
        if (!(nb = b->succ[0]) && !(nb = b->succ[0] = lookup(dev, c, w, pc))) goto stop;
    } else { /* divergence: as the interpreter, lanes keep their own PCs */
        const uint32_t bpc = op->pc, tpc = bpc + op->imm, fpc = bpc + op->in.len;
        w->diverged = 1;
        ws_ev_emit(dev, WS_EV_SCHED, WS_EV_SCHED_DIVERGE, w->core,
                   (uint32_t)(w - dev->cores[w->core].warps) | bpc << 8);
        for (uint32_t m = g; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            w->pc[l] = (taken >> l & 1) ? tpc : fpc;
        }
        w->group_pc = bpc;
        w->group = 0;
        goto done;
    }
    GO(nb);

fault: /* the faulting instruction counts as issued-and-retired in instret
        * and the launch totals, not in *issued (as in ws_warp_run) */
    faulted = 1;
    w->group_pc = op->pc;
    k++;
    goto done;
leave: /* the group ends with its lanes at pc; ws_warp_run picks again */
    w->group_pc = pc;
    ws_simt_leave_group(w);
    goto done;
stop:
    w->group_pc = pc;
done:
    if (credits) { /* the credit entries are no instructions; split off what ran of the inserted code */
        const uint32_t fault_ins = faulted && k <= run_end; /* the faulting one is in neither count */
        if (k < run_end) ins -= run_end - k;
        k -= credits;
        ins -= fault_ins;
        *inserted = ins;
    }
    w->starve = starve;
    w->instret = instret0 + k;
    st->warp_instructions += k;
    st->thread_instructions += k * count;
    st->thread_loads += loads * count;
    st->thread_stores += stores * count;
    st->thread_atomics += atomics * count;
    *issued = k - (uint32_t)faulted - ins; /* ins: 0 without credits */
    return faulted ? -1 : 0;
#undef NEXT
#undef RR
#undef RRV
#undef RIV
#undef ROW
#undef LANES_RD
#undef BR
#undef SYNC
#undef CUT
#undef GO
#undef TRANSFER_CHECK
#undef CALL_CHECK
}
