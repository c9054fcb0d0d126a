/* overlay.c — turning instrumented functions on and off at load time,
 * without recompiling and without touching .text (seed 004 M9/M11: the
 * metadata that says which items the hardware counts lives outside the
 * program, and the loader prepares it).
 *
 * Every function the plugin split into a counting and a clean copy tests
 * its own switch byte at entry (gcc-plugin/pass-split.cc); the runtime sets
 * the switch to  mode register AND overlay.  PERFINST_OVERLAY names a text
 * file, read once at start-up:
 *
 *     perfinst-overlay 1
 *     # a comment
 *     off 0x5c1f0e2a9b3d4c77 3      function 3 of that unit (pmopt dump-meta numbers them)
 *     off 0x5c1f0e2a9b3d4c77 *      every function of the unit
 *     on  0x5c1f0e2a9b3d4c77 3      later lines win
 *
 * A function that is off runs its clean copy: its blocks count nothing and
 * its probes do not run.  A file that cannot be read, a wrong header or a
 * malformed line is reported once on stderr (file:line and what is wrong)
 * and the line is not applied.  So is a rule that cannot apply: a function
 * number the unit does not have (said when the unit registers), and a unit
 * id no module of the process registered (said at exit) — an overlay
 * written for another build of the program.
 */
#include "runtime.h"
#include "piformat.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


struct overlay_rule {
    uint64_t unit_id;
    uint32_t func;   /* or PI_OVERLAY_ALL */
    int on;
    unsigned line;   /* in the file, for messages */
    int unit_seen;   /* a unit with this id registered */
};
static struct overlay_rule *rules;
static uint32_t nrules;
static int active;
static char overlay_path[256];
static pid_t overlay_pid; /* the process that read the file (a fork child does not repeat its notes) */

int pi_overlay_active(void)
{
    return active;
}

int pi_overlay_on(uint64_t unit_id, uint32_t func)
{
    int on = 1;
    for (uint32_t i = 0; i < nrules; i++)
        if (rules[i].unit_id == unit_id && (rules[i].func == PI_OVERLAY_ALL || rules[i].func == func))
            on = rules[i].on;
    return on;
}

static void bad_line(const char *path, unsigned line, const char *what)
{
    char n[24];
    pi_say("perfinst: PERFINST_OVERLAY ", path, ":", pi_fmt_u64(n, line, 10), ": ", what,
           " (expected: on|off UNIT_ID FUNCTION|*); line ignored\n", NULL);
}

/* The file's lines (common/piformat.c decodes each). */
static void parse(const char *path, char *text)
{
    unsigned line = 0;
    int header = 0;
    for (char *p = text, *next; p && *p; p = next) {
        next = strchr(p, '\n');
        if (next)
            *next++ = 0;
        line++;
        struct pi_overlay_rule r;
        const char *why;
        int got = pi_overlay_line(p, !header, &r, &why);
        if (got < 0) {
            bad_line(path, line, why);
            if (!header)
                return;
            continue;
        }
        if (!got)
            continue;
        if (!header) {
            header = 1;
            continue;
        }
        if (nrules == PI_OVERLAY_MAX_RULES) {
            bad_line(path, line, "too many rules");
            return;
        }
        rules[nrules++] = (struct overlay_rule){r.unit_id, r.func, r.on, line, 0};
    }
    if (!header)
        bad_line(path, line ? line : 1, "empty file");
}

/* Replace the rules by those of text (NUL-terminated; modified in place).
 * pi_overlay_init's parser, separate so that tests/runtime/fuzz-runtime.c
 * can feed it text directly. */
void pi_overlay_parse(const char *path, char *text)
{
    if (!rules && !(rules = calloc(PI_OVERLAY_MAX_RULES, sizeof *rules)))
        return;
    nrules = 0;
    size_t n = strlen(path);
    if (n >= sizeof overlay_path)
        n = sizeof overlay_path - 1;
    memcpy(overlay_path, path, n);
    overlay_path[n] = 0;
    overlay_pid = getpid();
    parse(path, text);
    active = nrules > 0;
}

static void rule_unused(unsigned line, const char *what)
{
    char n[24];
    pi_say("perfinst: PERFINST_OVERLAY ", overlay_path, ":", pi_fmt_u64(n, line, 10), ": ", what,
           "; rule not applied\n", NULL);
}

/* A unit registered its nfuncs switches (pi.lock held): the rules naming a
 * function it does not have are said, once (a later registration of the
 * same unit, after dlclose and dlopen, has the same functions). */
void pi_overlay_check_unit(uint64_t unit_id, uint32_t nfuncs)
{
    for (uint32_t i = 0; i < nrules; i++) {
        struct overlay_rule *r = &rules[i];
        if (r->unit_id != unit_id || r->unit_seen)
            continue;
        r->unit_seen = 1;
        if (r->func != PI_OVERLAY_ALL && r->func >= nfuncs) {
            char f[24], u[24], m[24];
            char what[128];
            what[0] = 0;
            strcat(what, "function ");
            strcat(what, pi_fmt_u64(f, r->func, 10));
            strcat(what, " is not in unit 0x");
            strcat(what, pi_fmt_unit(u, unit_id));
            strcat(what, " (it has ");
            strcat(what, pi_fmt_u64(m, nfuncs, 10));
            strcat(what, ")");
            rule_unused(r->line, what);
        }
    }
}

/* At exit (pi.lock held): the rules whose unit no module registered. */
void pi_overlay_report_unmatched_locked(void)
{
    if (!nrules || overlay_pid != getpid())
        return;
    for (uint32_t i = 0; i < nrules; i++) {
        int seen = rules[i].unit_seen;
        for (struct pi_unit_rt *u = pi.units; u && !seen; u = u->next)
            seen = u->unit_id == rules[i].unit_id;
        if (seen)
            continue;
        char u[24];
        char what[96];
        what[0] = 0;
        strcat(what, "no module of the program has unit 0x");
        strcat(what, pi_fmt_unit(u, rules[i].unit_id));
        strcat(what, " (an overlay of another build?)");
        rule_unused(rules[i].line, what);
    }
    nrules = 0;
}

void pi_overlay_init(void)
{
    const char *path = secure_getenv("PERFINST_OVERLAY");
    if (!path || !*path)
        return;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        pi_say("perfinst: PERFINST_OVERLAY ", path, ": ", strerror(errno), "; no overlay applied\n", NULL);
        return;
    }
    size_t cap = PI_OVERLAY_MAX_BYTES + 1, len = 0;
    char *text = malloc(cap + 1);
    rules = calloc(PI_OVERLAY_MAX_RULES, sizeof *rules);
    ssize_t r;
    while (text && rules && (r = read(fd, text + len, cap - len)) > 0) {
        len += (size_t)r;
        if (len == cap) {
            pi_say("perfinst: PERFINST_OVERLAY ", path, ": larger than 64 KiB; no overlay applied\n", NULL);
            len = 0;
            break;
        }
    }
    close(fd);
    if (text && rules && len) {
        text[len] = 0;
        pi_overlay_parse(path, text);
    }
    free(text);
}
