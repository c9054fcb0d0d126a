/* feedback.cc — -fplugin-arg-perfinst-feedback=FILE: load a `pmopt plan`
 * feedback file once (common/pifeedback, the format's one reader), keep the
 * recommendations -fplugin-arg-perfinst-feedback-only=LIST selects, and hand
 * them out by kind to the passes that apply them.  docs/formats.md
 * ("Feedback files") has the format; each kind is documented with the
 * feature that writes and applies it. */
#include "plugin.h"
#include "pifeedback.h"

static struct pifb_file fb;
static bool loaded;

/* The kinds some pass of this plugin applies.  A recommendation of another
 * kind is reported once and ignored (a newer plan, or one meant for
 * `pmopt relink` only). */
static const char *const applied_kinds[] = {
    "align-global", /* repair-sharing.cc */
    "pad-field",    /* repair-sharing.cc */
    "align-alloc",  /* pass-sharing.cc */
    "pad-array",    /* repair-arrays.cc */
    "branch-profile", /* pass-feedback.cc: block and edge counts */
    "function-tier",  /* pass-feedback.cc: .text.hot / .text.unlikely */
    "promote-call",   /* pass-promote.cc: speculative direct calls */
    NULL,
};

/* Kinds that only `pmopt relink` applies: accepted silently. */
static const char *const relink_kinds[] = {
    "order-functions", /* pmopt relink (docs/layout.md) */
    "order-data",
    "reserve",
    "reserve-data",
    NULL,
};

static bool in_list(const char *const *list, const char *kind)
{
    for (; *list; list++)
        if (strcmp(*list, kind) == 0)
            return true;
    return false;
}

bool pi_feedback_load(const char *only)
{
    struct pi_err err;
    if (!pi_opt.feedback) {
        if (only) {
            error("perfinst: %<-fplugin-arg-perfinst-feedback-only%> needs "
                  "%<-fplugin-arg-perfinst-feedback=FILE%>");
            return false;
        }
        return true;
    }
    if (pifb_read(pi_opt.feedback, &fb, &err) < 0 ||
        (only && pifb_select(&fb, only, &err) < 0)) {
        error("perfinst: %s", err.msg);
        pifb_free(&fb);
        return false;
    }
    for (uint32_t r = 0; r < fb.nrecs; r++) {
        const struct pifb_rec *rec = &fb.recs[r];
        if (!in_list(applied_kinds, rec->kind) && !in_list(relink_kinds, rec->kind))
            warning(0, "perfinst: %s:%u: recommendation %u (%qs) is not one this plugin "
                    "applies; ignored", fb.path, rec->line, rec->number, rec->kind);
    }
    loaded = true;
    return true;
}

const struct pifb_rec *pi_feedback_next(const char *kind, unsigned *iter)
{
    if (!loaded)
        return NULL;
    while (*iter < fb.nrecs) {
        const struct pifb_rec *rec = &fb.recs[(*iter)++];
        if (strcmp(rec->kind, kind) == 0)
            return rec;
    }
    return NULL;
}

const char *pi_feedback_path(void)
{
    return loaded ? fb.path : NULL;
}
