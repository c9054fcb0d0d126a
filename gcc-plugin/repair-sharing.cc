/* repair-sharing.cc — false sharing repaired on a feedback rebuild
 * (-fplugin-arg-perfinst-feedback=FILE written by `pmopt plan --sharing`;
 * docs/sharing.md "Repair").  Two kinds are applied here, in the front end,
 * before anything is laid out or emitted:
 *
 *   align-global name=VAR        a falsely shared global gets lines of its
 *                                own: aligned to 64, its size rounded up to
 *                                whole lines, in the section
 *                                .data.perfinst_sharing (.bss.… when it is
 *                                zero-initialised) — the seeds' "separate
 *                                memory area" for falsely shared data.
 *         long hits_a;      →    long hits_a __attribute__((aligned(64),
 *                                     section(".bss.perfinst_sharing")));  + 56 bytes of padding
 *
 *   pad-field type=S field=F     struct S's field F starts a line (its
 *                                DECL_ALIGN is 64 bytes); field=* aligns the
 *                                first field, so the struct's alignment and
 *                                size — an array's stride — are whole lines.
 *         struct acc { long sx; ... };  →  struct acc { long sx __attribute__((aligned(64))); ... };
 *
 * pad-field changes the type's layout: every unit that uses S must be built
 * with the same feedback file (the plan says so).  The third kind,
 * align-alloc, is applied to allocation calls in pass-sharing.cc.
 */
#include "plugin.h"
#include "pifeedback.h"

#define LINE_BYTES 64

static bool named(tree decl, const char *name)
{
    return decl && DECL_NAME(decl) && strcmp(IDENTIFIER_POINTER(DECL_NAME(decl)), name) == 0;
}

static void finish_decl(void *gcc_data, void *)
{
    tree decl = (tree)gcc_data;
    if (!decl || !VAR_P(decl) || DECL_EXTERNAL(decl) || !TREE_STATIC(decl) || DECL_THREAD_LOCAL_P(decl))
        return;
    unsigned it = 0;
    while (const struct pifb_rec *r = pi_feedback_next("align-global", &it)) {
        const char *name = pifb_get(r, "name");
        if (!name || !named(decl, name))
            continue;
        if (DECL_ALIGN_UNIT(decl) < LINE_BYTES) {
            SET_DECL_ALIGN(decl, LINE_BYTES * BITS_PER_UNIT);
            DECL_USER_ALIGN(decl) = 1;
        }
        tree size = DECL_SIZE_UNIT(decl);
        if (size && tree_fits_uhwi_p(size)) {
            unsigned HOST_WIDE_INT n = tree_to_uhwi(size), padded = (n + LINE_BYTES - 1) / LINE_BYTES * LINE_BYTES;
            if (padded != n) {
                DECL_SIZE_UNIT(decl) = size_int(padded);
                DECL_SIZE(decl) = bitsize_int(padded * BITS_PER_UNIT);
            }
        }
        if (!DECL_SECTION_NAME(decl)) {
            bool zero = !DECL_INITIAL(decl) || initializer_zerop(DECL_INITIAL(decl));
            set_decl_section_name(decl, zero ? ".bss.perfinst_sharing" : ".data.perfinst_sharing");
        }
        if (pi_opt.verbose)
            inform(DECL_SOURCE_LOCATION(decl), "perfinst: %s:%u: %qD aligned and padded to its own cache lines",
                   pi_feedback_path(), r->line, decl);
        return;
    }
}

/* Lay RECORD out again after its fields' alignments changed; its variants
 * follow. */
static void relayout(tree type)
{
    TYPE_SIZE(type) = NULL_TREE;
    TYPE_SIZE_UNIT(type) = NULL_TREE;
    for (tree f = TYPE_FIELDS(type); f; f = DECL_CHAIN(f))
        if (TREE_CODE(f) == FIELD_DECL) {
            DECL_FIELD_OFFSET(f) = NULL_TREE;
            DECL_FIELD_BIT_OFFSET(f) = NULL_TREE;
        }
    layout_type(type);
    for (tree v = TYPE_MAIN_VARIANT(type); v; v = TYPE_NEXT_VARIANT(v)) {
        if (v == type)
            continue;
        TYPE_SIZE(v) = TYPE_SIZE(type);
        TYPE_SIZE_UNIT(v) = TYPE_SIZE_UNIT(type);
        SET_TYPE_ALIGN(v, TYPE_ALIGN(type));
        TYPE_USER_ALIGN(v) = TYPE_USER_ALIGN(type);
        SET_TYPE_MODE(v, TYPE_MODE(type));
    }
}

static const char *type_name(tree t)
{
    tree n = TYPE_NAME(t);
    if (!n)
        return NULL;
    if (TREE_CODE(n) == TYPE_DECL)
        n = DECL_NAME(n);
    return n && TREE_CODE(n) == IDENTIFIER_NODE ? IDENTIFIER_POINTER(n) : NULL;
}

static void finish_type(void *gcc_data, void *)
{
    tree t = (tree)gcc_data;
    if (!t || TREE_CODE(t) != RECORD_TYPE || !COMPLETE_TYPE_P(t))
        return;
    const char *tn = type_name(t);
    if (!tn)
        return;
    bool changed = false;
    unsigned it = 0;
    while (const struct pifb_rec *r = pi_feedback_next("pad-field", &it)) {
        const char *type = pifb_get(r, "type"), *field = pifb_get(r, "field");
        if (!type || !field || strcmp(type, tn) != 0)
            continue;
        tree f = NULL_TREE;
        for (tree x = TYPE_FIELDS(t); x; x = DECL_CHAIN(x))
            if (TREE_CODE(x) == FIELD_DECL && (strcmp(field, "*") == 0 || named(x, field))) {
                f = x;
                break;
            }
        if (!f) {
            warning(0, "perfinst: %s:%u: struct %qs has no field %qs; recommendation %u ignored",
                    pi_feedback_path(), r->line, tn, field, r->number);
            continue;
        }
        if (DECL_BIT_FIELD(f)) {
            warning(0, "perfinst: %s:%u: %qs.%qs is a bit-field; recommendation %u ignored", pi_feedback_path(),
                    r->line, tn, field, r->number);
            continue;
        }
        if (DECL_ALIGN_UNIT(f) < LINE_BYTES) {
            SET_DECL_ALIGN(f, LINE_BYTES * BITS_PER_UNIT);
            DECL_USER_ALIGN(f) = 1;
            changed = true;
        }
    }
    if (!changed)
        return;
    relayout(t);
    if (pi_opt.verbose)
        inform(input_location, "perfinst: struct %qs laid out again with fields on their own cache lines (%wu bytes)",
               tn, tree_to_uhwi(TYPE_SIZE_UNIT(t)));
}

void pi_sharing_repair_register(const char *plugin_name)
{
    if (!pi_feedback_path())
        return;
    register_callback(plugin_name, PLUGIN_FINISH_DECL, finish_decl, NULL);
    register_callback(plugin_name, PLUGIN_FINISH_TYPE, finish_type, NULL);
}
