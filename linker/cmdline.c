/* cmdline.c — read a gcc link command line the way gcc and ld would.
 *
 * perfinst-ld takes exactly what `gcc` takes for a link, plus its own
 * --pi-* options.  From the rest it needs: the output (to link into a
 * temporary file beside it instead), the inputs (to check them first and
 * record them in the recipe), the -L directories and the static/dynamic
 * state at each -l (to resolve it as ld will), and whether this is a final
 * link at all (-c, -r, -print-... are passed to gcc untouched).
 *
 * Limits (docs/perfinst-ld.md): inputs named only inside -Wl,/-Xlinker
 * lists and @response files are linked but neither checked nor recorded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pild.h"

/* gcc options whose value is the next argument when not attached. */
static const char *const separate_value[] = {
    "-o", "-x", "-L", "-l", "-I", "-D", "-U", "-T", "-u", "-e", "-z", "-B",
    "-Xlinker", "-Xassembler", "-Xpreprocessor", "-include", "-imacros",
    "-isystem", "-idirafter", "-iprefix", "-iwithprefix", "-iwithprefixbefore",
    "-iquote", "-isysroot", "-imultilib", "-MF", "-MT", "-MQ", "-aux-info",
    "-dumpbase", "-dumpbase-ext", "-dumpdir", "--param", "-wrapper", "--output",
    "--entry", "--sysroot", "-specs",
};

/* Options after which gcc does not produce a linked file. */
static int is_not_a_link(const char *a)
{
    static const char *const exact[] = {
        "-c", "-S", "-E", "-r", "-M", "-MM", "-fsyntax-only", "-###",
        "-dumpversion", "-dumpfullversion", "-dumpmachine", "-dumpspecs",
        "--target-help", "--version",
    };
    for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
        if (strcmp(a, exact[i]) == 0)
            return 1;
    return strncmp(a, "-print-", 7) == 0 || strncmp(a, "--print-", 8) == 0 ||
           strncmp(a, "--help=", 7) == 0;
}

static int takes_separate_value(const char *a)
{
    for (size_t i = 0; i < sizeof separate_value / sizeof separate_value[0]; i++)
        if (strcmp(a, separate_value[i]) == 0)
            return 1;
    return 0;
}

static void push_arg(struct pild_cmd *c, const char *a)
{
    c->argv = pild_xrealloc(c->argv, (c->argc + 2) * sizeof *c->argv);
    c->argv[c->argc++] = pild_xstrdup(a);
    c->argv[c->argc] = NULL;
}

static void push_input(struct pild_cmd *c, enum pild_input_kind kind, const char *name,
                       size_t argi, int want_static)
{
    c->inputs = pild_xrealloc(c->inputs, (c->ninputs + 1) * sizeof *c->inputs);
    c->inputs[c->ninputs++] = (struct pild_input){
        .kind = kind, .name = name, .argi = (uint32_t)argi, .want_static = want_static,
    };
}

static void push_libdir(struct pild_cmd *c, const char *dir)
{
    c->libdirs = pild_xrealloc(c->libdirs, (c->nlibdirs + 1) * sizeof *c->libdirs);
    c->libdirs[c->nlibdirs++] = pild_xstrdup(dir);
}

/* One argument given to the linker itself (-Wl,ITEM or -Xlinker ITEM):
 * follow -Bstatic/-Bdynamic and -L, notice -r. */
static void linker_item(struct pild_cmd *c, const char *it, int *bstatic, const char **pending)
{
    if (*pending) { /* the value of "-L" given as its own item */
        push_libdir(c, it);
        *pending = NULL;
        return;
    }
    if (!strcmp(it, "-Bstatic") || !strcmp(it, "-dn") || !strcmp(it, "-non_shared") ||
        !strcmp(it, "-static"))
        *bstatic = 1;
    else if (!strcmp(it, "-Bdynamic") || !strcmp(it, "-dy") || !strcmp(it, "-call_shared"))
        *bstatic = 0;
    else if (!strcmp(it, "-r") || !strcmp(it, "--relocatable") || !strcmp(it, "-i"))
        c->final_link = 0;
    else if (!strcmp(it, "-L"))
        *pending = "-L";
    else if (!strncmp(it, "-L", 2))
        push_libdir(c, it + 2);
    else if (!strncmp(it, "--library-path=", 15))
        push_libdir(c, it + 15);
}

