/* stage.c — the link stage: `perfinst-ld --pi-collect2 COLLECT2-ARGS`.
 *
 * perfinst.specs makes gcc's driver run this in place of collect2
 * (`*linker:`), so every link of a build that has `pkg-config --libs
 * perfinst` in its flags — configure's and CMake's test links included —
 * comes here with ld's command line:
 *
 * 1. find the real collect2 (COMPILER_PATH, which gcc set; else
 *    `$COLLECT_GCC -print-prog-name=collect2`); a command line that does
 *    not link (-r, --version, no input) goes to it unchanged;
 * 2. resolve, hash and read the inputs (inputs.c): corrupt or conflicting
 *    metadata is refused naming the input; objects with perfinst units
 *    compiled without -fPIC in a -shared link, and -flto objects compiled
 *    with the plugin when this link runs without it, are refused with what
 *    to do instead of ld's relocation error or a silent loss of code ranges;
 * 3. add libperfinst only when an input refers to it (or --pi-runtime;
 *    libperfinst-line.a when it refers only to a repaired build's
 *    allocators, __perfinst_line_*):
 *    `-rpath LIBDIR --push-state --no-as-needed LIBDIR/libperfinst.so
 *    --pop-state`, or LIBDIR/libperfinst.a (--pi-static-runtime, -static),
 *    just before gcc's libgcc/libc sequence (ldline.c); --as-needed for
 *    -flto objects compiled with the plugin, whose code is made during the
 *    link; --build-id if the command line has none;
 * 4. run collect2 with the output replaced by TMP, a file in a fresh
 *    directory beside the output (same file system, same base name;
 *    common/piout.h, which puts it in TMPDIR for an output that is a device
 *    or a FIFO) — twice when an object asks for its ordered functions'
 *    alignment (order-align=bolt: falign.c);
 * 5. read and validate what was linked (pi_meta_read, pi_meta_validate);
 * 6. append .perfinst.xlat (xlat.c) and .perfinst.link (recipe.c) to TMP
 *    (elfout.c), read it back, and only then rename TMP over the output
 *    (or write its bytes into a device or FIFO output).
 * Any failure removes TMP and leaves an existing output as it was.
 */
#include <errno.h>
#include <libelf.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pild.h"
#include "piout.h"

/* ---- the temporary output ------------------------------------------------- */

/* Made before the link starts; its file and directory go on any exit, also
 * by a signal. */
static struct pi_out tmp_out;

static void remove_tmp(void)
{
    pi_out_end(&tmp_out);
}

static void on_signal(int sig)
{
    pi_out_remove_tmp(&tmp_out);
    signal(sig, SIG_DFL);
    raise(sig);
}

static int make_tmp(const char *output)
{
    struct pi_err err;
    if (pi_out_begin(&tmp_out, output, ".perfinst-ld.", &err) == 0)
        return 0;
    pild_err("%s", err.msg);
    return -1;
}

/* ---- the real collect2 ----------------------------------------------------- */

static int is_self(const char *path)
{
    char *a = realpath(path, NULL), *b = realpath("/proc/self/exe", NULL);
    int same = a && b && !strcmp(a, b);
    free(a), free(b);
    return same;
}

/* Where gcc's driver found collect2 itself: its program prefixes, which it
 * passes as COMPILER_PATH; else ask the driver. */
static char *find_collect2(void)
{
    const char *cp = getenv("COMPILER_PATH");
    if (cp && *cp) {
        char *copy = pild_xstrdup(cp), *save = NULL;
        for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
            char *p = pild_xasprintf("%s%scollect2", d, d[strlen(d) - 1] == '/' ? "" : "/");
            if (access(p, X_OK) == 0 && !is_self(p)) {
                free(copy);
                return p;
            }
            free(p);
        }
        free(copy);
    }
    const char *gcc = getenv("COLLECT_GCC");
    if (gcc && *gcc) {
        char *out = pild_gcc_print(gcc, "-print-prog-name=collect2");
        if (out && out[0] == '/' && access(out, X_OK) == 0 && !is_self(out))
            return out;
        free(out);
    }
    pild_err(PILD_STAGE_FLAG " is perfinst's link stage, run by gcc's driver in place of "
             "collect2 (perfinst.specs: pkg-config --libs perfinst); collect2 was not found "
             "(COMPILER_PATH and COLLECT_GCC do not lead to it)");
    return NULL;
}

/* ---- what the link needs ------------------------------------------------------ */

/* gcc's options for this link load perfinst's plugin, which lto1 then
 * loads too. */
static int link_loads_plugin(void)
{
    const char *o = getenv("COLLECT_GCC_OPTIONS");
    return o && pild_options_load_plugin(o, strlen(o));
}

