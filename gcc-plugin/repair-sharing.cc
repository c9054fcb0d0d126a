/* repair-sharing.cc — false sharing repaired on a feedback rebuild
 * (-fplugin-arg-perfinst-feedback=FILE written by `pmopt plan --sharing`;
 * docs/sharing.md "Repair"), and the account of what the rebuild did.
 *
 * Two kinds are applied here, in the front end, before anything is laid
 * out or emitted:
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
 *                                S is the struct's tag or, for a struct
 *                                without one, the typedef that names it
 *                                (`typedef struct { ... } acc_t;`: padded
 *                                when the typedef is declared).
 *
 * pad-field changes the type's layout: every unit that uses S must be built
 * with the same feedback file (the plan says so).  align-alloc is applied
 * to allocation calls in pass-sharing.cc, pad-array in repair-arrays.cc.
 *
 * The ledger.  Every sharing recommendation is applied or, in a unit that
 * has what it names, reported as not applied with the reason (a warning
 * naming the feedback file's line).  Recommendations that depend on each
 * other carry group=G members=N (pad-field with the align-alloc of the
 * array it pads): a member is applied only when its whole group is
 * present (not cut by -fplugin-arg-perfinst-feedback-only) and, for the
 * allocation, when the padding was applied in the same unit; a unit that
 * applied part of a group and could not apply the rest is an error — a
 * half repair can make the program slower (the padding alone leaves the
 * elements straddling lines; the alignment alone can move two threads'
 * data onto one line).  At the end of the unit the ledger goes into the
 * non-allocated section .perfinst_share_applied (docs/formats.md):
 *
 *     pi-share-rec N KIND KEY              each sharing recommendation of the plan
 *     pi-share-applied N UNIT              applied in this unit
 *     pi-share-not-applied N UNIT REASON   this unit had what it names but could not
 *
 * which `pmopt plan --sharing --check REPAIRED TRACE` reads to say which
 * recommendation no unit applied.
 */
#include "plugin.h"
#include "pifeedback.h"
#include <string>

#define LINE_BYTES 64
#define APPLIED_SECTION ".perfinst_share_applied"

/* ---- the names of anonymous structs ------------------------------------- */

/* Structs without a tag and the typedef that names them: the struct is
 * complete before its typedef is declared, so its name is known only then. */
struct anon_name {
    tree rec;
    const char *name;
};
static vec<anon_name> anon_names;

static const char *typedef_name(tree rec)
{
    for (unsigned i = 0; i < anon_names.length(); i++)
        if (anon_names[i].rec == rec)
            return anon_names[i].name;
    return NULL;
}

static const char *tag_name(tree t)
{
    tree n = TYPE_NAME(t);
    if (!n)
        return NULL;
    if (TREE_CODE(n) == TYPE_DECL)
        n = DECL_NAME(n);
    return n && TREE_CODE(n) == IDENTIFIER_NODE ? IDENTIFIER_POINTER(n) : NULL;
}

const char *pi_sharing_struct_name(tree type)
{
    if (!type)
        return NULL;
    tree m = TYPE_MAIN_VARIANT(type);
    const char *n = tag_name(m);
    if (n)
        return n;
    if (TYPE_NAME(type) != TYPE_NAME(m) && (n = tag_name(type))) /* a typedef variant at the access */
        return n;
    return typedef_name(m);
}

/* ---- the ledger ------------------------------------------------------------- */

struct entry {
    const struct pifb_rec *rec;
    bool applied;
    char *reason;             /* not applied in this unit: why (xstrdup'ed), or NULL */
};
static vec<entry> ledger;
static bool ledger_ready;

static void ledger_init(void)
{
    if (ledger_ready)
        return;
    ledger_ready = true;
    for (const char *k : {PIFB_ALIGN_GLOBAL, PIFB_ALIGN_ALLOC, PIFB_PAD_FIELD, PIFB_PAD_ARRAY}) {
        unsigned it = 0;
        while (const struct pifb_rec *r = pi_feedback_next(k, &it)) {
            entry e = {r, false, NULL};
            ledger.safe_push(e);
        }
    }
}

static entry *find_entry(const struct pifb_rec *r)
{
    ledger_init();
    for (unsigned i = 0; i < ledger.length(); i++)
        if (ledger[i].rec == r)
            return &ledger[i];
    return NULL;
}

void pi_sharing_applied(const struct pifb_rec *r)
{
    entry *e = find_entry(r);
    if (e)
        e->applied = true;
}

void pi_sharing_not_applied(const struct pifb_rec *r, location_t loc, const char *why)
{
    entry *e = find_entry(r);
    if (!e || e->applied || e->reason)
        return; /* (said once) */
    e->reason = xstrdup(why);
    warning_at(loc, OPT_Wmissing_profile, "perfinst: %s:%u: recommendation %u (%s) not applied: %s", pi_feedback_path(), r->line,
               r->number, r->kind, why);
}

