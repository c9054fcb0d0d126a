/* fnmeta.c — what the runtime needs of a module's .perfinst metadata to
 * evaluate counter combinations and dormant classes (runtime/armed.c) and
 * to count a block from its function's arcs (perfinst_item_count,
 * loader.c): per unit its functions (name, entry site, sites, arcs) and
 * each site's counter index, and per site the static instruction counts of
 * its code ranges (total and per type) — the plugin's static counts that,
 * times block executions, stand in for an "instructions" hardware counter.
 *
 * Like loader.c's reader of .perfinst.xlat it reads the module's file
 * (mmap, ELF64 headers parsed and bounds-checked by elfscan.c; no libelf
 * in the runtime); the chunks are decoded and checked by
 * common/piformat.c, the decoder pmopt and perfinst-ld use too.  This file
 * keeps the UNIT tables and sums the CODE ranges, once per module on
 * first need.
 */
#include "runtime.h"
#include "piformat.h"

#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* The .perfinst section of an ELF64 file: *sec, *len; or why not. */
static const char *find_section(const unsigned char *f, size_t size, const unsigned char **sec,
                                uint64_t *len)
{
    Elf64_Shdr s;
    int found;
    const char *why = pi_elf_section(f, size, PI_SECTION_META, &s, &found, NULL, NULL);
    if (why)
        return why;
    if (!found)
        return "no .perfinst section";
    if (s.sh_type != SHT_PROGBITS || s.sh_offset > size || s.sh_size > size - s.sh_offset)
        return ".perfinst lies outside the file";
    *sec = f + s.sh_offset;
    *len = s.sh_size;
    return NULL;
}

static struct pi_fnmeta_unit *unit_of(struct pi_fnmeta *fm, uint64_t unit_id)
{
    for (uint32_t i = 0; i < fm->nunits; i++)
        if (fm->units[i].unit_id == unit_id)
            return &fm->units[i];
    return NULL;
}

static const char *add_unit(struct pi_fnmeta *fm, const struct pi_unit_ref *r)
{
    const struct pi_unit *h = &r->hdr;
    if (unit_of(fm, h->unit_id))
        return NULL; /* (a unit twice: the first wins) */
    struct pi_fnmeta_unit *nu = realloc(fm->units, (fm->nunits + 1) * sizeof *nu);
    if (!nu)
        return "out of memory";
    fm->units = nu;
    struct pi_fnmeta_unit *u = &nu[fm->nunits];
    memset(u, 0, sizeof *u);
    u->unit_id = h->unit_id;
    u->nfuncs = h->nfuncs;
    u->nsites = h->nsites;
    u->ncounters = h->ncounters;
    u->strtab_size = h->strtab_size;
    u->narcs = h->narcs;
    u->funcs = malloc((h->nfuncs ? h->nfuncs : 1) * sizeof *u->funcs);
    u->sites = malloc((h->nsites ? h->nsites : 1) * sizeof *u->sites);
    u->arcs = malloc((h->narcs ? h->narcs : 1) * sizeof *u->arcs);
    u->strtab = malloc(h->strtab_size);
    u->code = calloc(h->nsites ? h->nsites : 1, sizeof *u->code);
    if (!u->funcs || !u->sites || !u->arcs || !u->strtab || !u->code) {
        free(u->funcs), free(u->sites), free(u->arcs), free(u->strtab), free(u->code);
        return "out of memory";
    }
    memcpy(u->funcs, r->funcs, (size_t)h->nfuncs * sizeof *u->funcs);
    memcpy(u->sites, r->sites, (size_t)h->nsites * sizeof *u->sites);
    memcpy(u->arcs, r->arcs, (size_t)h->narcs * sizeof *u->arcs);
    memcpy(u->strtab, r->strtab, h->strtab_size);
    fm->nunits++;
    return NULL;
}

static void add_code(struct pi_fnmeta *fm, const struct pi_code_ref *k)
{
    for (uint32_t i = 0; i < k->nranges; i++) {
        struct pi_range r = pi_get_range(k->ranges, i);
        struct pi_fnmeta_unit *u = unit_of(fm, r.unit_id);
        if (!r.addr || !u || r.site >= u->nsites)
            continue; /* discarded by the linker, or another module's unit */
        struct pi_fnmeta_code *c = &u->code[r.site];
        c->nranges++;
        c->insns += r.ninsns;
        for (int t = 0; t < PI_NTYPES; t++)
            c->ntype[t] += r.ntype[t];
    }
}

/* Two walks over the chunks (common/piformat.c decodes and checks them):
 * UNITs, then CODE (whose ranges name units).  NULL, or why not in e. */
const char *pi_fnmeta_parse(const unsigned char *sec, uint64_t len, struct pi_fnmeta *fm,
                            struct pi_dec_err *e)
{
    for (int walk = 0; walk < 2; walk++) {
        struct pi_chunk_cursor cur = { .sec = sec, .size = len, .kinds = PI_CHUNKS_META };
        struct pi_chunk_hdr ch;
        uint64_t off;
        int more;
        while ((more = pi_chunk_next(&cur, &ch, &off, e)) > 0) {
            struct pi_unit_ref u;
            struct pi_code_ref k;
            const char *why = NULL;
            if (walk == 0 && ch.kind == PI_CHUNK_UNIT) {
                if (pi_unit_decode(sec + off, ch.size, &u, e))
                    break;
                why = add_unit(fm, &u);
            } else if (walk == 1 && ch.kind == PI_CHUNK_CODE) {
                if (pi_code_decode(sec + off, ch.size, &k, e))
                    break;
                add_code(fm, &k);
            }
            if (why)
                return why;
        }
        if (more) { /* the walk's or a decoder's refusal */
            pi_dec_where(e, PI_SECTION_META, off);
            return e->msg;
        }
    }
    return NULL;
}

void pi_fnmeta_free(struct pi_fnmeta *fm)
{
    for (uint32_t i = 0; i < fm->nunits; i++) {
        free(fm->units[i].funcs);
        free(fm->units[i].sites);
        free(fm->units[i].arcs);
        free(fm->units[i].strtab);
        free(fm->units[i].code);
    }
    free(fm->units);
    memset(fm, 0, sizeof *fm);
}

/* The metadata of the file `path` (a module), or why not (in e, or a
 * constant string). */
const char *pi_fnmeta_read(const char *path, struct pi_fnmeta *fm, struct pi_dec_err *e)
{
    memset(fm, 0, sizeof *fm);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) || st.st_size <= 0) {
        if (fd >= 0)
            close(fd);
        return "cannot open the file";
    }
    void *f = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (f == MAP_FAILED)
        return "cannot map the file";
    const unsigned char *sec;
    uint64_t len;
    const char *why = find_section(f, (size_t)st.st_size, &sec, &len);
    if (!why)
        why = pi_fnmeta_parse(sec, len, fm, e);
    munmap(f, (size_t)st.st_size);
    if (why)
        pi_fnmeta_free(fm);
    return why;
}

