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
 * parentheses; anything else is an error at the pragma's line.
 */
#include "plugin.h"

struct eparse {
    const char *p;
    location_t loc;
    bool failed;
};

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

static tree deref(eparse *s, tree ptr)
{
    if (TREE_CODE(TREE_TYPE(ptr)) != POINTER_TYPE) {
        efail(s, "dereference of something that is not a pointer");
        return error_mark_node;
    }
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
        unsigned long long v = strtoull(s->p, &end, 0);
        s->p = end;
        return build_int_cst(uint64_type_node, v);
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
            e = field_ref(s, deref(s, e));
        else if (eaccept(s, "."))
            e = field_ref(s, e);
        else if (eaccept(s, "[")) {
            tree i = eexpr(s);
            if (!eaccept(s, "]"))
                efail(s, "missing ']'");
            if (s->failed)
                break;
            tree t = TREE_TYPE(e);
            if (TREE_CODE(t) == ARRAY_TYPE)
                e = build4(ARRAY_REF, TREE_TYPE(t), e, fold_convert(ssizetype, i), NULL_TREE, NULL_TREE);
            else if (TREE_CODE(t) == POINTER_TYPE) {
                tree off = fold_build2(MULT_EXPR, sizetype, fold_convert(sizetype, i),
                                       TYPE_SIZE_UNIT(TREE_TYPE(t)));
                e = deref(s, fold_build2(POINTER_PLUS_EXPR, t, e, off));
            } else
                efail(s, "'[' needs an array or a pointer");
        } else
            break;
    }
    return e;
}

static tree scalar(eparse *s, tree e)
{
    if (s->failed || e == error_mark_node)
        return error_mark_node;
    tree t = TREE_TYPE(e);
    if (!INTEGRAL_TYPE_P(t) && !POINTER_TYPE_P(t)) {
        efail(s, "the value must be an integer or a pointer");
        return error_mark_node;
    }
    return fold_convert(uint64_type_node, e);
}

static tree eunary(eparse *s)
{
    if (eaccept(s, "-"))
        return fold_build1(NEGATE_EXPR, uint64_type_node, scalar(s, eunary(s)));
    if (eaccept(s, "*")) {
        tree e = eunary(s);
        return s->failed ? error_mark_node : deref(s, e);
    }
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
        tree r = scalar(s, eunary(s));
        e = s->failed ? error_mark_node : fold_build2(c, uint64_type_node, scalar(s, e), r);
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
        tree r = scalar(s, eterm(s));
        e = s->failed ? error_mark_node : fold_build2(c, uint64_type_node, scalar(s, e), r);
    }
}

tree pi_ri_emit_call(const char *text, location_t loc)
{
    eparse s = {text, loc, false};
    tree e = scalar(&s, eexpr(&s));
    eskip(&s);
    if (!s.failed && *s.p)
        efail(&s, "unexpected text after the expression");
    if (s.failed)
        return NULL_TREE;
    tree fn = build_fn_decl("__perfinst_ri_emit",
                            build_function_type_list(void_type_node, uint64_type_node, NULL_TREE));
    TREE_NOTHROW(fn) = 1;
    return build_call_expr_loc(loc, fn, 1, e);
}
