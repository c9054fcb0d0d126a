/* hotspot.c — `pmopt report --hot[=PCT] --record PROG TRACE`: keep a
 * versioned record of each hot-spot detection in the trace (seed 004 M21:
 * the hot routine's metadata copied to a designated store, updated with a
 * new version when the same routine is detected again).
 *
 * For every function of the --hot view (the shortest prefix, hottest
 * first, with PCT percent of all block executions) a HOTSPOT record
 * (perfinst-format.h) is inserted before the trace's END record, with
 * version = 1 + the highest version of an earlier HOTSPOT record of the
 * same unit and function in the trace (older records stay: the history).
 * The trace is rewritten through a temporary file and renamed (piout.h); a trace
 * without its END record (cut short) is refused.  `pmopt merge` does not
 * carry HOTSPOT records: record after merging. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"
#include "piout.h"

struct seen_hs {
    uint64_t unit_id;
    uint32_t func, version;
};

static void put_rec(char **buf, size_t *len, uint32_t type, const void *a, size_t na, const void *b,
                    size_t nb)
{
    size_t n = ALIGN8(na + nb);
    struct pi_rec_hdr h = { type, (uint32_t)n, 0, 0 };
    char *p = *buf + *len + sizeof h;
    memset(p, 0, n);
    memcpy(p, a, na);
    if (nb)
        memcpy(p + na, b, nb);
    h.crc = pi_crc32(0, p, n);
    h.hcrc = pi_crc32(0, &h, offsetof(struct pi_rec_hdr, hcrc));
    memcpy(*buf + *len, &h, sizeof h);
    *len += sizeof h + n;
}

int rep_record_hotspots(const struct report *r, const char *path)
{
    struct pi_trace_file f;
    struct pi_err err;
    if (pi_trace_open(path, &f, &err)) {
        pm_error("%s", err.msg);
        return -1;
    }
    struct seen_hs *seen = NULL;
    size_t nseen = 0, cap = 0;
    struct pi_trace_rec rec;
    int k;
    uint64_t end_off = 0;
    uint32_t nrecords = 0;
    while ((k = pi_trace_next(&f, &rec, &err)) == 1) {
        if (rec.hdr.type == PI_REC_END) {
            end_off = rec.offset;
            nrecords = rec.index;
        } else if (rec.hdr.type == PI_REC_HOTSPOT) {
            if (pi_grow((void **)&seen, &cap, nseen, sizeof *seen)) {
                pi_trace_close(&f);
                free(seen);
                return rep_oom();
            }
            seen[nseen++] = (struct seen_hs){ rec.u.hotspot.unit_id, rec.u.hotspot.func,
                                              rec.u.hotspot.version };
        }
    }
    if (k < 0 || !f.end_seen) {
        if (k < 0)
            pm_error("%s", err.msg);
        else
            pm_error("%s: the trace has no END record (%s): hot spots are recorded only into "
                     "a complete trace", path, f.warning);
        pi_trace_close(&f);
        free(seen);
        return -1;
    }
    uint64_t total = 0;
    for (size_t i = 0; i < r->md.m.nunits; i++) {
        const struct pi_unit_view *u = &r->md.m.units[i];
        for (uint32_t k2 = 0; k2 < u->hdr.nsites; k2++)
            if (u->sites[k2].kind == PI_SITE_BLOCK)
                total = pm_sat_add(total, rep_site_count(&r->md, u, k2));
    }
    size_t cap_out = end_off + 64;
    for (size_t i = 0; i < r->md.ncopies; i++) /* at most every function's every copy */
        cap_out += sizeof(struct pi_rec_hdr) + sizeof(struct pi_rec_hotspot) + 16 +
                   strlen(pi_unit_str(r->md.copies[i].u, r->md.copies[i].u->funcs[r->md.copies[i].func].name));
    char *out = malloc(cap_out);
    if (!out) {
        pi_trace_close(&f);
        free(seen);
        return rep_oom();
    }
    memcpy(out, f.data, end_off);
    size_t len = end_off;
    uint32_t added = 0;
    /* one record per unit's copy of a hot function, with the copy's counts */
    for (size_t i = 0; i < r->md.nfuncs; i++) {
        for (uint32_t c = 0; c < r->md.funcs[i].ncopies; c++) {
            const struct func_copy *row = &r->md.funcs[i].copies[c];
            const struct pi_func *fn = &row->u->funcs[row->func];
            struct pi_rec_hotspot h;
            memset(&h, 0, sizeof h);
            h.unit_id = row->u->hdr.unit_id;
            h.cfg_checksum = fn->cfg_checksum;
            h.func = row->func;
            h.version = 1;
            for (size_t j = 0; j < nseen; j++)
                if (seen[j].unit_id == h.unit_id && seen[j].func == h.func &&
                    seen[j].version >= h.version)
                    h.version = seen[j].version + 1;
            h.first_site = fn->first_site;
            h.nsites = fn->nsites;
            h.blocks = row->blocks;
            h.total = total;
            h.threshold = (uint32_t)r->md.hot;
            const char *name = pi_unit_str(row->u, fn->name);
            h.name_len = (uint32_t)strlen(name) + 1;
            put_rec(&out, &len, PI_REC_HOTSPOT, &h, sizeof h, name, h.name_len);
            added++;
        }
    }
    struct pi_rec_end e = { nrecords + added, 0 };
    put_rec(&out, &len, PI_REC_END, &e, sizeof e, NULL, 0);
    pi_trace_close(&f);
    free(seen);

    struct pi_out dst;
    struct pi_err werr;
    int status = -1;
    pi_input_forget(path); /* the trace read is the one to update */
    if (pi_out_begin(&dst, path, ".pmopt-hotspot.", &werr)) {
        pm_error("%s", werr.msg);
        free(out);
        return -1;
    }
    FILE *wf = fopen(dst.tmp, "wx");
    if (!wf)
        pm_error("%s: cannot create %s: %s", path, dst.tmp, strerror(errno));
    else if (fwrite(out, 1, len, wf) != len || fflush(wf) || fsync(fileno(wf))) {
        pm_error("%s: writing %s: %s", path, dst.tmp, strerror(errno));
        fclose(wf);
    } else if (fclose(wf)) {
        pm_error("%s: %s: %s", path, dst.tmp, strerror(errno));
    } else if (pi_out_commit(&dst, &werr)) {
        pm_error("%s", werr.msg);
    } else {
        status = 0;
        printf("recorded %u hot spot%s in %s\n", added, added == 1 ? "" : "s", path);
    }
    pi_out_end(&dst);
    free(out);
    return status;
}
