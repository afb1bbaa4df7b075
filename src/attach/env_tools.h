/* Tools the environment attaches at device open: one table, one place
 * (env_tools.c). The layer above the runtime that knows every tool. */
#ifndef WS_ATTACH_ENV_TOOLS_H
#define WS_ATTACH_ENV_TOOLS_H
#include "warpscope/warpscope.h"

/* Attach each tool whose variable is set, in table order. On failure the
 * message is in dev's error (already attached tools stay; closing the
 * device detaches them). */
ws_status ws_env_tools_attach(ws_device *dev);

#endif
