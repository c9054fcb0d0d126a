/* pmopt export --flamegraph OUT.svg | --folded OUT [--what=W] [--title=T] [PROG] TRACE...
 *
 * The stack samples of the traces (PERFINST_SAMPLE, PERFINST_IDLE) as a
 * flame graph SVG or as folded stacks (export-stacks.c).  OUT "-" is
 * standard output.  Both options may be given in one run.  --what chooses
 * the samples: sampled (timer samples, weighted by periods), idle (to-idle
 * and from-idle), to, from; the default is sampled when the traces have
 * timer samples, else idle.
 *
 * (`pmopt export --chrome` is the other half of this subcommand, in
 * cmd-export.c; until the two are joined this file answers for `export`.)
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "pmopt.h"
#include "stacks.h"

static void help(FILE *f)
{
    fprintf(f,
            "usage: pmopt export [--flamegraph OUT.svg] [--folded OUT] [--what=W] [--title=T]\n"
            "                    [PROG] TRACE...\n"
            "Export the stack samples of the traces (PERFINST_SAMPLE, PERFINST_IDLE).\n"
            "  --flamegraph OUT   a flame graph SVG (open it in a browser; tooltips name each frame)\n"
            "  --folded OUT       folded stacks, one line per stack: 'main;f;g COUNT'\n"
            "  --what=W           sampled, idle, to or from (default: sampled if present, else idle)\n"
            "  --title=T          the flame graph's title\n"
            "OUT '-' is standard output.\n");
}

static FILE *open_out(const char *path)
{
    if (!strcmp(path, "-"))
        return stdout;
    return pm_create(path);
}

static int close_out(FILE *f, const char *path)
{
    if (f == stdout)
        return fflush(f) ? -1 : 0;
    if (fclose(f)) {
        pm_error("%s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

int cmd_export_stacks(int argc, char **argv)
{
    static const struct option opts[] = {
        { "flamegraph", required_argument, NULL, 'g' },
        { "folded", required_argument, NULL, 'f' },
        { "what", required_argument, NULL, 'w' },
        { "title", required_argument, NULL, 't' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *svg = NULL, *folded = NULL, *what = NULL, *title = NULL;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
        switch (c) {
        case 'g': svg = optarg; break;
        case 'f': folded = optarg; break;
        case 'w': what = optarg; break;
        case 't': title = optarg; break;
        case 'h': help(stdout); return PM_OK;
        default:
            return pm_usage_error("export", "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (!svg && !folded)
        return pm_usage_error("export", "nothing to export: give --flamegraph OUT or --folded OUT");
    int w[STK_NKINDS] = {0, 0, 0};
    if (what) {
        if (!strcmp(what, "sampled"))
            w[STK_SAMPLED] = 1;
        else if (!strcmp(what, "idle"))
            w[STK_TO] = w[STK_FROM] = 1;
        else if (!strcmp(what, "to"))
            w[STK_TO] = 1;
        else if (!strcmp(what, "from"))
            w[STK_FROM] = 1;
        else
            return pm_usage_error("export", "--what=%s: expected sampled, idle, to or from", what);
    }
    const char *prog;
    char **traces;
    int ntraces;
    stk_operands(argc - optind, argv + optind, &prog, &traces, &ntraces);
    if (!ntraces)
        return pm_usage_error("export", "no TRACE given");
    struct stk_tree t;
    if (stk_load(&t, prog, traces, ntraces)) {
        stk_free(&t);
        return PM_ERROR;
    }
    if (!what) {
        if (t.have[STK_SAMPLED])
            w[STK_SAMPLED] = 1, what = "sampled";
        else
            w[STK_TO] = w[STK_FROM] = 1, what = "idle";
    }
    if (!stk_count(&t.nodes[0], w, 0))
        pm_note("no %s stack samples in the traces: the output is empty", what);
    int status = PM_OK;
    if (folded) {
        FILE *f = open_out(folded);
        if (!f || export_folded(&t, w, f) || close_out(f, folded))
            status = PM_ERROR;
    }
    if (svg && status == PM_OK) {
        char tbuf[512];
        if (!title) {
            snprintf(tbuf, sizeof tbuf, "%s stacks of %s", what,
                     prog ? pm_basename(prog) : pm_basename(traces[0]));
            title = tbuf;
        }
        FILE *f = open_out(svg);
        if (!f || export_flamegraph(&t, w, title, f) || close_out(f, svg))
            status = PM_ERROR;
    }
    stk_free(&t);
    return status;
}
