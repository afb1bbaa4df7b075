/* Comparing two profiles (tools/profile_compare.c). */
#ifndef WS_TOOLS_PROFILE_COMPARE_H
#define WS_TOOLS_PROFILE_COMPARE_H
#include <stdio.h>
/* Print what changed from the profile JSON `baseline` to `current`.
 * 0, or -1 with the reason on stderr (unreadable or not a profile). */
int ws_profile_compare(const char *baseline, const char *current, FILE *out);
#endif
