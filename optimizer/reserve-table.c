/* reserve-table.c — the one reader of a relinked program's reserved-region
 * table (section .perfinst.reserve, docs/layout.md "Chase-tail reserved
 * regions"): a 24-byte header ("PIRS", u32 version, page, window, size,
 * n) and n (u64 addr, u64 len) pairs of the overflow functions placed.
 * The bytes come from a file pmopt did not necessarily write: every field
 * is checked before it is used (tests/pmopt/fuzz-tools.c fuzzes this). */
#include <string.h>

#include "layout.h"

long rsv_table_parse(const unsigned char *b, size_t size, struct reserve *rv, size_t *n)
{
    uint32_t h[5];
    if (!b || size < 24 || memcmp(b, "PIRS", 4))
        return -1;
    memcpy(h, b + 4, sizeof h);
    /* the window's end in 64 bits: window + size wrapped in 32 and a
     * window of nearly 4 GiB passed as inside a page */
    if (h[0] != RSV_TABLE_VERSION || size != 24 + (uint64_t)h[4] * 16 || !h[1] ||
        (h[1] & (h[1] - 1)) || h[2] >= h[1] || (uint64_t)h[2] + h[3] > h[1])
        return -1;
    *rv = (struct reserve){ h[1], h[2], h[3] };
    *n = h[4];
    long inwin = 0;
    for (uint32_t i = 0; i < h[4]; i++) {
        uint64_t a, l;
        memcpy(&a, b + 24 + 16 * (size_t)i, 8);
        memcpy(&l, b + 32 + 16 * (size_t)i, 8);
        uint64_t po = a & (h[1] - 1);
        /* l compared with what is left of the window (po + l wrapped for
         * a length near 2^64 and counted it as inside) */
        inwin += po >= h[2] && po <= (uint64_t)h[2] + h[3] && l <= (uint64_t)h[2] + h[3] - po;
    }
    return inwin;
}
