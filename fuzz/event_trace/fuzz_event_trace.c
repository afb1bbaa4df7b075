/* libFuzzer target for the event-trace decoder (ws_events_decode). Input
 * byte 0 chooses: odd, a whole trace; even, the bit stream, wrapped here in
 * a header that claims the events the rest could hold, so mutations reach
 * the decoder's body. A crash, sanitizer report, leak, or an event with a
 * source that does not exist, or a version-1 trace whose time goes back
 * (abort) is a finding. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "warpscope/events.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size) return 0;
    const uint8_t *in = data + 1;
    size_t n = size - 1;
    uint8_t *wrapped = NULL;
    if (!(data[0] & 1)) {
        wrapped = malloc(24 + n + 1);
        if (!wrapped) return 0;
        uint16_t version = 1, zero = 0;
        uint64_t bits = (uint64_t)n * 8, events = (data[0] >> 1) + (uint64_t)n / 2;
        memcpy(wrapped, "WSEV", 4);
        memcpy(wrapped + 4, &version, 2);
        memcpy(wrapped + 6, &zero, 2);
        memcpy(wrapped + 8, &events, 8);
        memcpy(wrapped + 16, &bits, 8);
        memcpy(wrapped + 24, in, n);
        in = wrapped;
        n += 24;
    }
    ws_event *ev = NULL;
    size_t count = 0;
    char err[256];
    if (ws_events_decode(in, n, &ev, &count, err, sizeof err) == WS_OK) {
        uint16_t version; /* version 1: time never goes back; 2 may step back */
        memcpy(&version, in + 4, 2);
        for (size_t i = 0; i < count; i++)
            if (ev[i].source >= WS_EV_SOURCES || ev[i].id >= 16 || (i && version == 1 && ev[i].time < ev[i - 1].time))
                abort();
        free(ev);
    } else if (ev || count) {
        abort();
    }
    free(wrapped);
    return 0;
}