static uint64_t group_of(const struct pifb_rec *r, uint64_t *members)
{
    uint64_t g = 0;
    *members = 0;
    if (pifb_get_u64(r, "group", &g) || pifb_get_u64(r, "members", members))
        return 0;
    return g;
}

bool pi_sharing_group_ready(const struct pifb_rec *r, bool need_padding, char *why, size_t n)
{
    uint64_t members, g = group_of(r, &members);
    if (!g)
        return true;
    ledger_init();
    uint64_t present = 0;
    for (unsigned i = 0; i < ledger.length(); i++) {
        uint64_t m, gi = group_of(ledger[i].rec, &m);
        if (gi != g)
            continue;
        present++;
        if (need_padding && !strcmp(ledger[i].rec->kind, PIFB_PAD_FIELD) && !ledger[i].applied) {
            snprintf(why, n, "it depends on recommendation %u (pad-field type=%s), which this unit did not apply%s%s",
                     ledger[i].rec->number, pifb_get(ledger[i].rec, "type") ? pifb_get(ledger[i].rec, "type") : "?",
                     ledger[i].reason ? ": " : "", ledger[i].reason ? ledger[i].reason : "");
            return false;
        }
    }
    if (present != members) {
        snprintf(why, n, "it is one of %llu recommendations applied together (group %llu), and "
                 "-fplugin-arg-perfinst-feedback-only left %llu of them out",
                 (unsigned long long)members, (unsigned long long)g, (unsigned long long)(members - present));
        return false;
    }
    return true;
}

/* What a recommendation names, for the ledger's lines. */
static std::string key_of(const struct pifb_rec *r)
{
    const char *k = r->kind;
    auto get = [r](const char *key) { const char *v = pifb_get(r, key); return std::string(v ? v : "?"); };
    if (!strcmp(k, PIFB_ALIGN_GLOBAL))
        return "name=" + get("name");
    if (!strcmp(k, PIFB_PAD_ARRAY))
        return "name=" + get("name") + " file=" + get("file");
    if (!strcmp(k, PIFB_PAD_FIELD))
        return "type=" + get("type") + " field=" + get("field");
    return "func=" + get("func") + " file=" + get("file") + " line=" + get("line");
}

static void put_line(std::string &s, const std::string &line)
{
    s += "\t.ascii \"";
    for (char c : line)
        if (c == '"' || c == '\\' || (unsigned char)c < 0x20 || (unsigned char)c >= 0x7f)
            s += '?';
        else
            s += c;
    s += "\\n\"\n";
}

/* The end of the unit: half-applied groups are errors; the ledger goes into
 * the object. */
void pi_sharing_repair_finish(void)
{
    static bool done;
    if (done || !pi_feedback_path() || !asm_out_file || seen_error())
        return;
    done = true;
    pi_sharing_alloc_finish();
    ledger_init();
    for (unsigned i = 0; i < ledger.length(); i++) {
        uint64_t m, g = group_of(ledger[i].rec, &m);
        if (!g || !ledger[i].applied)
            continue;
        for (unsigned j = 0; j < ledger.length(); j++) {
            uint64_t mj;
            if (group_of(ledger[j].rec, &mj) == g && !ledger[j].applied && ledger[j].reason)
                error("perfinst: %s: recommendations %u and %u are applied together or not at all (group %llu), "
                      "and this unit applied %u but not %u: %s; leave the group out with "
                      "%<-fplugin-arg-perfinst-feedback-only%> or fix what stops it",
                      pi_feedback_path(), ledger[i].rec->number, ledger[j].rec->number, (unsigned long long)g,
                      ledger[i].rec->number, ledger[j].rec->number, ledger[j].reason);
        }
    }
    if (seen_error() || !ledger.length())
        return;
    const char *unit = main_input_filename ? lbasename(main_input_filename) : "?";
    std::string s = "\t.pushsection " APPLIED_SECTION ",\"\",@progbits\n";
    for (unsigned i = 0; i < ledger.length(); i++) {
        const struct pifb_rec *r = ledger[i].rec;
        char num[16];
        snprintf(num, sizeof num, "%u", r->number);
        put_line(s, std::string("pi-share-rec ") + num + " " + r->kind + " " + key_of(r));
        if (ledger[i].applied)
            put_line(s, std::string("pi-share-applied ") + num + " " + unit);
        else if (ledger[i].reason)
            put_line(s, std::string("pi-share-not-applied ") + num + " " + unit + " " + ledger[i].reason);
    }
    s += "\t.popsection\n";
    fputs(s.c_str(), asm_out_file);
}

/* ---- align-global --------------------------------------------------------- */

static bool named(tree decl, const char *name)
{
    return decl && DECL_NAME(decl) && strcmp(IDENTIFIER_POINTER(DECL_NAME(decl)), name) == 0;
}

