/* fuzz-readers.c — libFuzzer harness for the shared readers (common/).
 *
 * The first byte of the input picks the reader, the rest is its input:
 *   0  pi_meta_parse + pi_meta_validate  (.perfinst bytes, any chunk kind)
 *   1  pi_trace_parse and pi_trace_add_indicators and pi_trace_add_watch
 *      (twice, into one trace with the same modules), then
 *      pi_trace_open_mem/pi_trace_next, pi_share_parse (a trace) and
 *      pi_share_add twice (the merge), and pi_share_arrays_parse (text)
 *   2  pi_meta_read_elf on elf_memory()  (a whole ELF file; libelf itself
 *      is not instrumented)
 *   3  pifb_parse + pifb_select  (a feedback file)
 * Build and run (t-fuzz.sh does this with a fixed budget):
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined \
 *     -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION -Iinclude -Icommon \
 *     tests/pmopt/fuzz-readers.c common/pimeta.c common/pitrace.c -lelf -o fuzz
 *   ./fuzz -runs=100000 CORPUS_DIR
 */
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pifeedback.h"
#include "pimeta.h"
#include "pishare.h"
#include "pitrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    struct pi_err err;
    const uint8_t *p = data + 1;
    size_t n = size - 1;
    switch (data[0] % 4) {
    case 0: {
        struct pi_meta m;
        if (pi_meta_parse("fuzz", p, n, &m, &err) == 0) {
            pi_meta_validate(&m, &err);
            for (size_t i = 0; i < m.nunits; i++)
                (void)pi_unit_str(&m.units[i], m.units[i].hdr.source);
            pi_meta_free(&m);
        }
        break;
    }
    case 1: {
        struct pi_trace t;
        if (pi_trace_parse("fuzz", p, n, &t, &err) == 0) {
            struct pi_trace acc;
            memset(&acc, 0, sizeof acc);
            if (pi_trace_add_indicators(&acc, &t, 1, &err) == 0)
                pi_trace_add_indicators(&acc, &t, 1, &err);
            for (size_t i = 0; i < t.nwords; i++) {
                uint64_t link;
                (void)pi_trace_watch_module(&t, t.words[i].addr, &link);
            }
            acc.modules = t.modules; /* borrowed: the words' modules have a place */
            acc.nmodules = t.nmodules;
            size_t dropped = 0;
            if (pi_trace_add_watch(&acc, &t, &dropped, &err) == 0)
                pi_trace_add_watch(&acc, &t, &dropped, &err);
            acc.modules = NULL;
            acc.nmodules = 0;
            pi_trace_free(&acc);
            pi_trace_free(&t);
        }
        struct pi_trace_file f;
        struct pi_trace_rec r;
        if (pi_trace_open_mem("fuzz", p, n, &f, &err) == 0) {
            while (pi_trace_next(&f, &r, &err) == 1)
                if (r.hdr.type == PI_REC_COUNTS && r.u.counts.ncounters)
                    (void)pi_trace_count(&r, r.u.counts.ncounters - 1);
                else if (r.hdr.type == PI_REC_TRACEREG && r.u.tracereg.ncounters)
                    (void)pi_trace_count(&r, r.u.tracereg.ncounters - 1);
                else if (r.hdr.type == PI_REC_EVENT && r.u.event.nframes)
                    (void)pi_trace_frame(&r, r.u.event.nframes - 1);
                else if (r.hdr.type == PI_REC_WATCH && r.u.watch.nwords)
                    (void)pi_trace_word(&r, r.u.watch.nwords - 1);
            pi_trace_close(&f);
        }
        struct pi_share sh;
        if (pi_share_parse("fuzz", p, n, &sh, &err) == 0) {
            for (size_t i = 0; i < sh.nlines; i++)
                (void)pi_share_tid(&sh, sh.lines[i].thr[sh.lines[i].rec.nthreads - 1].thread);
            /* the merge: the same records twice into one, then as records */
            struct pi_trace tt;
            if (pi_trace_parse("fuzz", p, n, &tt, &err) == 0) {
                struct pi_share acc;
                memset(&acc, 0, sizeof acc);
                if (pi_share_add(&acc, &sh, &tt, tt.modules, tt.nmodules, &err) == 0 &&
                    pi_share_add(&acc, &sh, &tt, tt.modules, tt.nmodules, &err) == 0) {
                    struct pi_trace_extra *x;
                    size_t nx;
                    if (pi_share_records(&acc, &x, &nx) == 0)
                        free(x);
                }
                pi_share_free(&acc);
                pi_trace_free(&tt);
            }
        }
        pi_share_free(&sh);
        struct pi_share_array *arr;
        size_t narr;
        if (pi_share_arrays_parse((const char *)p, n, &arr, &narr) == 0)
            free(arr);
        break;
    }
    case 2: {
        if (elf_version(EV_CURRENT) == EV_NONE)
            return 0;
        char *copy = malloc(n ? n : 1);
        if (!copy)
            return 0;
        memcpy(copy, p, n);
        Elf *elf = elf_memory(copy, n);
        if (elf) {
            struct pi_meta m;
            if (pi_meta_read_elf("fuzz", (struct Elf *)elf, &m, &err) == 0) {
                pi_meta_validate(&m, &err);
                pi_meta_free(&m);
            }
            elf_end(elf);
        }
        free(copy);
        break;
    }
    case 3: {
        struct pifb_file fb;
        if (pifb_parse("fuzz", (const char *)p, n, &fb, &err) == 0 && fb.nrecs) {
            char list[32];
            snprintf(list, sizeof list, "%u-%u", fb.recs[0].number, fb.recs[0].number + 2);
            if (pifb_select(&fb, list, &err) == 0 && fb.nrecs)
                (void)pifb_get(&fb.recs[0], "name");
        }
        pifb_free(&fb);
        break;
    }
    }
    return 0;
}
