/* pifeedback.c — read, check, select and write feedback files (see
 * pifeedback.h and docs/formats.md).  Compiled into libpicommon.a and, with
 * the same source, into the plugin. */
#include "pifeedback.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfinst-format.h"
#include "piutil.h"

static int is_word_char(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Decode %XX escapes of s[0..n) into a new string; NULL if malformed or out
 * of memory. */
static char *decode(const char *s, size_t n)
{
    char *out = (char *)malloc(n + 1);
    size_t o = 0;
    if (!out)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '%') {
            out[o++] = s[i];
            continue;
        }
        if (i + 2 >= n) {
            free(out);
            return NULL;
        }
        int a = hexval((unsigned char)s[i + 1]), b = hexval((unsigned char)s[i + 2]);
        if (a < 0 || b < 0 || (a == 0 && b == 0)) {
            free(out);
            return NULL;
        }
        out[o++] = (char)(a * 16 + b);
        i += 2;
    }
    out[o] = 0;
    return out;
}

static void free_rec(struct pifb_rec *rec)
{
    for (uint32_t a = 0; a < rec->nargs; a++) {
        free(rec->args[a].key);
        free(rec->args[a].value);
    }
    free(rec->args);
    free(rec->kind);
}

void pifb_free(struct pifb_file *fb)
{
    for (uint32_t r = 0; r < fb->nrecs; r++)
        free_rec(&fb->recs[r]);
    free(fb->recs);
    free(fb->path);
    free(fb->program);
    free(fb->build_id);
    memset(fb, 0, sizeof *fb);
}

/* Split line [s, e) into words at spaces/tabs; at most max words. */
static size_t split(const char *s, const char *e, const char **w, size_t *wl, size_t max)
{
    size_t n = 0;
    while (s < e) {
        while (s < e && (*s == ' ' || *s == '\t'))
            s++;
        if (s == e)
            break;
        const char *b = s;
        while (s < e && *s != ' ' && *s != '\t')
            s++;
        if (n == max)
            return max + 1;
        w[n] = b;
        wl[n] = (size_t)(s - b);
        n++;
    }
    return n;
}

static int parse_u64(const char *s, size_t n, uint64_t *v)
{
    uint64_t x = 0;
    size_t i = 0;
    int base = 10;
    if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        i = 2;
    }
    if (i == n)
        return -1;
    for (; i < n; i++) {
        int d = base == 16 ? hexval((unsigned char)s[i])
                           : (s[i] >= '0' && s[i] <= '9' ? s[i] - '0' : -1);
        if (d < 0 || x > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
            return -1;
        x = x * (uint64_t)base + (uint64_t)d;
    }
    *v = x;
    return 0;
}

static int word_is(const char *w, size_t n, const char *lit)
{
    return strlen(lit) == n && memcmp(w, lit, n) == 0;
}

