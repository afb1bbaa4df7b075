/* The ELF note the object defining ws_device_open carries, so that a
 * program linked with the static library can be recognised after strip
 * removed its symbol tables (strip keeps note sections: they are part of
 * the loaded image). tools/preload.c looks for it. */
#ifndef WS_ATTACH_LINK_NOTE_H
#define WS_ATTACH_LINK_NOTE_H
#define WS_LINK_NOTE_SECTION ".note.warpscope"
#define WS_LINK_NOTE_NAME "Warpscope" /* the note's owner, NUL included: 10 bytes */
#define WS_LINK_NOTE_TYPE 1           /* "libwarpscope is linked into this file" */
/* "... and the program closes every device it opens": the warpscope
 * command's own mark (tools/warpscope.c), so `warpscope debug -- warpscope
 * run ...` has no note about an exit closer it does not need. */
#define WS_LINK_NOTE_TYPE_CLOSES 2
#endif
