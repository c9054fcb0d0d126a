/* ldline.c — read a collect2 command line the way ld would (the link stage).
 *
 * gcc's driver runs `%(linker)` — perfinst-ld --pi-collect2 with
 * perfinst.specs — with ld's own options: the startup files, gcc's -L list,
 * the user's objects and libraries, the libgcc/libc sequence, the LTO plugin.
 * From it the stage needs the output (to link into a temporary file
 * instead), the inputs (to check them first, see what they need and record
 * them), the -L directories and the static/dynamic state at each -l (to
 * resolve it as ld will), the mode (-shared, -static, -r) and where
 * libperfinst goes: just before gcc's libgcc/libc sequence, after every
 * input that may refer to it (inside the -static group), or at the end
 * when there is none (-nostdlib).
 *
 * The --pi- options (-Wl,--pi-OPTION on gcc's command line) are the stage's;
 * collect2 never sees them.  Response files (@FILE, which gcc uses when it
 * was given one) are expanded first.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pild.h"

/* ld options (one or two dashes, as ld takes them) whose value is the next
 * argument when not attached: from `ld --help`, gold's and lld's. */
static const char *const separate_value[] = {
    "o", "e", "l", "L", "T", "u", "y", "Y", "z", "m", "h", "R", "F", "f", "b", "A", "c", "G",
    "I", "P", "O", "a", "dT", "Map", "rpath", "rpath-link", "soname", "dynamic-linker",
    "plugin", "plugin-opt", "Ttext", "Tdata", "Tbss", "Ttext-segment", "Trodata-segment",
    "Tldata-segment", "section-start", "defsym", "wrap", "version-script", "dynamic-list",
    "retain-symbols-file", "exclude-libs", "entry", "library", "library-path", "output",
    "script", "default-script", "undefined", "trace-symbol", "just-symbols", "auxiliary",
    "filter", "require-defined", "init", "fini", "oformat", "format", "architecture",
    "mri-script", "audit", "depaudit", "export-dynamic-symbol", "export-dynamic-symbol-list",
    "dependency-file", "section-ordering-file", "symbol-ordering-file", "assert", "sysroot",
    "Bsymbolic-functions-list", "out-implib", "image-base", "hash-size", "call-graph-ordering-file",
};

/* The option's name without its dashes, when a separate value follows it. */
static int takes_separate_value(const char *a)
{
    if (a[0] != '-' || !a[1] || strchr(a, '='))
        return 0;
    const char *name = a + 1 + (a[1] == '-');
    for (size_t i = 0; i < sizeof separate_value / sizeof separate_value[0]; i++)
        if (!strcmp(name, separate_value[i]))
            return 1;
    return 0;
}

/* The long option `name` (one or two dashes) with its value joined by '='
 * or in the next argument; NULL if a is not that option. */
static const char *long_value(const char *a, const char *name, const char *next)
{
    if (a[0] != '-')
        return NULL;
    a += 1 + (a[1] == '-');
    size_t n = strlen(name);
    if (strncmp(a, name, n))
        return NULL;
    if (a[n] == '=')
        return a + n + 1;
    return a[n] ? NULL : next;
}

static int is_flag(const char *a, const char *name)
{
    return a[0] == '-' && !strcmp(a + 1 + (a[1] == '-'), name);
}

/* ---- @FILE: libiberty's expandargv (whitespace, quotes, backslashes) ------ */

static int expand_file(const char *path, struct pild_argv *out, int depth);

static int expand_one(const char *a, struct pild_argv *out, int depth)
{
    if (a[0] == '@' && a[1] && depth < 10) {
        FILE *f = fopen(a + 1, "r");
        if (f) { /* a missing file is an ordinary argument, as for gcc */
            fclose(f);
            return expand_file(a + 1, out, depth + 1);
        }
    }
    pild_argv_push(out, a);
    return 0;
}

