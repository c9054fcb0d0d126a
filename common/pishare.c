/* pishare.c — the sharing records of a trace (pishare.h). */
#include <stdlib.h>
#include <string.h>

#include "pishare.h"
#include "pitrace.h"
#include "piutil.h"

#define GROW(arr, n, cap)                                                        \
    ((n) < (cap) ? 0                                                             \
                 : ((cap) = (cap) ? 2 * (cap) : 16,                              \
                    (arr) = reallocarray_or_free((arr), (cap), sizeof *(arr)),   \
                    (arr) ? 0 : -1))

static void *reallocarray_or_free(void *p, size_t n, size_t size)
{
    void *q = n && size <= SIZE_MAX / n ? realloc(p, n * size) : NULL;
    if (!q)
        free(p);
    return q;
}

static int bad(struct pi_err *err, const char *path, const struct pi_trace_rec *r, const char *what)
{
    return pi_err_set(err, "%s: record #%u (offset 0x%llx, type %u): %s", path, r->index,
                      (unsigned long long)r->offset, r->hdr.type, what);
}

static int walk(struct pi_trace_file *f, struct pi_share *s, struct pi_err *err)
{
    size_t cl = 0, cs = 0, ct = 0, ca = 0;
    struct pi_trace_rec r;
    int k;
    while ((k = pi_trace_next(f, &r, err)) == 1) {
        size_t n = r.hdr.size;
        const uint8_t *p = r.payload;
        switch (r.hdr.type) {
        case PI_REC_SHARE_LINE: {
            struct pi_share_line_v v;
            if (n < sizeof v.rec)
                return bad(err, f->path, &r, "LINE record too short");
            memcpy(&v.rec, p, sizeof v.rec);
            if (v.rec.nthreads == 0 || v.rec.nthreads > 4096 ||
                n < sizeof v.rec + (size_t)v.rec.nthreads * sizeof(struct pi_share_thr))
                return bad(err, f->path, &r, "LINE record: thread count does not match its size");
            if (v.rec.addr % PI_SHARE_LINE)
                return bad(err, f->path, &r, "LINE record: address not on a line boundary");
            v.thr = malloc(v.rec.nthreads * sizeof *v.thr);
            if (!v.thr || GROW(s->lines, s->nlines, cl)) {
                free(v.thr);
                return pi_err_set(err, "%s: out of memory", f->path);
            }
            memcpy(v.thr, p + sizeof v.rec, v.rec.nthreads * sizeof *v.thr);
            s->lines[s->nlines++] = v;
            break;
        }
        case PI_REC_SHARE_SITE: {
            struct pi_share_site_v v = {0};
            if (n < sizeof v.rec)
                return bad(err, f->path, &r, "SITE record too short");
            memcpy(&v.rec, p, sizeof v.rec);
            if (v.rec.what_len) {
                if (v.rec.what_len > n - sizeof v.rec || p[sizeof v.rec + v.rec.what_len - 1] != 0)
                    return bad(err, f->path, &r, "SITE record: its text is not NUL-terminated inside it");
                v.what = strdup((const char *)p + sizeof v.rec);
                if (!v.what)
                    return pi_err_set(err, "%s: out of memory", f->path);
            }
            if (GROW(s->sites, s->nsites, cs)) {
                free(v.what);
                return pi_err_set(err, "%s: out of memory", f->path);
            }
            s->sites[s->nsites++] = v;
            break;
        }
        case PI_REC_SHARE_THREAD:
            if (n < sizeof(struct pi_rec_share_thread))
                return bad(err, f->path, &r, "THREAD record too short");
            if (GROW(s->threads, s->nthreads, ct))
                return pi_err_set(err, "%s: out of memory", f->path);
            memcpy(&s->threads[s->nthreads++], p, sizeof(struct pi_rec_share_thread));
            break;
        case PI_REC_SHARE_ALLOC: {
            struct pi_share_alloc_v v;
            if (n < sizeof v.rec)
                return bad(err, f->path, &r, "ALLOC record too short");
            memcpy(&v.rec, p, sizeof v.rec);
            if (v.rec.nframes > 256 || n < sizeof v.rec + v.rec.nframes * sizeof(uint64_t))
                return bad(err, f->path, &r, "ALLOC record: frame count does not match its size");
            v.frames = malloc((v.rec.nframes ? v.rec.nframes : 1) * sizeof(uint64_t));
            if (!v.frames || GROW(s->allocs, s->nallocs, ca)) {
                free(v.frames);
                return pi_err_set(err, "%s: out of memory", f->path);
            }
            memcpy(v.frames, p + sizeof v.rec, v.rec.nframes * sizeof(uint64_t));
            s->allocs[s->nallocs++] = v;
            break;
        }
        default:
            break;
        }
    }
    return k < 0 ? -1 : 0;
}

int pi_share_read(const char *path, struct pi_share *s, struct pi_err *err)
{
    struct pi_trace_file f;
    memset(s, 0, sizeof *s);
    if (pi_trace_open(path, &f, err) < 0)
        return -1;
    int rc = walk(&f, s, err);
    pi_trace_close(&f);
    return rc;
}

int pi_share_parse(const char *path, const void *data, size_t size, struct pi_share *s, struct pi_err *err)
{
    struct pi_trace_file f;
    memset(s, 0, sizeof *s);
    if (pi_trace_open_mem(path, data, size, &f, err) < 0)
        return -1;
    int rc = walk(&f, s, err);
    pi_trace_close(&f);
    return rc;
}

void pi_share_free(struct pi_share *s)
{
    for (size_t i = 0; i < s->nlines; i++)
        free(s->lines[i].thr);
    for (size_t i = 0; i < s->nsites; i++)
        free(s->sites[i].what);
    for (size_t i = 0; i < s->nallocs; i++)
        free(s->allocs[i].frames);
    free(s->lines);
    free(s->sites);
    free(s->threads);
    free(s->allocs);
    memset(s, 0, sizeof *s);
}

uint32_t pi_share_tid(const struct pi_share *s, uint32_t thread)
{
    for (size_t i = 0; i < s->nthreads; i++)
        if (s->threads[i].thread == thread)
            return s->threads[i].tid;
    return 0;
}
