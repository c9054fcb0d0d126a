/* loader.c — the loader stage: shadow segments and translation tables
 * (seed 004 M12).
 *
 * perfinst-ld writes into each linked module a non-allocated section
 * .perfinst.xlat holding one XLAT chunk: the shadow-segment template (one
 * pi_shadow_item per marked item, sorted by link-time address) and the
 * translation table (primary block = cache line -> the items overlapping it).
 * Nothing maps it at run time, so the first perfinst_shadow_lookup that
 * falls in a module reads the module's file (mmap, ELF64 headers parsed and
 * bounds-checked by elfscan.c: no libelf), decodes the chunk with
 * common/piformat.c (the decoder pmopt and perfinst-ld use), and maps the
 * module's shadow segment: the items with run-time addresses and the block
 * table, rebuilt when the machine's line size differs from the table's.
 * A module without a valid section simply has no shadow segment
 * (PERFINST_VERBOSE=1 says why).  Once built, a segment is read-only and
 * lookups take no lock.
 */
#include "runtime.h"
#include "piformat.h"
#include "piflow.h"
#include "xlat-blocks.h"

#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct pi_shadow {
    unsigned line_size;
    uint32_t nitems, nblocks;
    struct perfinst_shadow_item *items;
    struct pi_xlat_block *blocks; /* the translation table, sorted by block */
    uint32_t *refs;
    struct pi_unit_rt **units;    /* per item, found on first perfinst_item_count */
    size_t mapped;                /* the segment's size (items is its start) */
};

static pthread_mutex_t loader_lock = PTHREAD_MUTEX_INITIALIZER;

static int pow2(unsigned long v)
{
    return v && !(v & (v - 1));
}

/* sysfs, else sysconf, else 64 (PERFINST_LINE_SIZE is looked at first, in core.c). */
unsigned pi_query_line_size(void)
{
    int fd = open("/sys/devices/system/cpu/cpu0/cache/index0/coherency_line_size",
                  O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        char b[32];
        ssize_t n = read(fd, b, sizeof b - 1);
        close(fd);
        if (n > 0) {
            b[n] = 0;
            unsigned long v = strtoul(b, NULL, 10);
            if (pow2(v) && v >= 16 && v <= 1024)
                return (unsigned)v;
        }
    }
    long v = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
    if (v >= 16 && v <= 1024 && pow2((unsigned long)v))
        return (unsigned)v;
    return 64;
}

/* ---- reading .perfinst.xlat from the module's file ------------------------------ */

/* Find the section and decode its XLAT chunk (common/piformat.c checks it
 * as pmopt and perfinst-ld do); NULL, or why not (a constant or e->msg). */
static const char *find_xlat(const unsigned char *f, size_t size, const struct pi_module *m,
                             struct pi_xlat_ref *xv, struct pi_dec_err *e)
{
    Elf64_Shdr xs;
    int found;
    uint8_t bid[PI_BUILD_ID_MAX];
    uint32_t bid_len;
    const char *why = pi_elf_section(f, size, PI_SECTION_XLAT, &xs, &found, bid, &bid_len);
    if (why)
        return why;
    if (found > 1)
        return "two .perfinst.xlat sections";
    if (!found)
        return "no .perfinst.xlat section";
    if (m->build_id_len && bid_len &&
        (bid_len != m->build_id_len || memcmp(bid, m->build_id, bid_len)))
        return "the file's build-id differs from the loaded module's (rebuilt since?)";
    if (xs.sh_type != SHT_PROGBITS || (xs.sh_flags & SHF_ALLOC))
        return ".perfinst.xlat is not a non-allocated SHT_PROGBITS section";
    if (!pi_in_file(xs.sh_offset, xs.sh_size, size))
        return ".perfinst.xlat lies outside the file";

    struct pi_chunk_cursor cur = { .sec = f + xs.sh_offset, .size = xs.sh_size,
                                   .kinds = PI_CHUNK_BIT(PI_CHUNK_XLAT) };
    struct pi_chunk_hdr ch;
    uint64_t off;
    int more = pi_chunk_next(&cur, &ch, &off, e);
    if (more > 0 && !pi_xlat_decode(cur.sec + off, ch.size, xv, e))
        return NULL;
    if (!more)
        return "no XLAT chunk in .perfinst.xlat";
    pi_dec_where(e, PI_SECTION_XLAT, off);
    return e->msg;
}

/* ---- building the shadow segment --------------------------------------------------- */

