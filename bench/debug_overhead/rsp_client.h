/* A minimal gdb-side RSP client for the benchmark (no-ack mode). */
#ifndef WS_BENCH_RSP_CLIENT_H
#define WS_BENCH_RSP_CLIENT_H
#include <stddef.h>

int rsp_connect(unsigned port);                 /* fd, or -1            */
int rsp_send(int fd, const char *payload);      /* 0 ok                 */
/* Next packet's payload (notifications skipped unless want_notif); length
 * or -1 after timeout_ms. */
long rsp_recv(int fd, char *out, size_t cap, int timeout_ms);
#endif
