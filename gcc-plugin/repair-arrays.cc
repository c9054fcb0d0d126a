/* repair-arrays.cc — arrays of scalars padded apart on a feedback rebuild
 * (`pad-array`, written by `pmopt plan --sharing`; docs/sharing.md
 * "Repair"), and the facts the plan needs to decide it.
 *
 * Threads writing different elements of one array of scalars (`long
 * c[2]`, `bool flag[NTHREADS]`, `unsigned hist[NTHREADS][8]`) share lines
 * because of the language's element stride.  The stride can change without
 * a source change when nothing can see it: the array has no initializer
 * and every use in this unit is an index — c[i] read or written, or &c[i]
 * used only to access that one element (dereferenced, or the pointer of an
 * __atomic or __sync builtin).  Then
 *
 *     static volatile long c[2];            c[me] = c[me] + 1;
 *  →  static struct { volatile long v; } __attribute__((aligned(64))) c[2];
 *                                           c[me].v = c[me].v + 1;
 *
 * the array's type becomes an array of line-aligned, line-sized elements
 * (element size rounded up to whole lines) and every ARRAY_REF of it the
 * padded element's field: no two elements share a line.  A global array
 * (visible to other units) is also renamed, NAME.perfinst_padded, so that
 * another unit that indexes it with the old stride fails to link instead
 * of reading the wrong bytes.  An array whose address escapes (passed to a
 * function, stored, pointer arithmetic) is refused: the reason goes into
 * the plan (below) and, if a pad-array names it anyway, a warning.
 *
 * The pass runs once per unit (a simple IPA pass after the functions went
 * into SSA, before any optimisation), so every function's uses are seen
 * before one is changed.  In a build with sharing detection it also
 * writes, for every static or global array of scalars, a line
 *
 *     pi-share-array NAME FILE LINE ELEMENT-SIZE COUNT ok [public]
 *     pi-share-array NAME FILE LINE ELEMENT-SIZE COUNT refused REASON
 *
 * into the non-allocated section .perfinst_share_arrays (ld concatenates
 * them; docs/formats.md): what `pmopt plan --sharing` reads to recommend
 * pad-array or to explain why only advice is possible.
 *
 * Debug information keeps the declared type (it was emitted before this
 * pass): a debugger sees `long c[2]` at the padded array's address. */
#include "plugin.h"
#include "gimple-walk.h"
#include <string>
#include "pifeedback.h"

#define LINE_BYTES 64
#define ARRAYS_SECTION ".perfinst_share_arrays"
#define PADDED_SUFFIX ".perfinst_padded"

struct parr {
    tree decl;
    char *reason;  /* NULL: safe to pad; else why not (xmalloc'd) */
};
static vec<parr> arrs;

static bool scalar_elements(tree type)
{
    while (TREE_CODE(type) == ARRAY_TYPE)
        type = TREE_TYPE(type);
    return INTEGRAL_TYPE_P(type) || POINTER_TYPE_P(type) || SCALAR_FLOAT_TYPE_P(type);
}

static const char *where(location_t loc, char *buf, size_t n)
{
    expanded_location x = expand_location(loc);
    if (x.file)
        snprintf(buf, n, "%s:%d", lbasename(x.file), x.line);
    else
        snprintf(buf, n, "?");
    return buf;
}

static void refuse(parr *a, const char *fmt, const char *what, location_t loc)
{
    if (a->reason)
        return; /* the first reason is enough */
    char at[300], buf[600];
    snprintf(buf, sizeof buf, fmt, what, where(loc, at, sizeof at));
    a->reason = xstrdup(buf);
}

static parr *arr_of(tree t)
{
    for (unsigned i = 0; i < arrs.length(); i++)
        if (arrs[i].decl == t)
            return &arrs[i];
    return NULL;
}

static tree find_arr(tree *tp, int *walk, void *)
{
    if (TYPE_P(*tp)) {
        *walk = 0;
        return NULL_TREE;
    }
    return VAR_P(*tp) && arr_of(*tp) ? *tp : NULL_TREE;
}

