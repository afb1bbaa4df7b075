/* Byte-level reading and writing of DWARF for the rewriter's rebuilt
 * sections (line programs, location and range lists), and the map from a
 * rebuilt section's old offsets to its new ones. */
#ifndef WS_INSTRUMENT_REWRITE_DWARF_IO_H
#define WS_INSTRUMENT_REWRITE_DWARF_IO_H
#include <stddef.h>
#include <stdint.h>

typedef struct dw_buf {
    uint8_t *p;
    size_t n, cap;
} dw_buf;

/* Each returns 0, or -1 when host memory ran out. */
int dw_put(dw_buf *b, const void *d, size_t n);
int dw_put_u8(dw_buf *b, uint8_t v);
int dw_put_u32(dw_buf *b, uint32_t v);
int dw_put_uleb(dw_buf *b, uint64_t v);
int dw_put_sleb(dw_buf *b, int64_t v);

typedef struct dw_reader {
    const uint8_t *p, *end;
    int bad;  /* set when a read ran past end */
} dw_reader;

uint64_t dw_get_uleb(dw_reader *r);
int64_t dw_get_sleb(dw_reader *r);
uint64_t dw_get_n(dw_reader *r, int n);  /* n little-endian bytes */

/* Old offset -> new offset, added in ascending order of both. */
typedef struct dw_offset_map {
    uint32_t *old_off, *new_off;
    uint32_t n, cap;
} dw_offset_map;

int dw_map_add(dw_offset_map *m, uint32_t old_off, uint32_t new_off);
/* 0 and *out set, or -1 when old_off is no offset the map holds. */
int dw_map_find(const dw_offset_map *m, uint32_t old_off, uint32_t *out);
void dw_map_free(dw_offset_map *m);

#endif
