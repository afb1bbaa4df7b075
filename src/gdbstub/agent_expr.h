/* gdb agent expressions (the bytecode gdb sends with Z packets when the
 * target evaluates breakpoint conditions): enough of the integer subset
 * to run conditions such as `$thread_x == 5 && i > 3` per lane. */
#ifndef WS_GDBSTUB_AGENT_EXPR_H
#define WS_GDBSTUB_AGENT_EXPR_H
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
#endif
