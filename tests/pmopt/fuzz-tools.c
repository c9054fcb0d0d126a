/* fuzz-tools.c — libFuzzer harness for the readers of untrusted input that
 * fuzz-readers.c (common/ pimeta, pitrace, pishare, pifeedback) and
 * tests/runtime/fuzz-runtime.c (loader, overlay) do not cover.
 *
 * The first byte of the input picks the reader (byte % 6), the rest is its
 * input:
 *   0  a trace (pi_trace_open_mem/pi_trace_next: every record type,
 *      HOTSPOT, PAGES, PERF, RI ... the reader checks), and each RI
 *      record's report groups through common/piri.c
 *      (pi_ri_check_group and pi_ri_record on every record, as pmopt dump
 *      and export do)
 *   1  a whole ELF file through common/pidwarf.c.  With FUZZ_DWARF set
 *      (t-fuzz-tools.sh sets it): pi_debug_open (symbols, DWARF functions
 *      and lines, then variables and types; libdwarf and libelf are not
 *      instrumented), opened by path like pmopt does: the bytes are written
 *      to a memfd and /proc/self/fd/N is opened; then lookups.  Without:
 *      the symbols and section names only (pi_debug_open_elf on
 *      elf_memory), for runs that keep away from libdwarf's own bugs
 *   2  a .perfinst section through runtime/fnmeta.c (pi_fnmeta_parse)
 *   3  a module's whole file through runtime/fnmeta.c (its own ELF64
 *      section-header walk, then pi_fnmeta_parse)
 *   4  an object file (or archive) through optimizer/model/objscan.c
 *      (oscan_read by path, memfd as above; then oscan_find)
 *   5  a .perfinst.reserve table (pi_reserve_decode, common/piformat.c)
 * Build and run: t-fuzz-tools.sh (with the exact command line).
 */
#define _GNU_SOURCE /* memfd_create */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <libelf.h>

#include "layout.h"
#include "piformat.h"
#include "pidwarf.h"
#include "piri.h"
#include "pitrace.h"

int fuzz_fnmeta(const unsigned char *p, size_t n, int whole); /* fuzz-tools-rt.c */

/* ---- what objscan.c needs of pmopt (util.c), stubbed ----------------------- */
void pm_error(const char *fmt, ...)
{
    (void)fmt;
}

static int verbose = -1;

