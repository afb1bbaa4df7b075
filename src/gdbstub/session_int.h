/* Internals shared by the session's command files. */
#ifndef WS_GDBSTUB_SESSION_INT_H
#define WS_GDBSTUB_SESSION_INT_H
#include "gdbstub/rsp_packet.h"
#include "gdbstub/session.h"

/* Open vFile handles: gdb keeps every module's file open while it has the
 * module's symbols, so a program with many modules needs many. Bounded,
 * so a client that opens files without end cannot take all memory. */
#define WS_GDB_MAX_FILES 4096
#define WS_GDB_MAX_PENDING 64

typedef struct ws_gdb_file {
    int open;
    char name[512];
} ws_gdb_file;

struct ws_gdb_session {
    const ws_gdb_target_ops *ops;
    void *t;
    ws_gdb_send_fn send;
    void *io;
    ws_rsp_reader rd;
    int noack, non_stop, running, done, notif_out;
    int exit_unknown;             /* done: the device closed before the process's exit */
    uint32_t g_tid, c_tid;        /* Hg / Hc selections (0: any)          */
    uint32_t tinfo_last;          /* last id sent by q[fs]ThreadInfo      */
    ws_gdb_stop last;             /* last reported stop ('?')             */
    int have_last;
    ws_gdb_stop pending[WS_GDB_MAX_PENDING]; /* non-stop notifications    */
    size_t npending;
    ws_gdb_file *files;           /* vFile handles (grown as gdb opens)  */
    size_t nfiles;
    char *last_sent;              /* framed, for '-' resends              */
    size_t last_len;
    char out[WS_RSP_MAX_PACKET + 1]; /* reply under construction          */
    size_t outlen;
    int no_reply;                 /* the command answers later (resume)   */
    /* The generated qXfer document being read in pieces: made when gdb
     * asks for offset 0 and served from here for later offsets, so pieces
     * of different versions (threads come and go) never mix. */
    char *xfer_doc;
    size_t xfer_len;
    char xfer_object[16];         /* "threads", "libraries"               */
};

/* Reply building (truncates silently at the packet limit; callers size
 * their data to fit). */
void ws_gdb_reply(ws_gdb_session *s, const char *text);
void ws_gdb_replyf(ws_gdb_session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ws_gdb_reply_bin(ws_gdb_session *s, const uint8_t *data, size_t n);
void ws_gdb_reply_error(ws_gdb_session *s, int code);
void ws_gdb_reply_refused(ws_gdb_session *s);
/* Send a framed packet (prefix '$' or '%') now. */
void ws_gdb_send_packet(ws_gdb_session *s, char prefix, const char *payload, size_t len);
/* Resolve a thread id argument ("-1", "0", hex); 0 for any. -1 if bad. */
int ws_gdb_parse_tid(const char *p, const char **end, uint32_t *tid);
/* First thread if tid is 0 (any); 0 if there are none. */
uint32_t ws_gdb_pick_tid(ws_gdb_session *s, uint32_t tid);
/* Every thread, malloc'd (NULL on failure); *n = count. */
ws_gdb_thread *ws_gdb_list_threads(ws_gdb_session *s, size_t *n);
int ws_gdb_thread_exists(ws_gdb_session *s, uint32_t tid);

/* Command groups (each returns 1 if it recognised the packet). */
int ws_gdb_cmd_data(ws_gdb_session *s, char *pkt, size_t len);   /* g G p P m M X Z z */
int ws_gdb_cmd_exec(ws_gdb_session *s, char *pkt, size_t len);   /* ? vCont c s k D vStopped */
int ws_gdb_cmd_xfer(ws_gdb_session *s, char *pkt, size_t len);   /* qXfer vFile qRcmd */
/* Format a stop reply into buf; returns its length. */
size_t ws_gdb_format_stop(const ws_gdb_stop *st, char *buf, size_t cap);
/* A stop came from the target: report it (all-stop reply or %Stop). */
void ws_gdb_report_stop(ws_gdb_session *s, const ws_gdb_stop *st);
#endif
