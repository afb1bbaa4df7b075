/* Replays the committed corpus through the fuzz target's entry point in
 * every build (no libFuzzer needed), so the seeds stay crash-free. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "../tests/test.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        size_t n;
        unsigned char *buf = ws_test_read_file(argv[i], &n);
        CHECK(buf != NULL || n == 0);
        LLVMFuzzerTestOneInput(buf ? buf : (const unsigned char *)"", n);
        free(buf);
        ws_test_passed++;
    }
    return TEST_SUMMARY();
}
