/* frontend.cc — `#pragma perfinst …` and `__attribute__((perfinst(…)))`.
 *
 * At file scope a pragma applies to the next function or variable
 * definition: its directives are parked here and attached to that
 * declaration as a perfinst attribute (prototypes, types and typedefs in
 * between are skipped), so the passes see one representation:
 *
 *     #pragma perfinst count            ==   __attribute__((perfinst("count")))
 *     int f(void) { ... }                    int f(void) { ... }
 *
 * Inside a function body a pragma applies to the next statement.  The
 * handler appends a marker call to the statement list being built,
 *
 *     #pragma perfinst count            __perfinst_stmt_marker(ID, BEGIN);
 *     for (...) body;             →     try { for (...) body; }
 *                                       finally { __perfinst_stmt_marker(ID, END); }
 *
 * and, before gimplification, pi_pre_genericize wraps the statement after
 * the marker in try/finally so that an END marker stands on every way out
 * of it (fall through, break, goto, return).  The count pass instruments
 * the blocks between them and deletes the markers.  Point directives
 * (region begin/end, trace_start/stop, emit) get a single POINT marker.
 */
#include "plugin.h"

static vec<pi_stmt_directive> stmt_directives;
static hash_map<nofree_string_hash, tree> *handlers;

/* A precompiled header: what the plugin learns while parsing it (a
 * directive that needs the unit's registration code, a watch or sharing
 * directive) is kept as a macro, which the header's file keeps with the
 * trees; the unit that includes it reads them back at its first function.
 * (What the plugin keeps in its own memory does not reach that unit.) */
enum { PCH_NEED, PCH_WATCH, PCH_SHARING };
static const char *const pch_notes[] = {"__perfinst_pch_need", "__perfinst_pch_watch", "__perfinst_pch_sharing"};

static void pch_note(int what)
{
    if (pi_writing_pch() && cpp_define && parse_in)
        cpp_define(parse_in, pch_notes[what]);
}

static bool pch_noted(int what)
{
    return cpp_defined && parse_in &&
           cpp_defined(parse_in, (const unsigned char *)pch_notes[what], strlen(pch_notes[what]));
}

/* handler=NAME must name a function declared before the directive; it is
 * looked up now, while the front end's scopes exist. */
static bool resolve_handlers(const struct pi_directive_spec *specs, int n, location_t loc)
{
    bool ok = true;
    for (int i = 0; i < n; i++) {
        if (specs[i].kind != PI_D_THRESHOLD || !specs[i].name[0])
            continue;
        if (pi_writing_pch()) { /* (the name is resolved now, into the plugin's memory) */
            error_at(loc, "perfinst: %<handler=%s%> in a precompiled header: the units that include "
                     "it would not find the handler; give the directive in a source file",
                     specs[i].name);
            ok = false;
            continue;
        }
        tree fn = lookup_name ? lookup_name(get_identifier(specs[i].name)) : NULL_TREE;
        if (!fn || TREE_CODE(fn) != FUNCTION_DECL) {
            error_at(loc, "perfinst: handler %qs is not a function declared before this directive",
                     specs[i].name);
            ok = false;
            continue;
        }
        if (!handlers) {
            handlers = new hash_map<nofree_string_hash, tree>(8);
            pi_gc_root_map(&handlers);
        }
        handlers->put(xstrdup(specs[i].name), fn);
    }
    return ok;
}

tree pi_handler_decl(const char *name)
{
    tree *fn = handlers ? handlers->get(name) : NULL;
    return fn ? *fn : NULL_TREE;
}
static tree marker_fn;

/* File-scope directives waiting for their definition. */
struct pending {
    char text[512];
    location_t loc;
};
static vec<pending> pending_decl;

unsigned pi_stmt_directive_add(const struct pi_directive_spec *spec, location_t loc)
{
    pi_stmt_directive d;
    d.spec = *spec;
    d.loc = loc;
    stmt_directives.safe_push(d);
    return stmt_directives.length() - 1;
}

const struct pi_stmt_directive *pi_stmt_directive_get(unsigned id)
{
    return id < stmt_directives.length() ? &stmt_directives[id] : NULL;
}

