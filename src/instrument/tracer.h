/* The instrumentation tracer as the rest of the library sees it: a tool
 * (include/warpscope/tool.h) that the environment attaches
 * (WARPSCOPE_TRACE, src/attach) and that runs each selected launch as a
 * counting pass, a recording pass with exactly sized buffers, and the
 * launch itself (docs/tracing.md). */
#ifndef WS_INSTRUMENT_TRACER_H
#define WS_INSTRUMENT_TRACER_H
#include "device/device.h"
#include "warpscope/trace.h"

/* spec: comma-separated key=value: tool=bbcount|memtrace|dump, out=FILE
 * (the trace file), report=FILE (text report, appended at device close),
 * kernel=NAME, launch=N (the Nth launch, from 1: of the program when its
 * devices share launches=FILE, a counter, else of each device), device=D
 * (only the Dth device the program opens, as devices=FILE, a counter they
 * share, numbers them), time=1 (each launch's host seconds on stderr at
 * device close; the report has none). */
ws_status ws_tracer_attach(ws_device *dev, const char *spec);
/* Check spec as ws_tracer_attach would, without a device (the command
 * line refuses bad options before it runs the program). 0, or -1 with the
 * reason in err. */
int ws_tracer_check_spec(const char *spec, char *err, size_t errlen);

/* How reports name the module of each launch of t: its file's base name,
 * or its whole name when another module of t has that base name (two
 * files called k.elf in two directories); modules loaded from memory are
 * "<memory>", "<memory 2>", ... An array of t->nlaunches pointers into t's
 * strings, to free(); NULL when out of host memory (then whole names). */
const char **ws_trace_modules_shown(const ws_trace *t);
/* Launch i of t as reports name it, "KERNEL (MODULE)", into buf; with
 * " on device N" when t holds launches of several devices. */
const char *ws_trace_launch_label(const ws_trace *t, const char *const *shown, uint32_t i, char *buf, size_t n);
/* What a shader launch of L ran, " (fragment shader of draw 3)", into
 * buf; "" for a compute kernel. */
const char *ws_trace_stage_text(const ws_trace_launch *L, char *buf, size_t n);
/* Launch i of t named by the program's launch number (the one --launch
 * takes; the launch id when the file has none), unique over its devices:
 * "P KERNEL (MODULE)[ on device D][ (device D's launch N)]", the last
 * part when the device's own number N differs. (--host-time, Perfetto) */
const char *ws_trace_program_label(const ws_trace *t, const char *const *shown, uint32_t i, char *buf, size_t n);

#endif
