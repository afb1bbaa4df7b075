/* Opening a device from configuration text in a test. */
#ifndef WS_TEST_DEVICE_CONFIG_H
#define WS_TEST_DEVICE_CONFIG_H
#include <stdio.h>
#include "warpscope/warpscope.h"

/* A device configured by `config` (ws_config_parse's text) with `module`
 * loaded, in *dev and *m; WS_OK, or the failing call's status after
 * printing why (*dev is then NULL or to be closed by the caller). */
static inline ws_status ws_test_open_with(const char *config, const char *module, ws_device **dev, ws_module **m)
{
    ws_config cfg;
    char err[256];
    ws_config_default(&cfg);
    *dev = NULL;
    ws_status st = ws_config_parse(&cfg, config, err, sizeof err);
    if (st != WS_OK) {
        fprintf(stderr, "configuration '%s': %s\n", config, err);
        return st;
    }
    if ((st = ws_device_open(&cfg, dev)) != WS_OK) return st;
    if ((st = ws_module_load_file(*dev, module, m)) != WS_OK)
        fprintf(stderr, "%s: %s\n", module, ws_last_error(*dev));
    return st;
}
#endif