tree pi_marker_decl(void)
{
    if (!marker_fn) {
        marker_fn = build_fn_decl("__perfinst_stmt_marker",
                                  build_function_type_list(void_type_node, unsigned_type_node,
                                                           integer_type_node, NULL_TREE));
        TREE_NOTHROW(marker_fn) = 1;
        pi_gc_root(&marker_fn);
    }
    return marker_fn;
}

/* No statement directive in the unit: no body holds a marker, and the
 * passes need not look for one. */
bool pi_markers_made(void)
{
    return marker_fn != NULL_TREE;
}

bool pi_is_marker_call(const gimple *g, unsigned *id, int *what)
{
    if (!marker_fn || !is_gimple_call(g) || gimple_call_fndecl(g) != marker_fn)
        return false;
    *id = tree_to_uhwi(gimple_call_arg(g, 0));
    *what = tree_to_shwi(gimple_call_arg(g, 1));
    return true;
}

/* ---- the pragma ------------------------------------------------------- */

/* The spelling of the number token about to be lexed, or of the number a
 * macro about to be expanded stands for ("" if it is neither): the front
 * end's INTEGER_CST of a constant too large for 64 bits is silently cut
 * (99999999999999999999999999999999 read as 9632337040368467967, 2^64 as
 * 0), so the directive parser reads the digits themselves.  The C
 * parser's buffer is empty between two pragma_lex calls: the next token of
 * the preprocessor is the one pragma_lex returns next.  (The C++ parser
 * lexes the whole file first: there the value is all there is.) */
static void number_spelling(cpp_reader *pfile, char *buf, size_t len)
{
    buf[0] = 0;
    if (lang_GNU_CXX())
        return;
    const cpp_token *t = pfile && cpp_peek_token ? cpp_peek_token(pfile, 0) : NULL;
    if (t && t->type == CPP_NAME && cpp_macro_p(t->val.node.node)) {
        const cpp_macro *m = t->val.node.node->value.macro;
        t = m && m->kind == cmk_macro && !m->lazy && !m->fun_like && m->count == 1
                ? &m->exp.tokens[0] : NULL;
    }
    if (t && t->type == CPP_NUMBER && t->val.str.len < len)
        snprintf(buf, len, "%.*s", (int)t->val.str.len, (const char *)t->val.str.text);
}

/* A C integer constant's spelling (decimal, 0x, octal, 0b; u/l suffixes)
 * as a uint64_t: 0, or -1 when it does not fit, -2 when it is not one. */