static char *dupn(const char *s, size_t n)
{
    char *d = (char *)malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

int pifb_parse(const char *name, const char *data, size_t len, struct pifb_file *fb,
               struct pi_err *err)
{
    memset(fb, 0, sizeof *fb);
    fb->path = dupn(name, strlen(name));
    size_t cap = 0;
    uint32_t crc = 0, lineno = 0;
    int seen_header = 0, seen_end = 0;
    const char *p = data, *end = data + len;
    const char *w[PIFB_MAX_ARGS + 3];
    size_t wl[PIFB_MAX_ARGS + 3];

    if (!fb->path)
        return pi_err_set(err, "%s: out of memory", name);
    while (p < end) {
        const char *nl = (const char *)memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            return pi_err_set(err, "%s:%u: truncated (the last line has no newline)", name,
                        lineno + 1);
        lineno++;
        const char *s = p, *e = nl;
        p = nl + 1;
        if ((size_t)(e - s) > PIFB_MAX_LINE)
            return pi_err_set(err, "%s:%u: line longer than %u bytes", name, lineno,
                        PIFB_MAX_LINE);
        if (memchr(s, 0, (size_t)(e - s)))
            return pi_err_set(err, "%s:%u: NUL byte: not a feedback file", name, lineno);
        if (seen_end)
            return pi_err_set(err, "%s:%u: text after the 'end' trailer", name, lineno);
        size_t n = split(s, e, w, wl, PIFB_MAX_ARGS + 2);
        if (n == 0 || w[0][0] == '#')
            continue; /* blank lines and comments are not checksummed */
        if (!seen_header) {
            if (n < 2 || !word_is(w[0], wl[0], PIFB_MAGIC))
                return pi_err_set(err, "%s:%u: not a perfinst feedback file (no '%s' header)",
                            name, lineno, PIFB_MAGIC);
            uint64_t v;
            if (parse_u64(w[1], wl[1], &v) < 0)
                return pi_err_set(err, "%s:%u: bad version '%.*s'", name, lineno, (int)wl[1],
                            w[1]);
            if (v < 1 || v > PIFB_VERSION)
                return pi_err_set(err, "%s:%u: feedback format version %llu, this perfinst reads 1 to %u: "
                            "rerun `pmopt plan`",
                            name, lineno, (unsigned long long)v, PIFB_VERSION);
            seen_header = 1;
            crc = pi_crc32(crc, s, (size_t)(e - s) + 1);
            continue;
        }
        if (word_is(w[0], wl[0], "end")) {
            uint64_t cnt, want;
            if (n != 3 || parse_u64(w[1], wl[1], &cnt) < 0 || parse_u64(w[2], wl[2], &want) < 0)
                return pi_err_set(err, "%s:%u: malformed trailer (want: end NRECS CRC32)", name,
                            lineno);
            if (cnt != fb->nrecs)
                return pi_err_set(err, "%s:%u: trailer says %llu recommendations, file has %u",
                            name, lineno, (unsigned long long)cnt, fb->nrecs);
            if (want != crc && !PI_FUZZING)
                return pi_err_set(err, "%s:%u: checksum mismatch: the file is corrupt or was edited "
                            "(select recommendations with their numbers instead)",
                            name, lineno);
            seen_end = 1;
            continue;
        }
        crc = pi_crc32(crc, s, (size_t)(e - s) + 1);
        if (word_is(w[0], wl[0], "build-id")) {
            if (n != 2 || wl[1] > 2 * PI_BUILD_ID_MAX || wl[1] % 2 ||
                strspn(w[1], "0123456789abcdef") < wl[1])
                return pi_err_set(err, "%s:%u: 'build-id' takes one value: up to %u hex digits, "
                            "an even number", name, lineno, 2 * PI_BUILD_ID_MAX);
            free(fb->build_id);
            if (!(fb->build_id = strndup(w[1], wl[1])))
                return pi_err_set(err, "%s: out of memory", name);
            continue;
        }
        if (word_is(w[0], wl[0], "program") || word_is(w[0], wl[0], "build")) {
            if (n != 2)
                return pi_err_set(err, "%s:%u: '%.*s' takes one value", name, lineno,
                            (int)wl[0], w[0]);
            if (w[0][0] == 'p') {
                free(fb->program);
                if (!(fb->program = decode(w[1], wl[1])))
                    return pi_err_set(err, "%s:%u: bad escape in the program path", name,
                                lineno);
            } else if (parse_u64(w[1], wl[1], &fb->build_hash) < 0) {
                return pi_err_set(err, "%s:%u: bad build hash '%.*s'", name, lineno,
                            (int)wl[1], w[1]);
            }
            continue;
        }
        /* N KIND key=value ... */
        uint64_t num;
        if (parse_u64(w[0], wl[0], &num) < 0 || num == 0 || num > UINT32_MAX)
            return pi_err_set(err, "%s:%u: expected a recommendation number, got '%.*s'", name,
                        lineno, (int)(wl[0] > 40 ? 40 : wl[0]), w[0]);
        if (n < 2)
            return pi_err_set(err, "%s:%u: recommendation %llu has no kind", name, lineno,
                        (unsigned long long)num);
        if (n > PIFB_MAX_ARGS + 2)
            return pi_err_set(err, "%s:%u: more than %u arguments", name, lineno,
                        PIFB_MAX_ARGS);
        for (size_t i = 0; i < wl[1]; i++)
            if (!is_word_char((unsigned char)w[1][i]))
                return pi_err_set(err, "%s:%u: bad kind '%.*s'", name, lineno,
                            (int)(wl[1] > 40 ? 40 : wl[1]), w[1]);
        for (uint32_t r = 0; r < fb->nrecs; r++)
            if (fb->recs[r].number == num)
                return pi_err_set(err, "%s:%u: recommendation %llu given twice (also line %u)",
                            name, lineno, (unsigned long long)num, fb->recs[r].line);
        if (pi_grow((void **)&fb->recs, &cap, fb->nrecs, sizeof *fb->recs) < 0)
            return pi_err_set(err, "%s: out of memory", name);
        struct pifb_rec *rec = &fb->recs[fb->nrecs++];
        memset(rec, 0, sizeof *rec);
        rec->number = (uint32_t)num;
        rec->line = lineno;
        rec->kind = dupn(w[1], wl[1]);
        rec->args = (struct pifb_arg *)calloc(n - 2 + 1, sizeof *rec->args);
        if (!rec->kind || !rec->args)
            return pi_err_set(err, "%s: out of memory", name);
        for (size_t i = 2; i < n; i++) {
            const char *eq = (const char *)memchr(w[i], '=', wl[i]);
            size_t kl = eq ? (size_t)(eq - w[i]) : 0;
            if (!eq || kl == 0)
                return pi_err_set(err, "%s:%u: expected key=value, got '%.*s'", name, lineno,
                            (int)(wl[i] > 40 ? 40 : wl[i]), w[i]);
            for (size_t k = 0; k < kl; k++)
                if (!is_word_char((unsigned char)w[i][k]))
                    return pi_err_set(err, "%s:%u: bad key '%.*s'", name, lineno, (int)kl,
                                w[i]);
            struct pifb_arg *a = &rec->args[rec->nargs++];
            a->key = dupn(w[i], kl);
            a->value = decode(eq + 1, wl[i] - kl - 1);
            if (!a->key || !a->value)
                return pi_err_set(err, "%s:%u: bad %%XX escape in '%.*s'", name, lineno,
                            (int)kl, w[i]);
            for (uint32_t b = 0; b + 1 < rec->nargs; b++)
                if (strcmp(rec->args[b].key, a->key) == 0)
                    return pi_err_set(err, "%s:%u: key '%s' given twice", name, lineno, a->key);
        }
    }
    if (!seen_header)
        return pi_err_set(err, "%s: empty: not a perfinst feedback file", name);
    if (!seen_end)
        return pi_err_set(err, "%s: truncated: no 'end' trailer after line %u", name, lineno);
    return 0;
}

int pifb_read(const char *path, struct pifb_file *fb, struct pi_err *err)
{
    memset(fb, 0, sizeof *fb);
    FILE *f = fopen(path, "rb");
    if (!f)
        return pi_err_set(err, "%s: %s", path, strerror(errno));
    pi_input_note(path);
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 65536 > cap) {
            size_t ncap = cap ? cap * 2 : 65536;
            if (ncap > ((size_t)1 << 30)) {
                fclose(f);
                free(buf);
                return pi_err_set(err, "%s: larger than 1 GiB: not a feedback file", path);
            }
            char *nb = (char *)realloc(buf, ncap);
            if (!nb) {
                fclose(f);
                free(buf);
                return pi_err_set(err, "%s: out of memory", path);
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return pi_err_set(err, "%s: read error", path);
    }
    int rc = pifb_parse(path, buf, len, fb, err);
    free(buf);
    return rc;
}

/* Is number n in the list "1,3,5-7"?  -1 if the list is malformed. */
static int in_list(const char *list, uint32_t n, uint32_t *maxn)
{
    const char *s = list;
    int hit = 0;
    *maxn = 0;
    while (*s) {
        char *e;
        unsigned long a = strtoul(s, &e, 10), b;
        if (e == s || a == 0 || a > UINT32_MAX)
            return -1;
        b = a;
        s = e;
        if (*s == '-') {
            b = strtoul(s + 1, &e, 10);
            if (e == s + 1 || b < a || b > UINT32_MAX)
                return -1;
            s = e;
        }
        if (*s == ',')
            s++;
        else if (*s)
            return -1;
        if (n >= a && n <= b)
            hit = 1;
        if (b > *maxn)
            *maxn = (uint32_t)b;
    }
    return hit;
}

int pifb_select(struct pifb_file *fb, const char *list, struct pi_err *err)
{
    uint32_t maxn;
    if (!*list || in_list(list, 0, &maxn) < 0)
        return pi_err_set(err, "%s: bad recommendation list '%s' (want e.g. 1,3,5-7)",
                    fb->path, list);
    /* Every single number named must exist. */
    for (const char *s = list; *s;) {
        char *e;
        unsigned long a = strtoul(s, &e, 10), b = a;
        s = e;
        if (*s == '-') {
            b = strtoul(s + 1, &e, 10);
            s = e;
        }
        if (*s == ',')
            s++;
        if (a == b) {
            uint32_t r;
            for (r = 0; r < fb->nrecs && fb->recs[r].number != a; r++)
                ;
            if (r == fb->nrecs)
                return pi_err_set(err, "%s: has no recommendation %lu", fb->path, a);
        }
    }
    uint32_t keep = 0;
    for (uint32_t r = 0; r < fb->nrecs; r++) {
        if (in_list(list, fb->recs[r].number, &maxn) == 1) {
            fb->recs[keep++] = fb->recs[r];
            continue;
        }
        free_rec(&fb->recs[r]);
    }
    fb->nrecs = keep;
    return 0;
}

const char *pifb_get(const struct pifb_rec *rec, const char *key)
{
    for (uint32_t a = 0; a < rec->nargs; a++)
        if (strcmp(rec->args[a].key, key) == 0)
            return rec->args[a].value;
    return NULL;
}

int pifb_get_u64(const struct pifb_rec *rec, const char *key, uint64_t *v)
{
    const char *s = pifb_get(rec, key);
    return s ? parse_u64(s, strlen(s), v) : -1;
}

/* ---- writing ------------------------------------------------------------ */

/* Write s (len n) and fold it into the checksum. */
static void put(struct pifb_writer *w, const char *s, size_t n)
{
    if (w->failed)
        return;
    if (fwrite(s, 1, n, w->f) != n)
        w->failed = errno ? errno : EIO;
    w->crc = pi_crc32(w->crc, s, n);
}

static void put_escaped(struct pifb_writer *w, const char *s)
{
    char buf[4];
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c <= ' ' || c == '%' || c == '=' || c == '#' || c == 0x7f) {
            snprintf(buf, sizeof buf, "%%%02X", c);
            put(w, buf, 3);
        } else {
            put(w, s, 1);
        }
    }
}

