/* xlat-blocks.h — the translation table of an XLAT chunk (blocks and refs,
 * include/perfinst-format.h) built from its shadow items: one block per
 * cache line that some item overlaps, listing the items that overlap it
 * (a zero-length item under its address's line).
 *
 * The one implementation, for perfinst-ld (the table it writes) and
 * libperfinst (the table rebuilt for another line size): libc only, and it
 * allocates nothing.  The caller sizes the arrays:
 *
 *   nrefs   = pi_xlat_count_refs(items, nitems, line_size);
 *   nblocks = pi_xlat_sort_pairs(items, nitems, line_size, pairs);   pairs[nrefs]
 *   pi_xlat_fill(items, pairs, nrefs, blocks, refs);    blocks[nblocks], refs[nrefs]
 */
#ifndef PERFINST_XLAT_BLOCKS_H
#define PERFINST_XLAT_BLOCKS_H

#include <stddef.h>
#include <stdint.h>
#include "perfinst-format.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One (line, item) overlap: one ref of the table. */
struct pi_xlat_pair {
    uint64_t block;
    uint32_t item;
};

/* How many refs the table of these items has for this line size. */
uint64_t pi_xlat_count_refs(const struct pi_shadow_item *items, size_t nitems,
                            uint32_t line_size);

/* Write the table's pairs (pi_xlat_count_refs of them) sorted by block, then
 * item; returns the number of blocks. */
size_t pi_xlat_sort_pairs(const struct pi_shadow_item *items, size_t nitems, uint32_t line_size,
                          struct pi_xlat_pair *pairs);

/* The blocks and refs of the table from its sorted pairs. */
void pi_xlat_fill(const struct pi_shadow_item *items, const struct pi_xlat_pair *pairs,
                  size_t npairs, struct pi_xlat_block *blocks, uint32_t *refs);

#ifdef __cplusplus
}
#endif

#endif /* PERFINST_XLAT_BLOCKS_H */
