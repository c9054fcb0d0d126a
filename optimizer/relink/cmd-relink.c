/* pmopt relink PROG --feedback FILE -o OUT — replay the link recorded in
 * PROG (.perfinst.link, written by perfinst's link stage) with the
 * feedback's order-functions, order-data and reserve recommendations applied
 * (docs/layout.md "Relink").
 *
 *  1. PROG's recipe: refused when absent or of version 1 (a gcc-level
 *     recipe of the old perfinst-ld), when an input changed since the link
 *     (size or hash: named), when the link used its own -T script.
 *  2. The objects' sections (objscan.c): a function the plan places must
 *     have a section of its own (-ffunction-sections); one that has none is
 *     left where it is with a note, and the rest of the plan applied.
 *  3. How the linker that made PROG takes an order: GNU ld (bfd) a linker
 *     script, its default for that link mode (`ld --verbose MODE`) with the
 *     planned input sections inserted at the top of .text, .data, .bss and
 *     .rodata; gold a --section-ordering-file; lld a --symbol-ordering-file
 *     (neither can place a reserved region: skipped with a note).
 *  4. The link stage (perfinst-ld --pi-collect2) with the recorded collect2
 *     arguments, environment and working directory plus the order, into a
 *     temporary directory beside OUT; the result is checked (the functions
 *     at increasing addresses in the planned order, overflow functions in
 *     their window), then optionally run against PROG on a smoke input
 *     (stdout and exit status compared), and renamed over OUT (or written
 *     into OUT when it is a FIFO or a device: common/piout.h).  Any failure
 *     removes the temporary: OUT is never half-written.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <getopt.h>
#include <libelf.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dcolour.h"
#include "layout.h"
#include "pifd.h"
#include "piformat.h"
#include "pifeedback.h"
#include "piout.h"
#include "commands.h"
#include "pmopt.h"

#define TMPDIR_TAG "/.pmopt-relink." /* the directory's name: "/" and pi_out_begin's tag */

static void help(FILE *f)
{
    fprintf(f,
            "usage: pmopt relink PROG --feedback FILE -o OUT [--only LIST] [--smoke 'ARGS']\n"
            "                    [--keep-script FILE] [--no-hot-rest] [--no-clones] [--place-sorted]\n"
            "                    [--pad-front=N] [--no-model-check] [--force] [--verbose]\n"
            "Replay the link recorded in PROG (perfinst's link stage: pkg-config --libs\n"
            "perfinst, or perfinst-ld) placing the functions and data objects of the feedback\n"
            "file's order-functions, order-data, reserve and reserve-data recommendations\n"
            "(pmopt plan --order): a linker script for GNU ld, an ordering file for gold and\n"
            "lld.  The objects must have been compiled with -ffunction-sections\n"
            "-fdata-sections; a function without a section of its own stays where it is.\n"
            "  --feedback FILE      the plan (pmopt plan --order=ALG -o FILE)\n"
            "  -o, --output OUT     the relinked program (written atomically)\n"
            "  --only LIST          apply only these recommendations (1,3,5-7)\n"
            "  --smoke 'ARGS'       run PROG and OUT with ARGS (shell words); refuse OUT\n"
            "                       unless stdout and exit status are the same\n"
            "  --keep-script FILE   also write the generated linker script to FILE\n"
            "  --no-clones          place a planned F only under its own name, not as its\n"
            "                       GCC clone F.isra.N/F.constprop.N/F.part.N (default)\n"
            "  --place-sorted       place the order again at the top of .text in a program\n"
            "                       that already has it (the rebuild's .text.sorted\n"
            "                       sections), or another plan's order (with a plan of\n"
            "                       pmopt plan --rebuild); by default such a program keeps\n"
            "                       .text as linked (a reserve or cold list is skipped)\n"
            "  --pad-front=BYTES    BYTES of padding before the planned functions: shifts\n"
            "                       the layout after them (to measure its sensitivity)\n"
            "  --no-hot-rest        leave the hot-tier functions the plan does not name\n"
            "                       (.text.hot.*) where ld's default puts them, after the\n"
            "                       .text.unlikely parts (default: right after the plan's)\n"
            "  --no-model-check     apply the data order even when the plan's data model\n"
            "                       (order-data's weights= and dcache=) does not predict\n"
            "                       the relinked program to miss less than PROG\n"
            "  --force              apply a plan made for another program (another\n"
            "                       build-id) instead of refusing it\n"
            "  --verbose            show the commands run\n"
            "PERFINST_LD names perfinst-ld, the link stage (default: beside pmopt, then PATH).\n");
}

/* ---- temporary directory, removed on any exit path ----------------------- */

/* OUT's temporary directory (common/piout.h: beside OUT, or in TMPDIR when
 * OUT is a device or a FIFO) holds the relinked program, the script and
 * the probe.  File-scope because the signal handler removes them; the
 * rest of the relink's state is a struct relink passed down. */
static struct pi_out g_out;
static char *g_tmpdir; /* g_out.dir */
static char *g_tmpfiles[8];

static void remove_tmpfiles(void)
{
    for (size_t i = 0; i < sizeof g_tmpfiles / sizeof g_tmpfiles[0]; i++)
        if (g_tmpfiles[i])
            unlink(g_tmpfiles[i]);
}

static void cleanup(void)
{
    remove_tmpfiles();
    memset(g_tmpfiles, 0, sizeof g_tmpfiles);
    pi_out_end(&g_out);
    g_tmpdir = NULL;
}

static void on_signal(int sig)
{
    remove_tmpfiles();
    pi_out_remove_tmp(&g_out);
    signal(sig, SIG_DFL);
    raise(sig);
}