static bool sync_builtin(const gimple *g)
{
    if (!gimple_call_builtin_p(g, BUILT_IN_NORMAL))
        return false;
    enum built_in_function f = DECL_FUNCTION_CODE(gimple_call_fndecl(g));
    return f >= BUILT_IN_SYNC_FETCH_AND_ADD_N && f <= BUILT_IN_ATOMIC_SIGNAL_FENCE;
}

static const char *callee_name(const gimple *g)
{
    tree fn = gimple_call_fndecl(g);
    return fn && DECL_NAME(fn) ? IDENTIFIER_POINTER(DECL_NAME(fn)) : "a function";
}

/* How many of g's operands mention t. */
static unsigned mentions(gimple *g, tree t)
{
    unsigned n = 0;
    for (unsigned i = 0; i < gimple_num_ops(g); i++) {
        tree op = gimple_op(g, i);
        if (op && walk_tree_without_duplicates(&op, [](tree *tp, int *, void *d) -> tree {
                return *tp == (tree)d ? *tp : NULL_TREE;
            }, t))
            n++;
    }
    return n;
}

/* A use of pointer p that accesses only the element it points to. */
static bool element_use(gimple *u, tree p)
{
    if (is_gimple_debug(u))
        return true;
    if (mentions(u, p) != 1)
        return false;
    if (is_gimple_call(u))
        return sync_builtin(u) && gimple_call_num_args(u) && gimple_call_arg(u, 0) == p;
    if (!gimple_assign_single_p(u))
        return false;
    tree l = gimple_assign_lhs(u), r = gimple_assign_rhs1(u);
    tree m = TREE_CODE(l) == MEM_REF ? l : TREE_CODE(r) == MEM_REF ? r : NULL_TREE;
    return m && TREE_OPERAND(m, 0) == p && integer_zerop(TREE_OPERAND(m, 1));
}

struct check_ctx {
    gimple *stmt;
};

/* Every mention of a candidate must be an index, or an element's address
 * used only to access that element. */
static tree check_op(tree *tp, int *walk, void *data)
{
    struct walk_stmt_info *wi = (struct walk_stmt_info *)data;
    gimple *g = ((check_ctx *)wi->info)->stmt;
    tree t = *tp;
    if (TYPE_P(t)) {
        *walk = 0;
        return NULL_TREE;
    }
    if (TREE_CODE(t) == ADDR_EXPR) {
        tree d = walk_tree_without_duplicates(&TREE_OPERAND(t, 0), find_arr, NULL);
        if (!d)
            return NULL_TREE;
        *walk = 0;
        parr *a = arr_of(d);
        tree op = TREE_OPERAND(t, 0);
        /* a scalar inside one element: c[i], hist[i][k] */
        tree base = op;
        while (TREE_CODE(base) == ARRAY_REF && TREE_CODE(TREE_OPERAND(base, 0)) == ARRAY_REF)
            base = TREE_OPERAND(base, 0);
        bool elem = TREE_CODE(op) == ARRAY_REF && TREE_CODE(base) == ARRAY_REF && TREE_OPERAND(base, 0) == d &&
                    TREE_CODE(TREE_TYPE(op)) != ARRAY_TYPE;
        if (elem && is_gimple_call(g) && sync_builtin(g) && gimple_call_num_args(g) &&
            gimple_call_arg(g, 0) == t && mentions(g, d) == 1)
            return NULL_TREE; /* __atomic_fetch_add(&c[i], ...) */
        if (elem && gimple_assign_single_p(g) && gimple_assign_rhs1(g) == t &&
            TREE_CODE(gimple_assign_lhs(g)) == SSA_NAME) {
            tree p = gimple_assign_lhs(g);
            imm_use_iterator it;
            gimple *u;
            FOR_EACH_IMM_USE_STMT(u, it, p)
                if (!element_use(u, p)) {
                    if (is_gimple_call(u))
                        refuse(a, "its address is passed to %s at %s", callee_name(u), gimple_location(u));
                    else
                        refuse(a, "a pointer to an element is %s at %s (stored, compared or moved)", "used",
                               gimple_location(u));
                }
            return NULL_TREE;
        }
        if (is_gimple_call(g))
            refuse(a, "its address is passed to %s at %s", callee_name(g), gimple_location(g));
        else
            refuse(a, "its address is %s at %s", "taken", gimple_location(g));
        return NULL_TREE;
    }
    if (TREE_CODE(t) == ARRAY_REF && VAR_P(TREE_OPERAND(t, 0)) && arr_of(TREE_OPERAND(t, 0))) {
        *walk = 0; /* the index cannot name the array (it would be an address) */
        return NULL_TREE;
    }
    if (VAR_P(t) && arr_of(t))
        refuse(arr_of(t), "it is used %s at %s", "as a whole (not indexed)", gimple_location(g));
    return NULL_TREE;
}

