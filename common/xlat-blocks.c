/* xlat-blocks.c — the translation table of an XLAT chunk, built from its
 * shadow items.  See xlat-blocks.h; compiled into both perfinst-ld and
 * libperfinst, so libc only. */
#include <stdlib.h>

#include "piutil.h"
#include "xlat-blocks.h"

static uint64_t first_line(const struct pi_shadow_item *it, uint32_t line_size)
{
    return it->addr / line_size;
}

/* A zero-length item covers no byte, but is listed under its address's line. */
static uint64_t last_line(const struct pi_shadow_item *it, uint32_t line_size)
{
    return (it->length ? it->addr + it->length - 1 : it->addr) / line_size;
}

static int by_block(const void *a, const void *b)
{
    const struct pi_xlat_pair *x = a, *y = b;
    PI_CMP_RET(x->block, y->block);
    return x->item < y->item ? -1 : x->item > y->item;
}

uint64_t pi_xlat_count_refs(const struct pi_shadow_item *items, size_t nitems,
                            uint32_t line_size)
{
    uint64_t n = 0;
    for (size_t i = 0; i < nitems; i++)
        n += last_line(&items[i], line_size) - first_line(&items[i], line_size) + 1;
    return n;
}

size_t pi_xlat_sort_pairs(const struct pi_shadow_item *items, size_t nitems, uint32_t line_size,
                          struct pi_xlat_pair *pairs)
{
    size_t k = 0;
    for (size_t i = 0; i < nitems; i++)
        for (uint64_t b = first_line(&items[i], line_size); b <= last_line(&items[i], line_size);
             b++)
            pairs[k++] = (struct pi_xlat_pair){b, (uint32_t)i};
    qsort(pairs, k, sizeof *pairs, by_block);
    size_t nblocks = 0;
    for (size_t j = 0; j < k; j++)
        nblocks += !j || pairs[j].block != pairs[j - 1].block;
    return nblocks;
}

void pi_xlat_fill(const struct pi_shadow_item *items, const struct pi_xlat_pair *pairs,
                  size_t npairs, struct pi_xlat_block *blocks, uint32_t *refs)
{
    size_t nblocks = 0;
    for (size_t j = 0; j < npairs; j++) {
        if (!j || pairs[j].block != pairs[j - 1].block)
            blocks[nblocks++] = (struct pi_xlat_block){.block = pairs[j].block,
                                                       .first_ref = (uint32_t)j};
        struct pi_xlat_block *bl = &blocks[nblocks - 1];
        bl->nrefs++;
        bl->flags |= items[pairs[j].item].directives;
        refs[j] = pairs[j].item;
    }
}
