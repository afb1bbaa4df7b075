/* Writing trace files (reading is public: include/warpscope/trace.h). */
#ifndef WS_INSTRUMENT_TRACE_FILE_H
#define WS_INSTRUMENT_TRACE_FILE_H
#include <stddef.h>
#include "warpscope/trace.h"

/* The longest string (kernel, module, note) a file holds: the writer cuts
 * longer ones there, the reader refuses longer ones. */
#define WST_STRING_MAX (1u << 20)

/* Write t to path atomically (temporary file, then rename). */
int wst_write(const char *path, const ws_trace *t, char *err, size_t errlen);
/* Free what a launch owns (not the launch itself). */
void wst_launch_free(ws_trace_launch *L);

#endif
