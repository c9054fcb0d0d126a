/* util.c — messages, the one-operand command line, module matching and
 * output quoting shared by the subcommands of pmopt. */
#define _GNU_SOURCE /* sigabbrev_np */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>

#include "pmopt.h"
#include "piout.h"

/* "PREFIX MESSAGE" on stderr, after the progress line is erased. */
static void say(const char *prefix, const char *fmt, va_list ap)
{
    pm_progress_clear();
    fputs(prefix, stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void pm_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say("pmopt: ", fmt, ap);
    va_end(ap);
}

void pm_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say("pmopt: note: ", fmt, ap);
    va_end(ap);
}

int pm_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("pmopt: ", stderr);
    if (cmd)
        fprintf(stderr, "%s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n(try 'pmopt %s%s--help')\n", cmd ? cmd : "", cmd ? " " : "");
    va_end(ap);
    return PM_USAGE;
}

const char *pm_one_operand(int argc, char **argv, const char *what, void (*help)(FILE *),
                           int *status)
{
    static const struct option opts[] = {
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'h') {
            help(stdout);
            *status = PM_OK;
        } else {
            *status = pm_usage_error(argv[0], "unknown option");
        }
        return NULL;
    }
    if (argc - optind != 1) {
        *status = pm_usage_error(argv[0], "expected one %s", what);
        return NULL;
    }
    return argv[optind];
}

const char *pm_no_link_why(const struct pi_meta *m)
{
    if (!m->nunits)
        return "";
    return "; it has perfinst units, so it was compiled with the plugin but linked without "
           "perfinst's link stage: its link had no -specs=.../perfinst.specs (pkg-config --libs "
           "perfinst), which libtool before 2.4.7 leaves out of a shared library's link "
           "(docs/adopting.md, libtool)";
}

const char *pm_basename(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

int pm_is_shared_lib(const char *path)
{
    const char *b = pm_basename(path);
    const char *so = strstr(b, ".so");
    return so && (so[3] == 0 || so[3] == '.');
}

const struct pi_trace_module *pm_match_module(const struct pi_trace *t, const uint8_t *id,
                                              uint32_t len)
{
    return pi_trace_find_module(t, id, len);
}

const struct pi_trace_module *pm_guess_module(const struct pi_trace *t, const char *prog)
{
    for (size_t i = 0; i < t->nmodules; i++)
        if (!strcmp(pm_basename(t->modules[i].path), pm_basename(prog)))
            return &t->modules[i];
    for (size_t i = 0; i < t->nmodules; i++)
        if (!pm_is_shared_lib(t->modules[i].path))
            return &t->modules[i];
    return t->nmodules ? &t->modules[0] : NULL;
}

FILE *pm_create(const char *path)
{
    struct pi_err err;
    if (pi_out_check(path, &err)) {
        pm_error("%s", err.msg);
        return NULL;
    }
    FILE *f = fopen(path, "w");
    if (!f)
        pm_error("%s: cannot create: %s", path, strerror(errno));
    return f;
}

/* What a LOST record means, in words (a static buffer). */
const char *pm_lost_text(const struct pi_rec_lost *l)
{
    static char buf[512];
    unsigned long long lost = l->lost, cap = l->capacity, items = l->items;
    const char *est = l->flags & PI_LOST_ESTIMATE ? "about " : "";
    switch (l->table) {
    case PI_LOST_WATCH:
        snprintf(buf, sizeof buf, "the runtime's table of watched words (%llu entries, "
                 "PERFINST_WATCH_WORDS) was full: %s%llu more word%s were not counted, %llu "
                 "access%s to them lost", cap, est, items, items == 1 ? "" : "s", lost,
                 lost == 1 ? "" : "es");
        break;
    case PI_LOST_SITESTAT:
        snprintf(buf, sizeof buf, "the runtime's table of indicator statistics (%llu entries, "
                 "PERFINST_SITESTATS) was full: %llu probe execution%s not counted", cap, lost,
                 lost == 1 ? "" : "s");
        break;
    case PI_LOST_EVENTS:
        snprintf(buf, sizeof buf, "the runtime kept %llu threshold events with their stacks "
                 "(PERFINST_EVENTS): %llu more were counted but not kept", cap, lost);
        break;
    case PI_LOST_TRACE_DEPTH:
        snprintf(buf, sizeof buf, "trace_start was nested deeper than %llu: %llu interval%s not "
                 "measured", cap, lost, lost == 1 ? "" : "s");
        break;
    case PI_LOST_PERF:
        snprintf(buf, sizeof buf, "the runtime's table of perf_event sums (%llu trace_start sites) "
                 "was full: %llu interval%s not recorded", cap, lost, lost == 1 ? "" : "s");
        break;
    case PI_LOST_FUNCTIONS:
        snprintf(buf, sizeof buf, "more than %llu functions with function probes were entered: "
                 "%llu entr%s not measured for combinations or dormant classes", cap, lost,
                 lost == 1 ? "y" : "ies");
        break;
    default:
        snprintf(buf, sizeof buf, "runtime table %u lost %llu", l->table, lost);
    }
    return buf;
}

const char *pm_trace_state(int finished, uint32_t flags)
{
    if (!finished)
        return "truncated";
    return flags & PI_TF_PARTIAL ? "partial" : "finished";
}

void pm_trace_notes(const struct pi_trace *t)
{
    if (t->truncated)
        pm_note("%s; counts up to there are used", t->warning);
    else if (t->warning[0])
        pm_note("%s", t->warning);
    if (t->nunknown)
        pm_note("%s: %u records of types this pmopt does not know were skipped", t->path,
                t->nunknown);
    if (t->hdr.flags & PI_TF_MODE_OFF)
        pm_note("%s: the process ran with PERFINST_MODE=off: nothing was counted while it was "
                "off but in functions compiled with one body (clean-copies=loops|none, setjmp)",
                t->path);
    if (t->hdr.flags & PI_TF_OVERLAY)
        pm_note("%s: a PERFINST_OVERLAY turned some functions off: they counted nothing", t->path);
    if ((t->hdr.flags & PI_TF_PARTIAL) && (t->hdr.flags & PI_TF_MERGED))
        pm_note("%s: partial: merged from traces of which some were partial (written while their "
                "process went on counting)", t->path);
    else if (t->hdr.flags & PI_TF_PARTIAL)
        pm_note("%s: partial: written while the process went on counting (PERFINST_FLUSH, "
                "perfinst_write_trace, or the last write failed): the counts up to then", t->path);
    for (uint32_t i = 1; i < PI_LOST_NTABLES; i++)
        if (t->lost[i].table)
            pm_note("%s: %s", t->path, pm_lost_text(&t->lost[i]));
    if (t->has_signal) {
        const char *name = t->signal.signo > 0 && t->signal.signo < NSIG
                               ? sigabbrev_np(t->signal.signo) : NULL;
        pm_note("%s: the process died of signal %d%s%s%s", t->path, t->signal.signo,
                name ? " (SIG" : "", name ? name : "", name ? ")" : "");
    }
}

/* Length of the valid UTF-8 sequence at p, or 0. */
static int utf8_len(const unsigned char *p)
{
    int n;
    if (p[0] < 0x80)
        return 1;
    if (p[0] >= 0xc2 && p[0] <= 0xdf)
        n = 2;
    else if (p[0] >= 0xe0 && p[0] <= 0xef)
        n = 3;
    else if (p[0] >= 0xf0 && p[0] <= 0xf4)
        n = 4;
    else
        return 0;
    for (int i = 1; i < n; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    /* no overlong forms, no surrogates, nothing above U+10FFFF */
    if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] >= 0xa0) ||
        (p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] >= 0x90))
        return 0;
    return n;
}

