/* main.c — perfinst-ld: the link driver, and the dispatch to the link stage.
 *
 *   perfinst-ld [--pi-OPTION...] -o prog a.o b.o -lm ...
 *
 * runs
 *
 *   CC -specs=PLUGINDIR/perfinst.specs [-fplugin=PLUGINDIR/perfinst.so]
 *      ARGS... [-Wl,--pi-OPTION...]
 *
 * with PERFINST_LIB_DIR set to where it found the runtime: the link goes
 * through the link stage exactly as a build's own links do with
 * `pkg-config --libs perfinst` (stage.c).  CC is --pi-cc, else
 * $PERFINST_CC, else gcc — or g++ when an input is C++ (a C++ source, or an
 * object or archive of the command line that refers to libstdc++ or the C++
 * ABI), so that C++ objects get g++'s libraries.  -fplugin is added for an
 * -flto link (lto1 must instrument what it compiles as cc1 did).  A command
 * line that does not link (-c, -r, -print-..., no inputs) goes to CC as is.
 *
 * `perfinst-ld --pi-collect2 ...` is the link stage itself (perfinst.specs
 * names it): pild_stage_main.
 */
#include <errno.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pild.h"

/* ---- where perfinst's files are ------------------------------------------ */

static int exists(const char *dir, const char *file)
{
    char *p = pild_xasprintf("%s/%s", dir, file);
    int r = access(p, F_OK) == 0;
    free(p);
    return r;
}

/* The directory of this binary (symlinks resolved). */
static char *self_dir(void)
{
    char *self = realpath("/proc/self/exe", NULL);
    if (!self)
        return pild_xstrdup(".");
    *strrchr(self, '/') = '\0';
    return self;
}

/* DIR/REL if it holds FILE (realpath'ed), else NULL. */
static char *beside(const char *dir, const char *rel, const char *file)
{
    char *p = pild_xasprintf("%s/%s", dir, rel);
    char *real = realpath(p, NULL);
    free(p);
    if (real && exists(real, file))
        return real;
    free(real);
    return NULL;
}

const char *pild_libdir(void)
{
    static char *dir;
    const char *env = getenv("PERFINST_LIB_DIR");
    if (env && *env)
        return env;
    if (!dir) {
        char *self = self_dir();
        dir = beside(self, "../lib", "libperfinst.so");
        if (!dir)
            dir = beside(self, "../lib", "libperfinst.a");
        if (!dir)
            dir = self;
        else
            free(self);
    }
    return dir;
}

const char *pild_plugindir(void)
{
    static char *dir;
    if (!dir) {
        char *self = self_dir();
        dir = beside(self, "../lib/perfinst", "perfinst.specs");
        if (!dir)
            dir = self;
        else
            free(self);
    }
    return dir;
}

/* ---- the link driver ------------------------------------------------------- */

/* What the command line's own inputs say (C++, -flto with the plugin):
 * objects and archives named, and -l libraries found in the -L directories
 * given (the system's are not the user's code). */
static void scan_cmdline_inputs(struct pild_cmd *c, struct pild_facts *f)
{
    for (size_t i = 0; i < c->ninputs; i++) {
        struct pild_input *in = &c->inputs[i];
        char *path = in->kind == PILD_IN_LIB ? pild_resolve_lib(in, c->libdirs, c->nlibdirs, NULL)
                                             : realpath(in->name, NULL);
        if (path)
            pild_scan_file(path, path, 0, f); /* unreadable: gcc will say so */
        free(path);
    }
}

static int driver_main(int argc, char **argv)
{
    struct pild_opts o = {0};
    struct pild_cmd c;
    int r = pild_cmdline_parse(argc, argv, &o, &c);
    if (r != 0)
        return r > 0 ? 0 : 2;
    struct pild_argv run = {0};
    if (!c.final_link) {
        pild_argv_push(&run, o.cc ? o.cc : "gcc");
        for (size_t i = 0; i < c.args.n; i++)
            pild_argv_push(&run, c.args.v[i]);
        if (pild_verbose)
            pild_show_command(run.v);
        execvp(run.v[0], run.v);
        pild_err("cannot run %s: %s", run.v[0], strerror(errno));
        return 127;
    }
    if (elf_version(EV_CURRENT) == EV_NONE) {
        pild_err("libelf: %s", elf_errmsg(-1));
        return 1;
    }
    struct pild_facts f = {0};
    scan_cmdline_inputs(&c, &f);
    int lto = f.lto_perfinst != NULL;
    for (size_t i = 0; i < c.args.n; i++)
        if (!strncmp(c.args.v[i], "-flto", 5))
            lto = 1;
    const char *cc = o.cc;
    if (!cc) {
        cc = c.cplusplus_source || f.cplusplus ? "g++" : "gcc";
        if (pild_verbose && strcmp(cc, "g++") == 0)
            pild_note("linking with g++: %s is C++", f.cplusplus ? f.cplusplus : "a source");
    }
    const char *pdir = pild_plugindir();
    char *specs = pild_xasprintf("%s/perfinst.specs", pdir);
    if (access(specs, R_OK) != 0) {
        pild_err("%s: %s (perfinst.specs, beside the plugin: make builds it)", specs,
                 strerror(errno));
        free(specs);
        return 1;
    }
    pild_argv_push(&run, cc);
    char *s = pild_xasprintf("-specs=%s", specs);
    pild_argv_push(&run, s);
    free(s);
    if (lto) {
        s = pild_xasprintf("-fplugin=%s/perfinst.so", pdir);
        pild_argv_push(&run, s);
        free(s);
    }
    for (size_t i = 0; i < c.args.n; i++)
        pild_argv_push(&run, c.args.v[i]);
    if (o.static_runtime)
        pild_argv_push(&run, "-Wl,--pi-static-runtime");
    if (o.force_runtime)
        pild_argv_push(&run, "-Wl,--pi-runtime");
    if (o.line_size != 64) {
        s = pild_xasprintf("-Wl,--pi-line-size=%u", o.line_size);
        pild_argv_push(&run, s);
        free(s);
    }
    if (pild_verbose)
        pild_argv_push(&run, "-Wl,--pi-verbose");
    /* the link stage finds the runtime where this driver did */
    setenv("PERFINST_LIB_DIR", pild_libdir(), 1);
    if (pild_verbose)
        pild_show_command(run.v);
    fflush(NULL);
    execvp(run.v[0], run.v);
    pild_err("cannot run %s: %s", run.v[0], strerror(errno));
    return 127;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], PILD_STAGE_FLAG) == 0)
        return pild_stage_main(argc, argv);
    return driver_main(argc, argv);
}
