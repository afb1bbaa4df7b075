/* The example launch-logger tool (launch_logger.c). */
#ifndef LAUNCH_LOGGER_H
#define LAUNCH_LOGGER_H
#include "warpscope/warpscope.h"

/* Attach the logger to dev; options NULL (log to stderr) or "log=FILE". */
ws_status launch_logger_attach(ws_device *dev, const char *options);

#endif