static void align_global(tree decl)
{
    unsigned it = 0;
    while (const struct pifb_rec *r = pi_feedback_next(PIFB_ALIGN_GLOBAL, &it)) {
        const char *name = pifb_get(r, "name");
        if (!name || !named(decl, name))
            continue;
        if (DECL_THREAD_LOCAL_P(decl)) {
            pi_sharing_not_applied(r, DECL_SOURCE_LOCATION(decl), "it is thread-local");
            continue;
        }
        if (DECL_SECTION_NAME(decl) && strncmp(DECL_SECTION_NAME(decl), ".data.perfinst_sharing", 22) &&
            strncmp(DECL_SECTION_NAME(decl), ".bss.perfinst_sharing", 21)) {
            pi_sharing_not_applied(r, DECL_SOURCE_LOCATION(decl), "it has a section of its own");
            continue;
        }
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
        pi_sharing_applied(r);
        if (pi_opt.verbose)
            inform(DECL_SOURCE_LOCATION(decl), "perfinst: %s:%u: %qD aligned and padded to its own cache lines",
                   pi_feedback_path(), r->line, decl);
        return;
    }
}

/* ---- pad-field ------------------------------------------------------------------ */

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

/* The pad-field recommendations naming tn, applied to struct t (complete,
 * not laid out into anything yet). */
static void pad_fields(tree t, const char *tn, location_t loc)
{
    bool changed = false;
    unsigned it = 0;
    while (const struct pifb_rec *r = pi_feedback_next(PIFB_PAD_FIELD, &it)) {
        const char *type = pifb_get(r, "type"), *field = pifb_get(r, "field");
        if (!type || !field || strcmp(type, tn) != 0)
            continue;
        char why[512];
        if (TREE_CODE(t) != RECORD_TYPE) {
            pi_sharing_not_applied(r, loc, "it names a union");
            continue;
        }
        if (!pi_sharing_group_ready(r, false, why, sizeof why)) {
            pi_sharing_not_applied(r, loc, why);
            continue;
        }
        tree f = NULL_TREE;
        for (tree x = TYPE_FIELDS(t); x; x = DECL_CHAIN(x))
            if (TREE_CODE(x) == FIELD_DECL && (strcmp(field, "*") == 0 || named(x, field))) {
                f = x;
                break;
            }
        if (!f) {
            snprintf(why, sizeof why, "struct %s has no field %s", tn, field);
            pi_sharing_not_applied(r, loc, why);
            continue;
        }
        if (DECL_BIT_FIELD(f)) {
            snprintf(why, sizeof why, "%s.%s is a bit-field", tn, field);
            pi_sharing_not_applied(r, loc, why);
            continue;
        }
        if (DECL_ALIGN_UNIT(f) < LINE_BYTES) {
            SET_DECL_ALIGN(f, LINE_BYTES * BITS_PER_UNIT);
            DECL_USER_ALIGN(f) = 1;
            changed = true;
        }
        pi_sharing_applied(r);
    }
    if (!changed)
        return;
    relayout(t);
    if (pi_opt.verbose)
        inform(loc, "perfinst: struct %qs laid out again with fields on their own cache lines (%wu bytes)", tn,
               tree_to_uhwi(TYPE_SIZE_UNIT(t)));
}

static void finish_type(void *gcc_data, void *)
{
    tree t = (tree)gcc_data;
    if (!t || !RECORD_OR_UNION_TYPE_P(t) || !COMPLETE_TYPE_P(t))
        return;
    const char *tn = tag_name(t);
    if (tn)
        pad_fields(t, tn, input_location);
}

static void finish_decl(void *gcc_data, void *)
{
    tree decl = (tree)gcc_data;
    if (!decl)
        return;
    /* typedef struct { ... } T;: the struct gets T's name (and its padding) now */
    if (TREE_CODE(decl) == TYPE_DECL && DECL_NAME(decl) && DECL_ORIGINAL_TYPE(decl)) {
        tree m = TYPE_MAIN_VARIANT(DECL_ORIGINAL_TYPE(decl));
        if (RECORD_OR_UNION_TYPE_P(m) && !tag_name(m) && !typedef_name(m)) {
            anon_name a = {m, IDENTIFIER_POINTER(DECL_NAME(decl))};
            anon_names.safe_push(a);
            if (pi_feedback_path() && COMPLETE_TYPE_P(m))
                pad_fields(m, a.name, DECL_SOURCE_LOCATION(decl));
        }
        return;
    }
    if (!pi_feedback_path() || !VAR_P(decl) || DECL_EXTERNAL(decl) || !TREE_STATIC(decl))
        return;
    align_global(decl);
}

void pi_sharing_repair_register(const char *plugin_name)
{
    /* (the typedef names of anonymous structs are wanted by detection too:
     * the probes name the fields they access) */
    register_callback(plugin_name, PLUGIN_FINISH_DECL, finish_decl, NULL);
    if (pi_feedback_path())
        register_callback(plugin_name, PLUGIN_FINISH_TYPE, finish_type, NULL);
}