static char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    char *s;
    va_start(ap, fmt);
    if (vasprintf(&s, fmt, ap) < 0)
        s = NULL;
    va_end(ap);
    if (!s) {
        pm_error("out of memory");
        exit(PM_ERROR);
    }
    return s;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* Run argv (in dir if not NULL, with the "NAME=VALUE" strings of env set if
 * not NULL); stdout into *out (malloc'd, *outlen) when out is not NULL.
 * Returns the exit status, 128 + signal, or -1 if it could not run. */
static int run(char *const argv[], const char *dir, char *const *env, int verbose, char **out,
               size_t *outlen, int quiet_stderr)
{
    if (verbose) {
        fprintf(stderr, "pmopt relink:");
        for (size_t i = 0; argv[i]; i++)
            fprintf(stderr, " %s", argv[i]);
        fprintf(stderr, "%s%s%s\n", dir ? "  (in " : "", dir ? dir : "", dir ? ")" : "");
    }
    int pfd[2] = { -1, -1 };
    if (out && pipe(pfd))
        return -1;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (out) {
            dup2(pfd[1], 1);
            close(pfd[0]);
            close(pfd[1]);
        }
        if (quiet_stderr) {
            int nul = open("/dev/null", O_WRONLY);
            if (nul >= 0)
                dup2(nul, 2);
        }
        if (dir && chdir(dir)) {
            fprintf(stderr, "pmopt: cannot enter %s: %s\n", dir, strerror(errno));
            _exit(127);
        }
        for (size_t i = 0; env && env[i]; i++)
            putenv(env[i]);
        if (out && !quiet_stderr)
            setenv("PERFINST_OUT", "/dev/null", 1); /* a smoke run's trace is not wanted */
        execvp(argv[0], argv);
        fprintf(stderr, "pmopt: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    if (out) {
        close(pfd[1]);
        *out = pi_read_fd(pfd[0], outlen);
        close(pfd[0]);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* ---- the recipe ---------------------------------------------------------- */

struct recipe {
    char **args;   /* NULL-terminated: what relink runs (perfinst-ld --pi-collect2 ...) */
    size_t nargs, cap;
    char **env;    /* the recorded environment, "NAME=VALUE" */
    size_t nenv, envcap;
    const char *cc, *cwd; /* COLLECT_GCC (it names ld); the working directory */
    int out_i;     /* index in args of the output argument */
    const char *out_prefix;
    int res_i;     /* index in args of -plugin-opt=-fresolution=FILE, or -1 */
    char **mode;   /* ld's options that choose its default script */
    size_t nmode, modecap;
    const char *fuse_ld; /* collect2's -fuse-ld=X, or NULL */
    char **own;    /* the strings of args relink made (the others are m's) */
    size_t nown, owncap;
};

static void push(char ***v, size_t *n, size_t *cap, char *s)
{
    if (pi_grow((void **)v, cap, *n + 1, sizeof **v)) {
        pm_error("out of memory");
        exit(PM_ERROR);
    }
    (*v)[(*n)++] = s;
    (*v)[*n] = NULL;
}

/* S, which RC frees with it. */
static char *owned(struct recipe *rc, char *s)
{
    push(&rc->own, &rc->nown, &rc->owncap, s);
    return s;
}

static void recipe_free(struct recipe *rc)
{
    for (size_t i = 0; i < rc->nown; i++)
        free(rc->own[i]);
    free(rc->own), free(rc->args), free(rc->mode), free(rc->env);
}

static const char *link_str(const struct pi_meta *m, uint32_t off)
{
    return off < m->link.strtab_size ? m->link_strtab + off : "";
}

/* ld's own argument for its own script: a file in an earlier relink's
 * temporary directory, dropped on the replay. */
static int earlier_relink(const char *a)
{
    return a && strstr(a, TMPDIR_TAG) != NULL;
}

/* ld options (one or two dashes) that name a linker script or an order. */
static const char *script_option(const char *a, const char *next, int *two)
{
    static const char *const names[] = {"T", "script", "dT", "default-script",
                                        "section-ordering-file", "symbol-ordering-file"};
    *two = 0;
    if (a[0] != '-')
        return NULL;
    const char *n = a + 1 + (a[1] == '-');
    if (!strncmp(a, "-T", 2) && a[2] && strncmp(a, "-Ttext", 6) && strncmp(a, "-Tdata", 6) &&
        strncmp(a, "-Tbss", 5) && strncmp(a, "-Trodata", 8) && strncmp(a, "-Tldata", 7))
        return a + 2; /* -TFILE */
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t l = strlen(names[i]);
        if (!strncmp(n, names[i], l) && n[l] == '=')
            return n + l + 1;
        if (!strcmp(n, names[i]) && next)
            return *two = 1, next;
    }
    return NULL;
}

/* ld options that only describe the link, written to a file of their own or
 * printed: the map (-Map FILE, -M), --verbose, --trace, --cref.  The replay
 * leaves them out: BusyBox's scripts/trylink links with `-Wl,-Map,
 * busybox_unstripped.map -Wl,--verbose`, and each relink overwrote the
 * program's map with the relinked copy's and printed ld's default script
 * and every file it tried (1,200 lines).  1 (and *two: it takes the next
 * argument) for such an option. */
static int listing_option(const char *a, const char *next, int *two)
{
    static const char *const alone[] = {"-M", "--print-map", "--verbose", "-t", "--trace",
                                        "--cref", "-cref"};
    *two = 0;
    if ((!strcmp(a, "-Map") || !strcmp(a, "--Map")) && next)
        return *two = 1, 1;
    if (!strncmp(a, "-Map=", 5) || !strncmp(a, "--Map=", 6) || !strncmp(a, "--verbose=", 10))
        return 1;
    for (size_t i = 0; i < sizeof alone / sizeof alone[0]; i++)
        if (!strcmp(a, alone[i]))
            return 1;
    return 0;
}

/* The recorded collect2 command line, to run through the link stage again
 * (perfinst-ld --pi-collect2, which adds the runtime again when the inputs
 * need it); -1 after a message. */
static int read_recipe(const struct pi_meta *m, const char *prog, const char *pild,
                       struct recipe *rc)
{
    memset(rc, 0, sizeof *rc);
    rc->out_i = rc->res_i = -1;
    if (m->link.level != PI_LINK_COLLECT2) {
        pm_error("%s: its link recipe is version 1, recorded by perfinst-ld before perfinst's link "
                 "stage (a gcc command line): link %s again (pkg-config --libs perfinst, or "
                 "perfinst-ld) to relink it", prog, prog);
        return -1;
    }
    uint32_t argc = m->link.argc;
    const char **argv = calloc(argc + 1, sizeof *argv);
    if (!argv)
        return rep_oom();
    uint32_t off = m->link.argv;
    for (uint32_t i = 0; i < argc; i++) {
        argv[i] = link_str(m, off);
        off += (uint32_t)strlen(argv[i]) + 1;
    }
    /* an input perfinst-ld kept for gcc's temporary object (linker/keep.c):
       the copy where the command line named the temporary */
    for (uint32_t i = 0; i < m->link.ninputs; i++) {
        const char *p = link_str(m, m->inputs[i].path);
        if (m->inputs[i].argi < argc && strstr(p, "/.perfinst-objs/"))
            argv[m->inputs[i].argi] = p;
    }
    off = m->link.env;
    size_t envcap = 0;
    for (uint32_t i = 0; i < m->link.nenv; i++) {
        const char *e = link_str(m, off);
        push(&rc->env, &rc->nenv, &envcap, (char *)e);
        if (!strncmp(e, "COLLECT_GCC=", 12))
            rc->cc = e + 12;
        off += (uint32_t)strlen(e) + 1;
    }
    if (!rc->cc)
        rc->cc = "gcc";
    rc->cwd = link_str(m, m->link.cwd);
    push(&rc->args, &rc->nargs, &rc->cap, (char *)pild);
    push(&rc->args, &rc->nargs, &rc->cap, "--pi-collect2");
    for (uint32_t i = 1; i < argc; i++) {
        const char *a = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
        int two;
        if (listing_option(a, next, &two)) {
            i += (uint32_t)two;
            continue;
        }
        const char *sc = script_option(a, next, &two);
        if (sc && earlier_relink(sc)) {
            i += (uint32_t)two; /* the script or order of an earlier relink */
            continue;
        }
        if (sc) {
            pm_error("%s was linked with a linker script or order of its own (%s%s%s): relink "
                     "generates them and cannot combine them with yours", prog, a,
                     two ? " " : "", two ? next : "");
            free(argv);
            return -1;
        }
        if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && next) {
            push(&rc->args, &rc->nargs, &rc->cap, (char *)a);
            rc->out_i = (int)rc->nargs, rc->out_prefix = "";
            push(&rc->args, &rc->nargs, &rc->cap, (char *)argv[++i]);
            continue;
        }
        if (!strncmp(a, "--output=", 9) || (!strncmp(a, "-o", 2) && a[2] && strcmp(a, "-oformat"))) {
            rc->out_i = (int)rc->nargs, rc->out_prefix = a[1] == 'o' ? "-o" : "--output=";
            push(&rc->args, &rc->nargs, &rc->cap, (char *)a);
            continue;
        }
        if (!strncmp(a, "-plugin-opt=-fresolution=", 25))
            rc->res_i = (int)rc->nargs;
        else if (!strncmp(a, "-fuse-ld=", 9))
            rc->fuse_ld = a + 9;
        else if ((!strcmp(a, "-m") || !strcmp(a, "-z")) && next) {
            push(&rc->mode, &rc->nmode, &rc->modecap, (char *)a);
            push(&rc->mode, &rc->nmode, &rc->modecap, (char *)next);
        } else if (!strcmp(a, "-pie") || !strcmp(a, "--pic-executable") || !strcmp(a, "-shared") ||
                   !strcmp(a, "-Bshareable") || !strcmp(a, "-static") ||
                   !strcmp(a, "--no-dynamic-linker") || !strcmp(a, "-N") || !strcmp(a, "-n") ||
                   !strcmp(a, "--omagic") || !strcmp(a, "--nmagic") || (!strncmp(a, "-m", 2) && a[2]) ||
                   (!strncmp(a, "-z", 2) && a[2])) {
            push(&rc->mode, &rc->nmode, &rc->modecap, (char *)a);
        }
        push(&rc->args, &rc->nargs, &rc->cap, (char *)a);
    }
    free(argv); /* argv's strings live in m's strtab */
    if (rc->out_i < 0) {
        pm_error("%s: the recorded link has no output argument", prog);
        return -1;
    }
    return 0;
}

/* An ELF shared object (ET_DYN): it gives the link symbols, not code. */
static int is_shared_object(const char *path)
{
    unsigned char h[18];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, h, sizeof h);
    close(fd);
    return n == (ssize_t)sizeof h && !memcmp(h, ELFMAG, SELFMAG) && h[EI_DATA] == ELFDATA2LSB &&
           (h[16] | h[17] << 8) == ET_DYN;
}

/* Inputs whose size or contents changed since the link, named.  A shared
 * object that changed (libperfinst.so after perfinst was rebuilt, a
 * library upgraded) is not stale: none of its code is placed, and the
 * relinked program links against the one there now, as a new link would
 * (said in a note). */
static int check_stale(const struct pi_meta *m, const char *prog)
{
    int bad = 0;
    for (uint32_t i = 0; i < m->link.ninputs; i++) {
        const struct pi_link_input *in = &m->inputs[i];
        const char *p = link_str(m, in->path);
        if (strstr(p, TMPDIR_TAG))
            continue;
        struct stat st;
        const char *why = NULL;
        pi_input_note(p); /* -o must not name one of the link's inputs */
        if (stat(p, &st))
            why = "is gone";
        else if ((uint64_t)st.st_size != in->size)
            why = "changed size";
        else {
            int fd = open(p, O_RDONLY);
            uint64_t h = PI_HASH64_INIT;
            char buf[65536];
            ssize_t r;
            if (fd < 0)
                why = "cannot be read";
            while (fd >= 0 && (r = read(fd, buf, sizeof buf)) > 0)
                h = pi_hash64(h, buf, (size_t)r);
            if (fd >= 0)
                close(fd);
            if (!why && h != in->hash)
                why = "changed contents";
        }
        if (why && strcmp(why, "is gone") && is_shared_object(p)) {
            pm_note("%s: shared object %s %s since the link; relinking against it as it is now",
                    prog, p, why);
        } else if (why) {
            pm_error("%s: input %s %s since the link (stale)", prog, p, why);
            bad++;
        }
    }
    if (bad)
        pm_error("%s: %d stale input%s: rebuild and link %s again before relinking it", prog,
                 bad, bad == 1 ? "" : "s", prog);
    return bad ? -1 : 0;
}

/* ---- the plan ------------------------------------------------------------- */

struct names {
    char **v;
    size_t n, cap;
};

static void names_free(struct names *nm)
{
    for (size_t i = 0; i < nm->n; i++)
        free(nm->v[i]);
    free(nm->v);
}

static void split_names(const char *list, struct names *out)
{
    if (!list)
        return;
    const char *p = list;
    while (*p) {
        const char *e = strchr(p, ',');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l)
            push(&out->v, &out->n, &out->cap, strndup(p, l));
        p += l + (e ? 1 : 0);
    }
}

static int in_names(const struct names *n, const char *s)
{
    for (size_t i = 0; i < n->n; i++)
        if (!strcmp(n->v[i], s))
            return 1;
    return 0;
}

struct relink_plan {
    struct names funcs, objects, overflow;
    struct names cold;      /* order-functions cold=: their .text.unlikely parts */
    int have_reserve;
    struct reserve rv;
    uint32_t applied, ignored, rebuild;
    int loop;               /* the file has rebuild kinds (pmopt plan --order --rebuild), selected or not */
    uint64_t *dweights;     /* order-data weights=: the plan's modelled accesses per object */
    size_t ndweights, dwcap;
    char *dcache;           /* order-data dcache=: the geometry the plan modelled */
    struct names doverflow; /* reserve-data (dcolour.h) */
    int have_dreserve;
    struct reserve drv;
    char *other;            /* made for another build: "PROGRAM, build-id HEX" (plan_is_for) */
};

/* What cmd_relink hands to the script's writers and to verify: options
 * and what it made of the plan. */
