/* pmopt merge -o OUT [--weight=N] TRACE... — sum traces of the same program
 * into one: model/merge.c combines them (what is summed, kept, weighted
 * and refused; two passes, one input in memory at a time), this file
 * writes the result.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "merge.h"
#include "commands.h"
#include "pmopt.h"

static void help(FILE *f)
{
    fprintf(f,
            "usage: pmopt merge [--force] -o OUT [--weight=N] TRACE... [--weight=N TRACE...]\n"
            "Sum traces of the same program (same module build-ids) into OUT.\n"
            "  -o, --output=OUT  the merged trace (written whole; a FIFO or device in place)\n"
            "  --weight=N        multiply the counts of the TRACEs that follow by N (a positive\n"
            "                    integer; until the next --weight; 1 before the first)\n"
            "  --force           merge traces of different builds (kept as separate modules),\n"
            "                    and the same run given twice (counted twice)\n");
}

/* The traces at paths[0..n) (counts times weights[i]) merged and written to out. */
static int merge_files(const char *out, char **paths, const uint64_t *weights, int ntraces, int force)
{
    struct pi_trace res;
    struct pi_share share;
    struct pi_trace_extra *extra = NULL;
    struct pi_err err;
    int status = pm_merge_traces(paths, weights, ntraces, force, &res, &share);
    if (status != PM_OK)
        goto out;
    status = PM_ERROR;
    if (pi_share_records(&share, &extra, &res.nextra)) {
        pm_error("out of memory");
        goto out;
    }
    res.extra = extra;
    if (pi_trace_write(out, &res, &err)) {
        pm_error("%s", err.msg);
        goto out;
    }
    printf("merged %d trace%s into %s: %zu module%s, %zu unit%s\n", ntraces,
           ntraces == 1 ? "" : "s", out, res.nmodules, res.nmodules == 1 ? "" : "s", res.nunits,
           res.nunits == 1 ? "" : "s");
    status = PM_OK;
out:
    res.extra = NULL;
    res.nextra = 0;
    pm_merge_free(&res, &share);
    free(extra);
    return status;
}

int cmd_merge(int argc, char **argv)
{
    static const struct option opts[] = {
        { "output", required_argument, NULL, 'o' },
        { "force", no_argument, NULL, 'f' },
        { "weight", required_argument, NULL, 'w' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *out = NULL;
    int force = 0, c, ntraces = 0;
    uint64_t weight = 1;
    char **paths = calloc((size_t)argc, sizeof *paths);
    uint64_t *weights = calloc((size_t)argc, sizeof *weights);
    int status = PM_USAGE;
    if (!paths || !weights) {
        pm_error("out of memory");
        status = PM_ERROR;
        goto out;
    }
    optind = 1;
    /* "-": operands in place, so that --weight applies to those after it */
    while ((c = getopt_long(argc, argv, "-o:h", opts, NULL)) != -1) {
        switch (c) {
        case 1:
            paths[ntraces] = optarg;
            weights[ntraces++] = weight;
            break;
        case 'o': out = optarg; break;
        case 'f': force = 1; break;
        case 'w': {
            char *end;
            errno = 0;
            unsigned long long v = strtoull(optarg, &end, 10);
            if (!*optarg || *end || *optarg == '-' || !v || errno) {
                status = pm_usage_error("merge", "--weight: '%s' is not a positive integer", optarg);
                goto out;
            }
            weight = v;
            break;
        }
        case 'h': help(stdout); status = PM_OK; goto out;
        default: status = pm_usage_error("merge", "unknown option"); goto out;
        }
    }
    for (; optind < argc; optind++) { /* after "--" */
        paths[ntraces] = argv[optind];
        weights[ntraces++] = weight;
    }
    if (!out)
        status = pm_usage_error("merge", "-o OUT is required");
    else if (ntraces < 1)
        status = pm_usage_error("merge", "expected at least one TRACE");
    else
        status = merge_files(out, paths, weights, ntraces, force);
out:
    free(paths);
    free(weights);
    return status;
}

