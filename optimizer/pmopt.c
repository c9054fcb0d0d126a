/* pmopt — the perfinst analysis tool.  This file is the command table:
 * every command, and every mode of a command that has options and
 * operands of its own, is a row, and nothing else calls a cmd_* function
 * (docs/design.md "pmopt's layers").
 *
 *   pmopt dump-meta FILE                 the .perfinst metadata of an object or program
 *   pmopt report PROG TRACE...           counts per site, function and line; indicators
 *   pmopt report --tree [PROG] TRACE...  the calling-context tree of sampled stacks
 *   pmopt report --sharing PROG TRACE... cache-line sharing, true and false
 *   pmopt merge -o OUT TRACE...          sum traces of one program into one
 *   pmopt diff PROG BASE.pit NEW.pit     what changed between two runs or builds (report-diff.c)
 *   pmopt plan -o FEEDBACK PROG TRACE... feedback for the rebuild; --hot, --expand-callers:
 *                                        overlays; --order, --check: modes of plan's options
 *   pmopt plan --sharing (-o F | --advise) PROG TRACE...  the false-sharing repairs
 *   pmopt dump TRACE                     every record of a trace
 *   pmopt export --FORMAT OUT [PROG] TRACE...  other tools' formats: pprof, callgrind, lcov,
 *                                        gcovr, speedscope, Chrome (inspect/cmd-export.c)
 *   pmopt export --flamegraph OUT [PROG] TRACE...  stack samples as a flame graph (or --folded)
 *   pmopt relink PROG --feedback F -o OUT  replay the link with the planned order
 *
 * A mode's row is chosen when its option is among the arguments (before a
 * "--"), as itself or with "=VALUE"; the command's own row otherwise.
 * Exit status: 0 success, 1 an error (a bad or mismatched input), 2 a usage
 * error.  docs/pmopt.md is the manual.
 */
#include <stdio.h>
#include <string.h>

#include "names.h"
#include "commands.h"
#include "pidwarf.h"
#include "pmopt.h"

static const struct {
    const char *name;
    const char *mode;    /* the option that chooses this row, or NULL: the command's own row */
    int (*fn)(int, char **);
    const char *summary; /* for `pmopt --help`: the command's own rows */
} commands[] = {
    { "dump-meta", NULL, cmd_dump_meta, "print the .perfinst metadata of an object or program" },
    { "report", "--tree", cmd_report_tree, NULL },
    { "report", "--sharing", cmd_report_sharing, NULL },
    { "report", NULL, cmd_report, "counts per site, function and line; what indicators saw" },
    { "merge", NULL, cmd_merge, "sum traces of the same program into one trace" },
    { "diff", NULL, cmd_diff, "counts and sampled time before and after, per function and line" },
    { "plan", "--sharing", cmd_plan_sharing, NULL },
    { "plan", NULL, cmd_plan, "feedback files (rebuild, order, sharing) and overlays (hot, callers)" },
    { "dump", NULL, cmd_dump, "print every record of a trace" },
    { "export", "--flamegraph", cmd_export_stacks, NULL },
    { "export", "--folded", cmd_export_stacks, NULL },
    { "export", NULL, cmd_export, "pprof, callgrind, lcov, gcovr, speedscope, Chrome JSON, flame graph" },
    { "relink", NULL, cmd_relink, "replay PROG's link with the planned function and data order" },
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
    fprintf(f, "usage: pmopt [--help] [--version] [--debug-file-directory=DIR[:DIR...]] COMMAND "
               "[ARGS...]\n\ncommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (!commands[i].mode)
            fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n--debug-file-directory=DIR[:DIR...]  (before or after COMMAND) where separate debug\n"
               "    files are, before /usr/lib/debug (gdb's debug-file-directory): DIR/.build-id/xx/\n"
               "    ....debug of a stripped file, DIR/.dwz/... of its dwz supplementary file; the\n"
               "    usr/lib/debug of an extracted -dbgsym package\n");
    fprintf(f, "\n'pmopt COMMAND --help' describes a command.  Exit status: 0 success, "
               "1 error, 2 usage error.\n");
}

/* Is the option `mode` among args[1..n) before a "--" (alone or "=VALUE")? */
static int has_mode(int n, char **args, const char *mode)
{
    size_t len = strlen(mode);
    for (int i = 1; i < n && strcmp(args[i], "--"); i++)
        if (!strncmp(args[i], mode, len) && (!args[i][len] || args[i][len] == '='))
            return 1;
    return 0;
}

/* The row of command `name` for arguments args[0..n) (args[0] the name):
 * the first of its mode rows whose option is given, else its own row; -1
 * if there is no such command. */
static int find_row(const char *name, int n, char **args)
{
    int own = -1;
    for (size_t i = 0; i < NCOMMANDS; i++) {
        if (strcmp(name, commands[i].name))
            continue;
        if (!commands[i].mode) {
            own = (int)i;
            continue;
        }
        if (has_mode(n, args, commands[i].mode))
            return (int)i;
    }
    return own;
}

/* --debug-file-directory=DIR (or DIR the next argument) anywhere among
 * args[1..*n) before a "--", taken out of them: every command that reads
 * DWARF takes it, before the command's name or among its options. */
static void debug_dirs_option(int *n, char **args)
{
    static const char opt[] = "--debug-file-directory";
    const size_t len = sizeof opt - 1;
    for (int i = 1; i < *n && strcmp(args[i], "--");) {
        int eq = !strncmp(args[i], opt, len) && args[i][len] == '=';
        int sep = !strcmp(args[i], opt) && i + 1 < *n;
        if (!eq && !sep) {
            i++;
            continue;
        }
        pi_debug_set_dirs(eq ? args[i] + len + 1 : args[i + 1]);
        int k = eq ? 1 : 2;
        memmove(args + i, args + i + k, (size_t)(*n - i - k + 1) * sizeof *args); /* (and argv's NULL) */
        *n -= k;
    }
}

int main(int argc, char **argv)
{
    debug_dirs_option(&argc, argv);
    if (argc < 2) {
        usage(stderr);
        return PM_USAGE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        if (!strcmp(cmd, "help") && argc > 2) {
            char *a[] = { argv[2], "--help", NULL };
            int row = find_row(argv[2], 2, a);
            if (row < 0)
                return pm_usage_error(NULL, "unknown command '%s'", argv[2]);
            return commands[row].fn(2, a);
        }
        usage(stdout);
        return PM_OK;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
        printf("pmopt (perfinst) %s\nformats: metadata %u, trace %u\n", PERFINST_VERSION,
               PI_FORMAT_VERSION, PI_TRACE_VERSION);
        return PM_OK;
    }
    int row = find_row(cmd, argc - 1, argv + 1);
    if (row < 0)
        return pm_usage_error(NULL, "unknown command '%s'", cmd);
    int status = commands[row].fn(argc - 1, argv + 1);
    pm_names_free();
    return status;
}
