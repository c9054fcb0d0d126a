/* recs.c — the one writer of pmopt plan's recommendations (plan.h): each
 * planner writes through it, so a recommendation's kind and keys are the
 * ones common/pifeedback's table defines (checked here: a key the table
 * does not list is a bug of the planner, stopped before the file is
 * written), and its number is the same in the file and in the advice.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"

/* The kind being written and the table's keys for it. */
static const struct pifb_kind *current;

static void check_key(const char *key)
{
    if (current && pifb_kind_has_key(current, key))
        return;
    fprintf(stderr, "pmopt: internal error: key '%s' is not one of %s's (common/pifeedback.c)\n",
            key, current ? current->name : "an unknown kind");
    abort();
}

static void begin(struct pifb_writer *w, const char *kind)
{
    current = pifb_kind(kind);
    if (!current) {
        fprintf(stderr, "pmopt: internal error: '%s' is not a kind of common/pifeedback.c\n", kind);
        abort();
    }
    if (w)
        pifb_rec_begin(w, kind);
}

static void arg(struct pifb_writer *w, const char *key, const char *value)
{
    check_key(key);
    if (w)
        pifb_arg(w, key, value);
}

uint32_t plan_begin(struct plan *p, const char *kind)
{
    begin(p->w, kind);
    return ++p->number;
}

void plan_arg(struct plan *p, const char *key, const char *value)
{
    arg(p->w, key, value);
}

void plan_arg_u64(struct plan *p, const char *key, uint64_t value)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)value);
    arg(p->w, key, buf);
}

void plan_arg_hex(struct plan *p, const char *key, uint64_t value)
{
    char buf[24];
    snprintf(buf, sizeof buf, "0x%016llx", (unsigned long long)value);
    plan_arg(p, key, buf);
}

/* U's variant: the producer's "variant=HEX" (gcc-plugin/unit.cc,
 * pi_unit_variant), or 0 (a unit of a plugin before it) */
uint64_t plan_unit_variant(const struct pi_unit_view *u)
{
    const char *s = strstr(pi_unit_str(u, u->hdr.producer), " variant=");
    return s ? strtoull(s + 9, NULL, 16) : 0;
}

void plan_arg_src(struct plan *p, const struct pi_unit_view *u)
{
    const char *src = pi_unit_str(u, u->hdr.source);
    plan_arg(p, "src", src);
    uint64_t v = plan_unit_variant(u);
    if (!v || !p->md)
        return;
    const struct pi_meta *m = &p->md->m;
    for (size_t i = 0; i < m->nunits; i++) {
        const struct pi_unit_view *o = &m->units[i];
        if (o != u && plan_unit_variant(o) != v && !strcmp(pi_unit_str(o, o->hdr.source), src)) {
            plan_arg_hex(p, "variant", v);
            return;
        }
    }
}

/* A function's CFG key: its checksum, and at=late when its sites were
 * taken after the early inliner (the rebuild applies the record there) */
void plan_arg_cfg(struct plan *p, const struct pi_func *fn)
{
    plan_arg_hex(p, "checksum", fn->cfg_checksum);
    if (fn->directives & PI_FUNC_LATE)
        plan_arg(p, "at", "late");
}

void plan_end(struct plan *p)
{
    if (p->w)
        pifb_rec_end(p->w);
}

void plan_advice(struct plan *p, uint32_t n, const char *fmt, ...)
{
    char text[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (p->advice) {
        fprintf(p->advice, "%u. %s\n", n, text);
    } else if (p->w) {
        char line[2100];
        snprintf(line, sizeof line, "%u. %s", n, text);
        pifb_comment(p->w, line);
    }
}

void plan_rec(struct pifb_writer *w, uint32_t *number, const char *kind, const char *comment,
              const char *const *kv)
{
    begin(NULL, kind);
    for (size_t i = 0; kv[i]; i += 2)
        check_key(kv[i]);
    if (w) {
        pifb_comment(w, comment);
        pifb_rec_begin(w, kind);
        for (size_t i = 0; kv[i]; i += 2)
            pifb_arg(w, kv[i], kv[i + 1]);
        pifb_rec_end(w);
        ++*number; /* the writer numbers the same way (pmopt plan --rebuild counts on) */
        return;
    }
    printf("%u. %s: %s\n", ++*number, kind, comment);
    for (size_t i = 0; kv[i]; i += 2)
        printf("     %s=%.200s%s\n", kv[i], kv[i + 1], strlen(kv[i + 1]) > 200 ? "..." : "");
}