/* The translation table for line size L, from the file's items (link-time
 * addresses: the blocks are the same as for the run-time ones, less the bias). */
static const char *rebuild_blocks(const struct pi_shadow_item *fitems, uint32_t nitems,
                                  unsigned L, struct pi_xlat_pair **pairs_out,
                                  uint64_t *npairs_out, uint32_t *nblocks_out)
{
    uint64_t npairs = pi_xlat_count_refs(fitems, nitems, L);
    if (npairs > UINT32_MAX / 2)
        return "too many blocks for this line size";
    struct pi_xlat_pair *pairs = malloc((npairs ? npairs : 1) * sizeof *pairs);
    if (!pairs)
        return "out of memory";
    *nblocks_out = (uint32_t)pi_xlat_sort_pairs(fitems, nitems, L, pairs);
    *pairs_out = pairs;
    *npairs_out = npairs;
    return NULL;
}

static const char *build_shadow(const struct pi_module *m, const struct pi_xlat_ref *xv,
                                unsigned L, struct pi_shadow *sh, int *rebuilt)
{
    const struct pi_xlat *x = &xv->hdr;
    const char *why = NULL;

    /* Items first, to a scratch array (the file's, aligned): inside the module? */
    struct pi_shadow_item *fitems = calloc(x->nitems ? x->nitems : 1, sizeof *fitems);
    if (!fitems)
        return "out of memory";
    memcpy(fitems, xv->items, (size_t)x->nitems * sizeof *fitems);
    for (uint32_t i = 0; i < x->nitems && !why; i++) {
        const struct pi_shadow_item *f = &fitems[i];
        uint64_t a = f->addr + m->bias;
        if (a < m->lo || a > m->hi || f->length > m->hi - a)
            why = "an item lies outside the module (stale file?)";
    }

    /* The translation table: the file's when its line size is ours. */
    struct pi_xlat_pair *pairs = NULL;
    uint64_t nrefs = x->nrefs;
    uint32_t nblocks = x->nblocks;
    *rebuilt = x->line_size != L;
    if (!why && *rebuilt) {
        /* The file's table, unused, must still be its items' size: so the
         * rebuilt one is at most x->line_size / L times the file's (a
         * corrupt item length cannot ask for gigabytes of pairs). */
        if (pi_xlat_count_refs(fitems, x->nitems, x->line_size) != x->nrefs)
            why = "the table's size does not match its items";
        else
            why = rebuild_blocks(fitems, x->nitems, L, &pairs, &nrefs, &nblocks);
    }
    if (why) {
        free(fitems);
        free(pairs);
        return why;
    }

    /* One mapping: items, blocks and refs (made read-only), then the unit cache. */
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t sz_items = (size_t)x->nitems * sizeof(struct perfinst_shadow_item);
    size_t sz_blocks = (size_t)nblocks * sizeof(struct pi_xlat_block);
    size_t ro = (sz_items + sz_blocks + nrefs * sizeof(uint32_t) + page - 1) & ~(page - 1);
    size_t total = ro + (size_t)x->nitems * sizeof(struct pi_unit_rt *) + 1;
    unsigned char *seg = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (seg == MAP_FAILED) {
        free(fitems);
        free(pairs);
        return "cannot map the shadow segment";
    }
    sh->line_size = L;
    sh->mapped = total;
    sh->nitems = x->nitems;
    sh->nblocks = nblocks;
    sh->items = (void *)seg;
    sh->blocks = (void *)(seg + sz_items);
    sh->refs = (void *)(seg + sz_items + sz_blocks);
    sh->units = (void *)(seg + ro);
    for (uint32_t i = 0; i < x->nitems; i++) {
        const struct pi_shadow_item *f = &fitems[i];
        sh->items[i] = (struct perfinst_shadow_item){.addr = f->addr + m->bias,
                                                     .length = f->length, .site = f->site,
                                                     .unit_id = f->unit_id,
                                                     .counter = f->counter,
                                                     .directives = f->directives,
                                                     .threshold = f->threshold};
    }
    if (pairs) {
        pi_xlat_fill(fitems, pairs, nrefs, sh->blocks, sh->refs);
    } else {
        memcpy(sh->blocks, xv->blocks, sz_blocks);
        memcpy(sh->refs, xv->refs, nrefs * sizeof(uint32_t));
    }
    mprotect(seg, ro, PROT_READ);
    free(fitems);
    free(pairs);
    return NULL;
}

