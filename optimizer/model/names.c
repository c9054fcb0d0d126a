/* names.c — function and file names as pmopt shows them (names.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

#include "names.h"
#include "pmopt.h"

/* ---- interned strings ----------------------------------------------------- */

static char **strs;            /* open addressing, a power of two */
static size_t nstrs, strs_cap;

static uint64_t hash_str(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

/* The interned copy of s[0 .. n); "?" when out of memory. */
static const char *intern_n(const char *s, size_t n)
{
    if (2 * (nstrs + 1) > strs_cap) {
        size_t cap = strs_cap ? 2 * strs_cap : 1024;
        char **t = calloc(cap, sizeof *t);
        if (!t)
            return "?";
        for (size_t i = 0; i < strs_cap; i++)
            if (strs[i]) {
                size_t j = hash_str(strs[i], strlen(strs[i])) & (cap - 1);
                while (t[j])
                    j = (j + 1) & (cap - 1);
                t[j] = strs[i];
            }
        free(strs);
        strs = t;
        strs_cap = cap;
    }
    size_t j = hash_str(s, n) & (strs_cap - 1);
    for (; strs[j]; j = (j + 1) & (strs_cap - 1))
        if (!strncmp(strs[j], s, n) && !strs[j][n])
            return strs[j];
    char *c = malloc(n + 1);
    if (!c)
        return "?";
    memcpy(c, s, n);
    c[n] = 0;
    strs[j] = c;
    nstrs++;
    return c;
}

const char *pm_intern(const char *s)
{
    return intern_n(s, strlen(s));
}

/* ---- functions ------------------------------------------------------------- */

/* A clone suffix: one or more ".WORD" or ".DIGITS" parts to the end, as
 * GCC appends them (.isra.0, .constprop.1, .part.0.cold, .lto_priv.0,
 * .cold) and perfinst's counting copies (.count.0). */
static int clone_suffix(const char *s)
{
    if (*s != '.')
        return 0;
    while (*s == '.') {
        s++;
        const char *w = s;
        while ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_' ||
               (*s >= '0' && *s <= '9'))
            s++;
        if (s == w)
            return 0;
    }
    return *s == 0;
}

/* GCC's outlined bodies, functions of their own and not clones: an
 * OpenMP region's (main._omp_fn.0, a task's copy function ._omp_cpyfn.N),
 * -ftree-parallelize-loops' (f._loopfn.0), a C++ coroutine's
 * (F's frame type then .actor or .destroy).  The length of the one at S,
 * else 0. */
static size_t outlined_suffix(const char *s)
{
    static const char *const numbered[] = {"._omp_fn.", "._omp_cpyfn.", "._loopfn."};
    static const char *const coro[] = {".Frame.actor", ".Frame.destroy"};
    for (size_t i = 0; i < sizeof numbered / sizeof *numbered; i++) {
        size_t n = strlen(numbered[i]);
        if (strncmp(s, numbered[i], n) == 0 && s[n] >= '0' && s[n] <= '9') {
            while (s[n] >= '0' && s[n] <= '9')
                n++;
            return n;
        }
    }
    for (size_t i = 0; i < sizeof coro / sizeof *coro; i++) {
        size_t n = strlen(coro[i]);
        if (strncmp(s, coro[i], n) == 0 && (s[n] == 0 || s[n] == '.'))
            return n;
    }
    return 0;
}

/* GCC's name of an unnamed class in a mangled name (`._anon_N`, as in
 * `_ZNK8._anon_0clIiEET_S1_S1_`, an unnamed functor's operator()<int>):
 * part of the name.  Its length at S, else 0. */
static size_t anon_class(const char *s)
{
    static const char anon[] = "._anon_";
    size_t n = sizeof anon - 1;
    if (strncmp(s, anon, n) || s[n] < '0' || s[n] > '9')
        return 0;
    while (s[n] >= '0' && s[n] <= '9')
        n++;
    return n;
}