int pifb_create(struct pifb_writer *w, const char *path, const char *program,
                const char *build_id, uint64_t build_hash, struct pi_err *err)
{
    memset(w, 0, sizeof *w);
    if (pi_out_begin(&w->out, path, ".pifeedback.", err))
        return -1;
    w->f = fopen(w->out.tmp, "wx");
    if (!w->f) {
        pi_err_set(err, "%s: cannot create %s: %s", path, w->out.tmp, strerror(errno));
        pi_out_end(&w->out);
        return -1;
    }
    char hdr[64];
    int hl = snprintf(hdr, sizeof hdr, "%s %u\n", PIFB_MAGIC, PIFB_VERSION);
    put(w, hdr, (size_t)hl);
    if (program) {
        put(w, "program ", 8);
        put_escaped(w, program);
        put(w, "\n", 1);
    }
    if (build_id && *build_id) {
        put(w, "build-id ", 9);
        put(w, build_id, strlen(build_id));
        put(w, "\n", 1);
    }
    if (build_hash) {
        hl = snprintf(hdr, sizeof hdr, "build 0x%016llx\n", (unsigned long long)build_hash);
        put(w, hdr, (size_t)hl);
    }
    return 0;
}

void pifb_rec_begin(struct pifb_writer *w, const char *kind)
{
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%u ", ++w->number);
    put(w, buf, (size_t)n);
    put(w, kind, strlen(kind));
    w->nrecs++;
}