static int expand_file(const char *path, struct pild_argv *out, int depth)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        pild_err("%s: %s", path, strerror(errno));
        return -1;
    }
    struct pild_buf w = {0};
    int c, quote = 0, have = 0;
    while ((c = fgetc(f)) != EOF) {
        if (!quote && (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v')) {
            if (have) {
                pild_buf_add(&w, "", 1);
                if (expand_one((char *)w.p, out, depth))
                    return fclose(f), free(w.p), -1;
                w.len = 0, have = 0;
            }
            continue;
        }
        have = 1;
        if (c == '\\') {
            c = fgetc(f);
            if (c == EOF)
                break;
        } else if (quote && c == quote) {
            quote = 0;
            continue;
        } else if (!quote && (c == '\'' || c == '"')) {
            quote = c;
            continue;
        }
        char ch = (char)c;
        pild_buf_add(&w, &ch, 1);
    }
    fclose(f);
    int rc = 0;
    if (have) {
        pild_buf_add(&w, "", 1);
        rc = expand_one((char *)w.p, out, depth);
    }
    free(w.p);
    return rc;
}

/* ---- the command line -------------------------------------------------------- */

static void push_input(struct pild_link *l, enum pild_input_kind kind, const char *name,
                       size_t argi, int want_static)
{
    l->inputs = pild_xrealloc(l->inputs, (l->ninputs + 1) * sizeof *l->inputs);
    l->inputs[l->ninputs++] = (struct pild_input){
        .kind = kind, .name = name, .argi = (uint32_t)argi, .want_static = want_static,
    };
}

static void push_libdir(struct pild_link *l, const char *dir)
{
    l->libdirs = pild_xrealloc(l->libdirs, (l->nlibdirs + 1) * sizeof *l->libdirs);
    l->libdirs[l->nlibdirs++] = pild_xstrdup(dir);
}

static int is_gcc_runtime_lib(const char *a)
{
    return !strcmp(a, "-lgcc") || !strcmp(a, "-lgcc_s") || !strcmp(a, "-lgcc_eh");
}

