/* Two devices open at once, each running the `staged` kernel several
 * times, their launches interleaved: A runs 3 launches of 4 blocks, B
 * 2 launches of 2 blocks; A closes first. A watcher's machines live on
 * each device's bus, across its launches (events.watch_multi).
 * Usage: multi_app EVENT_KERNELS.elf [CONFIG] */
#include <stdio.h>
#include <warpscope/warpscope.h>

typedef struct side {
    const char *name;
    ws_device *dev;
    ws_kernel *staged;
    ws_addr out, counter;
    unsigned blocks;
} side;

static int open_side(side *s, const char *elf, const char *config)
{
    ws_config cfg;
    ws_config_default(&cfg);
    char err[256];
    if (ws_config_parse(&cfg, config, err, sizeof err) != WS_OK) {
        fprintf(stderr, "multi_app: %s\n", err);
        return -1;
    }
    ws_module *mod = NULL;
    if (ws_device_open(&cfg, &s->dev) != WS_OK || ws_module_load_file(s->dev, elf, &mod) != WS_OK ||
        ws_kernel_get(mod, "staged", &s->staged) != WS_OK || ws_malloc(s->dev, 64 * 4 * s->blocks, &s->out) != WS_OK ||
        ws_malloc(s->dev, 4, &s->counter) != WS_OK || ws_memset(s->dev, s->counter, 0, 4) != WS_OK) {
        fprintf(stderr, "multi_app: device %s: %s\n", s->name, s->dev ? ws_last_error(s->dev) : "cannot open");
        return -1;
    }
    return 0;
}

/* One launch of `staged`; prints what the program sees. */
static void run(side *s, int n)
{
    ws_arg a[] = { WS_ARG_PTR(s->out), WS_ARG_PTR(s->counter) };
    ws_status st = ws_launch(s->dev, s->staged, WS_DIM3(s->blocks, 1, 1), WS_DIM3(64, 1, 1), 0, a, 2);
    if (st == WS_OK) st = ws_synchronize(s->dev);
    int counter = 0;
    if (st == WS_OK) st = ws_memcpy_dtoh(s->dev, &counter, s->counter, 4);
    printf("%s launch %d: %s, counter %d%s%s\n", s->name, n, ws_status_name(st), counter, st == WS_OK ? "" : ": ",
           st == WS_OK ? "" : ws_last_error(s->dev));
}

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: multi_app EVENT_KERNELS.elf [CONFIG]\n");
        return 2;
    }
    side a = { .name = "A", .blocks = 4 }, b = { .name = "B", .blocks = 2 };
    if (open_side(&a, argv[1], argc > 2 ? argv[2] : "") || open_side(&b, argv[1], argc > 2 ? argv[2] : "")) return 1;
    run(&a, 1);
    run(&b, 1);
    run(&a, 2);
    run(&b, 2);
    run(&a, 3);
    ws_device_close(a.dev);
    ws_device_close(b.dev);
    return 0;
}
