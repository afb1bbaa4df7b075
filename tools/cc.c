/* placeholder until the kernel toolchain lands */
#include <stdio.h>
#include "commands.h"
int ws_cmd_cc(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "warpscope cc: not built yet\n"); return 2; }