struct relink {
    unsigned long pad_front; /* --pad-front=BYTES: a measurement aid */
    int no_hot_rest;         /* --no-hot-rest: the unplanned .text.hot where ld's default puts it */
    int no_clones;           /* --no-clones: a planned F absent from the objects is not matched to F.isra.N */
    int place_sorted;        /* --place-sorted: the rebuild's .text.sorted order placed again */
    int no_model_check;      /* --no-model-check: the data order applied without the check */
    /* data colouring (reserve-data): the pieces and their offsets */
    struct dc_item *dc;
    size_t ndc;
    const struct reserve *drv;
    /* the cold parts placed right after the planned functions; cold_sym[i]:
     * the symbol at cold part i's start (NAME.cold, or NAME for a function
     * wholly cold) */
    struct piece *cold;
    char **cold_sym;
    size_t ncold;
};

static void plan_free(struct relink_plan *pl)
{
    free(pl->other), free(pl->dweights), free(pl->dcache);
    names_free(&pl->funcs), names_free(&pl->objects), names_free(&pl->overflow);
    names_free(&pl->cold), names_free(&pl->doverflow);
}

/* Whose plan it is: PROG's (its build-id), or another build's (pl->other,
 * judged once the names are matched: plan_matches). */
static int plan_is_for(const struct pifb_file *fb, const char *path, const struct pi_meta *m,
                       const char *prog, struct relink_plan *pl)
{
    char hex[2 * PI_BUILD_ID_MAX + 1];
    pi_build_id_hex(m->build_id, m->build_id_len, hex);
    if (!fb->build_id) {
        pm_note("%s does not record its program's build-id (an older pmopt plan made it): not "
                "checked against %s", path, prog);
        return 0;
    }
    if (!strcmp(fb->build_id, hex))
        return 0;
    if (asprintf(&pl->other, "%s, build-id %s", fb->program ? fb->program : "a program",
                 fb->build_id) < 0) {
        pl->other = NULL;
        return rep_oom();
    }
    return 0;
}

/* A plan made for another build: the rebuild loop relinks the rebuilt
 * program with the training build's plan (docs/layout.md), whose names
 * are mostly found; a plan of another program finds almost none.  Refused
 * when fewer than half of the planned functions and objects are in PROG's
 * objects, unless --force. */
static int plan_matches(const struct relink_plan *pl, const char *path, const struct pi_meta *m,
                        const char *prog, size_t found, size_t planned, int force)
{
    if (!pl->other)
        return 0;
    char hex[2 * PI_BUILD_ID_MAX + 1];
    pi_build_id_hex(m->build_id, m->build_id_len, hex);
    if (2 * found >= planned && found) {
        pm_note("%s was made for another build (%s): %zu of its %zu functions and objects are "
                "in %s", path, pl->other, found, planned, prog);
        return 0;
    }
    if (!force) {
        pm_error("%s was made for another program: %s; %s has build-id %s and only %zu of the "
                 "plan's %zu functions and objects (--force applies it anyway)", path, pl->other,
                 prog, m->build_id_len ? hex : "none", found, planned);
        return -1;
    }
    pm_note("%s was made for another program (%s): applied to %s anyway (--force)", path,
            pl->other, prog);
    return 0;
}

/* order-data's weights= (one decimal per object of its objects=, appended
 * to pl->dweights): 0, or -1 after a message naming the record. */
static int read_weights(const char *path, const struct pifb_rec *r, const char *w, size_t nobj,
                        struct relink_plan *pl)
{
    size_t n = 0;
    for (const char *p = w; *p; n++) {
        char *e;
        errno = 0;
        unsigned long long v = strtoull(p, &e, 10);
        if (e == p || errno || (*e && *e != ',') || *p == '-') {
            pm_error("%s:%u: recommendation %u (order-data): weights= is not a list of "
                     "decimal counts", path, r->line, r->number);
            return -1;
        }
        if (pi_grow((void **)&pl->dweights, &pl->dwcap, pl->ndweights,
                    sizeof *pl->dweights))
            return rep_oom(), -1;
        pl->dweights[pl->ndweights++] = v;
        p = *e ? e + 1 : e;
    }
    if (n != nobj) {
        pm_error("%s:%u: recommendation %u (order-data): %zu weights for %zu objects", path,
                 r->line, r->number, n, nobj);
        return -1;
    }
    return 0;
}

static int read_plan(const char *path, const char *only, const struct pi_meta *m,
                     const char *prog, struct relink_plan *pl)
{
    struct pifb_file fb;
    struct pi_err err;
    memset(&fb, 0, sizeof fb);
    if (pifb_read(path, &fb, &err)) {
        pm_error("%s", err.msg);
        pifb_free(&fb);
        return -1;
    }
    for (uint32_t i = 0; i < fb.nrecs; i++)
        if (pifb_kind(fb.recs[i].kind) && pifb_kind(fb.recs[i].kind)->loop == PIFB_REBUILD)
            pl->loop = 1;
    if (only && pifb_select(&fb, only, &err)) {
        pm_error("%s", err.msg);
        pifb_free(&fb);
        return -1;
    }
    if (plan_is_for(&fb, path, m, prog, pl)) {
        pifb_free(&fb);
        return -1;
    }
    int status = 0;
    for (uint32_t i = 0; i < fb.nrecs && !status; i++) {
        const struct pifb_rec *r = &fb.recs[i];
        if (!strcmp(r->kind, PIFB_ORDER_FUNCTIONS)) {
            split_names(pifb_get(r, "functions"), &pl->funcs);
            split_names(pifb_get(r, "cold"), &pl->cold);
            pl->applied++;
        } else if (!strcmp(r->kind, PIFB_ORDER_DATA)) {
            size_t before = pl->objects.n;
            split_names(pifb_get(r, "objects"), &pl->objects);
            const char *w = pifb_get(r, "weights"), *g = pifb_get(r, "dcache");
            if (w && (status = read_weights(path, r, w, pl->objects.n - before, pl)))
                break;
            if (g) {
                free(pl->dcache);
                pl->dcache = strdup(g);
            }
            pl->applied++;
        } else if (!strcmp(r->kind, PIFB_RESERVE)) {
            uint64_t pg, win, sz;
            if (pifb_get_u64(r, "page", &pg) || pifb_get_u64(r, "window", &win) ||
                pifb_get_u64(r, "size", &sz) || !pg || pg > (1u << 20) || (pg & (pg - 1)) ||
                win >= pg || !sz || win + sz > pg) {
                pm_error("%s:%u: recommendation %u (reserve): page, window and size must "
                         "describe a window inside a power-of-two page", path, r->line,
                         r->number);
                status = -1;
                break;
            }
            pl->rv = (struct reserve){ (uint32_t)pg, (uint32_t)win, (uint32_t)sz };
            pl->have_reserve = 1;
            split_names(pifb_get(r, "overflow"), &pl->overflow);
            pl->applied++;
        } else if (!strcmp(r->kind, PIFB_RESERVE_DATA)) {
            uint64_t pg, win, sz;
            if (pifb_get_u64(r, "page", &pg) || pifb_get_u64(r, "window", &win) ||
                pifb_get_u64(r, "size", &sz) || !pg || pg > (1u << 20) || (pg & (pg - 1)) ||
                win >= pg || !sz || win + sz > pg) {
                pm_error("%s:%u: recommendation %u (reserve-data): page, window and size must "
                         "describe a window inside a power-of-two page", path, r->line,
                         r->number);
                status = -1;
                break;
            }
            pl->drv = (struct reserve){ (uint32_t)pg, (uint32_t)win, (uint32_t)sz };
            pl->have_dreserve = 1;
            split_names(pifb_get(r, "overflow"), &pl->doverflow);
            pl->applied++;
        } else if (pifb_kind(r->kind) && pifb_kind(r->kind)->loop == PIFB_REBUILD) {
            pl->rebuild++; /* the plugin's (pmopt plan --order --rebuild): one note below */
        } else {
            pm_note("%s:%u: recommendation %u (%s) is not one relink applies; ignored", path,
                    r->line, r->number, r->kind);
            pl->ignored++;
        }
    }
    if (pl->rebuild)
        pm_note("%s: %u recommendation%s of the rebuild loop (branch-profile, function-tier, promote-call) "
                "skipped: the plugin applies them when compiling (-fplugin-arg-perfinst-feedback)",
                path, pl->rebuild, pl->rebuild == 1 ? "" : "s");
    pifb_free(&fb);
    return status;
}

/* ---- the script ------------------------------------------------------------ */

struct piece {           /* one function or object: every section of its name */
    const char *sym;
    uint64_t size, align;
    char **secs;         /* distinct section names */
    size_t nsecs, cap;
    int either;          /* the link may keep a wholly cold copy of it (either_copy) */
};

static void pieces_free(struct piece *p, size_t n)
{
    for (size_t i = 0; p && i < n; i++)
        free(p[i].secs);
    free(p);
}

/* Section o joins piece p (its name once; its size after p's, aligned). */
static void piece_add(struct piece *p, const struct osec *o)
{
    int dup = 0;
    for (size_t k = 0; k < p->nsecs && !dup; k++)
        dup = !strcmp(p->secs[k], o->name);
    if (!dup)
        push(&p->secs, &p->nsecs, &p->cap, o->name);
    p->size = (p->size + o->align - 1) / o->align * o->align + o->size;
    if (o->align > p->align)
        p->align = o->align;
}

static void piece_of(const struct oscan *s, const char *sym, int text, struct piece *p)
{
    memset(p, 0, sizeof *p);
    p->sym = sym;
    p->align = 1;
    for (size_t i = 0; i < s->nsecs; i++) {
        const struct osec *o = &s->secs[i];
        if (o->cold || strcmp(o->sym, sym) || (text != (o->kind == OS_TEXT)))
            continue;
        if (!text && !strncmp(o->name, ".data.rel.ro", 12))
            continue; /* relro data stays where the default script puts it */
        piece_add(p, o);
    }
}

/* Is sym a data object of the link in relro data (.data.rel.ro*, which
 * piece_of leaves where the default script puts it)? */
static int in_relro(const struct oscan *s, const char *sym)
{
    for (size_t i = 0; i < s->nsecs; i++) {
        const struct osec *o = &s->secs[i];
        if (o->kind != OS_TEXT && !strcmp(o->sym, sym) && !strncmp(o->name, ".data.rel.ro", 12))
            return 1;
    }
    return 0;
}

