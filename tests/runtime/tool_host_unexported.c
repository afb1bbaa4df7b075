/* A program linked with the static library that does not export its
 * symbols (no -rdynamic): a WARPSCOPE_TOOL library cannot find the API in
 * it, and ws_device_open's message must say how to link the program
 * (runtime.api_tools_unexported). Exits 0 when the open fails. */
#include <stdio.h>
#include "warpscope/warpscope.h"

int main(void)
{
    ws_device *dev = NULL;
    ws_status st = ws_device_open(NULL, &dev);
    if (st == WS_OK) {
        ws_device_close(dev);
        puts("ws_device_open succeeded");
        return 1;
    }
    printf("ws_device_open: %s\n", ws_status_name(st));
    return 0;
}
