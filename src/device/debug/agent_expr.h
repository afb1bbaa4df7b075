/* gdb agent expressions (the bytecode gdb sends with Z packets when the
 * target evaluates breakpoint conditions): enough of the integer subset
 * to run conditions such as `$thread_x == 5 && i > 3` per lane. The
 * debug hardware's trigger condition unit runs them per lane at the trap
 * (debug_cond.c), with register numbers rewritten to the abstract-command
 * numbering (ws_ax_map_regs); the gdb server runs them on halted lanes. */
#ifndef WS_DEVICE_AGENT_EXPR_H
#define WS_DEVICE_AGENT_EXPR_H
#include <stddef.h>
#include <stdint.h>

typedef struct ws_ax_env {
    void *user;
    int (*reg)(void *user, uint32_t regno, uint64_t *v);            /* 0 ok */
    int (*mem)(void *user, uint32_t addr, uint8_t *buf, size_t n);  /* 0 ok */
} ws_ax_env;

/* Run `code`; *result is the value left on top. Returns 0, or -1 for
 * malformed code, an unsupported opcode, a failed read or a step limit. */
int ws_ax_eval(const uint8_t *code, size_t len, const ws_ax_env *env, int64_t *result);

/* Rewrite every `reg n` operand of code in place to map(n); 0, or -1 if
 * code holds an opcode the interpreter does not run, a truncated operand,
 * or a register map() refuses (returns nonzero). */
int ws_ax_map_regs(uint8_t *code, size_t len, int (*map)(void *user, uint32_t regno, uint32_t *out),
                   void *user);
#endif
