/* pass-watch.cc — the `watch` directive: reads and writes of marked data,
 * per word, readable at run time by address (seed 004 M3/M13/M14, seed 002
 * M4/M16/M17).
 *
 *     long table[4] PERFINST("watch");        struct PERFINST("watch") s { ... };
 *     struct t { int hot PERFINST("watch"); int cold; };
 *
 * Part of the count pass (same point: right after the CFG is built, before
 * optimisation), so the accesses counted are the program's as written: a
 * read of a global in a loop counts each iteration even if GCC later keeps
 * the value in a register.  Each load or store of watched data becomes a
 * data site and is preceded by a probe:
 *
 *     x = table[i];            →     __perfinst_watch(UNIT, SITE, &table[i], 8, READ);
 *                                    x = table[i];
 *     p->hot = 1;              →     __perfinst_watch(UNIT, SITE, &p->hot, 4, WRITE);
 *                                    p->hot = 1;
 *
 * Watched: a variable marked `watch` (any access through its name), a
 * field marked `watch`, and every field and whole-object access of a struct
 * or union type marked `watch` (through any pointer).  The runtime counts
 * per word of the address range (PERFINST_WATCH_GRAN bytes, 8 by default).
 * Bit-fields are counted as their containing word.  Accesses through
 * pointers not typed as the marked struct (char * copies, memcpy) are not
 * seen: the seeds' hardware sees them, a compiler cannot.
 */
#include "plugin.h"

/* The name of what ref touches that is watched, or NULL. */
static const char *watched_name(tree ref, char *buf, size_t len)
{
    for (tree t = ref; t; t = handled_component_p(t) || TREE_CODE(t) == MEM_REF ? TREE_OPERAND(t, 0) : NULL_TREE) {
        if (TREE_CODE(t) == COMPONENT_REF) {
            tree field = TREE_OPERAND(t, 1);
            tree rec = TYPE_MAIN_VARIANT(TREE_TYPE(TREE_OPERAND(t, 0)));
            bool on_field = pi_directive_bits(DECL_ATTRIBUTES(field)) & PI_D_WATCH;
            bool on_type = pi_directive_bits(TYPE_ATTRIBUTES(rec)) & PI_D_WATCH;
            if (on_field || on_type) {
                const char *tn = TYPE_NAME(rec) ? IDENTIFIER_POINTER(TREE_CODE(TYPE_NAME(rec)) == TYPE_DECL
                                                                        ? DECL_NAME(TYPE_NAME(rec))
                                                                        : TYPE_NAME(rec))
                                                : "<anonymous>";
                snprintf(buf, len, "%s %s.%s", TREE_CODE(rec) == UNION_TYPE ? "union" : "struct", tn,
                         DECL_NAME(field) ? IDENTIFIER_POINTER(DECL_NAME(field)) : "<anonymous>");
                return buf;
            }
        }
        if (VAR_P(t) && (pi_directive_bits(DECL_ATTRIBUTES(t)) & PI_D_WATCH)) {
            snprintf(buf, len, "%s", IDENTIFIER_POINTER(DECL_NAME(t)));
            return buf;
        }
    }
    /* a whole object of a watched type (s = *p; *p = s) */
    tree type = TYPE_MAIN_VARIANT(TREE_TYPE(ref));
    if (RECORD_OR_UNION_TYPE_P(type) && (pi_directive_bits(TYPE_ATTRIBUTES(type)) & PI_D_WATCH)) {
        const char *tn = TYPE_NAME(type) && TREE_CODE(TYPE_NAME(type)) == TYPE_DECL
                             ? IDENTIFIER_POINTER(DECL_NAME(TYPE_NAME(type)))
                         : TYPE_NAME(type) ? IDENTIFIER_POINTER(TYPE_NAME(type))
                                           : "<anonymous>";
        snprintf(buf, len, "struct %s", tn);
        return buf;
    }
    return NULL;
}

static bool is_memory(tree op)
{
    return op && !is_gimple_reg(op) && !CONSTANT_CLASS_P(op) && TREE_CODE(op) != ADDR_EXPR &&
           (DECL_P(op) || REFERENCE_CLASS_P(op)) && TREE_CODE(op) != CONSTRUCTOR;
}

struct watch_access {
    gimple *stmt;
    tree ref;
    int what; /* PI_ACCESS_* */
    char name[160];
};

