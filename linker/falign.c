/* falign.c — the ordered functions' alignment at the link (order-align=bolt,
 * docs/layout.md "Function alignment").
 *
 * A unit compiled with -fplugin-arg-perfinst-order-align=bolt has its
 * ordered functions in .text.sorted.RANK.NAME sections without
 * -falign-functions' alignment, and a section .perfinst.falign "TO:MAX"
 * (64:32).  The link stage then places each ordered function at a multiple
 * of TO where the padding before it is at most MAX bytes, as BOLT aligns
 * its hot functions, and leaves it packed after the function before it
 * otherwise.  GNU ld has no such rule for the input sections of a
 * wildcard, so the link runs twice:
 *
 * 1. collect2 as the link stage would run it, with -Map: the addresses of
 *    the .text.sorted input sections, which ld's SORT(.text.sorted.*) lays
 *    out one after the other (the default script, and any script that
 *    keeps that line);
 * 2. from there, in the map's order, the padding before each ordered
 *    function (the sections .text.sorted.DIGITS.NAME; a cold part,
 *    .text.sorted.cRANK.NAME or .text.sorted.RANKc.NAME, is not aligned):
 *    where the next multiple of TO is at most MAX bytes on, the function
 *    goes there; every input section's own alignment (scanned from the
 *    objects) applies as ld applies it;
 * 3. an object of padding sections, each named to sort right between its
 *    function and the name before it (the function's name with its last
 *    character one less and '~' after it: no identifier has a '~'), made
 *    with gcc's assembler, and collect2 again with it;
 * 4. the second map must show every .text.sorted section at the address
 *    step 2 computed; if not (a script that places them one by one, as
 *    pmopt relink's does when it places an order), the first link is kept
 *    and a note says so.
 *
 * A name that two inputs both have (static functions of one name and
 * rank) gets no padding: its two sections would sort after both pads.
 * Padding bytes are int3 (0xcc): never executed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pild.h"

static const char sorted_pre[] = ".text.sorted.";

static int by_name(const void *a, const void *b)
{
    const struct pild_sorted_sec *x = a, *y = b;
    return strcmp(x->name, y->name);
}

int pild_sorted_sec_add(struct pild_facts *f, const char *name, uint64_t align)
{
    if (f->nsorted == f->capsorted) {
        f->capsorted = f->capsorted ? 2 * f->capsorted : 64;
        f->sorted = pild_xrealloc(f->sorted, f->capsorted * sizeof *f->sorted);
    }
    f->sorted[f->nsorted++] = (struct pild_sorted_sec){pild_xstrdup(name), align ? align : 1};
    return 0;
}

/* An ordered function's hot part: .text.sorted.DIGITS.NAME */
static int is_ordered(const char *name)
{
    const char *p = name + sizeof sorted_pre - 1;
    if (strncmp(name, sorted_pre, sizeof sorted_pre - 1) || *p < '0' || *p > '9')
        return 0;
    while (*p >= '0' && *p <= '9')
        p++;
    return *p == '.' && p[1];
}

struct map_sec {
    char *name;
    uint64_t addr, size;
};

static void map_free(struct map_sec *m, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(m[i].name);
    free(m);
}

/* The input sections of ld's map PATH ("Linker script and memory map"), in
 * its order: " NAME ADDR SIZE FILE", or " NAME" and "   ADDR SIZE FILE" on
 * the next line.  NULL (*n = 0) if it cannot be read. */