size_t pm_fn_base_len(const char *linkage)
{
    for (const char *p = linkage; *p; p++) {
        if (*p != '.' || p == linkage)
            continue;
        size_t k = outlined_suffix(p);
        if (!k && linkage[0] == '_' && linkage[1] == 'Z')
            k = anon_class(p);
        if (k)
            p += k - 1; /* (part of the name) */
        else if (clone_suffix(p))
            return (size_t)(p - linkage);
    }
    return strlen(linkage);
}

/* One function (a clone-free linkage name) and what it reads as. */
struct fent {
    const char *key;     /* interned */
    const char *brief;   /* without parameters */
    const char *full;    /* with parameters (C: the key) */
};
/* A brief name and whether functions share it. */
struct bent {
    const char *brief;
    const char *first;   /* the first key that reads so */
    int shared;          /* another key reads so too */
};
static struct fent *fents;
static size_t nfents, fents_cap;
static struct bent *bents;
static size_t nbents, bents_cap;

/* Tables keyed by an interned pointer (open addressing, power of two). */
#define PTR_SLOT(p, cap) ((size_t)(((uintptr_t)(p) * 0x9e3779b97f4a7c15ull) >> 7) & ((cap) - 1))

static int grow_fents(void)
{
    size_t cap = fents_cap ? 2 * fents_cap : 512;
    struct fent *t = calloc(cap, sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i < fents_cap; i++)
        if (fents[i].key) {
            size_t j = PTR_SLOT(fents[i].key, cap);
            while (t[j].key)
                j = (j + 1) & (cap - 1);
            t[j] = fents[i];
        }
    free(fents);
    fents = t;
    fents_cap = cap;
    return 0;
}

static int grow_bents(void)
{
    size_t cap = bents_cap ? 2 * bents_cap : 512;
    struct bent *t = calloc(cap, sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i < bents_cap; i++)
        if (bents[i].brief) {
            size_t j = PTR_SLOT(bents[i].brief, cap);
            while (t[j].brief)
                j = (j + 1) & (cap - 1);
            t[j] = bents[i];
        }
    free(bents);
    bents = t;
    bents_cap = cap;
    return 0;
}

/* libiberty's demangling of key, interned; NULL if it is not a mangled name. */
static const char *demangle(const char *key, int opts)
{
    if (strncmp(key, "_Z", 2))
        return NULL;
    char *d = cplus_demangle_v3(key, DMGL_ANSI | opts);
    if (!d)
        return NULL;
    const char *s = pm_intern(d);
    free(d);
    return s;
}

/* The entry of a clone-free name (interned), made on first sight. */
static const struct fent *fent_of(const char *key)
{
    if (2 * (nfents + 1) > fents_cap && grow_fents())
        return NULL;
    size_t j = PTR_SLOT(key, fents_cap);
    for (; fents[j].key; j = (j + 1) & (fents_cap - 1))
        if (fents[j].key == key)
            return &fents[j];
    struct fent e = { key, demangle(key, 0), demangle(key, DMGL_PARAMS | DMGL_RET_DROP) };
    if (!e.brief || !e.full)
        e.brief = e.full = key;
    if (2 * (nbents + 1) > bents_cap && grow_bents())
        return NULL;
    size_t b = PTR_SLOT(e.brief, bents_cap);
    for (; bents[b].brief; b = (b + 1) & (bents_cap - 1))
        if (bents[b].brief == e.brief)
            break;
    if (!bents[b].brief) {
        bents[b] = (struct bent){ e.brief, key, 0 };
        nbents++;
    } else if (bents[b].first != key) {
        bents[b].shared = 1;
    }
    fents[j] = e;
    nfents++;
    return &fents[j];
}

const char *pm_fn_key(const char *linkage)
{
    return intern_n(linkage, pm_fn_base_len(linkage));
}

const char *pm_fn_name(const char *linkage)
{
    const struct fent *e = fent_of(pm_fn_key(linkage));
    if (!e)
        return linkage;
    size_t b = PTR_SLOT(e->brief, bents_cap);
    for (; bents[b].brief; b = (b + 1) & (bents_cap - 1))
        if (bents[b].brief == e->brief)
            return bents[b].shared ? e->full : e->brief;
    return e->brief;
}

