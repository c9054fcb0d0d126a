/* emit-expr.cc — `emit(EXPR)`: the runtime-instrumentation event that
 * stores a value the program computes (seed 001; docs/sampling.md).
 *
 *     for (i = 0; i < n; i++) {          for (i = 0; i < n; i++) {
 *     #pragma perfinst emit(p->len)  →       __perfinst_ri_emit((uint64_t)(p->len));
 *         work(p);                            work(p);
 *                                         }
 *
 * Built by the pragma handler (frontend.cc) while the front end's scopes
 * exist, so EXPR's names resolve where the pragma stands; the pass
 * (pass-ri.cc) later sees an ordinary call.  EXPR is a small C subset:
 * identifiers, integer constants, . -> [] unary * and -, + - * / and
 * parentheses; anything else is an error at the pragma's line.  It is
 * built with the C front end's own builders (weak: absent from lto1), so
 * its conversions, type checks and diagnostics are GCC's ("division by
 * zero", "request for member ... in something not a structure or union").
 * The instrumentation never makes a program crash that would not have: the
 * emit is skipped when evaluating EXPR would dereference a null pointer,
 * index a declared array out of its bounds or divide by zero (or the most
 * negative value by -1):
 *
 *     #pragma perfinst emit(p->x / n)  →  if (p != 0 && n != 0)
 *                                              __perfinst_ri_emit((uint64_t)(p->x / n));
 */
#include "plugin.h"

struct eparse {
    const char *p;
    location_t loc;
    bool failed;
    tree guard; /* what must hold for EXPR to be evaluated safely, or NULL */
};

/* Another condition, after those of the operands already parsed (they are
 * pure: re-reading them in the guard changes nothing). */
static void eguard(eparse *s, tree cond)
{
    s->guard = s->guard ? fold_build2(TRUTH_ANDIF_EXPR, boolean_type_node, s->guard, cond) : cond;
}

static tree ne(tree a, tree b)
{
    return fold_build2(NE_EXPR, boolean_type_node, a, fold_convert(TREE_TYPE(a), b));
}

static void efail(eparse *s, const char *what)
{
    if (!s->failed)
        error_at(s->loc, "perfinst: emit: %s", what);
    s->failed = true;
}

static void eskip(eparse *s)
{
    while (*s->p == ' ')
        s->p++;
}

static bool eaccept(eparse *s, const char *tok)
{
    eskip(s);
    size_t n = strlen(tok);
    if (strncmp(s->p, tok, n))
        return false;
    s->p += n;
    return true;
}

static tree eexpr(eparse *s);

static tree deref(eparse *s, tree ptr, ref_operator how)
{
    if (s->failed || ptr == error_mark_node)
        return error_mark_node;
    if (TREE_CODE(TREE_TYPE(ptr)) != POINTER_TYPE) {
        efail(s, "dereference of something that is not a pointer");
        return error_mark_node;
    }
    eguard(s, ne(ptr, null_pointer_node));
    if (build_indirect_ref)
        return build_indirect_ref(s->loc, ptr, how);
    return build1(INDIRECT_REF, TREE_TYPE(TREE_TYPE(ptr)), ptr);
}

static tree field_ref(eparse *s, tree obj)
{
    eskip(s);
    char name[128];
    size_t n = 0;
    while ((ISALNUM(*s->p) || *s->p == '_') && n + 1 < sizeof name)
        name[n++] = *s->p++;
    name[n] = 0;
    if (s->failed || obj == error_mark_node)
        return error_mark_node;
    if (n && build_component_ref) { /* "... has no member named ..." */
        tree r = build_component_ref(s->loc, obj, get_identifier(name), s->loc);
        if (r == error_mark_node)
            s->failed = true;
        return r;
    }
    tree type = TYPE_MAIN_VARIANT(TREE_TYPE(obj));
    if (!n || !RECORD_OR_UNION_TYPE_P(type)) {
        efail(s, "'.' or '->' needs a struct or union and a field name");
        return error_mark_node;
    }
    for (tree f = TYPE_FIELDS(type); f; f = DECL_CHAIN(f))
        if (TREE_CODE(f) == FIELD_DECL && DECL_NAME(f) && !strcmp(IDENTIFIER_POINTER(DECL_NAME(f)), name))
            return build3(COMPONENT_REF, TREE_TYPE(f), obj, f, NULL_TREE);
    efail(s, "no such field");
    return error_mark_node;
}

