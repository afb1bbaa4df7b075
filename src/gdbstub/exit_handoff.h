/* Telling gdb a process's exit status after the device closed.
 *
 * A program that closes its device itself ends the gdb session before the
 * process's exit status exists. The server then passes gdb's connection
 * (SCM_RIGHTS, over a Unix-domain socket it was given: WARPSCOPE_DEBUG
 * handoff=FD) to the process that started the program, `warpscope
 * debug`, which tells gdb the status once it has reaped the program. */
#ifndef WS_GDBSTUB_EXIT_HANDOFF_H
#define WS_GDBSTUB_EXIT_HANDOFF_H
#include "gdbstub/rsp_packet.h"

/* The protocol state the receiver needs to speak to gdb. */
typedef struct ws_gdb_handoff {
    int cfd;          /* gdb's connection                      */
    int non_stop;     /* the exit goes as a %Stop notification */
    int noack;        /* no '+' for gdb's packets              */
} ws_gdb_handoff;

/* Server side: pass h over the socket handoff_fd. 0, or -1 (errno). */
int ws_gdb_handoff_send(int handoff_fd, const ws_gdb_handoff *h);
/* Receiver side: take a connection passed on handoff_fd without waiting.
 * 1 if there was one (h filled, h->cfd close-on-exec), 0 if none. */
int ws_gdb_handoff_take(int handoff_fd, ws_gdb_handoff *h);
/* Receiver side, while the process runs on past its device: answer what
 * gdb sent on h so far, without waiting (rd, initialized by the caller,
 * keeps a packet that arrives in pieces). There is nothing left to stop:
 * an interrupt (Ctrl-C; vCont;t in non-stop mode) gets console output
 * saying process pid runs on without its device and gdb hears its exit
 * status when it ends, and gdb keeps waiting for that. In non-stop mode
 * gdb may ask more: vCont? as the server answered it, an empty thread
 * list, the empty reply (unsupported) for anything else. */
void ws_gdb_handoff_answer_running(const ws_gdb_handoff *h, ws_rsp_reader *rd, long pid);
/* Tell gdb on h the process ended with wait_status (waitpid's): "exited
 * with code N", or "terminated with signal S"; answer it until it hangs up
 * (5 s at most), then close h->cfd. rd: as for answer_running. */
void ws_gdb_handoff_tell_exit(const ws_gdb_handoff *h, ws_rsp_reader *rd, int wait_status);
#endif