/* The cold part of sym (order-functions cold=): its .text.unlikely.sym
 * sections (or the rebuild's .text.sorted cold parts, oscan_cold_part).
 * Its symbol is sym.cold when sym has a hot part (GCC's partitioning),
 * else sym (a whole function in the cold section). */
static void cold_piece_of(const struct oscan *s, const char *sym, struct piece *p)
{
    memset(p, 0, sizeof *p);
    p->sym = sym;
    p->align = 1;
    for (size_t i = 0; i < s->nsecs; i++) {
        const struct osec *o = &s->secs[i];
        if (!oscan_cold_part(o) || strcmp(o->sym, sym))
            continue;
        piece_add(p, o);
    }
}


/* Is sym's code all in a cold text section of the link's objects (a
 * function compiled cold, or a COMDAT whose kept copy was: its other
 * copies, not in the program, are not in s)? */
static int cold_whole(const struct oscan *s, const char *sym)
{
    for (size_t i = 0; i < s->nsecs; i++)
        if (s->secs[i].kind == OS_TEXT && s->secs[i].cold && !strcmp(s->secs[i].sym, sym))
            return 1;
    return 0;
}

/* The GCC clone of a planned function the objects hold under another
 * name: F absent, `F.isra.N`, `F.constprop.N`, `F.part.N` or
 * `F.lto_priv.N` present (the plan's profile came from a build that
 * cloned differently, e.g. the counted rebuild; docs/layout.md "Relink").
 * The first such non-cold text section (the lowest name, so the choice
 * does not depend on the objects' order); NULL if none. */
static const char *clone_of(const struct oscan *s, const char *sym)
{
    static const char *const sfx[] = { "isra.", "constprop.", "part.", "lto_priv." };
    size_t l = strlen(sym);
    const char *best = NULL;
    for (size_t i = 0; i < s->nsecs; i++) {
        const struct osec *o = &s->secs[i];
        if (o->cold || o->kind != OS_TEXT || strncmp(o->sym, sym, l) || o->sym[l] != '.')
            continue;
        for (size_t k = 0; k < sizeof sfx / sizeof *sfx; k++)
            if (!strncmp(o->sym + l + 1, sfx[k], strlen(sfx[k])) &&
                (!best || strcmp(o->sym, best) < 0))
                best = o->sym;
    }
    return best;
}

static void put_piece(FILE *f, const struct piece *p)
{
    fputs("    *(", f);
    for (size_t k = 0; k < p->nsecs; k++)
        fprintf(f, "%s%s", k ? " " : "", p->secs[k]);
    fputs(")\n", f);
}

/* The default script of this link mode, between ld's "=====" lines. */
/* The script between ld's "=====" lines of out (len bytes); NULL if none. */
static char *between_rules(char *out, size_t len)
{
    char *a = NULL, *b = NULL;
    for (char *p = out; p && p < out + len; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        if (!strncmp(p, "==================================================", 50)) {
            if (!a)
                a = strchr(p, '\n');
            else {
                b = p;
                break;
            }
        }
    }
    if (!a || !b)
        return NULL;
    *b = 0;
    return strdup(a + 1);
}

/* The default script of this link: GNU ld's `--verbose` with the recorded
 * options that choose it (the emulation, -pie/-shared/-static, every -z);
 * ld as the recorded gcc finds it (ld.bfd under -fuse-ld=bfd). */
static char *default_script(const struct recipe *rc, int verbose)
{
    char **argv = NULL;
    size_t n = 0, cap = 0;
    char *ldpath = NULL;
    size_t len = 0;
    char *q[] = { (char *)rc->cc,
                  rc->fuse_ld && !strcmp(rc->fuse_ld, "bfd") ? "-print-prog-name=ld.bfd"
                                                             : "-print-prog-name=ld",
                  NULL };
    if (run(q, NULL, NULL, verbose, &ldpath, &len, 1) || !ldpath || !len) {
        free(ldpath);
        return NULL;
    }
    ldpath[len - (ldpath[len - 1] == '\n')] = 0;
    push(&argv, &n, &cap, ldpath);
    push(&argv, &n, &cap, "--verbose");
    for (size_t i = 0; i < rc->nmode; i++)
        push(&argv, &n, &cap, rc->mode[i]);
    char *out = NULL;
    len = 0;
    run(argv, rc->cwd, rc->env, verbose, &out, &len, 1);
    free(argv);
    free(ldpath);
    char *sc = out ? between_rules(out, len) : NULL;
    free(out);
    return sc;
}

/* Which linker made PROG, from what it left in the file: gold its
 * .note.gnu.gold-version, lld and mold their names in .comment. */
enum linker { LK_BFD, LK_GOLD, LK_LLD, LK_OTHER };
static const char *const linker_names[] = { "GNU ld", "gold", "lld", "another linker" };

static enum linker linker_of(const char *prog)
{
    enum linker k = LK_BFD;
    int fd;
    Elf *e = pm_elf_open(prog, &fd);
    size_t shstr;
    if (e && !elf_getshdrstrndx(e, &shstr)) {
        Elf_Scn *scn = NULL;
        while ((scn = elf_nextscn(e, scn))) {
            GElf_Shdr sh;
            const char *nm;
            if (!gelf_getshdr(scn, &sh) || !(nm = elf_strptr(e, shstr, sh.sh_name)))
                continue;
            if (!strcmp(nm, ".note.gnu.gold-version")) {
                k = LK_GOLD;
                break;
            }
            Elf_Data *d;
            if (!strcmp(nm, ".comment") && (d = elf_getdata(scn, NULL)) && d->d_buf) {
                if (memmem(d->d_buf, d->d_size, "LLD ", 4)) /* "Linker: [Debian ]LLD 14" */
                    k = LK_LLD;
                else if (memmem(d->d_buf, d->d_size, "mold ", 5))
                    k = LK_OTHER;
            }
        }
    }
    pm_elf_close(e, fd);
    return k;
}

/* gold's --section-ordering-file: the planned input sections, one a line,
 * in order (the cold parts after them, then the rest of the hot tier);
 * lld's --symbol-ordering-file: the symbols at their starts. */
static void order_piece(FILE *f, enum linker k, const struct piece *p, const char *sym)
{
    if (k == LK_LLD)
        fprintf(f, "%s\n", sym);
    else
        for (size_t j = 0; j < p->nsecs; j++)
            fprintf(f, "%s\n", p->secs[j]);
}

static int write_order(const struct relink *rl, FILE *f, enum linker k, const struct piece *st,
                       size_t ns, const struct piece *dp, size_t nd)
{
    for (size_t i = 0; i < ns; i++)
        order_piece(f, k, &st[i], st[i].sym);
    for (size_t i = 0; i < rl->ncold; i++)
        order_piece(f, k, &rl->cold[i], rl->cold_sym[i]);
    if (k == LK_GOLD && !rl->no_hot_rest)
        fputs(".text.hot.*\n", f);
    for (size_t i = 0; i < nd; i++)
        order_piece(f, k, &dp[i], dp[i].sym);
    return ferror(f) ? -1 : 0;
}

/* The planned lines at the top of output section k of write_script. */
static int insert_lists(const struct relink *rl, FILE *f, int k, const char *prefix,
                        const struct piece *st, size_t ns, const struct piece *ov, size_t no,
                        const struct reserve *rv, const struct piece *dp, size_t nd)
{
    if (k == 0 && !ns && !no && !rl->ncold) {
        /* no function order (the plan kept the program's own): .text as
           the default script has it, shifted by --pad-front */
        fputs("    /* pmopt relink: no function order */\n", f);
        if (rl->pad_front)
            fprintf(f, "    . = ALIGN(0x40);\n    . = . + 0x%lx;\n", rl->pad_front);
    } else if (k == 0) {
        fprintf(f, "    /* pmopt relink: %zu hot functions%s */\n", ns + no,
                rv ? ", with a reserved region" : "");
        if (!rv) {
            /* from a line boundary, as the plan's set pressure assumes */
            fputs("    . = ALIGN(0x40);\n", f);
            if (rl->pad_front) /* shift everything after by BYTES (layout sensitivity) */
                fprintf(f, "    . = . + 0x%lx;\n", rl->pad_front);
            for (size_t i = 0; i < ns; i++)
                put_piece(f, &st[i]);
            /* the rest of the hot tier (the rebuild's .text.hot: functions
               the plan's profile did not see, e.g. inlined everywhere in
               the training build but not in the rebuild) right after the
               planned ones, not after all the .text.unlikely parts
               (docs/layout.md "Relink"; ld takes the first match); after
               the planned cold parts when there are some, where the set
               model (order=sets) does not expect code */
            if (!rl->no_hot_rest && !rl->ncold)
                fputs("    *(.text.hot .text.hot.*)\n", f);
        } else {
            uint64_t *a = calloc(6 * (ns + no) + 1, sizeof *a), end;
            if (!a)
                return -1;
            uint64_t *ss = a, *sa = a + (ns + no), *os = a + 2 * (ns + no),
                     *oa = a + 3 * (ns + no), *so = a + 4 * (ns + no),
                     *oo = a + 5 * (ns + no);
            for (size_t i = 0; i < ns; i++)
                ss[i] = st[i].size, sa[i] = st[i].align;
            for (size_t i = 0; i < no; i++)
                os[i] = ov[i].size, oa[i] = ov[i].align;
            rsv_pack(rv, ss, sa, ns, os, oa, no, so, oo, &end);
            fprintf(f, "    . = ALIGN(0x%x);\n    __perfinst_reserve_base = .;\n",
                    rv->page);
            /* emit in address order */
            size_t i = 0, j = 0;
            while (i < ns || j < no) {
                int take_s = j >= no || (i < ns && so[i] <= oo[j]);
                uint64_t off = take_s ? so[i] : oo[j];
                fprintf(f, "    . = MAX(., __perfinst_reserve_base + 0x%llx);\n",
                        (unsigned long long)off);
                if (!take_s) /* the table's address: a script cannot name a
                                static function, so it names this */
                    fprintf(f, "    . = ALIGN(0x%llx);\n    __perfinst_rsv_%zu = .;\n",
                            (unsigned long long)ov[j].align, j);
                put_piece(f, take_s ? &st[i++] : &ov[j++]);
            }
            fprintf(f, "    __perfinst_reserve_end = .;\n");
            free(a);
        }
        if (rl->ncold)
            fprintf(f, "    /* pmopt relink: %zu cold parts after them */\n", rl->ncold);
        for (size_t i = 0; i < rl->ncold; i++)
            put_piece(f, &rl->cold[i]);
        if (!rv && rl->ncold && !rl->no_hot_rest)
            fputs("    *(.text.hot .text.hot.*)\n", f);
    } else if (rl->dc && dc_script(f, k - 1, rl->dc, rl->ndc, rl->drv)) {
        /* the coloured data of this output section (dcolour.c) */
    } else {
        size_t pl = strlen(prefix);
        for (size_t i = 0; i < nd; i++) {
            struct piece q = dp[i];
            size_t m = 0;
            char *keep[64];
            for (size_t s = 0; s < q.nsecs && m < 64; s++)
                if (!strncmp(q.secs[s], prefix, pl) &&
                    (k != 2 || strncmp(q.secs[s], ".data.rel.ro", 12)))
                    keep[m++] = q.secs[s];
            if (!m)
                continue;
            q.secs = keep, q.nsecs = m;
            put_piece(f, &q);
        }
    }
    return 0;
}