static tree eprimary(eparse *s)
{
    eskip(s);
    if (eaccept(s, "(")) {
        tree e = eexpr(s);
        if (!eaccept(s, ")"))
            efail(s, "missing ')'");
        return e;
    }
    if (ISDIGIT(*s->p)) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(s->p, &end, 0);
        s->p = end;
        if (errno == ERANGE) {
            efail(s, "a number out of range (at most 18446744073709551615)");
            return error_mark_node;
        }
        return build_int_cst(v > INT_MAX ? uint64_type_node : integer_type_node, v);
    }
    char name[128];
    size_t n = 0;
    while ((ISALNUM(*s->p) || *s->p == '_') && n + 1 < sizeof name)
        name[n++] = *s->p++;
    name[n] = 0;
    if (!n) {
        efail(s, "expected an identifier, a number or '('");
        return error_mark_node;
    }
    tree d = lookup_name ? lookup_name(get_identifier(name)) : NULL_TREE;
    if (!d || !(VAR_P(d) || TREE_CODE(d) == PARM_DECL || TREE_CODE(d) == CONST_DECL)) {
        char msg[200];
        snprintf(msg, sizeof msg, "'%s' is not a variable, parameter or enumerator in scope", name);
        efail(s, msg);
        return error_mark_node;
    }
    if (TREE_CODE(d) == CONST_DECL)
        return DECL_INITIAL(d);
    TREE_USED(d) = 1;
    return d;
}

static tree epostfix(eparse *s)
{
    tree e = eprimary(s);
    while (!s->failed) {
        if (eaccept(s, "->"))
            e = field_ref(s, deref(s, e, RO_ARROW));
        else if (eaccept(s, "."))
            e = field_ref(s, e);
        else if (eaccept(s, "[")) {
            tree i = eexpr(s);
            if (!eaccept(s, "]"))
                efail(s, "missing ']'");
            if (s->failed)
                break;
            tree t = TREE_TYPE(e);
            if (!INTEGRAL_TYPE_P(TREE_TYPE(i))) {
                efail(s, "an array index must be an integer");
                break;
            }
            if (TREE_CODE(t) == ARRAY_TYPE) {
                /* a declared array: its bounds are known */
                tree dom = TYPE_DOMAIN(t);
                if (dom && TYPE_MAX_VALUE(dom) && TREE_CODE(TYPE_MAX_VALUE(dom)) == INTEGER_CST)
                    eguard(s, fold_build2(LE_EXPR, boolean_type_node, fold_convert(sizetype, i),
                                          fold_convert(sizetype, TYPE_MAX_VALUE(dom))));
                e = build_array_ref ? build_array_ref(s->loc, e, i)
                                    : build4(ARRAY_REF, TREE_TYPE(t), e, fold_convert(ssizetype, i),
                                             NULL_TREE, NULL_TREE);
            } else if (TREE_CODE(t) == POINTER_TYPE) {
                tree off = fold_build2(MULT_EXPR, sizetype, fold_convert(sizetype, i),
                                       TYPE_SIZE_UNIT(TREE_TYPE(t)));
                e = deref(s, fold_build2(POINTER_PLUS_EXPR, t, e, off), RO_ARRAY_INDEXING);
            } else
                efail(s, "'[' needs an array or a pointer");
            if (e == error_mark_node)
                s->failed = true;
        } else
            break;
    }
    return e;
}

/* An operand of arithmetic: an integer or a pointer (the C front end
 * checks the rest: pointer arithmetic, conversions). */
