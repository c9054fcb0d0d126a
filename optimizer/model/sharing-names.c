/* sharing-names.c — the names the sharing views print (sharing.h): bytes
 * as C would write them, runs of them as ranges, objects, sites, lines. */
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "sharing.h"

int sh_parse_what(const char *what, char *st, size_t stn, char *field, size_t fn, uint64_t *off, uint64_t *size)
{
    char a[128], b[128];
    unsigned long long o, s;
    if (!what || sscanf(what, "%127s %127s %llu %llu", a, b, &o, &s) != 4)
        return 0; /* (FILE LINE may follow: sh_what_decl) */
    snprintf(st, stn, "%s", a);
    snprintf(field, fn, "%s", b);
    *off = o;
    *size = s;
    return 1;
}

int sh_what_decl(const char *what, char *file, size_t fn, uint32_t *line)
{
    char f[512];
    unsigned l;
    if (!what || sscanf(what, "%*s %*s %*u %*u %511s %u", f, &l) != 2)
        return 0;
    snprintf(file, fn, "%s", f);
    *line = l;
    return 1;
}

void sh_site_where(const struct sh_analysis *a, uint64_t pc, char *buf, size_t n)
{
    const char *file = NULL;
    uint32_t line = 0;
    uint64_t link = pc - a->bias;
    /* the return address is after the call: its line is the call's, almost always */
    if (a->have_dbg && a->mod && pi_debug_line(&a->dbg, link - 1, &file, &line)) {
        const struct pi_dfunc *f = pi_debug_func(&a->dbg, link - 1);
        snprintf(buf, n, "%s:%u (%s)", pm_basename(file), line, f ? pm_dfunc_name(f) : "?");
    } else
        snprintf(buf, n, "pc 0x%llx", (unsigned long long)pc);
}

const char *sh_verdict(int v)
{
    return (v & SH_V_TRUE) && (v & SH_V_FALSE) ? "TRUE and FALSE sharing"
           : v & SH_V_FALSE                    ? "FALSE sharing"
           : v & SH_V_TRUE                     ? "TRUE sharing"
                                               : "shared, no writes while others use it";
}

const char *sh_kind_name(int kind)
{
    return kind == SH_OBJ_GLOBAL ? "global" : kind == SH_OBJ_HEAP ? "heap" : "unrecorded";
}

/* The names of a row's 64 bytes, made once per row (a row's threads and
 * sites name the same bytes again and again): a global's byte by DWARF, a
 * heap byte by the first site of the row that covers it and names a field
 * (`what`), else its offset. */
static struct {
    const struct sh_analysis *a;
    const struct sh_line_row *r;
    char nm[PI_SHARE_LINE][160];
} names_of_row;