/* A JSON string; bytes that are not UTF-8 are written as the Latin-1
 * characters they would be, so the output always parses. */
void pm_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        int n = utf8_len(p);
        if (n > 1) {
            fwrite(p, 1, (size_t)n, f);
            p += n;
            continue;
        }
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\t': fputs("\\t", f); break;
        case '\r': fputs("\\r", f); break;
        default:
            if (*p < 0x20 || *p >= 0x7f)
                fprintf(f, "\\u%04x", *p);
            else
                fputc(*p, f);
        }
        p++;
    }
    fputc('"', f);
}

void pm_csv_str(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

uint64_t pm_sat_add(uint64_t a, uint64_t b)
{
    return a + b < a ? UINT64_MAX : a + b;
}

long pm_parse_pct(const char *s)
{
    long v = 0;
    int digits = 0, decimals = -1;
    for (const char *p = s; *p; p++) {
        if (*p == '.' && decimals < 0 && digits) {
            decimals = 0;
            continue;
        }
        if (*p < '0' || *p > '9' || decimals == 3 || v > 100 * 1000)
            return -1;
        v = v * 10 + (*p - '0');
        digits++;
        if (decimals >= 0)
            decimals++;
    }
    if (!digits || decimals == 0)
        return -1;
    for (int d = decimals < 0 ? 0 : decimals; d < 3; d++)
        v *= 10;
    return v > 0 && v <= 100 * 1000 ? v : -1;
}

int pm_sym_cmp(const void *a, const void *b)
{
    return strcmp(((const struct pm_sym *)a)->name, ((const struct pm_sym *)b)->name);
}

Elf *pm_elf_open(const char *path, int *fd)
{
    elf_version(EV_CURRENT);
    *fd = open(path, O_RDONLY | O_CLOEXEC);
    return *fd < 0 ? NULL : elf_begin(*fd, ELF_C_READ, NULL);
}

void pm_elf_close(Elf *e, int fd)
{
    if (e)
        elf_end(e);
    if (fd >= 0)
        close(fd);
}

int pm_elf_symbols(Elf *e, int type, struct pm_sym **v, size_t *n)
{
    struct pm_sym *s = NULL;
    size_t ns = 0, cap = 0;
    Elf_Scn *scn = NULL;
    *v = NULL;
    *n = 0;
    while ((scn = elf_nextscn(e, scn))) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
            continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        for (size_t k = 0; d && k < sh.sh_size / sh.sh_entsize; k++) {
            GElf_Sym sym;
            const char *nm;
            if (!gelf_getsym(d, (int)k, &sym) || GELF_ST_TYPE(sym.st_info) != type ||
                !sym.st_value || !(nm = elf_strptr(e, sh.sh_link, sym.st_name)))
                continue;
            if (pi_grow((void **)&s, &cap, ns, sizeof *s)) {
                free(s);
                return -1;
            }
            s[ns++] = (struct pm_sym){ nm, sym.st_value, sym.st_size, GELF_ST_BIND(sym.st_info) };
        }
    }
    if (ns)
        qsort(s, ns, sizeof *s, pm_sym_cmp);
    *v = s;
    *n = ns;
    return 0;
}

int rep_oom(void)
{
    pm_error("out of memory");
    return -1;
}

int rep_digits(uint64_t v)
{
    int d = 1;
    while (v >= 10) {
        v /= 10;
        d++;
    }
    return d;
}

const char *rep_pct(char *buf, size_t n, uint64_t v, uint64_t total)
{
    if (!total)
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%.1f%%", 100.0 * (double)v / (double)total);
    return buf;
}

int rep_widest(int have, int len, int cap)
{
    if (len > cap)
        len = cap;
    return len > have ? len : have;
}