void pifb_arg(struct pifb_writer *w, const char *key, const char *value)
{
    put(w, " ", 1);
    put(w, key, strlen(key));
    put(w, "=", 1);
    put_escaped(w, value);
}

void pifb_arg_u64(struct pifb_writer *w, const char *key, uint64_t value)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)value);
    pifb_arg(w, key, buf);
}

void pifb_rec_end(struct pifb_writer *w)
{
    put(w, "\n", 1);
}

void pifb_comment(struct pifb_writer *w, const char *text)
{
    if (w->failed)
        return;
    /* Comments are not checksummed: write them around put(). */
    const char *s = text;
    do {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        if (fprintf(w->f, "# %.*s\n", (int)n, s) < 0)
            w->failed = errno ? errno : EIO;
        s = nl ? nl + 1 : NULL;
    } while (s && *s);
}

void pifb_abort(struct pifb_writer *w)
{
    if (w->f)
        fclose(w->f);
    pi_out_end(&w->out);
    memset(w, 0, sizeof *w);
}

int pifb_commit(struct pifb_writer *w, struct pi_err *err)
{
    if (!w->failed && fprintf(w->f, "end %u 0x%08x\n", w->nrecs, w->crc) < 0)
        w->failed = errno ? errno : EIO;
    if (!w->failed && (fflush(w->f) != 0 || fsync(fileno(w->f)) != 0))
        w->failed = errno ? errno : EIO;
    int rc = 0;
    if (fclose(w->f) != 0 && !w->failed)
        w->failed = errno ? errno : EIO;
    w->f = NULL;
    if (w->failed)
        rc = pi_err_set(err, "%s: %s", w->out.path, strerror(w->failed));
    else
        rc = pi_out_commit(&w->out, err);
    pi_out_end(&w->out);
    memset(w, 0, sizeof *w);
    return rc;
}

