/* A gdb session freed while it holds the program (lanes halted, a
 * breakpoint written into the code, a watchpoint armed) without gdb's
 * detach: a connection that fails, or fuzz/gdb_device, which frees its
 * session as it is. The library must let the program go as a detach
 * would: the breakpoint's ebreak taken out of the code (with no debugger
 * attached an ebreak is a fault: "ebreak executed with no debugger
 * attached"), the warps resumed, so the launch ends with its results.
 * Until 2026-11-28 ws_gdb_session_free left the ebreak in the code and
 * the launch ended with that fault. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../../fuzz/gate_launch.h"
#include "gdbstub/session.h"
#include "gdbstub/target_dbg.h"
#include "gdbstub/tdesc.h"

static int failures;
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); failures++; } } while (0)

static void sink(void *io, const char *b, size_t n) { (void)io; (void)b; (void)n; }

static void packet(ws_gdb_session *s, const char *payload)
{
    char buf[256];
    unsigned sum = 0;
    for (const char *p = payload; *p; p++) sum += (unsigned char)*p;
    int n = snprintf(buf, sizeof buf, "$%s#%02x", payload, sum & 0xff);
    ws_gdb_session_input(s, (const uint8_t *)buf, (size_t)n);
    ws_gdb_session_poll(s, 0);
}

typedef struct run { gate_launch g; ws_status st; int done; } run;

static void *launch_main(void *arg)
{
    run *r = arg;
    r->st = ws_launch(r->g.dev, r->g.k, WS_DIM3(4, 1, 1), WS_DIM3(8, 1, 1), 0, r->g.args, 4);
    if (r->st == WS_OK) r->st = ws_synchronize(r->g.dev);
    __atomic_store_n(&r->done, 1, __ATOMIC_SEQ_CST);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: %s jtag_kernels.elf\n", argv[0]); return 2; }
    ws_config c;
    gate_small_config(&c, 2);
    c.watchdog_ms = 0;
    ws_device *dev = NULL;
    ws_debug *dbg = NULL;
    ws_debug_config dc = { WS_DBG_TOPO_BROADCAST, 1 };
    if (ws_device_open(&c, &dev) != WS_OK || ws_debug_attach(dev, &dc, &dbg) != WS_OK) return 1;
    ws_gdb_dbg *t = calloc(1, sizeof *t);
    if (!t || ws_gdb_dbg_init(t, dbg) != WS_OK) return 1;
    t->gate_open = 1;
    run r = { 0 };
    /* the gate kernel, started on a thread of ours to see its status */
    ws_module *mod;
    r.g.dev = dev;
    if (ws_module_load_file(dev, argv[1], &mod) != WS_OK || ws_kernel_get(mod, "gate", &r.g.k) != WS_OK ||
        ws_malloc(dev, 256, &r.g.buf) != WS_OK || ws_memset(dev, r.g.buf, 0, 256) != WS_OK)
        return 1;
    r.g.args[0] = (ws_arg)WS_ARG_PTR(r.g.buf);
    r.g.args[1] = (ws_arg)WS_ARG_PTR(r.g.buf + 128);
    r.g.args[2] = (ws_arg)WS_ARG_PTR(r.g.buf + 132);
    r.g.args[3] = (ws_arg)WS_ARG_I32(100000000);
    pthread_t th;
    if (pthread_create(&th, NULL, launch_main, &r)) return 1;
    if (!gate_launch_running(dbg)) { fprintf(stderr, "the launch never ran\n"); return 1; }
    nanosleep(&(struct timespec){ 0, 50 * 1000 * 1000 }, NULL); /* past the prologue: every lane in its loop */
    if (ws_gdb_dbg_halt_all(t) != WS_OK) { fprintf(stderr, "no halt\n"); return 1; }

    ws_gdb_session *s;
    if (ws_gdb_session_new(&ws_gdb_dbg_ops, t, sink, NULL, &s) != WS_OK) return 1;
    /* a breakpoint where the first lane waits (in its loop, which it runs
     * again until the gate opens), and a watchpoint on out[5] */
    uint32_t pc = 0;
    CHECK(ws_gdb_dbg_ops.read_reg(t, WS_GDB_TID(t->lanes[0].hart), WS_GDB_REG_PC, &pc) == WS_OK);
    uint16_t insn = 0, word = 0; /* (the system bus: the runtime's API waits for the launch) */
    CHECK(ws_gdb_mem_access(t, UINT32_MAX, pc, (uint8_t *)&insn, 2, 0) == WS_OK);
    char z[64];
    snprintf(z, sizeof z, "Z0,%x,%u", pc, (insn & 3) == 3 ? 4u : 2u);
    packet(s, "QStartNoAckMode");
    packet(s, z);
    snprintf(z, sizeof z, "Z2,%x,4", (uint32_t)(r.g.buf + 5 * 4));
    packet(s, z);
    CHECK(ws_gdb_mem_access(t, UINT32_MAX, pc, (uint8_t *)&word, 2, 0) == WS_OK && word != insn); /* the ebreak is in */
    ws_gdb_session_free(s); /* gdb gone without a word */

    /* what the server does once a session has ended (gdbserver.c) */
    ws_gdb_dbg_open_gate(t);
    ws_dmi_write(dbg, 0, WS_DM_EVCTL, 8);
    ws_debug_set_blocking_events(dbg, 0);
    ws_debug_release(dbg);
    ws_debug_detach(dbg);
    gate_launch_open(dbg, &r.g);
    for (int i = 0; i < 1000 && !__atomic_load_n(&r.done, __ATOMIC_SEQ_CST); i++)
        nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
    int done = __atomic_load_n(&r.done, __ATOMIC_SEQ_CST);
    CHECK(done);
    if (!done) { fprintf(stderr, "the launch hangs after the session was freed\n"); return 1; }
    pthread_join(th, NULL);
    if (r.st != WS_OK) fprintf(stderr, "launch: %s: %s\n", ws_status_name(r.st), ws_last_error(dev));
    CHECK(r.st == WS_OK);
    int out[32];
    CHECK(ws_memcpy_dtoh(dev, out, r.g.buf, sizeof out) == WS_OK);
    for (int i = 0; i < 32; i++) CHECK(out[i] == i * 3 + 1);
    word = 0; /* (code is not an allocation: read through the system bus, as before) */
    CHECK(ws_gdb_mem_access(t, UINT32_MAX, pc, (uint8_t *)&word, 2, 0) == WS_OK);
    if (word != insn) fprintf(stderr, "at 0x%x: 0x%04x, the program has 0x%04x\n", pc, word, insn);
    CHECK(word == insn); /* the code is the program's */
    ws_gdb_dbg_fini(t);
    free(t);
    ws_device_close(dev);
    if (failures) return 1;
    printf("session freed while holding the program: launch ended ok, code restored\n");
    return 0;
}
