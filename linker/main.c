/* main.c — perfinst-ld, the link driver.
 *
 *   perfinst-ld [--pi-OPTION...] -o prog a.o b.o -lm ...
 *
 * 1. check the inputs' .perfinst before linking (inputs.c), so that a bad
 *    object is named as such;
 * 2. run `gcc ARGS -o TMP -Wl,--build-id -L$LIBDIR -Wl,-rpath,$LIBDIR
 *    -lperfinst -pthread`, TMP being a file in a fresh directory beside the
 *    output (same file system, same base name; common/piout.h, which puts
 *    it in TMPDIR for an output that is a device or a FIFO);
 * 3. read and validate what was linked (pi_meta_read, pi_meta_validate);
 * 4. append .perfinst.xlat (xlat.c) and .perfinst.link (recipe.c) to TMP
 *    (elfout.c), read it back, and only then rename TMP over the output
 *    (or write its bytes into a device or FIFO output).
 * Any failure removes TMP and leaves an existing output as it was.  A command
 * line that does not link (-c, -r, -print-..., no inputs) goes to gcc as is.
 */
#include <errno.h>
#include <libelf.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pild.h"
#include "piout.h"

/* ---- the temporary output ------------------------------------------------- */

/* Made before the link starts (common/piout.h: beside the output, or in
 * TMPDIR for an output that is a device or a FIFO); its file and directory
 * go on any exit, also by a signal. */
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

/* ---- running gcc -------------------------------------------------------- */

static void show_command(char *const argv[])
{
    fprintf(stderr, PILD_NAME ": running");
    for (size_t i = 0; argv[i]; i++)
        fprintf(stderr, " %s", argv[i]);
    fputc('\n', stderr);
}

/* Exit status of argv: its own, or 128 + the signal that killed it. */
static int run(char *const argv[])
{
    if (pild_verbose)
        show_command(argv);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        pild_err("fork: %s", strerror(errno));
        return 1;
    }
    if (pid == 0) {
        execvp(argv[0], argv);
        pild_err("cannot run %s: %s", argv[0], strerror(errno));
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) {
            pild_err("waitpid: %s", strerror(errno));
            return 1;
        }
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* ---- where libperfinst is --------------------------------------------------- */

static int exists(const char *dir, const char *file)
{
    char *p = pild_xasprintf("%s/%s", dir, file);
    int r = access(p, F_OK) == 0;
    free(p);
    return r;
}

/* $PERFINST_LIB_DIR; else ../lib beside an installed binary; else the
 * binary's own directory (build/ holds perfinst-ld and libperfinst.so). */
static const char *find_libdir(const char *argv0)
{
    const char *env = getenv("PERFINST_LIB_DIR");
    if (env && *env)
        return env;
    char *self = realpath("/proc/self/exe", NULL);
    if (!self)
        self = realpath(argv0, NULL);
    if (!self)
        return ".";
    *strrchr(self, '/') = '\0';
    char *lib = pild_xasprintf("%s/../lib", self);
    char *real = realpath(lib, NULL);
    free(lib);
    if (real && (exists(real, "libperfinst.so") || exists(real, "libperfinst.a"))) {
        free(self);
        return real;
    }
    free(real);
    return self;
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

static int read_output(const char *output, struct pi_meta *m, const struct pild_seen *seen)
{
    struct pi_err err;
    if (pi_meta_read(tmp_out.tmp, m, &err) != 0 || pi_meta_validate(m, &err) != 0) {
        err_about_output("refusing the metadata linked into ", err.msg, output);
        pild_inputs_explain(seen);
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

/* ---- main ------------------------------------------------------------------ */

static int link_and_annotate(struct pild_cmd *c, const struct pild_opts *o)
{
    struct pild_seen seen = {0};
    if (pild_inputs_scan(c, o, &seen) != 0)
        return 1;

    if (make_tmp(c->output) != 0)
        return 1;
    char *real_arg = c->argv[c->out_argi];
    c->argv[c->out_argi] = pild_output_arg(c, tmp_out.tmp);
    int status = run(c->argv);
    free(c->argv[c->out_argi]);
    c->argv[c->out_argi] = real_arg; /* the recipe records the real output */
    if (status != 0)
        return status;

    struct pi_meta m;
    if (read_output(c->output, &m, &seen) != 0)
        return 1;
    struct pild_buf xlat = {0}, link = {0};
    int rc = pild_xlat_build(&m, o->line_size, &xlat, c->output);
    pi_meta_free(&m);
    if (rc == 0)
        rc = pild_recipe_build(c, &link);
    if (rc == 0) {
        struct pild_section s[] = {
            {PI_SECTION_XLAT, xlat.p, xlat.len},
            {PI_SECTION_LINK, link.p, link.len},
        };
        rc = pild_elf_append(tmp_out.tmp, c->output, s, 2);
    }
    if (rc == 0)
        rc = verify_output(c->output);
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

int main(int argc, char **argv)
{
    struct pild_opts o = {0};
    struct pild_cmd c;
    int r = pild_cmdline_parse(argc, argv, &o, &c);
    if (r != 0)
        return r > 0 ? 0 : 2;
    if (!c.final_link) {
        if (pild_verbose)
            show_command(c.argv);
        execvp(c.argv[0], c.argv);
        pild_err("cannot run %s: %s", c.argv[0], strerror(errno));
        return 127;
    }
    if (elf_version(EV_CURRENT) == EV_NONE) {
        pild_err("libelf: %s", elf_errmsg(-1));
        return 1;
    }
    o.libdir = find_libdir(argv[0]);
    pild_cmdline_finish(&c, &o);

    atexit(remove_tmp);
    static const int sigs[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        if (signal(sigs[i], on_signal) == SIG_IGN)
            signal(sigs[i], SIG_IGN); /* stay immune where the caller made us */
    return link_and_annotate(&c, &o);
}
