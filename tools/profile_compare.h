/* Comparing two profiles (tools/profile_compare.c). */
#ifndef WS_TOOLS_PROFILE_COMPARE_H
#define WS_TOOLS_PROFILE_COMPARE_H
#include <stddef.h>
#include <stdio.h>

/* A profile JSON document read into per-device kernel and line figures. */
typedef struct ws_profile_doc ws_profile_doc;

/* Read the profile JSON at path. NULL, with the reason in err, if it cannot
 * be read or is not a warpscope profile. */
ws_profile_doc *ws_profile_doc_load(const char *path, char *err, size_t len);
void ws_profile_doc_free(ws_profile_doc *doc);

/* Print what changed from old (read from old_name) to now: device N of one
 * with device N of the other. A kernel whose module file is named
 * otherwise in now takes now's module name in old (the pairing). */
void ws_profile_doc_compare(ws_profile_doc *old, const char *old_name, const ws_profile_doc *now, FILE *out);

/* Both steps on two files. 0, or -1 with the reason on stderr (unreadable
 * or not a profile). */
int ws_profile_compare(const char *baseline, const char *current, FILE *out);
#endif