/* Writes the script: the default with our lists at the top of .text (and
 * of .data, .bss, .rodata). */
static int write_script(const struct relink *rl, FILE *f, const char *def, const struct piece *st,
                        size_t ns, const struct piece *ov, size_t no, const struct reserve *rv,
                        const struct piece *dp, size_t nd, const char *fbpath)
{
    static const struct {
        const char *head;
        const char *prefix; /* of the data sections that go there */
    } outs[] = {
        { "  .text           :", NULL },
        { "  .rodata         :", ".rodata." },
        { "  .data           :", ".data." },
        { "  .bss            :", ".bss." },
    };
    fprintf(f, "/* generated by pmopt relink from %s: the default script of this link with\n"
               "   the planned input sections first (docs/layout.md) */\n", fbpath);
    int found[4] = { 0 };
    for (const char *p = def; *p;) {
        const char *e = strchr(p, '\n');
        size_t l = e ? (size_t)(e - p + 1) : strlen(p);
        if (rv && no && !strncmp(p, "}\n", 2) && found[0]) {
            /* the end of SECTIONS: the table of the reserved region */
            /* struct pi_reserve_hdr, then pi_reserve_entry[no] */
            const char *magic = PI_RESERVE_MAGIC;
            fprintf(f, "  " PI_SECTION_RESERVE " 0 (INFO) :\n  {\n"
                       "    BYTE(0x%02x) BYTE(0x%02x) BYTE(0x%02x) BYTE(0x%02x) /* \"%s\" */\n"
                       "    LONG(%u) LONG(0x%x) LONG(0x%x) LONG(0x%x) LONG(%zu)\n",
                    magic[0], magic[1], magic[2], magic[3], magic, PI_RESERVE_VERSION, rv->page,
                    rv->window, rv->size, no);
            for (size_t i = 0; i < no; i++)
                fprintf(f, "    QUAD(__perfinst_rsv_%zu) QUAD(0x%llx) /* %s */\n", i,
                        (unsigned long long)ov[i].size, ov[i].sym);
            fprintf(f, "  }\n");
        }
        int k = 0;
        while (k < 4 && (found[k] || l <= strlen(outs[k].head) ||
                         strncmp(p, outs[k].head, strlen(outs[k].head))))
            k++;
        if (k == 4) {
            fwrite(p, 1, l, f);
            p += l;
            continue;
        }
        found[k] = 1;
        size_t hl = strlen(outs[k].head);
        fwrite(p, 1, hl, f);
        if (k == 0 && rv) /* the reserved region's offsets are page offsets */
            fprintf(f, " ALIGN(0x%x)", rv->page);
        p += hl, l -= hl;
        /* the "{" is on this line or the next (ld --verbose prints both) */
        const char *brace = memchr(p, '{', l);
        if (!brace) {
            fwrite(p, 1, l, f);
            p += l;
            e = strchr(p, '\n');
            l = e ? (size_t)(e - p + 1) : strlen(p);
            brace = memchr(p, '{', l);
            if (!brace) {
                found[k] = 0;
                continue; /* not the expected shape: nothing inserted */
            }
        }
        fwrite(p, 1, (size_t)(brace - p) + 1, f);
        fputc('\n', f);
        if (insert_lists(rl, f, k, outs[k].prefix, st, ns, ov, no, rv, dp, nd))
            return -1;
        /* the rest of the line after "{" */
        l -= (size_t)(brace - p) + 1;
        p = brace + 1;
        while (l && (*p == ' ' || *p == '\t'))
            p++, l--;
        if (l && *p != '\n')
            fputs("    ", f);
        fwrite(p, 1, l, f);
        p += l;
    }
    return found[0] ? 0 : -2;
}

/* The data kept as linked: no order-data or reserve-data applied. */
static void drop_data(struct relink *rl, struct relink_plan *pl, struct piece *dp, size_t *nd)
{
    for (size_t i = 0; i < *nd; i++)
        free(dp[i].secs);
    *nd = 0;
    pl->applied -= 1 + (uint32_t)pl->have_dreserve;
    pl->have_dreserve = 0;
    dc_items_free(rl->dc, rl->ndc);
    rl->dc = NULL, rl->ndc = 0, rl->drv = NULL;
}

/* ---- checking the result ----------------------------------------------------- */

static long read_reserve(const char *path, struct reserve *rv, size_t *n);

struct fsym {
    char *name;
    uint64_t addr;
    int n;           /* definitions of that name (static duplicates) */
};

static int by_fsym(const void *a, const void *b)
{
    return strcmp(((const struct fsym *)a)->name, ((const struct fsym *)b)->name);
}

static struct fsym *read_funcs(const char *path, size_t *n)
{
    int fd;
    Elf *e = pm_elf_open(path, &fd);
    struct pm_sym *ps = NULL;
    size_t nps = 0;
    struct fsym *v = NULL;
    *n = 0;
    if (e && !pm_elf_symbols(e, STT_FUNC, &ps, &nps) && nps)
        v = calloc(nps, sizeof *v);
    /* sorted by name: a static name defined twice is one entry, counted */
    for (size_t i = 0; v && i < nps; i++) {
        if (*n && !strcmp(v[*n - 1].name, ps[i].name))
            v[*n - 1].n++;
        else if ((v[*n].name = strdup(ps[i].name))) {
            v[*n].addr = ps[i].addr;
            v[(*n)++].n = 1;
        }
    }
    free(ps);
    pm_elf_close(e, fd);
    return v;
}

static void fsyms_free(struct fsym *v, size_t n)
{
    for (size_t i = 0; v && i < n; i++)
        free(v[i].name);
    free(v);
}

static const struct fsym *find_fsym(const struct fsym *v, size_t n, const char *name)
{
    struct fsym key = { (char *)name, 0, 0 };
    return n ? bsearch(&key, v, n, sizeof *v, by_fsym) : NULL;
}

/* A function's copies in several objects are COMDAT copies, of which the
 * link keeps the first it reads (objscan.c drops the others where that is
 * certain); from an archive's members it keeps the one it pulls first,
 * which the objects do not say.  When one such copy is wholly cold
 * (.text.unlikely in an object with no other text section of it: RE2's
 * Mutex::Unlock, cold in regexp.o and ordered in dfa.o, both in libre2.a)
 * and its object was pulled, the program may hold either, and neither
 * placing sym nor checking its place can count on the ordered one.  An
 * object counts as pulled unless it defines a function no other object
 * defines and PROG (its symbols v, n) lacks: an archive's member the link
 * did not need. */
static int either_copy(const struct oscan *s, const char *sym, const struct fsym *v, size_t n)
{
    for (size_t i = 0; i < s->nsecs; i++) {
        const struct osec *o = &s->secs[i];
        if (!o->cold || o->kind != OS_TEXT || !o->group || strcmp(o->sym, sym))
            continue; /* (a static function of the same name is another function) */
        int hot_there = 0, unpulled = 0;
        for (size_t k = 0; k < s->nsecs && !hot_there; k++) /* a split function's cold part */
            hot_there = s->secs[k].obj == o->obj && s->secs[k].kind == OS_TEXT && !s->secs[k].cold &&
                        !strcmp(s->secs[k].sym, sym);
        for (size_t k = 0; k < s->nsecs && !hot_there && !unpulled; k++) {
            const struct osec *x = &s->secs[k];
            if (x->obj != o->obj || x->kind != OS_TEXT || find_fsym(v, n, x->sym))
                continue;
            int elsewhere = 0;
            for (size_t j = 0; j < s->nsecs && !elsewhere; j++)
                elsewhere = s->secs[j].obj != o->obj && s->secs[j].kind == OS_TEXT &&
                            !strcmp(s->secs[j].sym, x->sym);
            unpulled = !elsewhere;
        }
        if (!hot_there && !unpulled)
            return 1;
    }
    return 0;
}

/* Functions of the plan at increasing addresses in the planned order;
 * overflow functions inside their window.  0, or -1 with a message. */