static void row_names(const struct sh_analysis *a, const struct sh_line_row *r)
{
    if (names_of_row.a == a && names_of_row.r == r)
        return;
    names_of_row.a = a;
    names_of_row.r = r;
    char (*nm)[160] = names_of_row.nm;
    uint64_t named = 0;
    for (int b = 0; b < (int)PI_SHARE_LINE; b++) {
        int oi = r->obj[b];
        uint64_t at = r->addr + (uint64_t)b;
        if (oi >= 0 && a->objs[oi].kind == SH_OBJ_GLOBAL) {
            const struct sh_object *o = &a->objs[oi];
            pi_debug_var_name(&a->dbg, o->var, o->link + (at - o->addr), nm[b], sizeof nm[b]);
            named |= 1ull << b;
        }
    }
    /* heap: the fields the sites name, each site's `what` parsed once */
    for (size_t k = r->site0; k < r->site0 + r->nsite && named != ~0ull; k++) {
        const struct pi_share_site_v *s = &a->s.sites[a->site_order[k]];
        char st[64], fld[64];
        uint64_t fo, ss, m = s->rec.mask & ~named;
        if (!m || !sh_parse_what(s->what, st, sizeof st, fld, sizeof fld, &fo, &ss) || !ss)
            continue;
        for (int b = 0; b < (int)PI_SHARE_LINE; b++) {
            int oi = r->obj[b];
            if (!((m >> b) & 1) || oi < 0)
                continue;
            const struct sh_object *o = &a->objs[oi];
            uint64_t off = r->addr + (uint64_t)b - o->addr;
            if (o->size > ss && o->kind == SH_OBJ_HEAP) /* (memory without a recorded object: no index) */
                snprintf(nm[b], sizeof nm[b], "%s[%llu].%s", st, (unsigned long long)(off / ss), fld);
            else
                snprintf(nm[b], sizeof nm[b], "%s.%s", st, fld);
            named |= 1ull << b;
        }
    }
    for (int b = 0; b < (int)PI_SHARE_LINE; b++) {
        if ((named >> b) & 1)
            continue;
        int oi = r->obj[b];
        uint64_t at = r->addr + (uint64_t)b;
        if (oi >= 0 && a->objs[oi].kind == SH_OBJ_HEAP)
            snprintf(nm[b], sizeof nm[b], "heap+0x%llx", (unsigned long long)(at - a->objs[oi].addr));
        else
            snprintf(nm[b], sizeof nm[b], "0x%llx", (unsigned long long)at);
    }
}

void sh_name_bytes(const struct sh_analysis *a, const struct sh_line_row *r, int lo, int hi, char *buf, size_t n)
{
    (void)hi;
    row_names(a, r);
    snprintf(buf, n, "%s", names_of_row.nm[lo]);
}

/* A name split for ranges: "PRE[N]POST" (the last index) or "PRE+0xN" or
 * "0xN"; 0 when it has no number to range over. */
struct nm {
    char pre[160], post[96];
    unsigned long long num;
    int hex;
};

static int split_name(const char *s, struct nm *x)
{
    const char *lb = strrchr(s, '[');
    if (lb && lb[1] >= '0' && lb[1] <= '9') {
        char *end;
        x->num = strtoull(lb + 1, &end, 10);
        if (*end == ']' && (size_t)(lb - s) < sizeof x->pre) {
            snprintf(x->pre, sizeof x->pre, "%.*s", (int)(lb - s), s);
            snprintf(x->post, sizeof x->post, "%s", end + 1);
            x->hex = 0;
            return 1;
        }
    }
    const char *hx = strstr(s, "0x");
    if (hx && !strchr(hx, '.') && !strchr(hx, '[') && (size_t)(hx - s) < sizeof x->pre) {
        char *end;
        x->num = strtoull(hx + 2, &end, 16);
        if (!*end) {
            snprintf(x->pre, sizeof x->pre, "%.*s", (int)(hx - s), s);
            x->post[0] = 0;
            x->hex = 1;
            return 1;
        }
    }
    return 0;
}

static size_t put(char *buf, size_t len, size_t n, const char *fmt, const char *a1, unsigned long long x,
                  unsigned long long y, int hex, const char *a2)
{
    if (len >= n)
        return len;
    if (x == y)
        len += (size_t)snprintf(buf + len, n - len, hex ? "%s%s0x%llx%s" : "%s%s[%llu]%s", fmt, a1, x, a2);
    else
        len += (size_t)snprintf(buf + len, n - len, hex ? "%s%s0x%llx..0x%llx%s" : "%s%s[%llu..%llu]%s", fmt, a1, x,
                                y, a2);
    return len;
}

/* The distinct names of the bytes in mask: a run of elements or bytes with
 * consecutive numbers as one range. */
