/* xlat-blocks.h — the translation table of an XLAT chunk, built from its
 * shadow items (include/perfinst-format.h).
 *
 * The table has one pi_xlat_block per cache line (block = addr / line_size)
 * that some item overlaps, sorted by block, and for each block the indices
 * of its items (refs) in index order; block flags = OR of those items'
 * directive bits.  An item spanning three lines is listed under all three; a
 * zero-length item under the line of its address.
 *
 * The one implementation, shared by perfinst-ld (the table it writes at link
 * time) and libperfinst (the table rebuilt when the machine's line size
 * differs), so it is plain C that needs libc's qsort only and allocates
 * nothing.  The caller sizes the arrays in three steps:
 *
 *   nrefs   = pi_xlat_count_refs(items, nitems, line_size);
 *   pairs   = room for nrefs;   nblocks = pi_xlat_sort_pairs(..., pairs);
 *   blocks  = room for nblocks, refs = room for nrefs;
 *   pi_xlat_fill(items, pairs, nrefs, blocks, refs);
 *
 * Addresses are the items' own (link-time in a pi_shadow_item).
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