static int verify(const struct relink *rl, const char *tmp, const char *out, const struct piece *st,
                  size_t ns, const struct piece *ov, size_t no, const struct reserve *rv)
{
    size_t n;
    struct fsym *v = read_funcs(tmp, &n);
    int status = 0;
    uint64_t prev = 0, lo = UINT64_MAX, hi = 0;
    size_t checked = 0, inwin = 0;
    const char *prevname = NULL;
    for (size_t i = 0; i < ns; i++) { /* with a reserve: the stable part, also in order */
        const struct fsym *f = find_fsym(v, n, st[i].sym);
        if (!f || f->n != 1 || st[i].either)
            continue;
        if (prevname && f->addr < prev) {
            pm_error("%s: the linker did not follow the script: %s (0x%llx) before %s "
                     "(0x%llx)", out, st[i].sym, (unsigned long long)f->addr, prevname,
                     (unsigned long long)prev);
            status = -1;
            break;
        }
        prev = f->addr, prevname = st[i].sym;
        if (f->addr < lo)
            lo = f->addr;
        if (f->addr + st[i].size > hi)
            hi = f->addr + st[i].size;
        checked++;
    }
    if (!status && checked)
        printf("pmopt relink: %zu functions in the planned order at 0x%llx-0x%llx (%llu bytes)\n",
               checked, (unsigned long long)lo, (unsigned long long)hi,
               (unsigned long long)(hi - lo));
    /* the cold parts: in their order, after the planned functions (and
       after the reserved region's overflow functions) */
    size_t cchecked = 0;
    uint64_t clo = UINT64_MAX, chi = 0, cprev = 0;
    for (size_t i = 0; i < no; i++) {
        const struct fsym *f = find_fsym(v, n, ov[i].sym);
        if (f && f->n == 1 && f->addr + ov[i].size > hi)
            hi = f->addr + ov[i].size;
    }
    prevname = NULL;
    for (size_t i = 0; i < rl->ncold && !status; i++) {
        const struct fsym *f = find_fsym(v, n, rl->cold_sym[i]);
        if (!f || f->n != 1)
            continue;
        if ((prevname && f->addr < cprev) || (checked && f->addr < hi)) {
            pm_error("%s: the linker did not follow the script: cold part %s (0x%llx) before "
                     "%s (0x%llx)", out, rl->cold_sym[i], (unsigned long long)f->addr,
                     prevname ? prevname : "the end of the planned functions",
                     (unsigned long long)(prevname ? cprev : hi));
            status = -1;
            break;
        }
        cprev = f->addr, prevname = rl->cold_sym[i];
        if (f->addr < clo)
            clo = f->addr;
        if (f->addr + rl->cold[i].size > chi)
            chi = f->addr + rl->cold[i].size;
        cchecked++;
    }
    if (!status && cchecked)
        printf("pmopt relink: %zu cold parts in the planned order after them at 0x%llx-0x%llx "
               "(%llu bytes)\n", cchecked, (unsigned long long)clo, (unsigned long long)chi,
               (unsigned long long)(chi - clo));
    checked = 0;
    for (size_t i = 0; rv && i < no; i++) {
        const struct fsym *f = find_fsym(v, n, ov[i].sym);
        if (!f || f->n != 1)
            continue;
        uint64_t po = f->addr & (rv->page - 1);
        if (ov[i].size <= rv->size && po >= rv->window && po + ov[i].size <= rv->window + rv->size)
            inwin++;
        checked++;
    }
    if (!status && rv && no) {
        struct reserve t;
        size_t tn = 0;
        long tw = read_reserve(tmp, &t, &tn);
        if (tw < 0 || tn != no) {
            status = -1;
        } else {
            printf("pmopt relink: %zu of %zu overflow functions in the reserved window "
                   "0x%x-0x%x of each 0x%x-byte page (.perfinst.reserve: %ld of %zu)\n",
                   inwin, no, rv->window, rv->window + rv->size, rv->page, tw, tn);
        }
    }
    fsyms_free(v, n);
    return status;
}

/* The model's check of the data order (docs/layout.md "Data order"): the
 * plan's data model (order-data's weights= and dcache=) of the relinked
 * program's hot data lines against PROG's as linked, each object at its
 * symbol's address.  1: predicted to miss less (said); 0: not (said: the
 * caller links again without the data order); -1: error. */
static int data_check(const char *prog, const char *tmpout, const struct oscan *s,
                      const struct relink_plan *pl)
{
    struct cgeom g;
    if (cm_geometry_type(pl->dcache, "Data", &g))
        return -1;
    struct dc_item *it = NULL;
    size_t ni = 0;
    struct dc_lines lb = { 0 }, la = { 0 };
    struct cm_result rb, ra;
    double cb, ca;
    int status = -1;
    if (dc_items(s, pl->objects.v, pl->objects.n, NULL, 0, NULL, &it, &ni))
        goto oom;
    for (size_t i = 0; i < ni; i++)
        for (size_t j = 0; j < pl->objects.n; j++)
            if (!strcmp(pl->objects.v[j], it[i].sym)) {
                it[i].weight = pl->dweights[j];
                break;
            }
    if (dc_prog_lines(prog, &g, it, ni, &lb) || dc_prog_lines(tmpout, &g, it, ni, &la))
        goto oom;
    uint64_t min = dc_cover(&lb);
    if (dc_simulate(&g, &lb, min, &rb, &cb) || dc_simulate(&g, &la, min, &ra, &ca))
        goto oom;
    status = cm_compare(&ra, ca, &rb, cb) > 0;
    if (status)
        printf("pmopt relink: the data order is predicted to miss less than %s's data as linked "
               "(D1 %u,%u,%u, cyclic stream: hit ratio %.3f against %.3f; independent "
               "references: %.0f misses against %.0f): applied\n", prog, g.size, g.ways, g.line,
               cm_hit_ratio(&ra), cm_hit_ratio(&rb), ca, cb);
    else
        pm_note("%s: the data order is not predicted to miss less than its data as linked (D1 "
                "%u,%u,%u, cyclic stream: hit ratio %.3f against %.3f; independent "
                "references: %.0f misses against %.0f): the data kept as linked "
                "(--no-model-check applies it)", prog, g.size, g.ways, g.line, cm_hit_ratio(&ra),
                cm_hit_ratio(&rb), ca, cb);
    goto done;
oom:
    rep_oom();
done:
    dc_items_free(it, ni);
    free(lb.v), free(la.v);
    return status;
}

/* The reserved-region table of a relinked program (section
 * .perfinst.reserve, docs/layout.md): header and n (addr, len) pairs.
 * Returns the number of entries whose whole code lies in the window, or
 * -1 with a message for a missing or malformed table. */
static long read_reserve(const char *path, struct reserve *rv, size_t *n)
{
    int fd;
    Elf *e = pm_elf_open(path, &fd);
    size_t shstr;
    long inwin = -1;
    Elf_Scn *scn = NULL;
    if (e && !elf_getshdrstrndx(e, &shstr)) {
        while ((scn = elf_nextscn(e, scn))) {
            GElf_Shdr sh;
            const char *nm;
            if (!gelf_getshdr(scn, &sh) || !(nm = elf_strptr(e, shstr, sh.sh_name)) ||
                strcmp(nm, PI_SECTION_RESERVE))
                continue;
            Elf_Data *d = elf_getdata(scn, NULL);
            struct pi_reserve_hdr h;
            if (d && (inwin = pi_reserve_decode(d->d_buf, d->d_size, &h)) >= 0) {
                *rv = (struct reserve){ h.page, h.window, h.size };
                *n = h.n;
            }
            break;
        }
    }
    pm_elf_close(e, fd);
    if (inwin < 0)
        pm_error("%s: no well-formed .perfinst.reserve table", path);
    return inwin;
}

/* The rank of p's .text.sorted.RANK.NAME section (a rebuild that applied
 * the plan's function order, gcc-plugin/pass-feedback.cc); 0 if none. */
static unsigned long sorted_rank(const struct piece *p)
{
    static const char pre[] = ".text.sorted.";
    for (size_t j = 0; j < p->nsecs; j++)
        if (!strncmp(p->secs[j], pre, sizeof pre - 1))
            return strtoul(p->secs[j] + sizeof pre - 1, NULL, 10);
    return 0;
}

/* Does the program already have the plan's function order?  The planned
 * functions in .text.sorted sections have ranks rising in the plan's order;
 * the others are where the plugin left them (main, constructors and
 * destructors in .text.startup / .text.exit, a clone the rebuild made of a
 * planned function, a function the program gave a section).  The sorted
 * pieces go to sorted[] (for verify). */
static int already_sorted(const struct piece *st, size_t ns, struct piece *sorted, size_t *nsorted)
{
    unsigned long prev = 0, r;
    *nsorted = 0;
    for (size_t i = 0; i < ns; i++) {
        if (!(r = sorted_rank(&st[i])))
            continue;
        if (r <= prev)
            return 0;
        prev = r;
        sorted[(*nsorted)++] = st[i];
    }
    return *nsorted > 0;
}

/* The program's planned functions in .text.sorted sections (a rebuild that
 * applied a function order) when their ranks do not rise in this plan's
 * order: a rebuild made with another plan's order (bench/projects.sh's zstd
 * CLI, compiled with its library's plan and relinked with its own).  The
 * sorted pieces go to sorted[] in rank order, the order the default script
 * gives them (for verify); their number is returned. */
static int by_rank(const void *a, const void *b)
{
    unsigned long x = sorted_rank(a), y = sorted_rank(b);
    return x < y ? -1 : x > y;
}

static size_t other_order(const struct piece *st, size_t ns, struct piece *sorted)
{
    size_t k = 0;
    for (size_t i = 0; i < ns; i++)
        if (sorted_rank(&st[i]))
            sorted[k++] = st[i];
    qsort(sorted, k, sizeof *sorted, by_rank);
    return k;
}

/* Run prog with args (shell words) from the current directory. */
static int smoke_run(const char *prog, const char *args, int verbose, char **out, size_t *len)
{
    char *cmd = xasprintf("exec \"$0\" %s", args);
    char *p = strchr(prog, '/') ? (char *)prog : xasprintf("./%s", prog);
    char *argv[] = { "/bin/sh", "-c", cmd, p, NULL };
    int st = run(argv, NULL, NULL, verbose, out, len, 0);
    free(cmd);
    if (p != prog)
        free(p);
    return st;
}

static char *pild_path(void)
{
    const char *e = getenv("PERFINST_LD");
    if (e && *e)
        return strdup(e);
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = 0;
        char *slash = strrchr(self, '/');
        if (slash) {
            *slash = 0;
            char *p = xasprintf("%s/perfinst-ld", self);
            if (!access(p, X_OK))
                return p;
            free(p);
        }
    }
    return strdup("perfinst-ld");
}

