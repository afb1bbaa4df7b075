/* The event watcher as the rest of the library sees it: a tool that the
 * environment attaches (WARPSCOPE_WATCH, src/attach): it turns on the event
 * trace with the filters it is given and writes the trace to a file when
 * the device closes (docs/events.md). */
#ifndef WS_WATCH_WATCH_H
#define WS_WATCH_WATCH_H
#include "device/device.h"
#include "warpscope/events.h"

/* spec: comma-separated: events=NAME[+NAME...] (a source "wd", an event
 * "sched.barrier_wait", or "all"), capacity=BYTES, out=FILE. */
ws_status ws_watch_attach(ws_device *dev, const char *spec);
/* WARPSCOPE_WATCH_MACHINES without WARPSCOPE_WATCH: a watcher with the
 * machines and no trace (with WARPSCOPE_WATCH set, that watcher has
 * them, and this does nothing). */
ws_status ws_watch_attach_machines(ws_device *dev, const char *machines);
/* Check spec as ws_watch_attach would, without a device. 0, or -1 with
 * the reason in err. */
int ws_watch_check_spec(const char *spec, char *err, size_t errlen);
/* Check WARPSCOPE_WATCH_MACHINES text as the watcher would: each line a
 * machine, at most WS_EV_MACHINES, every enable=N naming one of them. 0,
 * or -1 with the reason ("machine 1: ...") in err. */
int ws_watch_check_machines(const char *text, char *err, size_t errlen);
/* Parse an event list ("wd+sched.barrier_wait") into filter masks.
 * Returns 0, or -1 with the unknown name in err. */
int ws_watch_parse_events(const char *list, uint16_t mask[], char *err, size_t errlen);


#endif
