/* The replay modes built on other parts of the capture folder. */
#include <stdio.h>
#include "replay_modes.h"

int replay_modes_run(ws_replay *r, const replay_request *q)
{
    (void)r;
    fprintf(stderr, "warpscope replay: %s is not built yet (issue 12)\n",
            q->debug ? "--debug" : q->pixel ? "--pixel" : "--html");
    return 2;
}
