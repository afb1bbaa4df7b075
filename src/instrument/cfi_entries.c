/* Reading call frame entries (cfi_entries.h). */
#include <stdio.h>
#include <string.h>
#include "instrument/cfi_entries.h"

int cfi_bad_at(const cfi_text *s, const uint8_t *p, const char *why)
{
    snprintf(s->err, s->errlen, "%s: %s+0x%x: %s", s->what, s->name, (unsigned)(p - s->start), why);
    return -1;
}

int cfi_read_ptr(const cfi_text *s, dw_reader *r, uint8_t enc, int is_range, uint32_t *out)
{
    const uint8_t *at = r->p;
    if ((enc & 0x0f) != PE_ABS && (enc & 0x0f) != PE_UDATA4 && (enc & 0x0f) != PE_SDATA4)
        return cfi_bad_at(s, at, "an address encoding other than 4-byte absolute or PC-relative");
    uint32_t v = (uint32_t)dw_get_n(r, 4);
    if (!is_range && (enc & 0x70) == PE_PCREL) v += s->addr + (uint32_t)(at - s->start);
    else if (!is_range && (enc & 0x70)) return cfi_bad_at(s, at, "an address relative to something other than itself");
    *out = v;
    return r->bad ? cfi_bad_at(s, at, "cut short") : 0;
}

/* The bytes of an address in encoding enc, or 0 if not a fixed size. */
static int fixed_size(uint8_t enc)
{
    switch (enc & 0x0f) {
    case 0x02: case 0x0a: return 2;
    case PE_ABS: case PE_UDATA4: case PE_SDATA4: return 4;
    case 0x04: case 0x0c: return 8;
    default: return 0;
    }
}

int cfi_read_cie(const cfi_text *s, dw_reader *r, uint32_t off, const uint8_t *end, cfi_cie *out)
{
    *out = (cfi_cie){ .off = off, .moved_off = UINT32_MAX, .enc = PE_ABS };
    const uint8_t version = (uint8_t)dw_get_n(r, 1);
    if (version != 1 && version != 3 && version != 4) return cfi_bad_at(s, r->p - 1, "a CIE of an unknown version");
    const char *aug = (const char *)r->p;
    while (r->p < end && *r->p) r->p++;
    if (r->p++ >= end) return cfi_bad_at(s, (const uint8_t *)aug, "a CIE's augmentation runs past it");
    if (version == 4 && (dw_get_n(r, 1) != 4 || dw_get_n(r, 1) != 0))
        return cfi_bad_at(s, r->p - 2, "a CIE for addresses other than 4 bytes without segments");
    out->caf = (uint32_t)dw_get_uleb(r);
    out->daf = dw_get_sleb(r);
    out->ra = version == 1 ? dw_get_n(r, 1) : dw_get_uleb(r);
    out->plain = !strcmp(aug, "") || !strcmp(aug, "z") || !strcmp(aug, "zR");
    if (aug[0] == 'z') {
        out->z = 1;
        const uint64_t n = dw_get_uleb(r);
        const uint8_t *data = r->p, *data_end = r->p + n;
        if (r->bad || n > (uint64_t)(end - r->p)) return cfi_bad_at(s, data, "a CIE's augmentation data runs past it");
        for (const char *a = aug + 1; *a; a++) {
            if (data >= data_end && *a != 'S') return cfi_bad_at(s, data, "a CIE's augmentation data cut short");
            if (*a == 'R') out->enc = *data++;
            else if (*a == 'L') data++;
            else if (*a == 'P') { /* a personality routine: its encoding and address */
                const int n = fixed_size(*data++);
                if (!n) return cfi_bad_at(s, data - 1, "a personality address in an encoding not read here");
                data += n;
            } else if (*a != 'S') {
                return cfi_bad_at(s, (const uint8_t *)aug, "a CIE augmentation not known here");
            }
        }
        if (data > data_end) return cfi_bad_at(s, data_end, "a CIE's augmentation data cut short");
        r->p = data_end;
    } else if (aug[0]) {
        return cfi_bad_at(s, (const uint8_t *)aug, "a CIE augmentation not known here");
    }
    if (!out->caf) return cfi_bad_at(s, r->p, "a CIE whose code alignment factor is 0");
    out->init = r->p;
    out->init_end = end;
    return r->bad || r->p > end ? cfi_bad_at(s, r->p, "a CIE cut short") : 0;
}

int cfi_put_advance(dw_buf *b, uint32_t d)
{
    if (d < 64) return dw_put_u8(b, (uint8_t)(CFA_ADVANCE | d));
    if (d < 256) return dw_put_u8(b, CFA_ADVANCE1) || dw_put_u8(b, (uint8_t)d);
    if (d < 65536) return dw_put_u8(b, CFA_ADVANCE2) || dw_put(b, &(uint16_t){ (uint16_t)d }, 2);
    return dw_put_u8(b, CFA_ADVANCE4) || dw_put_u32(b, d);
}

int cfi_skip_operands(dw_reader *r, uint8_t op)
{
    switch (op & 0xc0 ? op & 0xc0 : op) {
    case CFA_ADVANCE: case CFA_RESTORE: return 0;
    case CFA_OFFSET: dw_get_uleb(r); return 0;
    case 0x0a: case 0x0b: return 0;                                   /* remember/restore_state */
    case 0x06: case 0x07: case 0x08: case 0x0d: case 0x0e: case 0x2e: /* one ULEB */
        dw_get_uleb(r);
        return 0;
    case 0x13: dw_get_sleb(r); return 0;                              /* def_cfa_offset_sf */
    case 0x05: case 0x09: case 0x0c: case 0x14: case 0x2f:            /* two ULEBs */
        dw_get_uleb(r);
        dw_get_uleb(r);
        return 0;
    case 0x11: case 0x12: case 0x15:                                  /* ULEB, SLEB */
        dw_get_uleb(r);
        dw_get_sleb(r);
        return 0;
    case 0x0f: { /* def_cfa_expression: a block */
        const uint64_t n = dw_get_uleb(r);
        if (n > (uint64_t)(r->end - r->p)) r->bad = 1;
        else r->p += n;
        return 0;
    }
    case 0x10: case 0x16: { /* (val_)expression: a register and a block */
        dw_get_uleb(r);
        const uint64_t n = dw_get_uleb(r);
        if (n > (uint64_t)(r->end - r->p)) r->bad = 1;
        else r->p += n;
        return 0;
    }
    default: return -1;
    }
}

int cfi_entry(const cfi_text *s, dw_reader *whole, dw_reader *r, uint32_t *off, uint32_t *id)
{
    if (whole->p >= whole->end) return 1;
    *off = (uint32_t)(whole->p - s->start);
    const uint32_t len = (uint32_t)dw_get_n(whole, 4);
    if (whole->bad) return cfi_bad_at(s, s->start + *off, "an entry's length cut short");
    if (!len) return 1;
    if (len == UINT32_MAX) return cfi_bad_at(s, s->start + *off, "a 64-bit DWARF entry");
    if (len > (uint64_t)(whole->end - whole->p) || len < 4) return cfi_bad_at(s, s->start + *off, "an entry runs past the section");
    *r = (dw_reader){ whole->p, whole->p + len, 0 };
    whole->p += len;
    *id = (uint32_t)dw_get_n(r, 4);
    return 0;
}