const char *pi_shadow_from_file(const unsigned char *f, size_t size, const struct pi_module *m,
                                unsigned L, struct pi_shadow **out, uint32_t *file_line,
                                int *rebuilt, struct pi_dec_err *e)
{
    struct pi_xlat_ref xv;
    struct pi_shadow *sh;
    const char *why = find_xlat(f, size, m, &xv, e);
    if (why)
        return why;
    if (!(sh = calloc(1, sizeof *sh)))
        return "out of memory";
    *file_line = xv.hdr.line_size;
    if ((why = build_shadow(m, &xv, L, sh, rebuilt))) {
        free(sh);
        return why;
    }
    *out = sh;
    return NULL;
}

void pi_shadow_free(struct pi_shadow *sh)
{
    if (sh)
        munmap(sh->items, sh->mapped);
    free(sh);
}

/* Map the module's shadow segment (once). */
static void load_module(struct pi_module *m)
{
    const char *why = NULL;
    struct pi_shadow *sh = NULL;
    struct pi_dec_err e;
    int rebuilt = 0;
    uint32_t file_line = 0;
    int fd = open(m->file, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st)) {
        why = "cannot open the file";
    } else {
        void *f = st.st_size > 0 ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)
                                 : MAP_FAILED;
        if (f == MAP_FAILED) {
            why = "cannot map the file";
        } else {
            why = pi_shadow_from_file(f, (size_t)st.st_size, m, pi.line_size, &sh, &file_line,
                                      &rebuilt, &e);
            munmap(f, (size_t)st.st_size);
        }
    }
    if (fd >= 0)
        close(fd);
    if (why) {
        free(sh);
        if (pi.verbose)
            pi_say("perfinst: ", m->path, ": no shadow segment: ", why, "\n", NULL);
        PI_STORE(&m->shadow_state, 2);
        return;
    }
    m->shadow = sh;
    PI_STORE(&m->shadow_state, 1);
    if (pi.verbose) {
        char a[24], b[24], c[24], d[24];
        pi_say("perfinst: ", m->path, ": shadow segment of ", pi_fmt_u64(a, sh->nitems, 10),
               " items, ", pi_fmt_u64(b, sh->nblocks, 10), " blocks of ",
               pi_fmt_u64(c, sh->line_size, 10), " bytes",
               rebuilt ? " (translation table rebuilt from line size " : "",
               rebuilt ? pi_fmt_u64(d, file_line, 10) : "", rebuilt ? ")" : "", "\n", NULL);
    }
}

static struct pi_shadow *module_shadow(struct pi_module *m)
{
    int state = PI_LOAD(&m->shadow_state);
    if (!state) {
        pthread_mutex_lock(&loader_lock);
        if (!m->shadow_state)
            load_module(m);
        pthread_mutex_unlock(&loader_lock);
        state = PI_LOAD(&m->shadow_state);
    }
    return state == 1 ? m->shadow : NULL;
}

/* ---- the API ------------------------------------------------------------------------------------ */

PI_EXPORT const struct perfinst_shadow_item *perfinst_shadow_lookup(const void *addr)
{
    uintptr_t a = (uintptr_t)addr;
    pi_init();
    for (struct pi_module *m = PI_LOAD(&pi.modules); m; m = m->next) {
        if (!PI_LOAD(&m->live) || a < m->lo || a >= m->hi)
            continue;
        struct pi_shadow *sh = module_shadow(m);
        if (!sh)
            return NULL;
        uint64_t block = (a - m->bias) / sh->line_size;
        uint32_t lo = 0, hi = sh->nblocks;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (sh->blocks[mid].block < block)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == sh->nblocks || sh->blocks[lo].block != block)
            return NULL;
        const struct perfinst_shadow_item *best = NULL;
        const struct pi_xlat_block *b = &sh->blocks[lo];
        for (uint32_t r = b->first_ref; r < b->first_ref + b->nrefs; r++) {
            const struct perfinst_shadow_item *it = &sh->items[sh->refs[r]];
            if (it->addr <= a && a - it->addr < it->length && (!best || it->addr > best->addr))
                best = it;
        }
        return best;
    }
    return NULL;
}

/* Metadata, read once per module. */
struct modmeta {
    struct modmeta *next;
    struct pi_module *m;
    struct pi_fnmeta fm;
    const char *why;
    struct pi_dec_err err; /* why may point here */
};
static struct modmeta *modmetas;
int pi_fnmeta_failed;