int cmd_relink(int argc, char **argv)
{
    static const struct option opts[] = {
        { "feedback", required_argument, NULL, 'F' },
        { "output", required_argument, NULL, 'o' },
        { "only", required_argument, NULL, 'O' },
        { "smoke", required_argument, NULL, 'S' },
        { "keep-script", required_argument, NULL, 'K' },
        { "verbose", no_argument, NULL, 'v' },
        { "no-hot-rest", no_argument, NULL, 'R' },
        { "pad-front", required_argument, NULL, 'P' },
        { "no-clones", no_argument, NULL, 'C' },
        { "place-sorted", no_argument, NULL, 'k' },
        { "no-model-check", no_argument, NULL, 'M' },
        { "force", no_argument, NULL, 'f' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *fbpath = NULL, *out = NULL, *only = NULL, *smoke = NULL, *keep = NULL;
    int verbose = 0, force = 0, c;
    struct relink rel = {0}, *rl = &rel;
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
        switch (c) {
        case 'F': fbpath = optarg; break;
        case 'o': out = optarg; break;
        case 'O': only = optarg; break;
        case 'S': smoke = optarg; break;
        case 'K': keep = optarg; break;
        case 'v': verbose = 1; break;
        case 'R': rl->no_hot_rest = 1; break;
        case 'C': rl->no_clones = 1; break;
        case 'k': rl->place_sorted = 1; break;
        case 'M': rl->no_model_check = 1; break;
        case 'f': force = 1; break;
        case 'P': {
            char *e;
            rl->pad_front = strtoul(optarg, &e, 0);
            if (*e || !*optarg || rl->pad_front > (1ul << 24))
                return pm_usage_error("relink", "--pad-front: '%s' is not a byte count up to 16 MiB",
                                      optarg);
            break;
        }
        case 'h': help(stdout); return PM_OK;
        default: return pm_usage_error("relink", "unknown option");
        }
    }
    if (argc - optind != 1)
        return pm_usage_error("relink", "expected one PROG");
    if (!fbpath)
        return pm_usage_error("relink", "expected --feedback FILE");
    if (!out || !*out)
        return pm_usage_error("relink", "expected -o OUT");
    const char *prog = argv[optind];
    double t0 = now();

    struct pi_meta m;
    struct pi_err err;
    memset(&m, 0, sizeof m);
    elf_version(EV_CURRENT);
    if (pi_meta_read(prog, &m, &err)) {
        pm_error("%s", err.msg);
        return PM_ERROR;
    }
    int status = PM_ERROR;
    struct recipe rc;
    struct relink_plan pl;
    struct oscan s;
    memset(&rc, 0, sizeof rc);
    memset(&pl, 0, sizeof pl);
    memset(&s, 0, sizeof s);
    struct piece *st = NULL, *ov = NULL, *dp = NULL, *sorted = NULL;
    struct fsym *pv = NULL; /* PROG's functions (either_copy) */
    size_t npv = 0;
    size_t ns = 0, no = 0, nd = 0, nsorted = 0;
    int kept = 0; /* the program has the plan's function order already */
    char *pild = pild_path(), *def = NULL, *script = NULL, *tmpout = NULL, *resfile = NULL;
    if (!m.has_link) {
        pm_error("%s has no recorded link (.perfinst.link): relink replays the link perfinst's "
                 "link stage recorded; link %s with the flags of pkg-config --libs perfinst (or "
                 "with perfinst-ld) first%s", prog, prog, pm_no_link_why(&m));
        goto done;
    }
    if (read_recipe(&m, prog, pild, &rc) || check_stale(&m, prog) ||
        read_plan(fbpath, only, &m, prog, &pl))
        goto done;
    enum linker lk = linker_of(prog);
    if (lk == LK_OTHER) {
        pm_error("%s was linked by a linker relink cannot order (GNU ld, gold and lld can: "
                 "-fuse-ld=bfd|gold|lld)", prog);
        goto done;
    }
    if (lk != LK_BFD) {
        /* an ordering file has no addresses: what needs the script is skipped */
        const char *what[3] = { pl.have_reserve ? PIFB_RESERVE : NULL,
                                pl.have_dreserve ? PIFB_RESERVE_DATA : NULL,
                                rl->pad_front ? "--pad-front" : NULL };
        for (int i = 0; i < 3; i++)
            if (what[i])
                pm_note("%s was linked by %s, which takes an order but no linker script of "
                        "relink's: %s skipped (the functions and objects are placed in the "
                        "plan's order)", prog, linker_names[lk], what[i]);
        pl.have_reserve = pl.have_dreserve = 0;
        rl->pad_front = 0;
    }
    /* a plan of the one-file loop whose model kept every layout (no order
       was predicted to miss less) relinks PROG as it is */
    int as_is = !pl.funcs.n && !pl.objects.n && !pl.have_reserve;
    if (as_is && (!pl.loop || only)) {
        pm_error("%s: no order-functions, order-data or reserve recommendation to apply%s",
                 fbpath, only ? " among those selected" : "");
        goto done;
    }
    if (as_is)
        pm_note("%s: no order-functions, order-data or reserve recommendation (the plan "
                "predicted no order to miss less than the rebuild's layout): %s relinked as it "
                "is", fbpath, prog);
    if (oscan_read_link(&s, &m))
        goto done;
    pv = read_funcs(prog, &npv);
    /* the pieces, and the refusal of functions without a section of their own */
    st = calloc(pl.funcs.n + 1, sizeof *st);
    ov = calloc(pl.overflow.n + 1, sizeof *ov);
    dp = calloc(pl.objects.n + 1, sizeof *dp);
    if (!st || !ov || !dp) {
        rep_oom();
        goto done;
    }
    size_t missing = 0, shared = 0, clones = 0, cold = 0, either = 0;
    for (size_t pass = 0; pass < 2; pass++) {
        const struct names *nm = pass ? &pl.overflow : &pl.funcs;
        for (size_t i = 0; i < nm->n; i++) {
            if (!pass && in_names(&pl.overflow, nm->v[i]) && pl.have_reserve)
                continue;
            struct piece p;
            piece_of(&s, nm->v[i], 1, &p);
            const char *cl = p.nsecs || rl->no_clones ? NULL : clone_of(&s, nm->v[i]);
            if (cl && !in_names(&pl.funcs, cl) && !in_names(&pl.overflow, cl)) {
                piece_of(&s, cl, 1, &p);
                clones++;
            }
            if (!p.nsecs) {
                /* in a shared .text (no -ffunction-sections), or nowhere */
                const char *where = NULL;
                size_t l = strlen(nm->v[i]);
                for (size_t k = 0; k < s.nshared && !where; k++) {
                    const char *x = s.shared[k];
                    size_t xl = strlen(x);
                    if (xl > l + 2 && !strcmp(x + xl - l, nm->v[i]) && x[xl - l - 1] == ' ' &&
                        x[xl - l - 2] == ':')
                        where = x;
                }
                if (where) {
                    if (shared++ < 5)
                        pm_note("%s: in the shared .text section: left where it is", where);
                } else if (cold_whole(&s, nm->v[i]))
                    cold++;
                else
                    missing++;
                continue;
            }
            if ((p.either = either_copy(&s, p.sym, pv, npv)))
                either++;
            if (pass)
                ov[no++] = p;
            else
                st[ns++] = p;
        }
    }
    if (shared)
        pm_note("%s: %zu planned function%s not in a section of %s own, left where %s: compile "
                "the objects with -ffunction-sections -fdata-sections (or the plugin's "
                "-fplugin-arg-perfinst-sections) and link again to place %s", prog, shared,
                shared == 1 ? " is" : "s are", shared == 1 ? "its" : "their",
                shared == 1 ? "it is" : "they are", shared == 1 ? "it" : "them");
    if (clones)
        pm_note("%zu planned function%s placed as %s GCC clone (F.isra.N, F.constprop.N, "
                "F.part.N): the objects hold no F", clones, clones == 1 ? " is" : "s are",
                clones == 1 ? "its" : "their");
    if (missing)
        pm_note("%zu planned function%s not in the objects of the link (inlined, in a library, "
                "or renamed): left where they are", missing, missing == 1 ? " is" : "s are");
    if (cold)
        pm_note("%zu planned function%s wholly in a cold section in the objects of the link "
                "(.text.unlikely: compiled cold, or a COMDAT whose copy the link keeps was): "
                "left where %s", cold, cold == 1 ? " is" : "s are", cold == 1 ? "it is" : "they are");
    if (either)
        pm_note("%zu planned function%s a COMDAT copy wholly cold in another object of the link "
                "(an archive's member: the link keeps the copy it pulls first, which the objects "
                "do not say): %s place in the output not checked", either,
                either == 1 ? " has" : "s have", either == 1 ? "its" : "their");
    size_t relro = 0;
    for (size_t i = 0; i < pl.objects.n; i++) {
        struct piece p;
        piece_of(&s, pl.objects.v[i], 0, &p);
        if (p.nsecs)
            dp[nd++] = p;
        else
            relro += in_relro(&s, pl.objects.v[i]);
    }
    if (relro)
        pm_note("%s: %zu planned data object%s in relro data (.data.rel.ro), left where the "
                "default script puts %s", prog, relro, relro == 1 ? " is" : "s are",
                relro == 1 ? "it" : "them");
    /* -flto objects: the code lto1 made during the link is in none of them,
       so nothing can be placed; an -flto rebuild has the plan's function
       order from the plugin already (docs/layout.md "Link-time
       optimisation") */
    if (!as_is && s.nlto && !ns && !no && !nd) {
        pm_note("%s was linked from -flto objects (%s and %zu more): their code was made during "
                "the link and is in none of them, so the relink has nothing to place: %s relinked "
                "as it is (an -flto rebuild has the plan's function order from the plugin)", prog,
                s.lto_obj, s.nlto - 1, prog);
        as_is = 1;
        pl.ignored += pl.applied; /* (the summary line: none applied) */
        pl.applied = 0;
    }
    /* whose plan: what PROG's objects hold, placeable or not (Lua's plan
       is mostly luaL_Reg arrays in .data.rel.ro, which the rebuild has) */
    if (!as_is && plan_matches(&pl, fbpath, &m, prog, ns + no + nd + shared + relro,
                               ns + no + missing + shared + pl.objects.n, force))
        goto done;
    if (shared && !ns && !no && !nd) {
        pm_error("%s: nothing of the plan can be placed: no planned function or object has a "
                 "section of its own", prog);
        goto done;
    }
    /* a rebuild that applied the plan's function order (.text.sorted,
       which GNU ld's default script sorts) keeps .text as linked, so the
       relink cannot raise the rebuild's misses (placed again, the order
       had more on the suite: docs/layout.md "Function order in the
       rebuild"); a reserve or cold list, which only relink's script can
       lay out, is skipped; what it checks is the order in the output */
    if (!rl->place_sorted && lk == LK_BFD && ns) {
        if (!(sorted = calloc(ns, sizeof *sorted))) {
            rep_oom();
            goto done;
        }
        if ((kept = already_sorted(st, ns, sorted, &nsorted))) {
            pm_note("%s: the planned functions are already in the plan's order (the rebuild's "
                    ".text.sorted sections): .text kept as linked%s", prog,
                    pl.have_reserve || pl.cold.n ? ", the plan's reserve and cold list skipped "
                                                   "(--place-sorted applies them)" : "");
        } else if (pl.loop && (nsorted = other_order(st, ns, sorted))) {
            /* a plan of the one-file loop (pmopt plan --rebuild) checked its
               order against the rebuild of that order; this program was
               rebuilt with another plan's, which is the loop's earlier step:
               placed over it, this order would be checked against nothing */
            kept = 1;
            pm_note("%s: its rebuild applied another plan's function order (%zu planned functions "
                    "in .text.sorted sections, not in %s's order): .text kept as linked, so the "
                    "relink cannot raise the rebuild's misses (--place-sorted places this "
                    "plan's order)", prog, nsorted, fbpath);
        }
        if (kept) {
            pl.have_reserve = 0;
            names_free(&pl.cold);
            memset(&pl.cold, 0, sizeof pl.cold);
            no = 0;
        }
    }
    if (pl.cold.n) { /* cold parts, after the planned functions */
        rl->cold = calloc(pl.cold.n, sizeof *rl->cold);
        rl->cold_sym = calloc(pl.cold.n, sizeof *rl->cold_sym);
        if (!rl->cold || !rl->cold_sym) {
            rep_oom();
            goto done;
        }
        size_t cmissing = 0;
        for (size_t i = 0; i < pl.cold.n; i++) {
            struct piece p, h;
            cold_piece_of(&s, pl.cold.v[i], &p);
            if (!p.nsecs) {
                cmissing++;
                continue;
            }
            piece_of(&s, pl.cold.v[i], 1, &h);
            rl->cold_sym[rl->ncold] = h.nsecs ? xasprintf("%s.cold", pl.cold.v[i])
                                          : xasprintf("%s", pl.cold.v[i]);
            free(h.secs);
            rl->cold[rl->ncold++] = p;
        }
        if (cmissing)
            pm_note("%zu planned cold part%s not in the objects of the link (no "
                    ".text.unlikely.NAME or .text.sorted cold part): left where %s", cmissing,
                    cmissing == 1 ? " is" : "s are", cmissing == 1 ? "it is" : "they are");
    }
    /* a data order without the plan's weights (an older plan's) cannot be
       checked: not applied, it could only move what no model ranked */
    if (nd && pl.ndweights != pl.objects.n && !rl->no_model_check) {
        pm_note("%s: order-data has no weights= (an older pmopt plan made it): the data order "
                "cannot be checked against %s's data, which are kept as linked "
                "(--no-model-check applies it; pmopt plan writes the weights)", fbpath, prog);
        drop_data(rl, &pl, dp, &nd);
    }
    if (pl.have_dreserve) { /* reserve-data: the data colouring's offsets */
        uint64_t send;
        if (dc_items(&s, pl.objects.v, pl.objects.n, pl.doverflow.v, pl.doverflow.n, NULL, &rl->dc,
                     &rl->ndc) || dc_layout(&pl.drv, rl->dc, rl->ndc, &send)) {
            rep_oom();
            goto done;
        }
        rl->drv = &pl.drv;
        if (!pl.objects.n)
            pm_note("%s: reserve-data without order-data: no data object to colour", fbpath);
    }
    /* the temporary directory beside OUT */
    {
        struct pi_err err;
        if (pi_out_begin(&g_out, out, TMPDIR_TAG + 1, &err)) {
            pm_error("%s", err.msg);
            goto done;
        }
        g_tmpdir = g_out.dir;
        atexit(cleanup); /* also after an out-of-memory exit */
        signal(SIGINT, on_signal), signal(SIGTERM, on_signal), signal(SIGHUP, on_signal);
        signal(SIGQUIT, on_signal), signal(SIGPIPE, on_signal);
    }
    /* the script (GNU ld) or the order (gold, lld), the link with it */
    if (lk == LK_BFD && !(def = default_script(&rc, verbose))) {
        pm_error("cannot get the default linker script of this link (ld --verbose, ld as %s "
                 "-print-prog-name=ld names it)", rc.cc);
        goto done;
    }
    script = xasprintf("%s/%s", g_tmpdir, lk == LK_BFD ? "relink.ld" : "relink.order");
    g_tmpfiles[0] = script;
    tmpout = g_out.tmp;
    rc.args[rc.out_i] = owned(&rc, xasprintf("%s%s", rc.out_prefix, tmpout));
    if (rc.res_i >= 0) /* the LTO plugin's resolution file, an output of the link */
        rc.args[rc.res_i] = owned(&rc, xasprintf("-plugin-opt=-fresolution=%s/relink.res",
                                                 g_tmpdir));
    g_tmpfiles[3] = resfile = xasprintf("%s/relink.res", g_tmpdir);
    push(&rc.args, &rc.nargs, &rc.cap,
         lk == LK_BFD ? "-T" : lk == LK_GOLD ? "--section-ordering-file" : "--symbol-ordering-file");
    push(&rc.args, &rc.nargs, &rc.cap, script);
    if (lk == LK_LLD) /* a planned name the program no longer has is no news */
        push(&rc.args, &rc.nargs, &rc.cap, "--no-warn-symbol-ordering");
    double tl;
    for (;;) {
        FILE *f = fopen(script, "w");
        if (!f) {
            pm_error("%s: %s", script, strerror(errno));
            goto done;
        }
        int ws = lk == LK_BFD ? write_script(rl, f, def, st, kept ? 0 : ns, ov, no,
                                             pl.have_reserve ? &pl.rv : NULL, dp, nd, fbpath)
                              : write_order(rl, f, lk, st, ns, dp, nd);
        if (fclose(f) || ws) {
            pm_error("%s: %s", script, ws == -2 ? "the default script has no .text output section"
                                                : "cannot write the linker script");
            goto done;
        }
        if (keep) {
            char *cp[] = { "cp", script, (char *)keep, NULL };
            if (run(cp, NULL, NULL, 0, NULL, NULL, 0)) {
                pm_error("%s: cannot copy the linker script there", keep);
                goto done;
            }
        }
        tl = now();
        int ls = run(rc.args, rc.cwd, rc.env, verbose, NULL, NULL, 0);
        tl = now() - tl;
        if (ls) {
            pm_error("%s: the link failed (perfinst-ld exit status %d): %s is left as it was",
                     prog, ls, out);
            goto done;
        }
        /* the model's check of the data order, on the program as linked:
           one not predicted to miss less than PROG's data is not kept --
           linked again without it, the data are where PROG has them */
        if (!nd || rl->no_model_check)
            break;
        int dk = data_check(prog, tmpout, &s, &pl);
        if (dk < 0)
            goto done;
        if (dk)
            break;
        drop_data(rl, &pl, dp, &nd);
    }
    if (verify(rl, tmpout, out, kept ? sorted : st, kept ? nsorted : ns, ov, no,
               pl.have_reserve ? &pl.rv : NULL))
        goto done;
    if (rl->dc && dc_verify(tmpout, out, rl->dc, rl->ndc, rl->drv))
        goto done;
    if (smoke) {
        char *o1 = NULL, *o2 = NULL;
        size_t l1 = 0, l2 = 0;
        int s1 = smoke_run(prog, smoke, verbose, &o1, &l1);
        int s2 = smoke_run(tmpout, smoke, verbose, &o2, &l2);
        int same = o1 && o2 && s1 == s2 && l1 == l2 && !memcmp(o1, o2, l1);
        free(o1), free(o2);
        if (!same) {
            pm_error("smoke test '%s': %s and the relinked program differ (exit status %d vs "
                     "%d, %zu vs %zu bytes of output): %s is left as it was", smoke, prog, s1,
                     s2, l1, l2, out);
            goto done;
        }
        printf("pmopt relink: smoke test '%s': same output (%zu bytes) and exit status %d\n",
               smoke, l1, s1);
    }
    {
        struct pi_err err;
        if (pi_out_commit(&g_out, &err)) {
            pm_error("%s", err.msg);
            goto done;
        }
    }
    printf("pmopt relink: wrote %s (%u recommendation%s applied, %u ignored); link %.3f s, "
           "total %.3f s\n", out, pl.applied, pl.applied == 1 ? "" : "s", pl.ignored, tl,
           now() - t0);
    status = PM_OK;
done:
    cleanup();
    pieces_free(st, ns), pieces_free(ov, no), pieces_free(dp, nd);
    free(sorted); /* its pieces are st's */
    pieces_free(rl->cold, rl->ncold);
    if (rl->cold_sym)
        for (size_t i = 0; i < rl->ncold; i++)
            free(rl->cold_sym[i]);
    dc_items_free(rl->dc, rl->ndc);
    free(rl->cold_sym), free(script);
    recipe_free(&rc), plan_free(&pl);
    free(def), free(pild), free(resfile);
    pi_meta_free(&m);
    oscan_free(&s);
    fsyms_free(pv, npv);
    return status;
}