/* ---- the kinds pmopt writes (pifeedback.h) ------------------------------ */

static const struct pifb_kind kinds[] = {
    { PIFB_BRANCH_PROFILE, PIFB_REBUILD, "fn src variant checksum at sites first weight counts edges" },
    { PIFB_FUNCTION_TIER, PIFB_REBUILD, "fn src variant tier" },
    { PIFB_COPY_PROFILE, PIFB_REBUILD, "fn src variant callee chain weight counts" },
    { PIFB_PROMOTE_CALL, PIFB_REBUILD,
      "fn src variant checksum at block call target target-file calls total line" },
    { PIFB_ORDER_FUNCTIONS, PIFB_RELINK, "alg functions cold" },
    { PIFB_ORDER_DATA, PIFB_RELINK, "objects weights dcache" },
    { PIFB_RESERVE, PIFB_RELINK, "page window size overflow" },
    { PIFB_RESERVE_DATA, PIFB_RELINK, "page window size overflow" },
    { PIFB_ALIGN_GLOBAL, PIFB_SHARING, "name group members reloads why" },
    { PIFB_ALIGN_ALLOC, PIFB_SHARING, "func file line group members reloads why" },
    { PIFB_PAD_FIELD, PIFB_SHARING, "type field scope group members reloads why" },
    { PIFB_PAD_ARRAY, PIFB_SHARING, "name file group members reloads why" },
};

const struct pifb_kind *pifb_kind(const char *name)
{
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(kinds[i].name, name) == 0)
            return &kinds[i];
    return NULL;
}

int pifb_kind_has_key(const struct pifb_kind *k, const char *key)
{
    size_t n = strlen(key);
    for (const char *s = k->keys; *s;) {
        size_t w = strcspn(s, " ");
        if (w == n && strncmp(s, key, n) == 0)
            return 1;
        s += w;
        s += *s == ' ';
    }
    return 0;
}
