/* pmopt — the perfinst analysis tool: one subcommand per file (cmd-*.c).
 *
 *   pmopt dump-meta FILE                 the .perfinst metadata of an object or program
 *   pmopt report PROG TRACE...           counts per site, function and line; indicators
 *   pmopt merge -o OUT TRACE...          sum traces of one program into one
 *   pmopt diff PROG BASE.pit NEW.pit     what changed between two runs or builds (report-diff.c)
 *   pmopt plan --hot -o OVERLAY PROG TRACE...  an overlay counting only the hot functions
 *   pmopt dump TRACE                     every record of a trace
 *   pmopt export --chrome OUT TRACE      other tools' formats (cmd-export.c)
 *   pmopt export --flamegraph OUT [PROG] TRACE...  stack samples as a flame graph (or --folded)
 *   pmopt relink PROG --feedback F -o OUT  replay the link with the planned order
 *
 * Exit status: 0 success, 1 an error (a bad or mismatched input), 2 a usage
 * error.  docs/pmopt.md is the manual.
 */
#include <stdio.h>
#include <string.h>

#include "names.h"
#include "pmopt.h"

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *summary;
} commands[] = {
    { "dump-meta", cmd_dump_meta, "print the .perfinst metadata of an object or program" },
    { "report", cmd_report, "counts per site, function and line; what indicators saw" },
    { "merge", cmd_merge, "sum traces of the same program into one trace" },
    { "diff", cmd_diff, "counts and sampled time before and after, per function and line" },
    { "plan", cmd_plan, "feedback files (rebuild, order, sharing) and overlays (hot, callers)" },
    { "dump", cmd_dump, "print every record of a trace" },
    { "export", cmd_export, "Chrome/Perfetto JSON, flame graph SVG, folded stacks" },
    { "relink", cmd_relink, "replay PROG's link with the planned function and data order" },
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
    fprintf(f, "usage: pmopt [--help] [--version] COMMAND [ARGS...]\n\ncommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n'pmopt COMMAND --help' describes a command.  Exit status: 0 success, "
               "1 error, 2 usage error.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return PM_USAGE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        if (!strcmp(cmd, "help") && argc > 2) {
            for (size_t i = 0; i < NCOMMANDS; i++)
                if (!strcmp(argv[2], commands[i].name)) {
                    char *a[] = { argv[2], "--help", NULL };
                    return commands[i].fn(2, a);
                }
            return pm_usage_error(NULL, "unknown command '%s'", argv[2]);
        }
        usage(stdout);
        return PM_OK;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
        printf("pmopt (perfinst) %s\nformats: metadata %u, trace %u\n", PERFINST_VERSION,
               PI_FORMAT_VERSION, PI_TRACE_VERSION);
        return PM_OK;
    }
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (!strcmp(cmd, commands[i].name)) {
            int status = commands[i].fn(argc - 1, argv + 1);
            pm_names_free();
            return status;
        }
    return pm_usage_error(NULL, "unknown command '%s'", cmd);
}