static tree find_decl_in_init(tree *tp, int *walk, void *d)
{
    if (TYPE_P(*tp))
        *walk = 0;
    return *tp == (tree)d ? *tp : NULL_TREE;
}

/* fn(g, data) on every statement of every function with a body, with
 * that function as cfun (the check and the rewrite walk the same). */
static void each_stmt(void (*fn)(gimple *, void *), void *data)
{
    cgraph_node *n;
    FOR_EACH_FUNCTION_WITH_GIMPLE_BODY(n) {
        function *f = DECL_STRUCT_FUNCTION(n->decl);
        if (!f || !f->cfg)
            continue;
        push_cfun(f);
        basic_block bb;
        FOR_EACH_BB_FN(bb, f)
            for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi))
                fn(gsi_stmt(gsi), data);
        pop_cfun();
    }
}

static void check_stmt(gimple *g, void *)
{
    if (is_gimple_debug(g))
        return;
    check_ctx c = {g};
    struct walk_stmt_info wi;
    memset(&wi, 0, sizeof wi);
    wi.info = &c;
    walk_gimple_op(g, check_op, &wi);
}

static void collect(void)
{
    varpool_node *v;
    FOR_EACH_VARIABLE(v) {
        tree d = v->decl;
        if (!VAR_P(d) || !TREE_STATIC(d) || DECL_EXTERNAL(d) || DECL_THREAD_LOCAL_P(d) || DECL_ARTIFICIAL(d) ||
            !DECL_NAME(d) || TREE_READONLY(d) || TREE_CODE(TREE_TYPE(d)) != ARRAY_TYPE ||
            !scalar_elements(TREE_TYPE(d)) || !DECL_SIZE_UNIT(d) || !tree_fits_uhwi_p(DECL_SIZE_UNIT(d)) ||
            !TYPE_DOMAIN(TREE_TYPE(d)) || !TYPE_MAX_VALUE(TYPE_DOMAIN(TREE_TYPE(d))) ||
            !TYPE_SIZE_UNIT(TREE_TYPE(TREE_TYPE(d))) || !tree_fits_uhwi_p(TYPE_SIZE_UNIT(TREE_TYPE(TREE_TYPE(d)))) ||
            decl_function_context(d))
            continue;
        parr a = {d, NULL};
        arrs.safe_push(a);
    }
    for (unsigned i = 0; i < arrs.length(); i++) {
        parr *a = &arrs[i];
        tree d = a->decl;
        if (DECL_WEAK(d) || DECL_COMDAT(d) || DECL_ONE_ONLY(d))
            refuse(a, "it is %s (%s)", "weak or comdat", DECL_SOURCE_LOCATION(d));
        else if (DECL_INITIAL(d) && DECL_INITIAL(d) != error_mark_node && !initializer_zerop(DECL_INITIAL(d)))
            refuse(a, "it has %s (%s)", "an initializer", DECL_SOURCE_LOCATION(d));
        else if (DECL_USER_ALIGN(d) && DECL_ALIGN_UNIT(d) > LINE_BYTES)
            refuse(a, "it has %s (%s)", "an explicit alignment above a line", DECL_SOURCE_LOCATION(d));
        else if (DECL_SECTION_NAME(d))
            refuse(a, "it is placed in %s (%s)", "a named section", DECL_SOURCE_LOCATION(d));
    }
    /* other variables' initializers: `long *p = &c[1];` */
    varpool_node *o;
    FOR_EACH_VARIABLE(o) {
        tree init = DECL_INITIAL(o->decl);
        if (!init || init == error_mark_node)
            continue;
        for (unsigned i = 0; i < arrs.length(); i++)
            if (arrs[i].decl != o->decl && walk_tree_without_duplicates(&init, find_decl_in_init, arrs[i].decl)) {
                const char *on = DECL_NAME(o->decl) ? IDENTIFIER_POINTER(DECL_NAME(o->decl)) : "a variable";
                refuse(&arrs[i], "its address initializes %s (%s)", on, DECL_SOURCE_LOCATION(o->decl));
            }
    }
    each_stmt(check_stmt, NULL);
}