const struct pi_fnmeta *pi_fnmeta_of_locked(struct pi_module *m, const char *what)
{
    struct modmeta *mm;
    for (mm = modmetas; mm; mm = mm->next)
        if (mm->m == m)
            return mm->why ? NULL : &mm->fm;
    mm = calloc(1, sizeof *mm);
    if (!mm)
        return NULL;
    mm->m = m;
    mm->why = pi_fnmeta_read(m->file, &mm->fm, &mm->err);
    if (mm->why) {
        pi_fnmeta_failed = 1;
        pi_say("perfinst: ", m->path, ": metadata for ", what, ": ", mm->why, "\n", NULL);
    }
    mm->next = modmetas;
    modmetas = mm;
    return mm->why ? NULL : &mm->fm;
}

/* The count of a block whose function counts its arcs (the item has no
 * counter): solved from the function's counters as they are now, the
 * unit's totals and the calling thread's own (common/piflow.c). */
static uint64_t solved_count(struct pi_module *m, struct pi_unit_rt *u, const uint64_t *own,
                             const struct perfinst_shadow_item *item)
{
    uint64_t count = 0;
    pthread_mutex_lock(&pi.lock);
    const struct pi_fnmeta *fm = pi_fnmeta_of_locked(m, "block counts from arcs");
    const struct pi_fnmeta_unit *mu = NULL;
    for (uint32_t i = 0; fm && i < fm->nunits; i++)
        if (fm->units[i].unit_id == item->unit_id)
            mu = &fm->units[i];
    const struct pi_func *fn = mu && item->site < mu->nsites ? &mu->funcs[mu->sites[item->site].func] : NULL;
    if (fn && fn->narcs && mu->ncounters == u->ncounters) {
        uint64_t *ctr = malloc((u->ncounters ? u->ncounters : 1) * sizeof *ctr);
        uint64_t *sites = malloc(mu->nsites * sizeof *sites);
        uint64_t *arcs = malloc((mu->narcs ? mu->narcs : 1) * sizeof *arcs);
        struct pi_flow_stat st = {0, 0};
        if (ctr && sites && arcs) {
            for (uint32_t c = 0; c < u->ncounters; c++)
                ctr[c] = __atomic_load_n(&u->totals[c], __ATOMIC_RELAXED) + (own ? own[c] : 0);
            if (!pi_flow_func(fn, mu->sites, mu->arcs, ctr, u->ncounters, NULL, sites, arcs, &st))
                count = sites[item->site];
        }
        free(ctr);
        free(sites);
        free(arcs);
    }
    pthread_mutex_unlock(&pi.lock);
    return count;
}

PI_EXPORT uint64_t perfinst_item_count(const struct perfinst_shadow_item *item)
{
    if (!item)
        return 0;
    struct pi_module *m;
    struct pi_shadow *sh = NULL;
    for (m = PI_LOAD(&pi.modules); m; m = m->next) {
        sh = PI_LOAD(&m->shadow_state) == 1 ? m->shadow : NULL;
        if (sh && item >= sh->items && item < sh->items + sh->nitems)
            break;
    }
    if (!m)
        return 0;
    size_t idx = (size_t)(item - sh->items);
    struct pi_unit_rt *u = PI_LOAD(&sh->units[idx]);
    uint64_t *own = NULL;
    if (!u || (PI_LOAD(&u->tls_get) && !(own = pi_self ? pi_thread_block(pi_self, u) : NULL))) {
        /* First query for this item, or this thread's counters not recorded
         * yet (a unit registered after the thread started): look them up. */
        pthread_mutex_lock(&pi.lock);
        if (!u)
            for (struct pi_unit_rt *v = pi.units; v; v = v->next)
                if (v->module == m && v->unit_id == item->unit_id && (!u || v->tls_get))
                    u = v;
        if (u) {
            PI_STORE(&sh->units[idx], u);
            struct pi_thread *self = pi_thread_self_locked();
            if (u->tls_get && (own = u->tls_get()) && self)
                pi_slot_set_locked(self, u->index, own);
        }
        pthread_mutex_unlock(&pi.lock);
    }
    if (!u)
        return 0;
    if (item->counter == PI_NONE)
        return solved_count(m, u, own, item);
    if (item->counter >= u->ncounters)
        return 0;
    return __atomic_load_n(&u->totals[item->counter], __ATOMIC_RELAXED) +
           (own ? own[item->counter] : 0);
}

PI_EXPORT unsigned perfinst_line_size(void)
{
    pi_init();
    return pi.line_size;
}