static struct map_sec *map_read(const char *path, size_t *n)
{
    FILE *fp = fopen(path, "r");
    *n = 0;
    if (!fp)
        return NULL;
    struct map_sec *m = NULL;
    size_t cap = 0;
    char *line = NULL, *pending = NULL;
    size_t lcap = 0;
    int in_map = 0;
    while (getline(&line, &lcap, fp) > 0) {
        if (!in_map) {
            in_map = !strncmp(line, "Linker script and memory map", 28);
            continue;
        }
        char name[4096];
        unsigned long long a, s;
        int got = 0;
        if (line[0] == ' ' && line[1] == '.') {
            free(pending), pending = NULL;
            if (sscanf(line, " %4095s 0x%llx 0x%llx", name, &a, &s) == 3)
                got = 1;
            else if (sscanf(line, " %4095s", name) == 1)
                pending = pild_xstrdup(name);
        } else if (pending && sscanf(line, " 0x%llx 0x%llx %4095s", &a, &s, name) >= 2) {
            snprintf(name, sizeof name, "%s", pending);
            free(pending), pending = NULL;
            got = 1;
        } else {
            free(pending), pending = NULL;
        }
        if (!got)
            continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 1024;
            m = pild_xrealloc(m, cap * sizeof *m);
        }
        m[(*n)++] = (struct map_sec){pild_xstrdup(name), a, s};
    }
    free(line), free(pending);
    fclose(fp);
    return m;
}

static uint64_t align_up(uint64_t x, uint64_t a)
{
    return (x + a - 1) / a * a;
}

/* One padding section of the plan */
struct pad {
    const char *before; /* the ordered function's section */
    uint64_t bytes;
};

/* The plan on the first link's map: the pads, and the address of every
 * .text.sorted section of the run (want[k] for map entry first+k).  -1
 * with *why set when the run is not one the plan can lay out. */
static int plan(const struct map_sec *m, size_t n, const struct pild_facts *f, struct pad **pads,
                size_t *npads, size_t *first, size_t *count, uint64_t **want, const char **why)
{
    size_t i0 = n, i1 = 0;
    for (size_t i = 0; i < n; i++)
        if (is_ordered(m[i].name)) {
            if (i0 == n)
                i0 = i;
            i1 = i;
        }
    *pads = NULL, *npads = 0, *want = NULL, *first = i0, *count = 0;
    if (i0 == n)
        return 0; /* nothing ordered was linked */
    uint64_t cur = m[i0].addr;
    if (i0 > 0 && m[i0 - 1].addr + m[i0 - 1].size <= m[i0].addr)
        cur = m[i0 - 1].addr + m[i0 - 1].size;
    *count = i1 - i0 + 1;
    *want = pild_xmalloc(*count * sizeof **want);
    *pads = pild_xmalloc(*count * sizeof **pads);
    for (size_t i = i0; i <= i1; i++) {
        const char *name = m[i].name;
        struct pild_sorted_sec key = {(char *)name, 0}, *s;
        if (strncmp(name, sorted_pre, sizeof sorted_pre - 1)) {
            *why = "other input sections lie among the ordered functions";
            return -1;
        }
        s = bsearch(&key, f->sorted, f->nsorted, sizeof *f->sorted, by_name);
        if (!s) {
            *why = "an ordered function's section is in no object the link stage read";
            return -1;
        }
        int twice = (s > f->sorted && !strcmp(s[-1].name, name)) ||
                    (s + 1 < f->sorted + f->nsorted && !strcmp(s[1].name, name));
        uint64_t al = s->align;
        for (struct pild_sorted_sec *t = s; t > f->sorted && !strcmp(t[-1].name, name); t--)
            al = t[-1].align > al ? t[-1].align : al;
        for (struct pild_sorted_sec *t = s; t + 1 < f->sorted + f->nsorted && !strcmp(t[1].name, name); t++)
            al = t[1].align > al ? t[1].align : al;
        if (is_ordered(name) && !twice && al < f->falign_to) {
            uint64_t b = align_up(cur, f->falign_to);
            if (b > cur && b - cur <= f->falign_max) {
                (*pads)[(*npads)++] = (struct pad){name, b - cur};
                cur = b;
            }
        }
        cur = align_up(cur, al);
        (*want)[i - i0] = cur;
        cur += m[i].size;
    }
    return 0;
}

/* The padding section's name: sorts right before NAME (see the top) */
static char *pad_name(const char *name)
{
    size_t n = strlen(name);
    char *p = pild_xasprintf("%s~", name);
    p[n - 1] = (char)(p[n - 1] - 1);
    return p;
}

