/* warpscope replay --dump-after (tools/replay_dump.c). */
#ifndef WS_TOOLS_REPLAY_DUMP_H
#define WS_TOOLS_REPLAY_DUMP_H
#include <stdint.h>
#include "capture/replayer.h"

/* Write the render targets (PNG, depth also as floats), the textures
 * (PNG, one per mipmap level) and the data allocations (.bin) as they are
 * now, after call `call`, into `dir` (which exists), named callN-...;
 * a line on standard output per file. Returns the exit status. */
int replay_dump(ws_replay *r, const char *dir, uint64_t call);

#endif