static void linker_items(struct pild_cmd *c, const char *list, int *bstatic)
{
    char *copy = pild_xstrdup(list), *save = NULL;
    const char *pending = NULL;
    for (char *it = strtok_r(copy, ",", &save); it; it = strtok_r(NULL, ",", &save))
        linker_item(c, it, bstatic, &pending);
    free(copy);
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: " PILD_NAME " [--pi-OPTION...] GCC-LINK-ARGUMENTS...\n"
            "Link like gcc, then add perfinst's translation table (.perfinst.xlat)\n"
            "and the link recipe (.perfinst.link) to the output.\n"
            "\n"
            "  --pi-cc=GCC           compiler driver to run (default $PERFINST_CC or gcc)\n"
            "  --pi-static-runtime   link libperfinst.a instead of libperfinst.so\n"
            "  --pi-line-size=N      cache-line size of the translation table (default 64)\n"
            "  --pi-verbose          show the commands run and what was written\n"
            "  --help, --version\n"
            "\n"
            "PERFINST_LIB_DIR overrides where libperfinst is found.\n"
            "Everything else goes to gcc unchanged (see docs/perfinst-ld.md).\n");
}

static int parse_line_size(const char *s, uint32_t *out)
{
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < 8 || v > 65536 || (v & (v - 1)) != 0) {
        pild_err("--pi-line-size=%s: need a power of two from 8 to 65536", s);
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

int pild_cmdline_parse(int argc, char **argv, struct pild_opts *o, struct pild_cmd *c)
{
    const char *env_cc = getenv("PERFINST_CC");
    o->cc = env_cc && *env_cc ? env_cc : "gcc";
    o->line_size = 64;
    memset(c, 0, sizeof *c);
    c->final_link = 1;

    /* First our own options, so that --pi-cc is known before argv[0]. */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help")) {
            usage(stdout);
            return 1;
        }
        if (!strcmp(a, "--version")) {
            printf(PILD_NAME " (perfinst) %s, format version %u\n", PERFINST_VERSION,
                   PI_FORMAT_VERSION);
            return 1;
        }
        if (strncmp(a, "--pi-", 5) != 0)
            continue;
        if (!strncmp(a, "--pi-cc=", 8) && a[8])
            o->cc = a + 8;
        else if (!strcmp(a, "--pi-static-runtime"))
            o->static_runtime = 1;
        else if (!strncmp(a, "--pi-line-size=", 15)) {
            if (parse_line_size(a + 15, &o->line_size))
                return -1;
        } else if (!strcmp(a, "--pi-verbose"))
            pild_verbose = 1;
        else {
            pild_err("unknown option %s (try --help)", a);
            return -1;
        }
    }

    push_arg(c, o->cc);
    int bstatic = 0, have_output = 0;
    size_t nfiles = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strncmp(a, "--pi-", 5))
            continue;
        size_t here = c->argc;
        push_arg(c, a);
        const char *val = NULL; /* value of an option given as the next argument */
        if (a[0] == '-' && a[1] != '\0' && takes_separate_value(a) && i + 1 < argc) {
            val = argv[++i];
            push_arg(c, val);
        }
        size_t vali = here + 1;

        if (a[0] != '-' || a[1] == '\0') {
            if (a[0] != '-' && a[0] != '@') { /* "-" is stdin; @file a response file */
                push_input(c, PILD_IN_FILE, a, here, 0);
                nfiles++;
            }
        } else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
            if (!val) {
                pild_err("%s needs a file name", a);
                return -1;
            }
            c->output = val, c->out_argi = vali, c->out_prefix = "", have_output = 1;
        } else if (!strncmp(a, "--output=", 9)) {
            c->output = a + 9, c->out_argi = here, c->out_prefix = "--output=", have_output = 1;
        } else if (!strncmp(a, "-o", 2)) {
            c->output = a + 2, c->out_argi = here, c->out_prefix = "-o", have_output = 1;
        } else if (!strncmp(a, "-l", 2)) {
            const char *name = val ? val : a + 2;
            if (*name) {
                push_input(c, PILD_IN_LIB, name, val ? vali : here, bstatic || c->is_static);
                nfiles++;
            }
        } else if (!strncmp(a, "-L", 2)) {
            if (val || a[2])
                push_libdir(c, val ? val : a + 2);
        } else if (!strncmp(a, "-T", 2) && !strchr(a, '=') && strncmp(a, "-Ttext", 6) &&
                   strncmp(a, "-Tdata", 6) && strncmp(a, "-Tbss", 5)) {
            if (val || a[2])
                push_input(c, PILD_IN_SCRIPT, val ? val : a + 2, val ? vali : here, 0);
        } else if (!strcmp(a, "-static") || !strcmp(a, "-static-pie")) {
            c->is_static = 1;
        } else if (!strncmp(a, "-Wl,", 4)) {
            linker_items(c, a + 4, &bstatic);
        } else if (!strcmp(a, "-Xlinker") && val) {
            const char *pending = NULL;
            linker_item(c, val, &bstatic, &pending);
        } else if (is_not_a_link(a)) {
            c->final_link = 0;
        }
    }
    c->bstatic_at_end = bstatic;
    /* -static applies to every -l, wherever it stands. */
    for (size_t k = 0; k < c->ninputs; k++)
        if (c->is_static && c->inputs[k].kind == PILD_IN_LIB)
            c->inputs[k].want_static = 1;
    if (nfiles == 0)
        c->final_link = 0; /* gcc -v, gcc with no inputs: nothing to link */
    if (!have_output && c->final_link) {
        c->output = "a.out";
        push_arg(c, "-o");
        c->out_argi = c->argc;
        c->out_prefix = "";
        push_arg(c, "a.out");
    }
    return 0;
}