static int is_runtime(const struct pild_input *in)
{
    if (in->kind == PILD_IN_LIB && !strcmp(in->name, "perfinst"))
        return 1;
    const char *base = in->path ? strrchr(in->path, '/') : NULL;
    return base && (!strcmp(base, "/libperfinst.so") || !strcmp(base, "/libperfinst.a"));
}

static int scan_inputs(struct pild_link *l, struct pild_facts *f, int *runtime_given)
{
    for (size_t i = 0; i < l->ninputs; i++) {
        struct pild_input *in = &l->inputs[i];
        in->path = in->kind == PILD_IN_LIB ? pild_resolve_lib(in, l->libdirs, l->nlibdirs, NULL)
                                           : realpath(in->name, NULL);
        if (!in->path) {
            if (pild_verbose)
                pild_note("input %s%s not found; leaving it to the linker",
                          in->kind == PILD_IN_LIB ? "-l" : "", in->name);
            continue;
        }
        if (pild_verbose)
            pild_note("input %s%s: %s", in->kind == PILD_IN_LIB ? "-l" : "", in->name, in->path);
        if (is_runtime(in))
            *runtime_given = 1;
        const struct pild_input *same = NULL; /* -lgcc twice: read once */
        for (size_t k = 0; k < i && !same; k++)
            if (l->inputs[k].path && !strcmp(l->inputs[k].path, in->path))
                same = &l->inputs[k];
        if (same) {
            in->size = same->size, in->mtime_ns = same->mtime_ns, in->hash = same->hash;
            continue;
        }
        if (pild_stat_and_hash(in) != 0)
            return -1;
        if (in->kind != PILD_IN_SCRIPT &&
            pild_scan_file(in->path, in->kind == PILD_IN_LIB ? in->path : in->name, 1, f) != 0)
            return -1;
    }
    return pild_facts_conflicts(f);
}

/* Refuse, before linking, what would fail or lose information. */
static int check_inputs(const struct pild_link *l, const struct pild_facts *f)
{
    if (l->shared && f->tls_exec) {
        pild_err("%s: compiled without -fPIC, and linked into a shared library (-shared): its "
                 "perfinst counters use thread-local storage of the executable's model "
                 "(R_X86_64_TPOFF32), which a shared library cannot have; compile it with -fPIC",
                 f->tls_exec);
        return -1;
    }
    if (f->lto_perfinst && l->lto_plugin && !link_loads_plugin()) {
        pild_err("%s: compiled with -flto and the perfinst plugin, but this link runs without "
                 "the plugin: lto1, which compiles its code now, would leave out what the plugin "
                 "does there (the code ranges its counts are found by, a plan's block layout); "
                 "give the link the plugin too: -fplugin=%s/perfinst.so (pkg-config --libs "
                 "perfinst has it)", f->lto_perfinst, pild_plugindir());
        return -1;
    }
    return 0;
}

/* The arguments that link the runtime: 0, or -1 if it is not there.
 * as_needed: only if the linked code refers to it (-flto objects compiled
 * with the plugin, whose code lto1 makes during the link); after_libc:
 * those objects are a feedback rebuild's, so libc comes first (the
 * runtime's wrappers would otherwise make it needed).  line_only: the
 * inputs refer to nothing of perfinst but a repaired build's allocators
 * (__perfinst_line_*): libperfinst-line.a, those alone -- the repair adds no
 * runtime (start-up, interposed pthread_create) to the program. */
static int runtime_args(struct pild_link *l, const struct pild_opts *o, int as_needed, int after_libc,
                        int line_only, struct pild_argv *add)
{
    const char *libdir = pild_libdir();
    int is_static = o->static_runtime || l->is_static || line_only;
    char *path = line_only ? pild_xasprintf("%s/libperfinst-line.a", libdir)
                           : pild_xasprintf("%s/libperfinst.%s", libdir, is_static ? "a" : "so");
    if (access(path, R_OK) != 0) {
        pild_err("%s: %s (the runtime; PERFINST_LIB_DIR says where it is)", path,
                 strerror(errno));
        free(path);
        return -1;
    }
    if (is_static) {
        pild_argv_push(add, path);
        /* its helpers from libgcc (__cpu_indicator_init, __popcountdi2):
           -nostdlib leaves libgcc out unless the line names it */
        if (!l->has_libgcc)
            pild_argv_push(add, "-lgcc");
        /* a static program has no RTLD_NEXT: the runtime's pthread_create,
           pthread_join and execvpe call libc.a's, pulled in here
           (docs/runtime.md) */
        static const char *const pull[] = {"__pthread_create", "__pthread_join", "__execvpe"};
        for (size_t i = 0; l->is_static && !line_only && i < sizeof pull / sizeof pull[0]; i++) {
            pild_argv_push(add, "-u");
            pild_argv_push(add, pull[i]);
        }
    } else {
        /* --no-as-needed: --pi-runtime links it for a program that does not
           refer to it (PERFINST_SAMPLE, PERFINST_IDLE: docs/sampling-stacks.md) */
        pild_argv_push(add, "-rpath");
        pild_argv_push(add, libdir);
        pild_argv_push(add, "--push-state");
        pild_argv_push(add, as_needed ? "--as-needed" : "--no-as-needed");
        /* a feedback rebuild's: after libc, or the runtime's own malloc,
           read, poll and pthread_* (its wrappers) would make it needed,
           unversioned, for any code that calls them (a -shared -flto
           rebuild); not where lto1 may instrument (sharing=all: the
           wrappers must come first) */
        if (as_needed && after_libc && l->after_libc_at)
            l->runtime_at = l->after_libc_at;
        pild_argv_push(add, path);
        pild_argv_push(add, "--pop-state");
    }
    pild_ldline_add_runtime(l, path);
    free(path);
    return pild_stat_and_hash(&l->inputs[l->ninputs - 1]);
}