int pild_ldline_parse(int argc, char **argv, struct pild_opts *o, struct pild_link *l)
{
    memset(l, 0, sizeof *l);
    o->line_size = 64;
    pild_argv_push(&l->rec, argv[0]);
    for (int i = 1; i < argc; i++)
        if (expand_one(argv[i], &l->rec, 0))
            return -1;

    char **a = l->rec.v;
    size_t n = l->rec.n;
    int bstatic = 0, stack[16], depth = 0, have_output = 0;
    size_t nfiles = 0, first_lc = 0;
    l->final_link = 1;
    for (size_t i = 1; i < n; i++) {
        const char *x = a[i], *next = i + 1 < n ? a[i + 1] : NULL, *v;
        if (!strncmp(x, "--pi-", 5)) {
            if (pild_opt(x, o, 0))
                return -1;
            continue;
        }
        size_t here = i;
        int sep = takes_separate_value(x) && next;
        if (x[0] != '-' || !x[1]) {
            if (x[0] != '-') {
                push_input(l, PILD_IN_FILE, x, i, 0);
                nfiles++;
            }
        } else if (!strcmp(x, "-o") || is_flag(x, "output")) {
            if (!next) {
                pild_err("%s needs a file name", x);
                return -1;
            }
            l->output = next, l->out_argi = i + 1, l->out_prefix = "", have_output = 1;
        } else if (!strncmp(x, "--output=", 9)) {
            l->output = x + 9, l->out_argi = i, l->out_prefix = "--output=", have_output = 1;
        } else if (!strncmp(x, "-o", 2) && strcmp(x, "-oformat")) {
            l->output = x + 2, l->out_argi = i, l->out_prefix = "-o", have_output = 1;
        } else if (!strncmp(x, "-l", 2) || !strncmp(x, "--library=", 10)) {
            const char *name = x[1] == '-' ? x + 10 : x[2] ? x + 2 : next;
            /* (before libc too: -nostdlib with the user's own -lc -lgcc) */
            if ((is_gcc_runtime_lib(x) || !strcmp(x, "-lc")) && !l->runtime_at)
                l->runtime_at = i;
            if (!strcmp(x, "-lgcc"))
                l->has_libgcc = 1;
            if (!strcmp(x, "-lc") && !first_lc)
                first_lc = i;
            if (!strcmp(x, "-lc"))
                l->after_libc_at = i + 1;
            if (name && *name) {
                push_input(l, PILD_IN_LIB, name, name == next ? i + 1 : i, bstatic);
                nfiles++;
            }
        } else if ((v = long_value(x, "library-path", next)) || !strncmp(x, "-L", 2)) {
            if (!v)
                v = x[2] ? x + 2 : next;
            if (v)
                push_libdir(l, v);
        } else if ((v = long_value(x, "script", next)) || (v = long_value(x, "default-script", next)) ||
                   (!strncmp(x, "-T", 2) && !takes_separate_value(x) && strncmp(x, "-Ttext", 6) &&
                    strncmp(x, "-Tdata", 6) && strncmp(x, "-Tbss", 5) && strncmp(x, "-Trodata", 8) &&
                    strncmp(x, "-Tldata", 7)) ||
                   !strcmp(x, "-T") || !strcmp(x, "-dT")) {
            if (!v)
                v = x[1] == 'd' ? next : x[2] ? x + 2 : next;
            if (v)
                push_input(l, PILD_IN_SCRIPT, v, v == next ? i + 1 : i, 0);
        } else if (!strcmp(x, "-Bstatic") || !strcmp(x, "-dn") || !strcmp(x, "-non_shared") ||
                   is_flag(x, "static")) {
            bstatic = 1;
            if (is_flag(x, "static"))
                l->is_static = 1;
        } else if (!strcmp(x, "-Bdynamic") || !strcmp(x, "-dy") || !strcmp(x, "-call_shared")) {
            bstatic = 0;
        } else if (is_flag(x, "push-state")) {
            if (depth < 16)
                stack[depth] = bstatic;
            depth++;
        } else if (is_flag(x, "pop-state")) {
            if (depth > 0 && --depth < 16)
                bstatic = stack[depth];
        } else if (is_flag(x, "shared") || is_flag(x, "Bshareable")) {
            l->shared = 1;
        } else if (!strcmp(x, "-r") || !strcmp(x, "-i") || !strcmp(x, "-Ur") ||
                   is_flag(x, "relocatable")) {
            l->final_link = 0;
        } else if (is_flag(x, "help") || is_flag(x, "version")) {
            l->final_link = 0; /* ld prints and exits */
        } else if (is_flag(x, "build-id") || !strncmp(x, "--build-id=", 11)) {
            l->has_build_id = 1;
        } else if (!strcmp(x, "-plugin") && next) {
            const char *base = strrchr(next, '/');
            if (!strncmp(base ? base + 1 : next, "liblto_plugin", 13))
                l->lto_plugin = 1;
        }
        if (sep && i == here)
            i++; /* the option's value */
    }
    if (nfiles == 0)
        l->final_link = 0; /* ld -v: nothing to link */
    if (!l->runtime_at)
        l->runtime_at = first_lc ? first_lc : n;
    if (!have_output && l->final_link) {
        l->output = "a.out";
        pild_argv_push(&l->rec, "-o");
        pild_argv_push(&l->rec, "a.out");
        l->out_argi = l->rec.n - 1;
        l->out_prefix = "";
    }
    return 0;
}

void pild_ldline_add_runtime(struct pild_link *l, const char *path)
{
    push_input(l, PILD_IN_RUNTIME, path, PI_NONE, 0);
    l->inputs[l->ninputs - 1].path = realpath(path, NULL);
}

char **pild_ldline_argv(const struct pild_link *l, const char *out, char **add, size_t nadd)
{
    struct pild_argv r = {0};
    for (size_t i = 0; i <= l->rec.n; i++) {
        if (i == l->runtime_at)
            for (size_t k = 0; k < nadd; k++)
                pild_argv_push(&r, add[k]);
        if (i == l->rec.n)
            break;
        const char *x = l->rec.v[i];
        if (i > 0 && !strncmp(x, "--pi-", 5))
            continue;
        if (out && i == l->out_argi) {
            char *s = pild_xasprintf("%s%s", l->out_prefix, out);
            pild_argv_push(&r, s);
            free(s);
        } else {
            pild_argv_push(&r, x);
        }
    }
    if (out && !l->has_build_id)
        pild_argv_insert(&r, 1, "--build-id");
    return r.v;
}