const char *pm_dfunc_linkage(const struct pi_dfunc *f)
{
    return f->linkage ? f->linkage : f->name;
}

const char *pm_dfunc_name(const struct pi_dfunc *f)
{
    return pm_fn_name(pm_dfunc_linkage(f));
}

const char *pm_unit_fname(const struct pi_unit_view *u, uint32_t off)
{
    return pm_fn_name(pi_unit_str(u, off));
}

const char *pm_func_name(const struct pi_unit_view *u, uint32_t func)
{
    return pm_unit_fname(u, u->funcs[func].name);
}

/* ---- files ----------------------------------------------------------------- */

/* The program's units' compilation directories, by unit id. */
struct udir {
    uint64_t id;
    const char *dir;                /* interned, NULL if unknown */
    const char *src;                /* the unit's source, joined and folded (interned) */
};
static struct udir *udirs;
static size_t nudirs;
static const char *root;            /* interned; "" if none */

static const struct udir *find_udir(const struct pi_unit_view *u);
static const char *unit_dir(const struct pi_unit_view *u);
static const char *unit_source_path(const struct pi_unit_view *u);

/* The DWARF unit of unit u: the one compiled from the same source
 * spelling (when two are, the one holding u's code), else the one holding
 * its code. */
static const struct pi_dcu *find_cu(const struct pi_meta *m, const struct pi_unit_view *u,
                                    const struct pi_debug *d)
{
    const char *src = pi_unit_str(u, u->hdr.source);
    const struct pi_dcu *only = NULL;
    size_t same = 0;
    for (size_t i = 0; i < d->ncus; i++)
        if (!strcmp(d->cus[i].name, src)) {
            only = &d->cus[i];
            same++;
        }
    if (same == 1)
        return only;
    for (size_t i = 0; i < m->nranges; i++) {
        const struct pi_range *rg = &m->ranges[i];
        if (rg->unit_id != u->hdr.unit_id || !rg->addr)
            continue;
        const struct pi_dcu *cu = pi_debug_cu_at(d, rg->addr);
        if (cu && (!same || !strcmp(cu->name, src)))
            return cu;
    }
    return NULL;
}

/* The canonical (joined, folded) spelling of path in dir, interned. */
static const char *canonical(const char *dir, const char *path)
{
    char *p = pi_path_join_clean(dir, path);
    if (!p)
        return path;
    const char *s = pm_intern(p);
    free(p);
    return s;
}

static const char *shown(const char *canon)
{
    size_t n = root ? strlen(root) : 0; /* no root before pm_names_program */
    if (n && !strncmp(canon, root, n) && canon[n] == '/' && canon[n + 1])
        return canon + n + 1;
    return canon;
}

/* The longest directory that holds a and b ("" for none). */
static size_t common_dir(const char *a, size_t alen, const char *b)
{
    size_t i = 0, last = 0;
    while (i < alen && a[i] && a[i] == b[i]) {
        if (a[i] == '/')
            last = i;
        i++;
    }
    if (i == alen && (b[i] == '/' || !b[i]))
        return alen; /* a is b's directory, or b */
    return last;
}

