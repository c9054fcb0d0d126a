/* fleet.c — a fleet's traces, cheaply, for the merge tests and bench:
 * copies of one real trace as if N processes had written them, through
 * the one writer of traces (pi_trace_write, common/pitrace.c).
 *
 *   fleet TEMPLATE N OUTPREFIX [PAD]
 *
 * writes OUTPREFIX0.pit ... OUTPREFIX<N-1>.pit.  Copy i is TEMPLATE with
 * pid 1000+i, start time i+1 ns, and every count multiplied by (i % 7) + 1,
 * so the counts of a merge of all N are TEMPLATE's times
 * sum_i ((i % 7) + 1).  With PAD > 0 each copy also holds a module
 * "libfleet-pad.so" (build-id fe ed 00 01) with one unit (id 0xfeed) of PAD
 * counters, each i + 1 in copy i: traces of a size a merge that held every
 * input in memory at once would notice.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pitrace.h"

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: fleet TEMPLATE N OUTPREFIX [PAD]\n");
        return 2;
    }
    struct pi_trace t;
    struct pi_err err;
    if (pi_trace_read(argv[1], &t, &err)) {
        fprintf(stderr, "fleet: %s\n", err.msg);
        return 1;
    }
    long n = atol(argv[2]);
    uint32_t pad = argc > 4 ? (uint32_t)atol(argv[4]) : 0;
    size_t nunits = t.nunits, nmodules = t.nmodules;
    uint64_t **orig = calloc(nunits ? nunits : 1, sizeof *orig);
    struct pi_trace_module *mods = calloc(nmodules + 1, sizeof *mods);
    struct pi_trace_unit *units = calloc(nunits + 1, sizeof *units);
    uint64_t *padc = calloc(pad ? pad : 1, sizeof *padc);
    if (!orig || !mods || !units || !padc)
        return 1;
    for (size_t u = 0; u < nunits; u++) {
        orig[u] = malloc((t.units[u].ncounters + 1) * sizeof **orig);
        if (!orig[u])
            return 1;
        memcpy(orig[u], t.units[u].counts, t.units[u].ncounters * sizeof **orig);
    }
    memcpy(mods, t.modules, nmodules * sizeof *mods);
    memcpy(units, t.units, nunits * sizeof *units);
    if (pad) {
        struct pi_trace_module *m = &mods[nmodules];
        m->index = (uint32_t)nmodules;
        m->build_id_len = 4;
        memcpy(m->build_id, "\xfe\xed\x00\x01", 4);
        m->load_bias = 0x7f0000000000ull;
        m->path = "/usr/lib/libfleet-pad.so";
        units[nunits] = (struct pi_trace_unit){ .unit_id = 0xfeed, .module = (uint32_t)nmodules,
                                                .ncounters = pad, .counts = padc };
    }
    struct pi_trace_module *keep_mods = t.modules;
    struct pi_trace_unit *keep_units = t.units;
    t.modules = mods;
    t.units = units;
    t.nmodules = nmodules + !!pad;
    t.nunits = nunits + !!pad;
    char path[4096];
    for (long i = 0; i < n; i++) {
        t.hdr.pid = 1000 + (uint64_t)i;
        t.hdr.start_ns = (uint64_t)i + 1;
        for (size_t u = 0; u < nunits; u++)
            for (uint32_t k = 0; k < units[u].ncounters; k++)
                units[u].counts[k] = orig[u][k] * (uint64_t)(i % 7 + 1);
        for (uint32_t k = 0; k < pad; k++)
            padc[k] = (uint64_t)i + 1;
        snprintf(path, sizeof path, "%s%ld.pit", argv[3], i);
        if (pi_trace_write(path, &t, &err)) {
            fprintf(stderr, "fleet: %s\n", err.msg);
            return 1;
        }
    }
    t.modules = keep_mods;
    t.units = keep_units;
    t.nmodules = nmodules;
    t.nunits = nunits;
    pi_trace_free(&t);
    for (size_t u = 0; u < nunits; u++)
        free(orig[u]);
    free(orig);
    free(mods);
    free(units);
    free(padc);
    return 0;
}