static tree operand(eparse *s, tree e)
{
    if (s->failed || e == error_mark_node)
        return error_mark_node;
    tree t = TREE_TYPE(e);
    if (!INTEGRAL_TYPE_P(t) && !POINTER_TYPE_P(t)) {
        efail(s, "the value must be an integer or a pointer");
        return error_mark_node;
    }
    return e;
}

/* l CODE r, as C computes it (build_binary_op: the usual conversions and
 * GCC's warnings, division by zero among them); in uint64_t where the C
 * front end is not there (lto1, cc1plus).  A division is guarded: r != 0,
 * and for a signed one not MIN / -1 (both trap on x86-64). */
static tree binary(eparse *s, enum tree_code code, tree l, tree r)
{
    l = operand(s, l);
    r = operand(s, r);
    if (s->failed)
        return error_mark_node;
    tree e = build_binary_op ? build_binary_op(s->loc, code, l, r, true)
                             : fold_build2(code, uint64_type_node, fold_convert(uint64_type_node, l),
                                           fold_convert(uint64_type_node, r));
    if (e == error_mark_node) {
        s->failed = true;
        return e;
    }
    if (code == TRUNC_DIV_EXPR) {
        tree t = TREE_TYPE(e);
        tree rc = fold_convert(t, r);
        eguard(s, ne(rc, build_zero_cst(t)));
        if (!TYPE_UNSIGNED(t))
            eguard(s, fold_build2(TRUTH_ORIF_EXPR, boolean_type_node, ne(rc, build_minus_one_cst(t)),
                                  ne(fold_convert(t, l), TYPE_MIN_VALUE(t))));
    }
    return e;
}

static tree eunary(eparse *s)
{
    if (eaccept(s, "-")) {
        tree e = operand(s, eunary(s));
        if (s->failed)
            return error_mark_node;
        /* in the unsigned type: -INT_MIN is the same bits, never a trap */
        return fold_build1(NEGATE_EXPR, uint64_type_node, fold_convert(uint64_type_node, e));
    }
    if (eaccept(s, "*"))
        return deref(s, eunary(s), RO_UNARY_STAR);
    return epostfix(s);
}

static tree eterm(eparse *s)
{
    tree e = eunary(s);
    for (;;) {
        enum tree_code c;
        if (eaccept(s, "*"))
            c = MULT_EXPR;
        else if (eaccept(s, "/"))
            c = TRUNC_DIV_EXPR;
        else
            return e;
        e = binary(s, c, e, eunary(s));
    }
}

static tree eexpr(eparse *s)
{
    tree e = eterm(s);
    for (;;) {
        enum tree_code c;
        if (eaccept(s, "+"))
            c = PLUS_EXPR;
        else if (eaccept(s, "-"))
            c = MINUS_EXPR;
        else
            return e;
        e = binary(s, c, e, eterm(s));
    }
}

static tree fully_folded(tree e)
{
    return c_fully_fold ? c_fully_fold(e, false, NULL, false) : e;
}

tree pi_ri_emit_call(const char *text, location_t loc)
{
    eparse s = {text, loc, false, NULL_TREE};
    tree e = operand(&s, eexpr(&s));
    eskip(&s);
    if (!s.failed && *s.p)
        efail(&s, "unexpected text after the expression");
    if (s.failed)
        return NULL_TREE;
    tree fn = build_fn_decl("__perfinst_ri_emit",
                            build_function_type_list(void_type_node, uint64_type_node, NULL_TREE));
    TREE_NOTHROW(fn) = 1;
    tree call = build_call_expr_loc(loc, fn, 1, fold_convert(uint64_type_node, fully_folded(e)));
    if (!s.guard)
        return call;
    tree guard = fully_folded(s.guard);
    if (integer_zerop(guard)) /* e.g. emit(x / 0): GCC warned; nothing to emit */
        return NULL_TREE;
    return build3_loc(loc, COND_EXPR, void_type_node, guard, call, build_empty_stmt(loc));
}