void sh_names_of(const struct sh_analysis *a, const struct sh_line_row *r, uint64_t mask, char *buf, size_t n)
{
    size_t len = 0;
    char prev[192] = "";
    struct nm run;
    unsigned long long run_lo = 0;
    int in_run = 0;
    buf[0] = 0;
#define FLUSH()                                                                                          \
    do {                                                                                                 \
        if (in_run)                                                                                      \
            len = put(buf, len, n, len ? ", " : "", run.pre, run_lo, run.num, run.hex, run.post);        \
        in_run = 0;                                                                                      \
    } while (0)
    for (int b = 0; b < (int)PI_SHARE_LINE; b++) {
        if (!((mask >> b) & 1))
            continue;
        char nm[192];
        sh_name_bytes(a, r, b, b + 1, nm, sizeof nm);
        if (!strcmp(nm, prev))
            continue;
        snprintf(prev, sizeof prev, "%s", nm);
        struct nm x;
        if (split_name(nm, &x)) {
            if (in_run && x.hex == run.hex && !strcmp(x.pre, run.pre) && !strcmp(x.post, run.post) &&
                x.num == run.num + 1) {
                run.num = x.num;
                continue;
            }
            FLUSH();
            run = x;
            run_lo = x.num;
            in_run = 1;
            continue;
        }
        FLUSH();
        /* a name already listed (bytes of one field seen again) */
        int dup = 0;
        size_t nl = strlen(nm);
        for (const char *p = buf; (p = strstr(p, nm)); p += nl)
            if ((p == buf || p[-1] == ' ') && (p[nl] == ',' || !p[nl])) {
                dup = 1;
                break;
            }
        if (!dup && len < n)
            len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? ", " : "", nm);
    }
    FLUSH();
#undef FLUSH
}

void sh_objects_of_row(const struct sh_analysis *a, const struct sh_line_row *r, char *buf, size_t n)
{
    size_t len = 0;
    uint64_t touched = 0;
    for (int k = 0; k < r->nthr; k++)
        touched |= r->thr[k].rmask | r->thr[k].wmask;
    buf[0] = 0;
    for (int b = 0; b < (int)PI_SHARE_LINE; b++) {
        int oi = r->obj[b];
        if (oi < 0 || (b && r->obj[b - 1] == oi))
            continue;
        if (a->objs[oi].kind == SH_OBJ_OTHER) { /* unrecorded memory (a heap block's header): only if touched */
            int t = 0;
            for (int c = b; c < (int)PI_SHARE_LINE && !t; c++)
                t = r->obj[c] == oi && (touched >> c & 1);
            if (!t)
                continue;
        }
        int seen = 0;
        for (int c = 0; c < b; c++)
            seen |= r->obj[c] == oi;
        if (seen)
            continue;
        const struct sh_object *o = &a->objs[oi];
        int64_t at = (int64_t)o->addr - (int64_t)r->addr;
        if (len < n)
            len += (size_t)snprintf(buf + len, n - len, "%s%s (%s, %llu bytes, %s %lld)", len ? "; " : "", o->name,
                                    sh_kind_name(o->kind), (unsigned long long)o->size,
                                    at >= 0 ? "starts at line byte" : "started", (long long)at);
    }
    if (!len)
        snprintf(buf, n, "(memory outside PROG and the recorded heap objects)");
}

const char *sh_line_name(const struct sh_analysis *a, uint64_t addr, char *buf, size_t n)
{
    uint32_t tag = PI_WATCH_MODULE(addr);
    const struct pi_trace_module *m =
        tag && tag != PI_SHARE_HEAP_TAG && tag - 1 < a->t.nmodules ? &a->t.modules[tag - 1] : NULL;
    if (tag == PI_SHARE_HEAP_TAG)
        snprintf(buf, n, "heap+0x%llx", (unsigned long long)PI_WATCH_OFFSET(addr));
    else if (m)
        snprintf(buf, n, "0x%llx (link-time, %s)", (unsigned long long)PI_WATCH_OFFSET(addr),
                 m->path ? pm_basename(m->path) : "?");
    else
        snprintf(buf, n, "0x%llx", (unsigned long long)addr);
    return buf;
}
