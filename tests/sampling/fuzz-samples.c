/* fuzz-samples.c — libFuzzer harness for the sampling records' reader
 * (common/pisample.c): pi_samples_read_mem on the input as a trace, twice
 * into one pi_samples (objects shared), then pi_samples_dump_rec on every
 * record pi_trace_next returns.  tests/sampling/t-fuzz.sh builds and runs
 * it with AddressSanitizer and UBSan, seeded with real sampling traces.
 */
#include <stdio.h>
#include <string.h>

#include "pisample.h"
#include "pitrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct pi_err err;
    struct pi_samples ss;
    memset(&ss, 0, sizeof ss);
    char warn[256];
    if (pi_samples_read_mem("fuzz", data, size, &ss, warn, sizeof warn, &err) == 0)
        pi_samples_read_mem("fuzz", data, size, &ss, warn, sizeof warn, &err);
    for (size_t i = 0; i < ss.n; i++)
        for (uint32_t j = 0; j < ss.s[i].nframes; j++)
            if (ss.s[i].frames[j].obj != PI_SOBJ_NONE && ss.s[i].frames[j].obj >= ss.nobjs)
                __builtin_trap(); /* a frame naming an object that is not there */
    pi_samples_free(&ss);

    static FILE *null;
    if (!null)
        null = fopen("/dev/null", "w");
    struct pi_trace_file f;
    struct pi_trace_rec r;
    if (pi_trace_open_mem("fuzz", data, size, &f, &err) == 0) {
        while (pi_trace_next(&f, &r, &err) == 1)
            pi_samples_dump_rec(null, &r);
        pi_trace_close(&f);
    }
    return 0;
}