/* Is one of the link's files (not -l libraries) one that KIND says, by
 * its base name? */
static int links_file(const struct pild_link *l, int (*kind)(const char *base))
{
    for (size_t i = 0; i < l->ninputs; i++) {
        const char *b = strrchr(l->inputs[i].name, '/');
        if (l->inputs[i].kind == PILD_IN_FILE && kind(b ? b + 1 : l->inputs[i].name))
            return 1;
    }
    return 0;
}

static int is_libc(const char *b)
{
    return !strcmp(b, "libc.a") || !strncmp(b, "libc.so", 7);
}

/* the C start files: crt1.o and its variants (Scrt1.o, rcrt1.o, gcrt1.o), crt0.o */
static int is_start_file(const char *b)
{
    size_t n = strlen(b);
    return (n >= 6 && !strcmp(b + n - 6, "crt1.o")) || !strcmp(b, "crt0.o");
}

/* Does the link take the C library, which the runtime needs: a -lc (gcc
 * passes one unless -nostdlib or -nodefaultlibs), or libc named as a file? */
static int links_libc(const struct pild_link *l)
{
    return l->after_libc_at || links_file(l, is_libc);
}

/* ---- reading what was linked --------------------------------------------- */

/* The reader names the file it read, the temporary one: show the output. */
static void err_about_output(const char *what, const char *msg, const char *output)
{
    size_t n = strlen(tmp_out.tmp);
    if (strncmp(msg, tmp_out.tmp, n) == 0)
        pild_err("%s%s%s", what, output, msg + n);
    else
        pild_err("%s%s: %s", what, output, msg);
}

static int read_output(const char *output, struct pi_meta *m, const struct pild_facts *f)
{
    struct pi_err err;
    if (pi_meta_read(tmp_out.tmp, m, &err) != 0 || pi_meta_validate(m, &err) != 0) {
        err_about_output("refusing the metadata linked into ", err.msg, output);
        pild_facts_explain(f);
        pi_meta_free(m);
        return -1;
    }
    if (m->has_xlat || m->has_link) {
        pild_err("%s: the link already produced a %s section (an input carries one?); "
                 "refusing to write a second",
                 output, m->has_xlat ? PI_SECTION_XLAT : PI_SECTION_LINK);
        pi_meta_free(m);
        return -1;
    }
    return 0;
}

/* What was written reads back through the one reader and passes its
 * cross-checks (XLAT items against the sites, nunits). */
static int verify_output(const char *output)
{
    struct pi_meta m;
    struct pi_err err;
    if (pi_meta_read(tmp_out.tmp, &m, &err) != 0 || pi_meta_validate(&m, &err) != 0) {
        err_about_output("the output does not read back: ", err.msg, output);
        pi_meta_free(&m);
        return -1;
    }
    int ok = m.has_xlat && m.has_link;
    pi_meta_free(&m);
    if (!ok) {
        pild_err("%s: the reader does not see the " PI_SECTION_XLAT " and " PI_SECTION_LINK
                 " sections just written", output);
        return -1;
    }
    return 0;
}

/* ---- the stage ------------------------------------------------------------------- */

static int annotate(const struct pild_link *l, const struct pild_opts *o, uint32_t flags,
                    const struct pild_facts *f)
{
    struct pi_meta m;
    if (read_output(l->output, &m, f) != 0)
        return 1;
    struct pild_buf xlat = {0}, link = {0};
    int rc = pild_xlat_build(&m, o->line_size, &xlat, l->output);
    pi_meta_free(&m);
    if (rc == 0)
        rc = pild_recipe_build(l, flags, &link);
    if (rc == 0) {
        struct pild_section s[] = {
            {PI_SECTION_XLAT, xlat.p, xlat.len},
            {PI_SECTION_LINK, link.p, link.len},
        };
        rc = pild_elf_append(tmp_out.tmp, l->output, s, 2);
    }
    if (rc == 0)
        rc = verify_output(l->output);
    free(xlat.p), free(link.p);
    if (rc != 0)
        return 1;
    struct pi_err err;
    if (pi_out_commit(&tmp_out, &err) != 0) {
        pild_err("%s", err.msg);
        return 1;
    }
    return 0;
}