static int write_pads(const char *path, const struct pad *pads, size_t npads)
{
    FILE *fp = fopen(path, "w");
    if (!fp) {
        pild_err("%s: %s", path, strerror(errno));
        return -1;
    }
    for (size_t i = 0; i < npads; i++) {
        char *p = pad_name(pads[i].before);
        fprintf(fp, "\t.section \"%s\",\"ax\",@progbits\n\t.skip %llu, 0xcc\n", p,
                (unsigned long long)pads[i].bytes);
        free(p);
    }
    fputs("\t.section .note.GNU-stack,\"\",@progbits\n", fp);
    if (fclose(fp) != 0) {
        pild_err("%s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* gcc's assembler: $COLLECT_GCC -print-prog-name=as, else as */
static char *assembler(void)
{
    const char *gcc = getenv("COLLECT_GCC");
    char *out = gcc && *gcc ? pild_gcc_print(gcc, "-print-prog-name=as") : NULL;
    return out ? out : pild_xstrdup("as");
}

/* The link's own map (-Map=F, -Map F, --Map...), or NULL */
static const char *own_map(const struct pild_link *l)
{
    for (size_t i = 1; i < l->rec.n; i++) {
        const char *x = l->rec.v[i];
        if (x[0] == '-' && x[1] == '-')
            x++;
        if (!strncmp(x, "-Map=", 5))
            return x + 5;
        if (!strcmp(x, "-Map") && i + 1 < l->rec.n)
            return l->rec.v[i + 1];
    }
    return NULL;
}

/* collect2 into OUT with the link stage's arguments ADD */
static int link_with(const struct pild_link *l, const char *out, char **add, size_t nadd)
{
    char **run = pild_ldline_argv(l, out, add, nadd);
    int st = pild_run(run); /* (shown with --pi-verbose) */
    for (char **p = run; *p; p++)
        free(*p);
    free(run);
    return st;
}

/* collect2 into OUT, ld's map into MAP (or, when the link has a map of its
 * own, into that, and copied to MAP) */
static int run_link(const struct pild_link *l, const struct pild_argv *add, const char *out,
                    const char *map, const char *padobj)
{
    struct pild_argv a = {0};
    const char *own = own_map(l);
    for (size_t i = 0; i < add->n; i++)
        pild_argv_push(&a, add->v[i]);
    if (!own) {
        char *mapopt = pild_xasprintf("-Map=%s", map);
        pild_argv_push(&a, mapopt);
        free(mapopt);
    }
    if (padobj)
        pild_argv_push(&a, padobj);
    int st = link_with(l, out, a.v, a.n);
    for (size_t i = 0; i < a.n; i++)
        free(a.v[i]);
    free(a.v);
    if (own && st == 0) {
        /* the link's own map: read from a copy (the first link's is put
           back if the second is not kept) */
        FILE *in = fopen(own, "r"), *o = fopen(map, "w");
        char buf[65536];
        size_t n;
        while (in && o && (n = fread(buf, 1, sizeof buf, in)) > 0)
            fwrite(buf, 1, n, o);
        if (in)
            fclose(in);
        if (o)
            fclose(o);
    }
    return st;
}

/* gcc's options choose gold, lld or mold (-fuse-ld=, not bfd) */
static int other_linker(void)
{
    const char *o = getenv("COLLECT_GCC_OPTIONS"), *p;
    for (p = o; p && (p = strstr(p, "-fuse-ld=")); p += 9)
        if (strncmp(p + 9, "bfd", 3))
            return 1;
    return 0;
}

int pild_falign_link(const struct pild_link *l, const struct pild_argv *add,
                     const struct pild_facts *f, const char *tmp, const char *tmpdir)
{
    if (other_linker()) {
        pild_note("%s: the ordered functions not aligned (%s): the link is not GNU ld's "
                  "(-fuse-ld=), which alone sorts .text.sorted", l->output, f->falign);
        return link_with(l, tmp, add->v, add->n);
    }
    qsort(f->sorted, f->nsorted, sizeof *f->sorted, by_name);
    char *map1 = pild_xasprintf("%s/falign1.map", tmpdir), *map2 = pild_xasprintf("%s/falign2.map", tmpdir);
    char *pads_s = pild_xasprintf("%s/falign.s", tmpdir), *pads_o = pild_xasprintf("%s/falign.o", tmpdir);
    char *keep = pild_xasprintf("%s.falign1", tmp);
    struct map_sec *m1 = NULL, *m2 = NULL;
    size_t n1 = 0, n2 = 0, npads = 0, first = 0, count = 0;
    struct pad *pads = NULL;
    uint64_t *want = NULL, bytes = 0;
    const char *why = NULL;
    int st = run_link(l, add, tmp, map1, NULL);
    if (st != 0)
        goto out;
    m1 = map_read(map1, &n1);
    if (!m1) {
        pild_note("%s: the ordered functions not aligned (%s): the link's map %s could not be read",
                  l->output, f->falign, map1);
        goto out;
    }
    if (plan(m1, n1, f, &pads, &npads, &first, &count, &want, &why) != 0) {
        pild_note("%s: the ordered functions not aligned (%s): %s", l->output, f->falign, why);
        goto out;
    }
    for (size_t i = 0; i < npads; i++)
        bytes += pads[i].bytes;
    if (npads == 0) {
        if (pild_verbose)
            pild_note("%s: no ordered function needs padding to lie at a multiple of %u", l->output,
                      f->falign_to);
        goto out;
    }
    if (write_pads(pads_s, pads, npads) != 0) {
        st = 1;
        goto out;
    }
    char *as = assembler();
    char *asv[] = {as, "--64", "-o", pads_o, pads_s, NULL};
    int ast = pild_run(asv);
    free(as);
    if (ast != 0) {
        pild_err("%s: the assembler failed on the ordered functions' padding (%s)", l->output, pads_s);
        st = 1;
        goto out;
    }
    if (rename(tmp, keep) != 0) {
        pild_err("%s: %s", keep, strerror(errno));
        st = 1;
        goto out;
    }
    int st2 = run_link(l, add, tmp, map2, pads_o);
    m2 = st2 == 0 ? map_read(map2, &n2) : NULL;
    /* the second map: the same .text.sorted sections (the pads aside) at
       the addresses planned */
    const char *bad = st2 != 0 ? "the second link failed" : !m2 ? "its map could not be read" : NULL;
    size_t k = 0;
    for (size_t i = 0; !bad && i < n2; i++) {
        if (strncmp(m2[i].name, sorted_pre, sizeof sorted_pre - 1) || strchr(m2[i].name, '~'))
            continue;
        if (k >= count && is_ordered(m2[i].name))
            bad = "an ordered function lies after the run";
        else if (k < count && (strcmp(m2[i].name, m1[first + k].name) || m2[i].addr != want[k]))
            bad = "an ordered function is not where the plan put it";
        if (k < count)
            k++;
    }
    if (!bad && k != count)
        bad = "ordered functions are missing from the second link";
    if (bad) {
        pild_note("%s: the ordered functions not aligned (%s): %s; the link without the padding is "
                  "kept", l->output, f->falign, bad);
        if (rename(keep, tmp) != 0) {
            pild_err("%s: %s", tmp, strerror(errno));
            st = 1;
        }
        if (own_map(l) && rename(map1, own_map(l)) != 0) {
            pild_err("%s: %s", own_map(l), strerror(errno));
            st = 1;
        }
        goto out;
    }
    unlink(keep);
    if (pild_verbose)
        pild_note("%s: %zu of %zu ordered input sections moved to a multiple of %u by %llu bytes "
                  "of padding", l->output, npads, count, f->falign_to, (unsigned long long)bytes);
out:
    unlink(map1), unlink(map2), unlink(pads_s), unlink(pads_o), unlink(keep);
    map_free(m1, n1), map_free(m2, n2);
    free(pads), free(want);
    free(map1), free(map2), free(pads_s), free(pads_o), free(keep);
    return st;
}