/* ---- the rewrite -------------------------------------------------------- */

struct padded {
    tree decl, field;
};

static tree rewrite_op(tree *tp, int *walk, void *data)
{
    struct walk_stmt_info *wi = (struct walk_stmt_info *)data;
    padded *p = (padded *)wi->info;
    tree t = *tp;
    if (TYPE_P(t)) {
        *walk = 0;
        return NULL_TREE;
    }
    if (TREE_CODE(t) == ADDR_EXPR) {
        if (walk_tree_without_duplicates(&TREE_OPERAND(t, 0), find_decl_in_init, p->decl)) {
            walk_tree(&TREE_OPERAND(t, 0), rewrite_op, data, NULL);
            recompute_tree_invariant_for_addr_expr(t);
            wi->changed = true;
        }
        *walk = 0;
        return NULL_TREE;
    }
    if (TREE_CODE(t) == ARRAY_REF && TREE_OPERAND(t, 0) == p->decl) {
        tree elt = TREE_TYPE(TREE_TYPE(p->decl));
        tree ar = build4(ARRAY_REF, elt, p->decl, TREE_OPERAND(t, 1), NULL_TREE, NULL_TREE);
        tree cr = build3(COMPONENT_REF, TREE_TYPE(p->field), ar, p->field, NULL_TREE);
        TREE_THIS_VOLATILE(ar) = TREE_THIS_VOLATILE(cr) = TREE_THIS_VOLATILE(t);
        TREE_SIDE_EFFECTS(ar) = TREE_SIDE_EFFECTS(cr) = TREE_SIDE_EFFECTS(t);
        *tp = cr;
        *walk = 0;
        wi->changed = true;
    }
    return NULL_TREE;
}

/* One statement: the padded array's elements through the new field; a
 * debug bind that mentions the array loses its value. */
static void rewrite_stmt(gimple *g, void *data)
{
    padded *p = (padded *)data;
    if (is_gimple_debug(g)) {
        if (gimple_debug_bind_p(g) && gimple_debug_bind_has_value_p(g) &&
            walk_tree_without_duplicates(gimple_debug_bind_get_value_ptr(g), find_decl_in_init, p->decl)) {
            gimple_debug_bind_reset_value(g);
            update_stmt(g);
        }
        return;
    }
    struct walk_stmt_info wi;
    memset(&wi, 0, sizeof wi);
    wi.info = p;
    walk_gimple_op(g, rewrite_op, &wi);
    if (wi.changed)
        update_stmt(g);
}

static void pad(tree d)
{
    tree type = TREE_TYPE(d), elt = TREE_TYPE(type);
    tree rec = make_node(RECORD_TYPE);
    tree f = build_decl(DECL_SOURCE_LOCATION(d), FIELD_DECL, get_identifier("v"), elt);
    DECL_CONTEXT(f) = rec;
    TYPE_FIELDS(rec) = f;
    TYPE_NAME(rec) = get_identifier("__perfinst_line_element");
    SET_TYPE_ALIGN(rec, LINE_BYTES * BITS_PER_UNIT);
    TYPE_USER_ALIGN(rec) = 1;
    layout_type(rec); /* size: the element's, rounded up to whole lines */
    tree nt = build_array_type(rec, TYPE_DOMAIN(type));
    TREE_TYPE(d) = nt;
    SET_DECL_ALIGN(d, LINE_BYTES * BITS_PER_UNIT);
    DECL_USER_ALIGN(d) = 1;
    DECL_SIZE(d) = TYPE_SIZE(nt);
    DECL_SIZE_UNIT(d) = TYPE_SIZE_UNIT(nt);
    SET_DECL_MODE(d, TYPE_MODE(nt));
    if (DECL_RTL_SET_P(d))
        SET_DECL_RTL(d, NULL_RTX);
    if (TREE_PUBLIC(d)) {
        /* another unit that indexes it with the old stride must not link */
        char name[512];
        snprintf(name, sizeof name, "%s" PADDED_SUFFIX, IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(d)));
        symtab->change_decl_assembler_name(d, get_identifier(name));
    }
    padded p = {d, f};
    each_stmt(rewrite_stmt, &p);
}