/* The bytes in a memfd; its /proc path in path.  -1 when memfd fails. */
static int as_file(const uint8_t *p, size_t n, char path[64])
{
    int fd = memfd_create("fuzz", MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t off = 0;
    while (off < n) {
        ssize_t w = write(fd, p + off, n - off);
        if (w <= 0) {
            close(fd);
            return -1;
        }
        off += (size_t)w;
    }
    snprintf(path, 64, "/proc/self/fd/%d", fd);
    return fd;
}

static void trace_ri(const uint8_t *p, size_t n)
{
    struct pi_err err;
    struct pi_trace_file f;
    struct pi_trace_rec r;
    size_t nrecs = 0, nri = 0, ngood = 0;
    if (pi_trace_open_mem("fuzz", p, n, &f, &err))
        return;
    while (pi_trace_next(&f, &r, &err) == 1) {
        nrecs++;
        if (r.hdr.type != PI_REC_RI)
            continue;
        const struct pi_rec_ri *h = &r.u.ri;
        uint32_t nrec = PI_RI_GROUP_RECORDS(h->rgs);
        for (uint32_t g = 0; g < h->ngroups; g++) {
            const uint8_t *grp = r.groups + (size_t)g * PI_RI_GROUP_BYTES(h->rgs);
            char why[160];
            nri++;
            ngood += pi_ri_check_group(grp, h->rgs, g == 0, why, sizeof why) == 0;
            for (uint32_t i = 0; i < nrec; i++) {
                struct pi_ri_rec x = pi_ri_record(grp, i);
                (void)pi_ri_rec_name(x.type);
            }
        }
    }
    pi_trace_close(&f);
    if (verbose)
        fprintf(stderr, "fuzz-tools: trace: %zu records, %zu RI groups, %zu well-formed\n", nrecs,
                nri, ngood);
}

/* Symbols and section names only, from libelf's elf_memory (pidwarf's own
 * code, no libdwarf). */
static void symbols(const uint8_t *p, size_t n)
{
    if (elf_version(EV_CURRENT) == EV_NONE)
        return;
    char *copy = malloc(n ? n : 1);
    if (!copy)
        return;
    memcpy(copy, p, n);
    Elf *elf = elf_memory(copy, n);
    struct pi_debug d;
    struct pi_err err;
    if (elf && pi_debug_open_elf("fuzz", (struct Elf *)elf, &d, &err) == 0) {
        for (size_t i = 0; i < d.nfuncs && i < 64; i++)
            (void)pi_debug_func(&d, d.funcs[i].lo);
        (void)pi_debug_section_name(&d, 1);
        if (verbose)
            fprintf(stderr, "fuzz-tools: symbols: %zu functions, %zu sections\n", d.nfuncs,
                    d.nsections);
        pi_debug_close(&d);
    }
    if (elf)
        elf_end(elf);
    free(copy);
}

static void dwarf(const uint8_t *p, size_t n)
{
    if (!getenv("FUZZ_DWARF")) {
        symbols(p, n);
        return;
    }
    char path[64];
    int fd = as_file(p, n, path);
    if (fd < 0)
        return;
    struct pi_debug d;
    struct pi_err err;
    if (pi_debug_open(path, &d, &err) == 0) {
        size_t hits = 0;
        for (size_t i = 0; i < d.nfuncs && i < 64; i++) {
            const char *file;
            uint32_t line;
            hits += pi_debug_func(&d, d.funcs[i].lo) != NULL;
            hits += pi_debug_line(&d, d.funcs[i].lo, &file, &line);
        }
        for (size_t i = 0; i < d.nlines && i < 64; i++) {
            const char *file;
            uint32_t line;
            hits += pi_debug_line(&d, d.lines[i].addr, &file, &line);
        }
        (void)pi_debug_section_name(&d, 1);
        size_t nv = 0;
        if (pi_debug_read_vars(&d, &err) == 0) {
            char buf[128];
            for (size_t i = 0; i < d.nvars && i < 64; i++) {
                const struct pi_dvar *v = pi_debug_var(&d, d.vars[i].addr, d.vars[i].addr + 1);
                if (v) {
                    pi_debug_var_name(&d, v, v->addr, buf, sizeof buf);
                    pi_debug_var_name(&d, v, v->addr + (v->size ? v->size - 1 : 0), buf, sizeof buf);
                    nv++;
                }
            }
        }
        if (verbose)
            fprintf(stderr, "fuzz-tools: dwarf: %zu functions, %zu lines, %zu variables, %zu types%s%s\n",
                    d.nfuncs, d.nlines, d.nvars, d.ntypes, d.warning[0] ? ", warning: " : "",
                    d.warning);
        (void)hits;
        (void)nv;
        pi_debug_close(&d);
    }
    close(fd);
}

static void objscan(const uint8_t *p, size_t n)
{
    char path[64];
    int fd = as_file(p, n, path);
    if (fd < 0)
        return;
    struct oscan s;
    char *paths[] = { path };
    if (oscan_read(&s, paths, 1, 0) == 0) {
        for (size_t i = 0; i < s.nsecs && i < 64; i++)
            if (s.secs[i].sym)
                (void)oscan_find(&s, s.secs[i].kind, s.secs[i].sym);
        if (verbose)
            fprintf(stderr, "fuzz-tools: objscan: %zu sections, %zu references, %zu ranges\n",
                    s.nsecs, s.nrefs, s.nranges);
    }
    oscan_free(&s);
    close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (verbose < 0)
        verbose = getenv("FUZZ_VERBOSE") != NULL;
    if (size < 1)
        return 0;
    const uint8_t *p = data + 1;
    size_t n = size - 1;
    switch (data[0] % 6) {
    case 0:
        trace_ri(p, n);
        break;
    case 1:
        dwarf(p, n);
        break;
    case 2:
    case 3: {
        /* an exact-size copy: the input's buffer may be larger */
        unsigned char *c = malloc(n ? n : 1);
        if (!c)
            return 0;
        memcpy(c, p, n);
        int r = fuzz_fnmeta(c, n, data[0] % 6 == 3);
        if (verbose)
            fprintf(stderr, "fuzz-tools: fnmeta: %s\n", r < 0 ? "refused" : "read");
        free(c);
        break;
    }
    case 4:
        objscan(p, n);
        break;
    case 5: {
        struct pi_reserve_hdr h = { .n = 0 };
        long in = pi_reserve_decode(p, n, &h);
        if (verbose)
            fprintf(stderr, "fuzz-tools: reserve: %ld of %u in the window\n", in, in < 0 ? 0 : h.n);
        break;
    }
    }
    return 0;
}