int pild_stage_main(int argc, char **argv)
{
    char *collect2 = find_collect2();
    if (!collect2)
        return 1;
    argv[1] = collect2; /* argv + 1: collect2's command line */
    struct pild_opts o = {0};
    struct pild_link l;
    if (pild_ldline_parse(argc - 1, argv + 1, &o, &l) != 0)
        return 1;
    if (!l.final_link) {
        char **run = pild_ldline_argv(&l, NULL, NULL, 0);
        if (pild_verbose)
            pild_show_command(run);
        execv(run[0], run);
        pild_err("cannot run %s: %s", run[0], strerror(errno));
        return 127;
    }
    if (elf_version(EV_CURRENT) == EV_NONE) {
        pild_err("libelf: %s", elf_errmsg(-1));
        return 1;
    }
    atexit(remove_tmp);
    static const int sigs[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        if (signal(sigs[i], on_signal) == SIG_IGN)
            signal(sigs[i], SIG_IGN); /* stay immune where the caller made us */

    struct pild_facts f = {.want_tls = l.shared};
    int runtime_given = 0;
    if (scan_inputs(&l, &f, &runtime_given) != 0 || check_inputs(&l, &f) != 0)
        return 1;
    if (f.unstaged)
        pild_note("%s has perfinst units but was linked without perfinst's link stage (it has no "
                  PI_SECTION_LINK "): its link had no -specs=%s/perfinst.specs, which libtool "
                  "before 2.4.7 leaves out of a shared library's link; its counts are read, but "
                  "pmopt plan --order and pmopt relink refuse it, and a program linked without "
                  "perfinst finds its counters' symbols undefined (docs/adopting.md, libtool)",
                  f.unstaged, pild_plugindir());
    struct pild_argv add = {0};
    uint32_t flags = 0;
    int maybe = !o.force_runtime && !f.uses_runtime && f.lto_perfinst && l.lto_plugin;
    int line_only = !o.force_runtime && !f.uses_runtime && !maybe && f.uses_line_alloc;
    if ((o.force_runtime || f.uses_runtime || maybe || line_only) && !runtime_given) {
        if (!links_libc(&l)) {
            pild_err("%s: %s needs perfinst's runtime, which needs the C library, and this link "
                     "leaves it out (-nostdlib or -nodefaultlibs without -lc): add -lc, or build "
                     "that code without perfinst's directives", l.output,
                     o.force_runtime ? "--pi-runtime" : f.uses_runtime ? f.uses_runtime
                                                      : maybe ? f.lto_perfinst : f.uses_line_alloc);
            return 1;
        }
        if (!line_only && !l.shared && !links_file(&l, is_start_file))
            pild_warn("%s: linked without the C start files (-nostartfiles, -nostdlib): its perfinst units "
                      "register from their constructors, which run only if its own start code "
                      "runs them (through __libc_start_main); if it does not, it counts nothing "
                      "and writes no trace", l.output);
        if (runtime_args(&l, &o, maybe, maybe && !f.lto_instrumented, line_only, &add) != 0)
            return 1;
        if (!line_only)
            flags = PI_LF_RUNTIME | (o.static_runtime || l.is_static ? PI_LF_STATIC_RUNTIME : 0);
        if (pild_verbose && line_only)
            pild_note("linking the repaired build's allocators alone (libperfinst-line.a): %s",
                      f.uses_line_alloc);
        else if (pild_verbose)
            pild_note("linking the runtime%s: %s", maybe ? " as needed" : "",
                      o.force_runtime ? "--pi-runtime" : maybe ? f.lto_perfinst : f.uses_runtime);
    } else if (pild_verbose) {
        pild_note(runtime_given ? "the runtime is among the inputs already"
                                : "no input refers to the runtime: not linked");
    }

    if (make_tmp(l.output) != 0)
        return 1;
    /* order-align=bolt: two links, the second with the padding that puts
       the ordered functions at multiples of 64 (falign.c) */
    int status = f.falign ? pild_falign_link(&l, &add, &f, tmp_out.tmp, tmp_out.dir)
                          : pild_run(pild_ldline_argv(&l, tmp_out.tmp, add.v, add.n));
    if (status != 0) {
        if (l.shared && f.tls_exec_member)
            pild_note("%s has perfinst units compiled without -fPIC, which a shared library "
                      "(-shared) cannot hold: compile it with -fPIC", f.tls_exec_member);
        return status;
    }
    pild_keep_temporaries(&l); /* (keep.c) */
    return annotate(&l, &o, flags, &f);
}