static void consider(vec<watch_access> &out, gimple *g, tree op, int what)
{
    watch_access a;
    if (!is_memory(op) || !watched_name(op, a.name, sizeof a.name))
        return;
    a.stmt = g;
    a.ref = op;
    a.what = what;
    out.safe_push(a);
}

static void find_accesses(function *fun, vec<watch_access> &out)
{
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
        gimple *g = gsi_stmt(gsi);
        if (gimple_clobber_p(g))
            continue; /* `v ={v} {CLOBBER}`: the end of v's scope, not a write */
        if (is_gimple_assign(g)) {
            consider(out, g, gimple_assign_lhs(g), PI_ACCESS_WRITE);
            if (gimple_assign_single_p(g))
                consider(out, g, gimple_assign_rhs1(g), PI_ACCESS_READ);
        } else if (is_gimple_call(g)) {
            consider(out, g, gimple_call_lhs(g), PI_ACCESS_WRITE);
            for (unsigned i = 0; i < gimple_call_num_args(g); i++)
                consider(out, g, gimple_call_arg(g, i), PI_ACCESS_READ);
        }
    }
}

bool pi_watch_seen; /* a watch directive was accepted in this unit */

bool pi_watch_any(function *fun)
{
    if (!pi_watch_seen)
        return false;
    auto_vec<watch_access> acc;
    find_accesses(fun, acc);
    return !acc.is_empty();
}

/* The address of ref as a gimple value (bit-fields: the containing bytes). */
static tree access_address(gimple_stmt_iterator *gsi, tree ref, tree *size)
{
    tree r = unshare_expr(ref);
    if (TREE_CODE(r) == COMPONENT_REF && DECL_BIT_FIELD(TREE_OPERAND(r, 1))) {
        tree field = TREE_OPERAND(r, 1);
        tree repr = DECL_BIT_FIELD_REPRESENTATIVE(field);
        if (repr)
            r = build3(COMPONENT_REF, TREE_TYPE(repr), TREE_OPERAND(r, 0), repr, NULL_TREE);
        else
            r = TREE_OPERAND(r, 0);
    }
    *size = TYPE_SIZE_UNIT(TREE_TYPE(r)) && TREE_CODE(TYPE_SIZE_UNIT(TREE_TYPE(r))) == INTEGER_CST
                ? fold_convert(unsigned_type_node, TYPE_SIZE_UNIT(TREE_TYPE(r)))
                : build_int_cst(unsigned_type_node, 1);
    tree base = get_base_address(r);
    if (base && DECL_P(base))
        TREE_ADDRESSABLE(base) = 1;
    tree addr = create_tmp_reg(ptr_type_node, "pi_addr");
    gimple *g = gimple_build_assign(addr, build_fold_addr_expr_with_type(r, ptr_type_node));
    gimple_set_location(g, gimple_location(gsi_stmt(*gsi)));
    gsi_insert_before(gsi, g, GSI_SAME_STMT);
    return addr;
}

/* Instrument every watched access of fun as data sites of function `func`,
 * the unit's last function (pi_unit_add_func already called). */
void pi_watch_instrument(function *fun, unsigned func)
{
    auto_vec<watch_access> acc;
    find_accesses(fun, acc);
    tree u64 = uint64_type_node, u32 = unsigned_type_node;
    tree probe = build_fn_decl("__perfinst_watch", build_function_type_list(void_type_node, u64, u32, ptr_type_node,
                                                                           u32, u32, NULL_TREE));
    TREE_NOTHROW(probe) = 1;
    for (unsigned i = 0; i < acc.length(); i++) {
        gimple_stmt_iterator gsi = gsi_for_stmt(acc[i].stmt);
        pi_site s;
        pi_site_init(&s, func, PI_SITE_DATA, expand_location(gimple_location(acc[i].stmt)));
        s.directives = PI_D_WATCH;
        s.bb = gimple_bb(acc[i].stmt)->index;
        s.region = pi_unit_str(acc[i].name);
        s.arg = acc[i].what;
        unsigned site = pi_unit_add_site(&s);
        tree size;
        tree addr = access_address(&gsi, acc[i].ref, &size);
        gimple *call = gimple_build_call(probe, 5, build_int_cst(u64, pi_unit_id()), build_int_cst(u32, site), addr,
                                         size, build_int_cst(u32, acc[i].what));
        gimple_set_location(call, gimple_location(acc[i].stmt));
        gsi_insert_before(&gsi, call, GSI_SAME_STMT);
    }
}
