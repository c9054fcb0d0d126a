/* xlat.c — the translation table and shadow-segment template (seed 004, M12).
 *
 * From the linked program's metadata (ranges with link-time addresses,
 * units with their site tables) build one XLAT chunk:
 *
 *   items   one pi_shadow_item per CODE range that survived the link
 *           (addr != 0), carrying its site's counter, directive bits and
 *           threshold; sorted by address (the reader's range order);
 *   blocks  one pi_xlat_block per cache line (block = addr / line_size)
 *           that some item overlaps, sorted; an item spanning three lines
 *           is listed under all three;
 *   refs    for each block, the indices of its items in address order;
 *           block flags = OR of their directive bits.
 *
 * Blocks and refs come from common/xlat-blocks.c, which the runtime uses
 * too when it rebuilds the table for another line size.
 *
 * A zero-length range (a site whose code is empty) covers no byte: no
 * lookup can reach it, so it has no item, like a discarded one.
 */
#include <stdlib.h>

#include "pild.h"
#include "xlat-blocks.h"

int pild_xlat_build(const struct pi_meta *m, uint32_t line_size, struct pild_buf *out,
                    const char *output)
{
    struct pi_shadow_item *items = pild_xmalloc((m->nranges + 1) * sizeof *items);
    size_t nitems = 0;
    struct pi_xlat x = {.line_size = line_size, .nunits = (uint32_t)m->nunits};

    for (size_t i = 0; i < m->nranges; i++) {
        const struct pi_range *r = &m->ranges[i];
        if (r->addr == 0 || r->length == 0) /* discarded by the link, or empty */
            continue;
        const struct pi_unit_view *u = pi_meta_unit(m, r->unit_id);
        if (!u || r->site >= u->hdr.nsites) {
            pild_err("%s: code range at 0x%llx names site %u of unit 0x%016llx, which is not "
                     "linked",
                     output, (unsigned long long)r->addr, r->site,
                     (unsigned long long)r->unit_id);
            free(items);
            return -1;
        }
        if (nitems && r->addr < items[nitems - 1].addr) {
            pild_err("%s: internal error: the reader's ranges are not sorted by address", output);
            free(items);
            return -1;
        }
        const struct pi_site *s = &u->sites[r->site];
        struct pi_shadow_item *it = &items[nitems++];
        *it = (struct pi_shadow_item){
            .addr = r->addr,
            .unit_id = r->unit_id,
            .length = r->length,
            .site = r->site,
            .counter = s->counter,
            .directives = s->directives,
            .threshold = s->threshold,
        };
        if (nitems == 1) /* the smallest address: items come sorted */
            x.lo = it->addr;
        if (it->addr + it->length > x.hi)
            x.hi = it->addr + it->length;
    }
    uint64_t npairs = pi_xlat_count_refs(items, nitems, line_size);
    if (nitems > UINT32_MAX || npairs > UINT32_MAX) {
        pild_err("%s: too many code ranges for one translation table", output);
        free(items);
        return -1;
    }

    struct pi_xlat_pair *pairs = pild_xmalloc((npairs + 1) * sizeof *pairs);
    size_t nblocks = pi_xlat_sort_pairs(items, nitems, line_size, pairs);
    struct pi_xlat_block *blocks = pild_xmalloc((nblocks + 1) * sizeof *blocks);
    uint32_t *refs = pild_xmalloc((npairs + 1) * sizeof *refs);
    pi_xlat_fill(items, pairs, npairs, blocks, refs);

    x.nitems = (uint32_t)nitems;
    x.nblocks = (uint32_t)nblocks;
    x.nrefs = (uint32_t)npairs;
    size_t start = pild_chunk_begin(out, PI_CHUNK_XLAT, PI_FORMAT_VERSION);
    pild_buf_add(out, &x, sizeof x);
    pild_buf_add(out, items, nitems * sizeof *items);
    pild_buf_add(out, blocks, nblocks * sizeof *blocks);
    pild_buf_add(out, refs, npairs * sizeof *refs);
    free(items), free(pairs), free(blocks), free(refs);
    if (pild_chunk_end(out, start, PI_SECTION_XLAT) != 0)
        return -1;
    if (pild_verbose)
        pild_note("%s: " PI_SECTION_XLAT ": %u units, %u items, %u blocks of %u bytes, "
                  "%u refs",
                  output, x.nunits, x.nitems, x.nblocks, line_size, x.nrefs);
    return 0;
}