/* The pad-array recommendation naming d, or NULL. */
static const struct pifb_rec *rec_for(tree d)
{
    unsigned it = 0;
    const char *name = IDENTIFIER_POINTER(DECL_NAME(d));
    const char *file = lbasename(DECL_SOURCE_FILE(d));
    while (const struct pifb_rec *r = pi_feedback_next(PIFB_PAD_ARRAY, &it)) {
        const char *n = pifb_get(r, "name"), *f = pifb_get(r, "file");
        if (n && !strcmp(n, name) && (!f || !strcmp(lbasename(f), file)))
            return r;
    }
    return NULL;
}

static void emit_facts(void)
{
    std::string s = "\t.pushsection " ARRAYS_SECTION ",\"\",@progbits\n";
    for (unsigned i = 0; i < arrs.length(); i++) {
        tree d = arrs[i].decl;
        char line[1200];
        snprintf(line, sizeof line, "pi-share-array %s %s %d %llu %llu %s%s%s\n", IDENTIFIER_POINTER(DECL_NAME(d)),
                 lbasename(DECL_SOURCE_FILE(d)), DECL_SOURCE_LINE(d),
                 (unsigned long long)tree_to_uhwi(TYPE_SIZE_UNIT(TREE_TYPE(TREE_TYPE(d)))),
                 (unsigned long long)(tree_to_uhwi(DECL_SIZE_UNIT(d)) /
                                      MAX(1, tree_to_uhwi(TYPE_SIZE_UNIT(TREE_TYPE(TREE_TYPE(d)))))),
                 arrs[i].reason ? "refused" : "ok", arrs[i].reason || TREE_PUBLIC(d) ? " " : "",
                 arrs[i].reason ? arrs[i].reason : TREE_PUBLIC(d) ? "public" : "");
        s += "\t.ascii \"";
        for (const char *c = line; *c; c++)
            if (*c == '\n')
                s += "\\n";
            else if (*c == '"' || *c == '\\' || (unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
                s += '?';
            else
                s += *c;
        s += "\"\n";
    }
    s += "\t.popsection";
    symtab->finalize_toplevel_asm(build_string(s.size(), s.c_str()));
}

static unsigned int arrays_execute(function *)
{
    collect();
    bool detecting = pi_opt.sharing == 2 || pi_sharing_seen;
    if (detecting && arrs.length())
        emit_facts();
    for (unsigned i = 0; i < arrs.length(); i++) {
        tree d = arrs[i].decl;
        const struct pifb_rec *r = rec_for(d);
        if (!r)
            continue;
        if (arrs[i].reason) {
            char why[700];
            snprintf(why, sizeof why, "%s is not padded: %s", IDENTIFIER_POINTER(DECL_NAME(d)), arrs[i].reason);
            pi_sharing_not_applied(r, DECL_SOURCE_LOCATION(d), why);
            continue;
        }
        pad(d);
        pi_sharing_applied(r);
        if (pi_opt.verbose)
            inform(DECL_SOURCE_LOCATION(d), "perfinst: %s:%u: %qD padded: each element on a cache line of its own",
                   pi_feedback_path(), r->line, d);
    }
    for (unsigned i = 0; i < arrs.length(); i++)
        free(arrs[i].reason);
    arrs.release();
    return 0;
}

static bool arrays_gate(function *fun)
{
    unsigned it = 0;
    return !seen_error() && !in_lto_p &&
           (pi_opt.sharing == 2 || pi_sharing_seen || pi_feedback_next(PIFB_PAD_ARRAY, &it));
}
PI_SIMPLE_IPA_PASS(arrays)
