/* A program that waits (cli.tool_sigterm kills the command running it).
 * Built with the tree's flags, so that under the sanitizers the preloaded
 * sanitizer-built libraries find their runtime, as they would not in
 * /bin/sleep. */
#include <unistd.h>

int main(void)
{
    sleep(60);
    return 0;
}