void pild_cmdline_finish(struct pild_cmd *c, const struct pild_opts *o)
{
    push_arg(c, "-Wl,--build-id");
    push_libdir(c, o->libdir);
    char *s = pild_xasprintf("-L%s", o->libdir);
    push_arg(c, s);
    free(s);
    s = pild_xasprintf("-Wl,-rpath,%s", o->libdir);
    push_arg(c, s);
    free(s);
    if (o->static_runtime) {
        /* The archive by its full path: -Bstatic/-Bdynamic around -lperfinst
         * would turn a -static link dynamic for the libraries gcc adds after. */
        s = pild_xasprintf("%s/libperfinst.a", o->libdir);
        push_input(c, PILD_IN_FILE, NULL, c->argc, 0);
        push_arg(c, s);
        c->inputs[c->ninputs - 1].name = c->argv[c->argc - 1];
        free(s);
    } else {
        /* --no-as-needed: a program with no instrumented unit still loads
         * the runtime (PERFINST_SAMPLE, PERFINST_IDLE: docs/sampling-stacks.md). */
        push_arg(c, "-Wl,--push-state,--no-as-needed");
        push_input(c, PILD_IN_LIB, "perfinst", c->argc, c->is_static || c->bstatic_at_end);
        push_arg(c, "-lperfinst");
        push_arg(c, "-Wl,--pop-state");
    }
    push_arg(c, "-pthread");
}

char *pild_output_arg(const struct pild_cmd *c, const char *file)
{
    return pild_xasprintf("%s%s", c->out_prefix, file);
}
