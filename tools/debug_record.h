/* warpscope debug --record (tools/debug_record.c). */
#ifndef WS_TOOLS_DEBUG_RECORD_H
#define WS_TOOLS_DEBUG_RECORD_H

/* Run the program argv[0..argc) to its end while recording it (`warpscope
 * capture --frames FRAMES`), then serve gdb on its replay (`warpscope
 * replay --debug`) on `port` (0: a free one, printed), writing the port to
 * port_file when given. Returns the program's exit status, or the
 * recording's or the server's failure. */
int ws_debug_record(const char *frames, unsigned port, const char *port_file, int argc, char **argv);

#endif
