/* The parts of a capture body's zstd frame (RFC 8878 section 3.1.1): the
 * frame header, the blocks, the content checksum. The reader feeds the
 * decompressor one part at a time, so when zstd refuses the body the
 * reader can name the part it was decoding instead of the whole body. */
#ifndef WS_CAPTURE_CAPTURE_ZSTD_H
#define WS_CAPTURE_CAPTURE_ZSTD_H
#include <stddef.h>
#include <stdint.h>

typedef enum wscap_zpart_kind {
    WSCAP_ZPART_HEADER = 0,     /* magic, descriptor, window, sizes   */
    WSCAP_ZPART_BLOCK,          /* a 3-byte block header and its data */
    WSCAP_ZPART_CHECKSUM        /* the 4-byte content checksum        */
} wscap_zpart_kind;

typedef struct wscap_zpart {
    wscap_zpart_kind kind;
    uint64_t at, size;          /* offset in the frame, bytes         */
    uint64_t block;             /* blocks: number from 0; else the
                                   count of blocks before it          */
    int type;                   /* blocks: 0 raw, 1 RLE, 2 compressed */
    int last;                   /* blocks: the frame's last block     */
    int checksum;               /* the frame ends with a checksum     */
    uint64_t blocks_at;         /* where the first block starts       */
} wscap_zpart;

/* The part after *prev in frame z of n bytes (prev NULL: the frame
 * header). Returns 1 with *out set; 0 at the frame's end; -1 when the
 * bytes there are not such a part (why says what is wrong with them). */
int wscap_zpart_next(const uint8_t *z, uint64_t n, const wscap_zpart *prev, wscap_zpart *out, char *why,
                     size_t whylen);
/* "zstd block 2 (compressed)", "the zstd frame header", "the zstd content
 * checksum". */
const char *wscap_zpart_name(const wscap_zpart *p, char *buf, size_t len);

#endif