static int number_value(const char *s, uint64_t *v)
{
    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        base = 16, s += 2;
    else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
        base = 2, s += 2;
    else if (s[0] == '0')
        base = 8;
    uint64_t x = 0;
    const char *p = s;
    for (; *p; p++) {
        int d = ISDIGIT(*p) ? *p - '0' : ISXDIGIT(*p) && base == 16 ? TOLOWER(*p) - 'a' + 10 : -1;
        if (d < 0 || d >= base)
            break;
        if (x > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
            return -1;
        x = x * (uint64_t)base + (uint64_t)d;
    }
    if (p == s && base != 8)
        return -2;
    while (*p == 'u' || *p == 'U' || *p == 'l' || *p == 'L')
        p++;
    if (*p)
        return -2;
    *v = x;
    return 0;
}

/* The pragma's tokens back to text for the directive parser. */
static bool pragma_text(cpp_reader *pfile, char *buf, size_t len, location_t *first_loc)
{
    size_t n = 0;
    tree val;
    location_t loc;
    bool first = true;
    buf[0] = 0;
    for (;;) {
        char spelling[128];
        number_spelling(pfile, spelling, sizeof spelling);
        enum cpp_ttype t = pragma_lex(&val, &loc);
        if (t == CPP_EOF)
            break;
        if (first)
            *first_loc = loc;
        first = false;
        char tok[256];
        switch (t) {
        case CPP_NAME:
            snprintf(tok, sizeof tok, " %s", IDENTIFIER_POINTER(val));
            break;
        case CPP_NUMBER: {
            uint64_t v = 0;
            int r = spelling[0] ? number_value(spelling, &v) : -2;
            if (r == -1) { /* at the pragma, not in a macro's definition */
                error_at(linemap_resolve_location(line_table, loc, LRK_MACRO_EXPANSION_POINT, NULL),
                         "perfinst: %qs is out of range (at most 18446744073709551615)", spelling);
                return false;
            }
            if (r == -2) { /* not a plain literal (a macro of several tokens): the value */
                if (TREE_CODE(val) != INTEGER_CST || !tree_fits_uhwi_p(val) ||
                    TYPE_PRECISION(TREE_TYPE(val)) > 64) {
                    error_at(loc, "perfinst: expected a non-negative integer of at most 64 bits");
                    return false;
                }
                v = tree_to_uhwi(val);
            }
            snprintf(tok, sizeof tok, " %llu", (unsigned long long)v);
            break;
        }
        case CPP_OPEN_PAREN: strcpy(tok, "("); break;
        case CPP_CLOSE_PAREN: strcpy(tok, ")"); break;
        case CPP_COMMA: strcpy(tok, ","); break;
        case CPP_EQ: strcpy(tok, "="); break;
        case CPP_GREATER: strcpy(tok, ">"); break;
        case CPP_OR: strcpy(tok, "|"); break;
        case CPP_PLUS: strcpy(tok, "+"); break;
        case CPP_MINUS: strcpy(tok, "-"); break;
        case CPP_MULT: strcpy(tok, "*"); break;
        case CPP_DIV: strcpy(tok, "/"); break;
        case CPP_DOT: strcpy(tok, "."); break;
        case CPP_DEREF: strcpy(tok, "->"); break;
        case CPP_OPEN_SQUARE: strcpy(tok, "["); break;
        case CPP_CLOSE_SQUARE: strcpy(tok, "]"); break;
        default:
            error_at(loc, "perfinst: unexpected token in %<#pragma perfinst%>");
            return false;
        }
        size_t k = strlen(tok);
        if (n + k + 1 >= len) {
            error_at(loc, "perfinst: directive too long");
            return false;
        }
        memcpy(buf + n, tok, k + 1);
        n += k;
    }
    if (first) {
        error_at(*first_loc, "perfinst: %<#pragma perfinst%> needs a directive");
        return false;
    }
    return true;
}

static void handle_pragma(cpp_reader *pfile)
{
    char text[512], err[512];
    location_t loc = input_location;
    if (!pragma_text(pfile, text, sizeof text, &loc))
        return;
    struct pi_directive_spec specs[PI_MAX_DIRECTIVES];
    int n = pi_parse_directives(text, specs, PI_MAX_DIRECTIVES, err, sizeof err);
    if (n < 0) {
        error_at(loc, "perfinst: %s", err);
        return;
    }
    if (!resolve_handlers(specs, n, loc))
        return;
    if (!current_function_decl) {
        pending p;
        snprintf(p.text, sizeof p.text, "%s", text);
        p.loc = loc;
        pending_decl.safe_push(p);
        return;
    }
    for (int i = 0; i < n; i++) {
        if (pi_check_context(&specs[i], PI_CTX_STATEMENT, err, sizeof err) < 0) {
            error_at(loc, "perfinst: %s", err);
            continue;
        }
        if (pi_writing_pch()) { /* (its marker would name an entry of the plugin's memory) */
            error_at(loc, "perfinst: directive %qs inside a function of a precompiled header: it "
                     "would not reach the units that include it; give it in a source file",
                     pi_directive_name(specs[i].kind));
            continue;
        }
        unsigned id = pi_stmt_directive_add(&specs[i], loc);
        int what = pi_directive_wraps_statement(specs[i].kind) ? PI_MARK_BEGIN : PI_MARK_POINT;
        add_stmt(build_call_expr_loc(loc, pi_marker_decl(), 2, build_int_cst(unsigned_type_node, id),
                                     build_int_cst(integer_type_node, what)));
        if (specs[i].kind == PI_D_EMIT) { /* the value is taken here (pass-ri.cc) */
            tree call = pi_ri_emit_call(specs[i].name, loc);
            if (call)
                add_stmt(call);
        }
    }
}

void pi_register_pragmas(void *, void *)
{
    if (c_register_pragma_with_expansion)
        c_register_pragma_with_expansion(NULL, "perfinst", handle_pragma);
}

/* ---- binding file-scope pragmas to the next definition ------------------ */

static void bind_pending(tree decl, enum pi_context ctx)
{
    char err[512];
    for (unsigned i = 0; i < pending_decl.length(); i++) {
        struct pi_directive_spec specs[PI_MAX_DIRECTIVES];
        int n = pi_parse_directives(pending_decl[i].text, specs, PI_MAX_DIRECTIVES, err, sizeof err);
        bool ok = n > 0;
        for (int k = 0; k < n; k++)
            if (pi_check_context(&specs[k], ctx, err, sizeof err) < 0) {
                error_at(pending_decl[i].loc, "perfinst: %s (the next definition is %qD)", err, decl);
                ok = false;
            }
        for (int k = 0; ok && k < n; k++)
            if (specs[k].kind == PI_D_WATCH) {
                pi_watch_seen = true;
                pch_note(PCH_WATCH);
            } else if (specs[k].kind == PI_D_SHARING) {
                pi_sharing_seen = true;
                pch_note(PCH_SHARING);
            }
        if (ok) {
            tree arg = build_tree_list(NULL_TREE, build_string(strlen(pending_decl[i].text) + 1,
                                                               pending_decl[i].text));
            DECL_ATTRIBUTES(decl) = tree_cons(get_identifier("perfinst"), arg, DECL_ATTRIBUTES(decl));
        }
    }
    pending_decl.truncate(0);
}

void pi_pragma_start_function(void *gcc_data, void *)
{
    if (!pending_decl.is_empty())
        bind_pending((tree)gcc_data, PI_CTX_FUNCTION);
}

void pi_pragma_finish_decl(void *gcc_data, void *)
{
    tree decl = (tree)gcc_data;
    if (pending_decl.is_empty() || !decl || TREE_CODE(decl) != VAR_DECL)
        return;
    if (DECL_EXTERNAL(decl) || (DECL_CONTEXT(decl) && TREE_CODE(DECL_CONTEXT(decl)) == FUNCTION_DECL))
        return;
    bind_pending(decl, PI_CTX_VARIABLE);
}

/* At the end of each parsed function: will it be instrumented?  Then the
 * unit needs its registration code, which must be made while parsing. */
static unsigned stmt_directives_seen;
void pi_finish_parse_function(void *gcc_data, void *)
{
    tree fndecl = (tree)gcc_data;
    if (!fndecl || decl_function_context(fndecl))
        return; /* nested functions: decided with their parent */
    /* no_instrument_function is never instrumented (the gate's policy):
     * a directive that asks for it to be is said, not dropped silently */
    if (lookup_attribute("no_instrument_function", DECL_ATTRIBUTES(fndecl))) {
        struct pi_directive_spec specs[PI_MAX_DIRECTIVES];
        int n = pi_decl_directives(fndecl, specs, PI_MAX_DIRECTIVES);
        for (int i = 0; i < n; i++)
            error_at(DECL_SOURCE_LOCATION(fndecl), "perfinst: directive %qs on %qD, which has "
                     "attribute %<no_instrument_function%>: it is never instrumented",
                     pi_directive_name(specs[i].kind), fndecl);
        for (unsigned i = stmt_directives_seen; i < stmt_directives.length(); i++)
            error_at(stmt_directives[i].loc, "perfinst: directive %qs in %qD, which has attribute "
                     "%<no_instrument_function%>: it is never instrumented",
                     pi_directive_name(stmt_directives[i].spec.kind), fndecl);
    }
    static bool pch_read, pch_need;
    if (!pch_read) {
        pch_read = true;
        pch_need = pch_noted(PCH_NEED);
        pi_watch_seen |= pch_noted(PCH_WATCH);
        pi_sharing_seen |= pch_noted(PCH_SHARING);
    }
    bool need = pi_opt.all_count || pi_opt.all_sample || stmt_directives.length() != stmt_directives_seen || pch_need;
    /* any directive on the function: the count pass may give it sites */
    if (lookup_attribute("perfinst", DECL_ATTRIBUTES(fndecl)))
        need = true;
    /* watched data (a variable, field or type marked watch, seen so far):
     * the function may access it, and a unit with data sites must register
     * so that its process writes a trace (MODULE, SITESTAT, WATCH) */
    if (pi_watch_seen)
        need = true;
    stmt_directives_seen = stmt_directives.length();
    if (need && pi_writing_pch())
        pch_note(PCH_NEED);
    else if (need)
        pi_unit_prepare();
}

void pi_pragma_finish_unit(void)
{
    for (unsigned i = 0; i < pending_decl.length(); i++)
        error_at(pending_decl[i].loc,
                 "perfinst: %<#pragma perfinst %s%> is not followed by a function or variable "
                 "definition", pending_decl[i].text + (pending_decl[i].text[0] == ' '));
    pending_decl.truncate(0);
}

/* ---- statement markers: wrap the statement after each BEGIN ------------ */

static bool marker_expr(tree t, unsigned *id, int *what)
{
    if (!t || TREE_CODE(t) != CALL_EXPR || !marker_fn)
        return false;
    tree fn = CALL_EXPR_FN(t);
    if (TREE_CODE(fn) != ADDR_EXPR || TREE_OPERAND(fn, 0) != marker_fn)
        return false;
    *id = tree_to_uhwi(CALL_EXPR_ARG(t, 0));
    *what = tree_to_shwi(CALL_EXPR_ARG(t, 1));
    return true;
}

/* The BEGIN markers a statement list took care of (wrapped or said), so
 * that one standing alone (a function body holding nothing but the
 * pragma is that call, not a list) is said too. */
static hash_set<tree> *markers_seen;

static tree wrap_walker(tree *tp, int *walk_subtrees, void *)
{
    unsigned id;
    int what;
    if (marker_expr(*tp, &id, &what)) {
        const pi_stmt_directive *d = pi_stmt_directive_get(id);
        if (what == PI_MARK_BEGIN && !markers_seen->add(*tp) && d)
            error_at(d->loc, "perfinst: directive %qs is not followed by a statement",
                     pi_directive_name(d->spec.kind));
        return NULL_TREE;
    }
    if (TREE_CODE(*tp) != STATEMENT_LIST)
        return NULL_TREE;
    for (tree_stmt_iterator it = tsi_start(*tp); !tsi_end_p(it); tsi_next(&it)) {
        if (!marker_expr(tsi_stmt(it), &id, &what) || what != PI_MARK_BEGIN)
            continue;
        markers_seen->add(tsi_stmt(it));
        tree_stmt_iterator next = it;
        tsi_next(&next);
        /* several directives on one pragma: the statement follows the last
           marker; with -g, statement-frontier notes stand in between */
        unsigned id2;
        int what2;
        while (!tsi_end_p(next) && (marker_expr(tsi_stmt(next), &id2, &what2) ||
                                    TREE_CODE(tsi_stmt(next)) == DEBUG_BEGIN_STMT))
            tsi_next(&next);
        const pi_stmt_directive *d = pi_stmt_directive_get(id);
        if (tsi_end_p(next)) {
            error_at(d->loc, "perfinst: directive %qs is not followed by a statement",
                     pi_directive_name(d->spec.kind));
            continue;
        }
        tree stmt = tsi_stmt(next);
        if (TREE_CODE(stmt) == CASE_LABEL_EXPR || TREE_CODE(stmt) == LABEL_EXPR) {
            /* wrapping the label alone would count nothing, and a case
               label inside a try block leaves its switch */
            error_at(d->loc, "perfinst: directive %qs is followed by a label (%s), not a "
                     "statement: put the directive after the label", pi_directive_name(d->spec.kind),
                     TREE_CODE(stmt) == CASE_LABEL_EXPR
                         ? (CASE_LOW(stmt) ? "case" : "default") : "a goto label");
            continue;
        }
        tree end = build_call_expr_loc(d->loc, marker_fn, 2, build_int_cst(unsigned_type_node, id),
                                       build_int_cst(integer_type_node, PI_MARK_END));
        tree wrapped = build2(TRY_FINALLY_EXPR, void_type_node, stmt, end);
        SET_EXPR_LOCATION(wrapped, EXPR_LOCATION(stmt) != UNKNOWN_LOCATION ? EXPR_LOCATION(stmt) : d->loc);
        *tsi_stmt_ptr(next) = wrapped;
    }
    *walk_subtrees = 1;
    return NULL_TREE;
}

void pi_pre_genericize(void *gcc_data, void *)
{
    tree fndecl = (tree)gcc_data;
    if (!marker_fn || stmt_directives.is_empty() || !DECL_SAVED_TREE(fndecl))
        return;
    hash_set<tree> seen;
    markers_seen = &seen;
    walk_tree_without_duplicates(&DECL_SAVED_TREE(fndecl), wrap_walker, NULL);
    markers_seen = NULL;
}

/* ---- the attribute ------------------------------------------------------ */

static enum pi_context attribute_context(tree node)
{
    if (TYPE_P(node))
        return PI_CTX_TYPE;
    switch (TREE_CODE(node)) {
    case FUNCTION_DECL: return PI_CTX_FUNCTION;
    case VAR_DECL: return PI_CTX_VARIABLE;
    case FIELD_DECL: return PI_CTX_FIELD;
    case TYPE_DECL: return PI_CTX_TYPE;
    default: return (enum pi_context)0;
    }
}

static tree handle_attribute(tree *node, tree name, tree args, int, bool *no_add_attrs)
{
    char err[512];
    location_t loc = DECL_P(*node) ? DECL_SOURCE_LOCATION(*node) : input_location;
    enum pi_context ctx = attribute_context(*node);
    if (!ctx) {
        error_at(loc, "perfinst: attribute %qE cannot apply here (functions, variables, struct "
                      "fields and types only)", name);
        *no_add_attrs = true;
        return NULL_TREE;
    }
    for (tree a = args; a; a = TREE_CHAIN(a)) {
        tree s = TREE_VALUE(a);
        if (TREE_CODE(s) != STRING_CST) {
            error_at(loc, "perfinst: attribute %qE takes directive strings, e.g. "
                          "%<perfinst(\"count\")%>", name);
            *no_add_attrs = true;
            continue;
        }
        struct pi_directive_spec specs[PI_MAX_DIRECTIVES];
        int n = pi_parse_directives(TREE_STRING_POINTER(s), specs, PI_MAX_DIRECTIVES, err, sizeof err);
        if (n < 0) {
            error_at(loc, "perfinst: %s", err);
            *no_add_attrs = true;
            continue;
        }
        for (int k = 0; k < n; k++)
            if (pi_check_context(&specs[k], ctx, err, sizeof err) < 0) {
                error_at(loc, "perfinst: %s", err);
                *no_add_attrs = true;
            }
        if (!resolve_handlers(specs, n, loc))
            *no_add_attrs = true;
        for (int k = 0; k < n; k++)
            if (specs[k].kind == PI_D_WATCH) {
                pi_watch_seen = true;
                pch_note(PCH_WATCH);
            } else if (specs[k].kind == PI_D_SHARING) {
                pi_sharing_seen = true;
                pch_note(PCH_SHARING);
            }
    }
    return NULL_TREE;
}

static struct attribute_spec perfinst_attr = {
    "perfinst", 1, -1, false, false, false, false, handle_attribute, NULL,
};

void pi_register_attributes(void *, void *)
{
    register_attribute(&perfinst_attr);
}

int pi_attr_directives(tree attrs, struct pi_directive_spec *out, int max)
{
    char err[512];
    int n = 0;
    for (tree a = lookup_attribute("perfinst", attrs); a; a = lookup_attribute("perfinst", TREE_CHAIN(a)))
        for (tree v = TREE_VALUE(a); v; v = TREE_CHAIN(v)) {
            if (TREE_CODE(TREE_VALUE(v)) != STRING_CST)
                continue;
            int k = pi_parse_directives(TREE_STRING_POINTER(TREE_VALUE(v)), out + n, max - n, err,
                                        sizeof err);
            if (k > 0)
                n += k;
        }
    return n;
}

/* C++ lambdas.  A lambda's body is the operator() of an unnamed closure
 * type (and the static thunk and conversion that call it), which the C++
 * front end marks DECL_ARTIFICIAL like the functions it makes up itself;
 * the body is the user's code all the same.  The closure type's name is an
 * identifier with cp-tree.h's IDENTIFIER_LAMBDA_P bit (GCC 12: the
 * identifier's protected_flag), which only cc1plus sets.  Each lambda found
 * is remembered: with -flto, GCC's free_lang_data drops the closure type's
 * name before the IPA passes (count-at=late's count pass among them), and
 * the lambda would then be taken for a function the compiler made up and
 * not counted (its counts lost); the count pass at cfg meets every
 * function before that. */
static hash_map<tree, tree> *lambdas; /* lambda -> its closure type */

static tree lambda_closure(tree fndecl)
{
    if (!lang_GNU_CXX())
        return NULL_TREE;
    if (tree *known = lambdas ? lambdas->get(fndecl) : NULL)
        return *known;
    tree ctx = DECL_CONTEXT(fndecl);
    if (!ctx || TREE_CODE(ctx) != RECORD_TYPE)
        return NULL_TREE;
    tree id = TYPE_IDENTIFIER(TYPE_MAIN_VARIANT(ctx));
    if (!id || TREE_CODE(id) != IDENTIFIER_NODE || !IDENTIFIER_NODE_CHECK(id)->base.protected_flag)
        return NULL_TREE;
    if (!lambdas) {
        lambdas = new hash_map<tree, tree>;
        pi_gc_root_map(&lambdas);
    }
    lambdas->put(fndecl, ctx);
    return ctx;
}

bool pi_is_lambda_function(tree fndecl)
{
    return lambda_closure(fndecl) != NULL_TREE;
}

/* The function a lambda is written in (its closure type's context), or
 * NULL_TREE for a lambda outside any function. */
static tree lambda_enclosing_function(tree fndecl)
{
    tree closure = lambda_closure(fndecl);
    tree ctx = closure ? TYPE_CONTEXT(closure) : NULL_TREE;
    return ctx && TREE_CODE(ctx) == FUNCTION_DECL ? ctx : NULL_TREE;
}

/* A declaration's directives.  A lambda without directives of its own is
 * counted with the function it is written in: `count` and `types` of that
 * function (or of the one around it, for a lambda in a lambda) apply to
 * its body too, so that a sort comparator written as a lambda is counted
 * with the function that sorts.  The other directives (trap, threshold,
 * cycles, callret, sample, ...) stay on the function they were written on:
 * they describe its executions; written on the lambda itself
 * (`[](int a) __attribute__((perfinst("trap"))) {...}`) they apply there. */
int pi_decl_directives(tree decl, struct pi_directive_spec *out, int max)
{
    int n = pi_attr_directives(DECL_ATTRIBUTES(decl), out, max);
    if (n || TREE_CODE(decl) != FUNCTION_DECL)
        return n;
    for (tree outer = lambda_enclosing_function(decl); outer && !n; outer = lambda_enclosing_function(outer)) {
        struct pi_directive_spec specs[PI_MAX_DIRECTIVES];
        int k = pi_attr_directives(DECL_ATTRIBUTES(outer), specs, PI_MAX_DIRECTIVES);
        for (int i = 0; i < k; i++)
            if ((specs[i].kind & (PI_D_COUNT | PI_D_TYPES)) && n < max)
                out[n++] = specs[i];
        if (k)
            break; /* the nearest function with directives decides */
    }
    return n;
}

uint32_t pi_directive_bits(tree attrs)
{
    struct pi_directive_spec specs[PI_MAX_DIRECTIVES];
    int n = pi_attr_directives(attrs, specs, PI_MAX_DIRECTIVES);
    uint32_t bits = 0;
    for (int i = 0; i < n; i++)
        bits |= specs[i].kind;
    return bits;
}
