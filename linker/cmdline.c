/* cmdline.c — read a gcc link command line the way gcc would (the link
 * driver), and the --pi- options both fronts take.
 *
 * perfinst-ld takes exactly what `gcc` takes for a link, plus its own
 * --pi-* options.  From the rest it needs: whether this is a final link at
 * all (-c, -r, -print-... are passed to gcc untouched) and the inputs it
 * names, to see whether they are C++ (then g++ links them).  Everything
 * else is the link stage's business (ldline.c), which sees the command
 * line collect2 gets.
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

void pild_usage(FILE *f)
{
    fprintf(f,
            "usage: " PILD_NAME " [--pi-OPTION...] GCC-LINK-ARGUMENTS...\n"
            "Link like gcc with perfinst's link stage (pkg-config --libs perfinst): the\n"
            "runtime when the inputs use it, the translation table (.perfinst.xlat) and\n"
            "the link recipe (.perfinst.link) in the output.  C++ inputs link with g++.\n"
            "\n"
            "  --pi-cc=GCC           compiler driver to run (default $PERFINST_CC, else\n"
            "                        gcc, or g++ when an input is C++)\n"
            "  --pi-runtime          link the runtime even if no input uses it\n"
            "                        (PERFINST_SAMPLE, PERFINST_IDLE on plain code)\n"
            "  --pi-static-runtime   link libperfinst.a instead of libperfinst.so\n"
            "  --pi-line-size=N      cache-line size of the translation table (default 64)\n"
            "  --pi-verbose          show the commands run and what was written\n"
            "  --help, --version\n"
            "\n"
            "On the flags route give the same options as -Wl,--pi-OPTION.\n"
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

int pild_opt(const char *a, struct pild_opts *o, int driver)
{
    if (driver && !strncmp(a, "--pi-cc=", 8) && a[8])
        o->cc = a + 8;
    else if (!strcmp(a, "--pi-static-runtime"))
        o->static_runtime = 1;
    else if (!strcmp(a, "--pi-runtime"))
        o->force_runtime = 1;
    else if (!strncmp(a, "--pi-line-size=", 15))
        return parse_line_size(a + 15, &o->line_size);
    else if (!strcmp(a, "--pi-verbose"))
        pild_verbose = 1;
    else {
        pild_err("unknown option %s (try " PILD_NAME " --help)", a);
        return -1;
    }
    return 0;
}

/* C++ by the file name, as gcc decides the language of a source. */
static int is_cplusplus_source(const char *a)
{
    static const char *const ext[] = {".cc", ".cp", ".cxx", ".cpp", ".CPP", ".c++", ".C",
                                      ".ii", ".hh", ".hpp", ".hxx", ".H", ".tcc"};
    const char *dot = strrchr(a, '.');
    if (!dot || strchr(dot, '/'))
        return 0;
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++)
        if (!strcmp(dot, ext[i]))
            return 1;
    return 0;
}

int pild_cmdline_parse(int argc, char **argv, struct pild_opts *o, struct pild_cmd *c)
{
    const char *env_cc = getenv("PERFINST_CC");
    o->cc = env_cc && *env_cc ? env_cc : NULL;
    o->line_size = 64;
    memset(c, 0, sizeof *c);
    c->final_link = 1;

    int bstatic = 0, is_static = 0;
    size_t nfiles = 0;
    const char *lang = NULL; /* -x LANG in force */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help")) {
            pild_usage(stdout);
            return 1;
        }
        if (!strcmp(a, "--version")) {
            /* then the compiler's own --version (not a link: run by the
             * driver), as a build system used as CC=perfinst-ld expects:
             * meson knows gcc by it ("Free Software Foundation") */
            printf(PILD_NAME " (perfinst) %s, format version %u, link recipe version %u\n",
                   PERFINST_VERSION, PI_FORMAT_VERSION, PI_LINK_VERSION);
            fflush(stdout);
        }
        if (!strncmp(a, "--pi-", 5)) {
            if (pild_opt(a, o, 1))
                return -1;
            continue;
        }
        size_t here = c->args.n;
        pild_argv_push(&c->args, a);
        const char *val = NULL; /* value of an option given as the next argument */
        if (a[0] == '-' && a[1] != '\0' && takes_separate_value(a) && i + 1 < argc) {
            val = argv[++i];
            pild_argv_push(&c->args, val);
        }
        size_t vali = here + 1;

        if (a[0] != '-' || a[1] == '\0') {
            if (a[0] != '-' && a[0] != '@') { /* "-" is stdin; @file a response file */
                if ((lang && strstr(lang, "c++")) || (!lang && is_cplusplus_source(a)))
                    c->cplusplus_source = 1;
                push_input(c, PILD_IN_FILE, a, here, 0);
                nfiles++;
            }
        } else if (!strcmp(a, "-x")) {
            lang = val && strcmp(val, "none") ? val : NULL;
        } else if (!strncmp(a, "-x", 2)) {
            lang = strcmp(a + 2, "none") ? a + 2 : NULL;
        } else if (!strncmp(a, "-l", 2)) {
            const char *name = val ? val : a + 2;
            if (*name) {
                push_input(c, PILD_IN_LIB, name, val ? vali : here, bstatic || is_static);
                nfiles++;
            }
        } else if (!strncmp(a, "-L", 2)) {
            if (val || a[2])
                push_libdir(c, val ? val : a + 2);
        } else if (!strcmp(a, "-static") || !strcmp(a, "-static-pie")) {
            is_static = 1;
        } else if (!strncmp(a, "-Wl,", 4)) {
            linker_items(c, a + 4, &bstatic);
        } else if (!strcmp(a, "-Xlinker") && val) {
            const char *pending = NULL;
            linker_item(c, val, &bstatic, &pending);
        } else if (is_not_a_link(a)) {
            c->final_link = 0;
        }
    }
    /* -static applies to every -l, wherever it stands. */
    for (size_t k = 0; k < c->ninputs; k++)
        if (is_static && c->inputs[k].kind == PILD_IN_LIB)
            c->inputs[k].want_static = 1;
    if (nfiles == 0)
        c->final_link = 0; /* gcc -v, gcc with no inputs: nothing to link */
    return 0;
}