void pm_names_program(const struct pi_meta *m, const struct pi_debug *d)
{
    free(udirs);
    udirs = NULL;
    nudirs = 0;
    root = "";
    if (m && m->nunits && (udirs = calloc(m->nunits, sizeof *udirs)))
        nudirs = m->nunits;
    for (size_t i = 0; m && i < m->nunits; i++) {
        const struct pi_unit_view *u = &m->units[i];
        for (uint32_t f = 0; f < u->hdr.nfuncs; f++)
            pm_func_name(u, f);
        if (udirs) { /* m->units is sorted by id */
            const struct pi_dcu *cu = d ? find_cu(m, u, d) : NULL;
            const char *dir = cu ? cu->comp_dir : NULL, *key = pi_unit_str(u, u->hdr.source);
            /* The key is relative to the compile's directory (paths.cc), or,
               under a prefix map (Debian's -ffile-prefix-map=BUILDDIR=.), to
               the map's: then it is the DWARF unit's path as a whole
               (DW_AT_comp_dir ./debian/build/src/xz, DW_AT_name
               ../../../../src/xz/coder.c; the key src/xz/coder.c). */
            const char *src = cu && key[0] != '/' && canonical(cu->comp_dir, cu->name) == canonical(NULL, key)
                                  ? canonical(NULL, key) : canonical(dir, key);
            udirs[i] = (struct udir){ u->hdr.unit_id, dir ? pm_intern(dir) : NULL, src };
        }
    }
    if (d)
        pm_names_add(d);
    /* the source root: the deepest directory of every instrumented unit's
       source (every DWARF unit's without metadata) */
    const char *r = NULL;
    size_t rlen = 0;
    size_t n = m && m->nunits ? m->nunits : d ? d->ncus : 0;
    for (size_t i = 0; i < n; i++) {
        const char *src = m && m->nunits ? unit_source_path(&m->units[i])
                                         : canonical(d->cus[i].comp_dir, d->cus[i].name);
        if (src[0] != '/')
            continue;
        if (!r) {
            r = src;
            rlen = (size_t)(strrchr(src, '/') - src);
        } else {
            rlen = common_dir(r, rlen, src);
        }
    }
    if (r && rlen > 0)
        root = intern_n(r, rlen);
}

void pm_names_add(const struct pi_debug *d)
{
    for (size_t i = 0; i < d->nfuncs; i++)
        pm_dfunc_name(&d->funcs[i]);
}

static const struct udir *find_udir(const struct pi_unit_view *u)
{
    size_t a = 0, b = nudirs;
    while (a < b) {
        size_t k = a + (b - a) / 2;
        if (udirs[k].id == u->hdr.unit_id)
            return &udirs[k];
        if (udirs[k].id < u->hdr.unit_id)
            a = k + 1;
        else
            b = k;
    }
    return NULL;
}

static const char *unit_dir(const struct pi_unit_view *u)
{
    const struct udir *x = find_udir(u);
    return x ? x->dir : NULL;
}

/* The unit's source, joined and folded (not made relative to the root). */
static const char *unit_source_path(const struct pi_unit_view *u)
{
    const struct udir *x = find_udir(u);
    return x && x->src ? x->src : canonical(NULL, pi_unit_str(u, u->hdr.source));
}

const char *pm_file(const struct pi_unit_view *u, const char *path)
{
    if (!*path)
        return path;
    return shown(canonical(u ? unit_dir(u) : NULL, path));
}

const char *pm_unit_source(const struct pi_unit_view *u)
{
    const char *key = pi_unit_str(u, u->hdr.source);
    return *key ? shown(unit_source_path(u)) : key;
}

const char *pm_unit_file(const struct pi_unit_view *u, uint32_t off)
{
    return pm_file(u, pi_unit_str(u, off));
}

const char *pm_func_file(const struct pi_unit_view *u, uint32_t func)
{
    return pm_unit_file(u, u->funcs[func].file);
}

const char *pm_source_root(void)
{
    return root ? root : "";
}

const char *pm_source_path(const char *shown, char *buf, size_t n)
{
    if (shown[0] == '/' || !root || !*root ||
        (size_t)snprintf(buf, n, "%s/%s", root, shown) >= n)
        return shown;
    return buf;
}

void pm_names_free(void)
{
    for (size_t i = 0; i < strs_cap; i++)
        free(strs[i]);
    free(strs);
    free(fents);
    free(bents);
    free(udirs);
    strs = NULL;
    fents = NULL;
    bents = NULL;
    udirs = NULL;
    nstrs = strs_cap = nfents = fents_cap = nbents = bents_cap = nudirs = 0;
    root = "";
}
