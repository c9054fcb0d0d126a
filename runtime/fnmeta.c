/* fnmeta.c — what the runtime needs of a module's .perfinst metadata to
 * evaluate counter combinations and dormant classes (runtime/armed.c):
 * per unit its functions (name, entry site, sites) and each site's counter
 * index, and per site the static instruction counts of its code ranges
 * (total and per type) — the plugin's static counts that, times block
 * executions, stand in for an "instructions" hardware counter.
 *
 * Like loader.c's reader of .perfinst.xlat it reads the module's file
 * (mmap, ELF64 headers parsed and bounds-checked here; no libelf in the
 * runtime) and validates every chunk it uses (magic, header CRC, version,
 * sizes, indices, string offsets).  The format is perfinst-format.h's; the
 * one full reader is common/pimeta.c — this one takes only the UNIT
 * tables and CODE ranges, read once per module on first need.
 */
#include "runtime.h"

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

static const char *add_unit(struct pi_fnmeta *fm, const unsigned char *c, uint32_t size)
{
    struct pi_unit h;
    if (size < sizeof(struct pi_chunk_hdr) + sizeof h)
        return "UNIT chunk too small";
    memcpy(&h, c + sizeof(struct pi_chunk_hdr), sizeof h);
    uint64_t need = sizeof(struct pi_chunk_hdr) + sizeof h + (uint64_t)h.nfuncs * sizeof(struct pi_func) +
                    (uint64_t)h.nsites * sizeof(struct pi_site) + (uint64_t)h.nsuccs * 4 + h.strtab_size;
    if (need > size || !h.strtab_size)
        return "UNIT arrays overrun the chunk";
    if (unit_of(fm, h.unit_id))
        return NULL; /* (a unit twice: the first wins, as in pimeta) */
    struct pi_fnmeta_unit *nu = realloc(fm->units, (fm->nunits + 1) * sizeof *nu);
    if (!nu)
        return "out of memory";
    fm->units = nu;
    struct pi_fnmeta_unit *u = &nu[fm->nunits];
    memset(u, 0, sizeof *u);
    u->unit_id = h.unit_id;
    u->nfuncs = h.nfuncs;
    u->nsites = h.nsites;
    u->ncounters = h.ncounters;
    const unsigned char *p = c + sizeof(struct pi_chunk_hdr) + sizeof h;
    u->funcs = malloc((h.nfuncs ? h.nfuncs : 1) * sizeof *u->funcs);
    u->sites = malloc((h.nsites ? h.nsites : 1) * sizeof *u->sites);
    u->strtab = malloc(h.strtab_size);
    u->code = calloc(h.nsites ? h.nsites : 1, sizeof *u->code);
    if (!u->funcs || !u->sites || !u->strtab || !u->code) {
        free(u->funcs), free(u->sites), free(u->strtab), free(u->code);
        return "out of memory";
    }
    memcpy(u->funcs, p, (size_t)h.nfuncs * sizeof *u->funcs);
    p += (size_t)h.nfuncs * sizeof *u->funcs;
    memcpy(u->sites, p, (size_t)h.nsites * sizeof *u->sites);
    p += (size_t)h.nsites * sizeof *u->sites + (size_t)h.nsuccs * 4;
    memcpy(u->strtab, p, h.strtab_size);
    u->strtab[h.strtab_size - 1] = 0;
    u->strtab_size = h.strtab_size;
    fm->nunits++;
    for (uint32_t i = 0; i < h.nfuncs; i++) {
        const struct pi_func *fn = &u->funcs[i];
        if (fn->name >= h.strtab_size || fn->first_site > h.nsites || fn->nsites > h.nsites - fn->first_site)
            return "a function's name or sites are out of range";
    }
    for (uint32_t i = 0; i < h.nsites; i++)
        if (u->sites[i].counter != PI_NONE && u->sites[i].counter >= h.ncounters)
            return "a site's counter is out of range";
    return NULL;
}

static const char *add_code(struct pi_fnmeta *fm, const unsigned char *c, uint32_t size)
{
    struct pi_code h;
    if (size < sizeof(struct pi_chunk_hdr) + sizeof h)
        return "CODE chunk too small";
    memcpy(&h, c + sizeof(struct pi_chunk_hdr), sizeof h);
    if (sizeof(struct pi_chunk_hdr) + sizeof h + (uint64_t)h.nranges * sizeof(struct pi_range) > size)
        return "CODE ranges overrun the chunk";
    const unsigned char *p = c + sizeof(struct pi_chunk_hdr) + sizeof h;
    for (uint32_t i = 0; i < h.nranges; i++) {
        struct pi_range r;
        memcpy(&r, p + (size_t)i * sizeof r, sizeof r);
        struct pi_fnmeta_unit *u = unit_of(fm, r.unit_id);
        if (!r.addr || !u || r.site >= u->nsites)
            continue; /* discarded by the linker, or another module's unit */
        struct pi_fnmeta_code *k = &u->code[r.site];
        k->nranges++;
        k->insns += r.ninsns;
        for (int t = 0; t < PI_NTYPES; t++)
            k->ntype[t] += r.ntype[t];
    }
    return NULL;
}

/* Two walks over the chunks: UNITs, then CODE (whose ranges name units). */
const char *pi_fnmeta_parse(const unsigned char *sec, uint64_t len, struct pi_fnmeta *fm)
{
    for (int walk = 0; walk < 2; walk++) {
        struct pi_chunk_hdr ch;
        uint64_t pos = 0;
        const char *why = NULL;
        int more;
        while ((more = pi_chunk_next(sec, len, &pos, &ch, &why)) > 0) {
            if (walk == 0 && ch.kind == PI_CHUNK_UNIT)
                why = add_unit(fm, sec + pos, ch.size);
            else if (walk == 1 && ch.kind == PI_CHUNK_CODE)
                why = add_code(fm, sec + pos, ch.size);
            if (why)
                return why;
            pos += ch.size;
        }
        if (more < 0)
            return why;
    }
    return NULL;
}

void pi_fnmeta_free(struct pi_fnmeta *fm)
{
    for (uint32_t i = 0; i < fm->nunits; i++) {
        free(fm->units[i].funcs);
        free(fm->units[i].sites);
        free(fm->units[i].strtab);
        free(fm->units[i].code);
    }
    free(fm->units);
    memset(fm, 0, sizeof *fm);
}

/* The metadata of the file `path` (a module), or why not. */
const char *pi_fnmeta_read(const char *path, struct pi_fnmeta *fm)
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
        why = pi_fnmeta_parse(sec, len, fm);
    munmap(f, (size_t)st.st_size);
    if (why)
        pi_fnmeta_free(fm);
    return why;
}
