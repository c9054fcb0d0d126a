/* pass-sharing.cc — the `sharing` directive: which threads read and write
 * which bytes of each cache line, so the runtime can tell true from false
 * sharing (seed 004 M28; docs/sharing.md).
 *
 *     -fplugin-arg-perfinst-sharing=all        every function
 *     long c[2] PERFINST("sharing");           accesses to a variable
 *     struct PERFINST("sharing") s { ... };    to a struct type (any pointer)
 *     struct t { long hits PERFINST("sharing"); };   to a field
 *     PERFINST("sharing") void *worker(void *);      all of a function's
 *
 * Runs after the last GIMPLE optimisation ("optimized", just before RTL
 * expansion), so what GCC keeps in registers or has deleted is not
 * counted: the accesses instrumented are the ones the machine will make.
 * Only memory other threads can reach is instrumented — globals (not
 * thread-local, not read-only), anything reached through a pointer, and
 * locals whose address escapes; a local the compiler proved private is
 * left alone (the rule ThreadSanitizer's pass uses).  Each access is
 * preceded by a probe:
 *
 *     c[i] = c[i] + 1;    →   __perfinst_share(&c[i], 8 << 1 | 0);   (load)
 *                             _1 = c[i];
 *                             __perfinst_share(&c[i], 8 << 1 | 1);   (store)
 *                             c[i] = _1 + 1;
 *
 * The probes run behind an inlined check of the line's shadow byte (only
 * lines threads share, sampled, and the first accesses to each line call);
 * a block's accesses through one base that fit in a line share one check
 * (coalesce_groups, below):
 *
 *     a->sx += x; a->sy += y;   →   skip = <one check of a's line for both>;
 *                                   if (!skip) <a->sx's own check and probe>
 *                                   a->sx = a->sx + x;
 *                                   if (!skip) <a->sy's own check and probe>
 *                                   a->sy = a->sy + y;
 *
 * a short loop's accesses, one check before the loop, and a copy of the
 * loop without checks when it passes (find_loop_groups); a long loop's,
 * one check every 64 iterations (find_chunk_groups); a block operation of a
 * constant length of at most a line gets the runtime's decision for its
 * lines inlined (insert_block_guarded).
 *
 * Atomic builtins count as a store of their operand (a read-modify-write),
 * __atomic_load as a load.  Bit-fields count as the bytes of their
 * representative.  The probe's return address is the access site.
 *
 * Heap objects: calls to malloc, calloc, realloc, aligned_alloc,
 * posix_memalign and free in instrumented functions are redirected to the
 * runtime's __perfinst_share_* twins, which record each object and its
 * allocation site.
 *
 * Repair (feedback=FILE, kind `align-alloc`): at a recommended allocation
 * site (function and line) the object starts a line and owns whole lines:
 *
 *     p = malloc(n);       →   p = aligned_alloc(64, n rounded up to whole lines);
 *     p = calloc(n, s);    →   p = aligned_alloc(64, n * s rounded up ...);
 *                              if (p) memset(p, 0, n * s);
 *     p = realloc(q, n);   →   p = __perfinst_line_realloc(q, n);   (libperfinst-line.a)
 *     p = new T;           →   p = operator new(sizeof(T), std::align_val_t(64));
 *
 * The global and type repairs are in repair-sharing.cc.
 */
#include "plugin.h"
#include "pifeedback.h"
#include "tree-into-ssa.h"
#include "tree-ssa-alias.h"
#include "gimple-fold.h"
#include "cfgloop.h"
#include "tree-dfa.h"
#include "builtins.h"
#include "tree-scalar-evolution.h"
#include "tree-ssa-loop.h"
#include "tree-ssa-loop-niter.h"
#include "tree-ssa-address.h"
#include "cfgloopmanip.h"

/* ---- which accesses ------------------------------------------------------- */

static bool marked_ref(tree ref)
{
    for (tree t = ref; t; t = handled_component_p(t) || TREE_CODE(t) == MEM_REF ? TREE_OPERAND(t, 0) : NULL_TREE) {
        if (TREE_CODE(t) == COMPONENT_REF) {
            tree field = TREE_OPERAND(t, 1);
            tree rec = TYPE_MAIN_VARIANT(TREE_TYPE(TREE_OPERAND(t, 0)));
            if ((pi_directive_bits(DECL_ATTRIBUTES(field)) & PI_D_SHARING) ||
                (pi_directive_bits(TYPE_ATTRIBUTES(rec)) & PI_D_SHARING))
                return true;
        }
        if (VAR_P(t) && (pi_directive_bits(DECL_ATTRIBUTES(t)) & PI_D_SHARING))
            return true;
    }
    tree type = TYPE_MAIN_VARIANT(TREE_TYPE(ref));
    return RECORD_OR_UNION_TYPE_P(type) && (pi_directive_bits(TYPE_ATTRIBUTES(type)) & PI_D_SHARING);
}

/* GCC's points-to sets are there for this function: computed by its alias
 * pass (-ftree-pta, on at -O1 and above), whose "escaped" solution says
 * which locals' addresses left the function (stored where other code can
 * see them, passed to a call that may keep them, returned).  Without it the
 * escaped solution is empty and must not be read. */
static bool pta_valid;

/* Can another thread reach the memory ref names? */
static bool reachable_memory(tree ref)
{
    if (!ref || is_gimple_reg(ref) || CONSTANT_CLASS_P(ref) || TREE_CODE(ref) == ADDR_EXPR ||
        TREE_CODE(ref) == CONSTRUCTOR || TREE_CODE(ref) == SSA_NAME || !(DECL_P(ref) || REFERENCE_CLASS_P(ref)))
        return false;
    /* only locals whose address never escaped: a local whose address is
     * taken but only used here or by callees that do not keep it, a pointer
     * that points to such locals alone (ThreadSanitizer's rule, with GCC's
     * points-to sets) */
    if (pta_valid && !ref_may_alias_global_p(ref, true))
        return false;
    if (TREE_CODE(ref) == BIT_FIELD_REF || TREE_CODE(ref) == REALPART_EXPR || TREE_CODE(ref) == IMAGPART_EXPR)
        ref = TREE_OPERAND(ref, 0);
    tree base = get_base_address(ref);
    if (!base)
        return false;
    if (TREE_CODE(base) == MEM_REF || TREE_CODE(base) == TARGET_MEM_REF) {
        tree p = TREE_OPERAND(base, 0);
        if (TREE_CODE(p) == ADDR_EXPR)
            base = TREE_OPERAND(p, 0);
        else
            return true; /* through a pointer: heap, globals, escaped locals */
    }
    if (TREE_CODE(base) == STRING_CST || TREE_CODE(base) == CONST_DECL)
        return false;
    if (!DECL_P(base))
        return false;
    if (VAR_P(base) && (DECL_THREAD_LOCAL_P(base) || DECL_HARD_REGISTER(base)))
        return false;
    if (TREE_READONLY(base) && !TREE_THIS_VOLATILE(base))
        return false; /* constant data: nobody writes it */
    if (pi_is_own_decl(base))
        return false;
    if (is_global_var(base))
        return true;
    return may_be_aliased(base); /* a local whose address escaped */
}

struct share_access {
    gimple *stmt;
    tree ref;     /* the memory reference, or NULL_TREE: addr/size below */
    tree addr;    /* for atomic builtins: the pointer operand */
    unsigned size;
    bool store;
    bool rmw;     /* a load and the store back to the same place: one probe */
    unsigned seg; /* accesses of one segment: one block, no call or asm between */
    /* coalescing (coalesce_groups): the group's head and its member count */
    int head;     /* index of the group's first access, -1: not in a group */
    unsigned members;
    HOST_WIDE_INT lo, hi; /* the group's bytes from its key (head only) */
    tree key;     /* the base: a pointer SSA name or a declaration */
    HOST_WIDE_INT off;    /* this access's byte offset from key */
    unsigned bytes;       /* and its size */
    /* a block operation's bytes (block_call): addr and len (SH_BLOCK), or the
     * C string at addr before the call (SH_STRING) or after it (SH_STRING_AFTER) */
    int block;
    tree len;
    /* a loop group's member (find_loop_groups): the group's number + 1, and
     * its address in the loop's i-th iteration, lbase + lstep * i */
    unsigned lgroup;
    tree lbase;
    HOST_WIDE_INT lstep;
    HOST_WIDE_INT lspan;  /* an element of an array at a variable index: its first byte up to lspan past */
    /* a chunk group's member (find_chunk_groups): the group's number + 1, its bit */
    unsigned cgroup, cbit;
    /* ... one at one address that need not run every iteration (a branch's
     * counter): the variable counting its runs in the chunk, NULL: none */
    tree ccnt;
    /* a streaming access's run (find_runs): the variable holding the end of
     * the bytes its footprint path took ahead, the end of its bytes in the
     * loop (computed before it), its step; run_var NULL: none */
    tree run_var, run_end;
    HOST_WIDE_INT run_step;
    /* its line known to the runtime for this thread when it runs (known_after):
     * its check tests no known line */
    bool known;
};
enum { SH_BLOCK = 1, SH_STRING = 2, SH_STRING_AFTER = 3 };

static bool fn_marked;
/* Merging a store with the load before it (find_accesses): candidates are
 * the accesses of the current block from index `merge_from` on (a call or
 * an asm in between stops it: another thread may run meanwhile). */
static unsigned merge_from;
static unsigned cur_seg;

/* Was g inlined from a function marked `sharing`?  (The pass runs after
 * inlining: a marked function's body may now be in its callers.) */
static bool inlined_from_marked(gimple *g)
{
    for (tree b = gimple_block(g); b && TREE_CODE(b) == BLOCK; b = BLOCK_SUPERCONTEXT(b))
        if (inlined_function_outer_scope_p(b)) {
            tree fn = block_ultimate_origin(b);
            if (fn && TREE_CODE(fn) == FUNCTION_DECL && (pi_directive_bits(DECL_ATTRIBUTES(fn)) & PI_D_SHARING))
                return true;
        }
    return false;
}

static void consider(vec<share_access> &out, gimple *g, tree op, bool store)
{
    if (!reachable_memory(op))
        return;
    if (pi_opt.sharing != 2 && !fn_marked && !marked_ref(op) && !inlined_from_marked(g))
        return;
    if (store) /* x = x + 1: the load's probe covers the store (one probe, a read and a write) */
        for (unsigned i = out.length(); i-- > merge_from;) {
            share_access &l = out[i];
            if (!l.ref || l.store)
                continue;
            if (operand_equal_p(l.ref, op, OEP_MATCH_SIDE_EFFECTS)) {
                l.store = l.rmw = true;
                return;
            }
        }
    share_access a = {g, op, NULL_TREE, 0, store, false, cur_seg, -1, 0, 0, 0, NULL_TREE, 0, 0};
    out.safe_push(a);
}

/* Can another thread reach the memory pointer p points to? */
static bool reachable_pointer(tree p)
{
    if (TREE_CODE(p) == ADDR_EXPR)
        return reachable_memory(TREE_OPERAND(p, 0));
    return POINTER_TYPE_P(TREE_TYPE(p));
}

/* The C library's block and string functions called by name (a unit built
 * with -fno-builtin, or a declaration GCC does not know as a builtin). */
static const struct {
    const char *name;
    enum built_in_function code;
} block_names[] = {
    {"memset", BUILT_IN_MEMSET},   {"memcpy", BUILT_IN_MEMCPY},   {"memmove", BUILT_IN_MEMMOVE},
    {"mempcpy", BUILT_IN_MEMPCPY}, {"bzero", BUILT_IN_BZERO},     {"memcmp", BUILT_IN_MEMCMP},
    {"bcmp", BUILT_IN_BCMP},       {"strlen", BUILT_IN_STRLEN},   {"strcmp", BUILT_IN_STRCMP},
    {"strcpy", BUILT_IN_STRCPY},   {"stpcpy", BUILT_IN_STPCPY},   {"strcat", BUILT_IN_STRCAT},
    {"strchr", BUILT_IN_STRCHR},   {"strrchr", BUILT_IN_STRRCHR},
};

/* memset, memcpy, memmove, bzero, memcmp and the string functions — GCC
 * expands many of them inline (rep stos, vector stores) after this pass, so
 * the bytes they read and write would otherwise go unseen: an access of
 * their whole range each (the runtime checks it line by line).  True when g
 * is one of them (its accesses pushed, if wanted). */
static bool block_call(gimple *g, vec<share_access> &out)
{
    tree fn = gimple_call_fndecl(g);
    if (!fn)
        return false;
    enum built_in_function code = END_BUILTINS;
    if (gimple_call_builtin_p(g, BUILT_IN_NORMAL))
        code = DECL_FUNCTION_CODE(fn);
    else if (DECL_NAME(fn) && DECL_EXTERNAL(fn))
        for (size_t i = 0; i < sizeof block_names / sizeof block_names[0]; i++)
            if (!strcmp(IDENTIFIER_POINTER(DECL_NAME(fn)), block_names[i].name))
                code = block_names[i].code;
    unsigned n = gimple_call_num_args(g);
    struct {
        int block;
        unsigned ptr, len;  /* argument numbers */
        bool store;
    } acc[2];
    int k = 0;
#define ACC(b, p, l, st) (acc[k].block = (b), acc[k].ptr = (p), acc[k].len = (l), acc[k].store = (st), k++)
    switch (code) {
    case BUILT_IN_MEMSET: case BUILT_IN_MEMSET_CHK:
        ACC(SH_BLOCK, 0, 2, true);
        break;
    case BUILT_IN_BZERO:
        ACC(SH_BLOCK, 0, 1, true);
        break;
    case BUILT_IN_MEMCPY: case BUILT_IN_MEMMOVE: case BUILT_IN_MEMPCPY:
    case BUILT_IN_MEMCPY_CHK: case BUILT_IN_MEMMOVE_CHK: case BUILT_IN_MEMPCPY_CHK:
        ACC(SH_BLOCK, 1, 2, false);
        ACC(SH_BLOCK, 0, 2, true);
        break;
    case BUILT_IN_MEMCMP: case BUILT_IN_BCMP:
        ACC(SH_BLOCK, 0, 2, false);
        ACC(SH_BLOCK, 1, 2, false);
        break;
    case BUILT_IN_STRLEN: case BUILT_IN_STRCHR: case BUILT_IN_STRRCHR:
        ACC(SH_STRING, 0, 0, false);
        break;
    case BUILT_IN_STRCMP:
        ACC(SH_STRING, 0, 0, false);
        ACC(SH_STRING, 1, 0, false);
        break;
    case BUILT_IN_STRCPY: case BUILT_IN_STPCPY: case BUILT_IN_STRCAT:
    case BUILT_IN_STRCPY_CHK: case BUILT_IN_STPCPY_CHK: case BUILT_IN_STRCAT_CHK:
        ACC(SH_STRING, 1, 0, false);
        ACC(SH_STRING_AFTER, 0, 0, true); /* the string the call made */
        break;
    default:
        return false;
    }
#undef ACC
    if (pi_opt.sharing != 2 && !fn_marked && !inlined_from_marked(g))
        return true;
    for (int i = 0; i < k; i++) {
        if (acc[i].ptr >= n || (acc[i].block == SH_BLOCK && acc[i].len >= n))
            continue;
        tree p = gimple_call_arg(g, acc[i].ptr);
        if (!reachable_pointer(p))
            continue;
        share_access a = {g, NULL_TREE, p, 0, acc[i].store, false, cur_seg, -1, 0, 0, 0, NULL_TREE, 0, 0,
                          acc[i].block, acc[i].block == SH_BLOCK ? gimple_call_arg(g, acc[i].len) : NULL_TREE};
        out.safe_push(a);
    }
    return true;
}

/* __atomic_* and __sync_* builtins: their first argument is the address.
 * Returns true for those handled (store: every kind but a load). */
static bool atomic_access(gimple *g, tree *addr, unsigned *size, bool *store)
{
    if (!gimple_call_builtin_p(g, BUILT_IN_NORMAL))
        return false;
    tree fn = gimple_call_fndecl(g);
    enum built_in_function code = DECL_FUNCTION_CODE(fn);
    if (!((code >= BUILT_IN_ATOMIC_TEST_AND_SET && code <= BUILT_IN_ATOMIC_FETCH_OR_16) ||
          (code >= BUILT_IN_SYNC_FETCH_AND_ADD_N && code <= BUILT_IN_SYNC_LOCK_RELEASE_16)))
        return false;
    if (code == BUILT_IN_ATOMIC_THREAD_FENCE || code == BUILT_IN_ATOMIC_SIGNAL_FENCE ||
        code == BUILT_IN_SYNC_SYNCHRONIZE || code == BUILT_IN_ATOMIC_ALWAYS_LOCK_FREE ||
        code == BUILT_IN_ATOMIC_IS_LOCK_FREE || gimple_call_num_args(g) < 1)
        return false;
    tree p = gimple_call_arg(g, 0);
    if (!POINTER_TYPE_P(TREE_TYPE(p)))
        return false;
    tree pointee = TREE_TYPE(TREE_TYPE(p));
    *size = 1;
    /* the size is in the builtin's name (_1 .. _16); the operand type tells it too */
    if (VOID_TYPE_P(pointee) || !TYPE_SIZE_UNIT(pointee) || TREE_CODE(TYPE_SIZE_UNIT(pointee)) != INTEGER_CST) {
        const char *name = IDENTIFIER_POINTER(DECL_NAME(fn));
        const char *u = strrchr(name, '_');
        if (u && u[1] >= '1' && u[1] <= '9')
            *size = (unsigned)atoi(u + 1);
    } else
        *size = (unsigned)tree_to_uhwi(TYPE_SIZE_UNIT(pointee));
    *addr = p;
    *store = !(code >= BUILT_IN_ATOMIC_LOAD_N && code <= BUILT_IN_ATOMIC_LOAD_16);
    return true;
}

static void find_accesses(function *fun, vec<share_access> &out)
{
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
        gimple *g = gsi_stmt(gsi);
        if (gsi_stmt(gsi) == gsi_stmt(gsi_start_bb(bb))) {
            merge_from = out.length();
            cur_seg++;
        }
        if (gimple_clobber_p(g) || is_gimple_debug(g))
            continue;
        if (is_gimple_call(g) || gimple_code(g) == GIMPLE_ASM) {
            merge_from = out.length(); /* no merging across it (the call's own operands may merge) */
            cur_seg++;
        }
        if (is_gimple_assign(g)) {
            if (gimple_assign_single_p(g))
                consider(out, g, gimple_assign_rhs1(g), false);
            consider(out, g, gimple_assign_lhs(g), true);
        } else if (is_gimple_call(g)) {
            tree addr;
            unsigned size;
            bool store;
            if (block_call(g, out))
                continue;
            if (atomic_access(g, &addr, &size, &store)) {
                if (pi_opt.sharing == 2 || fn_marked || inlined_from_marked(g)) {
                    share_access a = {g, NULL_TREE, addr, size, store, false, cur_seg, -1, 0, 0, 0, NULL_TREE, 0, 0};
                    out.safe_push(a);
                }
                continue;
            }
            for (unsigned i = 0; i < gimple_call_num_args(g); i++)
                consider(out, g, gimple_call_arg(g, i), false);
            cur_seg++; /* the result is stored after the call: never grouped with the arguments */
            consider(out, g, gimple_call_lhs(g), true);
        } else if (gimple_code(g) == GIMPLE_RETURN) {
            greturn *r = as_a<greturn *>(g);
            consider(out, g, gimple_return_retval(r), false);
        }
    }
}

/* ---- the probe -------------------------------------------------------------- */

static tree probe_decl(void)
{
    static tree decl;
    if (!decl) {
        decl = build_fn_decl("__perfinst_share",
                             build_function_type_list(void_type_node, const_ptr_type_node, unsigned_type_node,
                                                      const_ptr_type_node, NULL_TREE));
        TREE_NOTHROW(decl) = 1;
        DECL_ATTRIBUTES(decl) = tree_cons(get_identifier("leaf"), NULL_TREE, DECL_ATTRIBUTES(decl));
        pi_gc_root(&decl);
    }
    return decl;
}

/* "STRUCT FIELD OFFSET SIZE FILE LINE" for the field ref accesses (the innermost
 * one), or NULL: what pmopt names heap bytes and struct layouts with. */
static tree what_of(tree ref)
{
    for (tree t = ref; t && handled_component_p(t); t = TREE_OPERAND(t, 0)) {
        if (TREE_CODE(t) != COMPONENT_REF)
            continue;
        tree field = TREE_OPERAND(t, 1);
        tree rec = TYPE_MAIN_VARIANT(TREE_TYPE(TREE_OPERAND(t, 0)));
        tree sz = TYPE_SIZE_UNIT(rec);
        if (!DECL_NAME(field) || !sz || !tree_fits_uhwi_p(sz) || TREE_CODE(DECL_FIELD_OFFSET(field)) != INTEGER_CST)
            return NULL_TREE;
        /* the tag, or the typedef of a struct without one (repair-sharing.cc) */
        const char *name = pi_sharing_struct_name(TREE_TYPE(TREE_OPERAND(t, 0)));
        if (!name)
            name = "<anonymous>";
        char buf[512];
        expanded_location xl = expand_location(DECL_SOURCE_LOCATION(field));
        const char *file = xl.file && !strchr(xl.file, ' ') ? xl.file : "?";
        snprintf(buf, sizeof buf, "%s %s %ld %lu %s %d", name, IDENTIFIER_POINTER(DECL_NAME(field)),
                 (long)int_byte_position(field), (unsigned long)tree_to_uhwi(sz), file, xl.line);
        return build_string_literal(strlen(buf) + 1, buf);
    }
    return NULL_TREE;
}

/* The runtime's fast-path state (runtime/sharing.c): one byte per line,
 * the id of the only thread that has touched it (once the runtime has seen
 * enough of it), and the thread's own id.
 *
 * The shadow's address is declared read-only here (the runtime writes it
 * once, 0 -> the mapping, before any instrumented code runs, and never
 * again): GCC then loads it once before a loop, not on every access, probe
 * calls in the loop notwithstanding, and the checks do not test it: each
 * instrumented unit asks for the mapping at start-up, before its own
 * constructors (ensure_started: an .init_array entry of priority 100). */
static tree shadow_decl(void)
{
    static tree decl;
    if (!decl) {
        decl = build_decl(UNKNOWN_LOCATION, VAR_DECL, get_identifier("__perfinst_share_shadow"),
                          build_pointer_type(unsigned_char_type_node));
        TREE_PUBLIC(decl) = 1;
        DECL_EXTERNAL(decl) = 1;
        TREE_STATIC(decl) = 0;
        TREE_READONLY(decl) = 1;
        pi_gc_root(&decl);
    }
    return decl;
}

/* Once per assembly file: an .init_array entry calling the runtime's
 * __perfinst_share_start, which maps the shadow before main (or the
 * library's users) run.  The entry is a stub of the unit's own that calls
 * it: the call's return address tells the runtime which module has
 * instrumented units, listed in the trace even when no site or allocation
 * names its code (the lines of its globals are named through it).  The inlined checks read the shadow without testing
 * its address, so the entry has priority 100 (.init_array.00100, a priority
 * reserved to the implementation): the linker puts it before every
 * constructor of default or user priority (101 and up) of the module, and
 * a module's dependencies (libperfinst.so among them) are initialised before
 * it.  Written between functions, inside .pushsection/.popsection so that
 * GCC's idea of the current section holds. */
static void ensure_started(void)
{
    static FILE *done_for;
    if (!asm_out_file || done_for == asm_out_file)
        return;
    done_for = asm_out_file;
    fprintf(asm_out_file, "\t.pushsection .text,\"ax\",@progbits\n\t.p2align 4\n"
                          ".Lperfinst_share_start:\n\tsubq $8, %%rsp\n\tcall __perfinst_share_start@PLT\n"
                          "\taddq $8, %%rsp\n\tret\n\t.popsection\n"
                          "\t.pushsection .init_array.00100,\"aw\"\n\t.p2align 3\n"
                          "\t.quad .Lperfinst_share_start\n\t.popsection\n");
}

/* The thread's state, one TLS object (runtime/sharing.c, struct sh_tls):
 * at +0 its countdown to its next sampled access to a shared line
 * (PERFINST_SHARING_PERIOD; the runtime restarts it at a jittered value),
 * at +4 its small id, at PI_SHARE_TLS_KNOWN its known lines (known_lines).
 * One object: one TLS address for all. */
static tree tls_decl(void)
{
    static tree decl;
    if (!decl) {
        decl = build_decl(UNKNOWN_LOCATION, VAR_DECL, get_identifier("__perfinst_share_tls"),
                          build_array_type_nelts(unsigned_type_node, 8));
        TREE_PUBLIC(decl) = 1;
        DECL_EXTERNAL(decl) = 1;
        set_decl_tls_model(decl, TLS_MODEL_INITIAL_EXEC);
        pi_gc_root(&decl);
    }
    return decl;
}

static tree tls_field(tree type, unsigned offset)
{
    tree addr = build_fold_addr_expr(tls_decl());
    return build2(MEM_REF, type, addr, build_int_cst(build_pointer_type(type), offset));
}

static tree countdown_decl(void)
{
    return tls_field(unsigned_type_node, 0);
}

static tree id_decl(void)
{
    return tls_field(unsigned_char_type_node, 4);
}

/* The bits of the runtime's known lines (known_lines): a read 1, a write
 * 2.  An access needs one: a read-modify-write the write's. */
#define SH_KNOWN_READ 1u
#define SH_KNOWN_WRITE 2u

/* Has the runtime seen this thread read, or write, each of the lines from
 * l0 on that `lanes` asks about: a byte per line (`width` of them, 1, 2
 * or 8), the bits SH_KNOWN_READ and SH_KNOWN_WRITE in a line's byte the
 * access needs (0 for a line not asked about)?  The thread's known lines
 * are a byte per line at the byte shadow's address (shadow) plus the TLS
 * offset (runtime/sharing.c, known_map): an access to a sampled shared
 * line whose bit is clear calls, so that each thread's first read and
 * first write of each shared line is seen in every run.
 *
 *     k = *(uintN_t *)(shadow + __perfinst_share_tls.known + l0);   (unaligned)
 *     (k & lanes) == lanes */
static tree known_lines(gimple_seq *seq, location_t loc, tree shadow, tree l0, tree lanes, unsigned width)
{
    tree u8p = TREE_TYPE(shadow), u64 = long_long_unsigned_type_node, bt = boolean_type_node;
    tree koff = make_temp_ssa_name(sizetype, NULL, "pi_known");
    gimple_seq_add_stmt(seq, gimple_build_assign(koff, tls_field(sizetype, PI_SHARE_TLS_KNOWN)));
    tree kb = gimple_build(seq, loc, POINTER_PLUS_EXPR, u8p, shadow, koff);
    tree p = gimple_build(seq, loc, POINTER_PLUS_EXPR, u8p, kb, gimple_convert(seq, loc, sizetype, l0));
    tree lt = width == 1 ? unsigned_char_type_node : width == 2 ? short_unsigned_type_node : u64;
    tree w = make_temp_ssa_name(lt, NULL, "pi_kl");
    gimple_seq_add_stmt(seq, gimple_build_assign(w, build2(MEM_REF, build_aligned_type(lt, BITS_PER_UNIT), p,
                                                           build_int_cst(u8p, 0))));
    tree wt = TREE_TYPE(lanes);
    tree got = gimple_build(seq, loc, BIT_AND_EXPR, wt, gimple_convert(seq, loc, wt, w), lanes);
    return gimple_build(seq, loc, EQ_EXPR, bt, got, lanes);
}

/* What the footprint path of one access needs to know: whether it has one
 * (on), and the access's kind, size and whether the plugin names a struct
 * field for it. */
struct fp_access {
    bool on;
    bool read, write;
    bool what;
    unsigned size;
    /* a streaming access's run (find_runs): the path takes the accesses it
     * will make on the line at once, up to run_end, and stores where they
     * end in run_var */
    tree run_var, run_end;
    HOST_WIDE_INT run_step;
};

/* A block after `after` holding seq (which ends in a condition): its true
 * edge to `to`, unlikely; returns the block (its false edge is the caller's). */
static class loop *join_loop; /* (the check's loop) */
static basic_block fp_block(basic_block after, gimple_seq seq, location_t loc, basic_block to)
{
    basic_block bb = create_empty_bb(after);
    gimple_seq_set_location(seq, loc);
    gimple_stmt_iterator g = gsi_start_bb(bb);
    gsi_insert_seq_after(&g, seq, GSI_NEW_STMT);
    edge e = make_edge(bb, to, EDGE_TRUE_VALUE);
    e->probability = profile_probability::unlikely();
    if (current_loops)
        add_bb_to_loop(bb, join_loop);
    return bb;
}

static void fp_chain(basic_block from, basic_block next)
{
    edge e = make_edge(from, next, EDGE_FALSE_VALUE);
    e->probability = profile_probability::likely();
    next->count = e->count();
}

/* A streaming access's run (find_runs), in the footprint path's last
 * block: the accesses its loop will make on this line from this one on —
 * each a step further, up to the line's end and to the loop's (run_end),
 * and fewer than the footprint has left, so that its last access still
 * calls — are recorded at once:
 *
 *     take = MIN((64 - off) / step, (run_end - a) / step, (left - 1) / cost);
 *     m = the take * step bytes from off;  run_var = a + take * step;
 *
 * (the caller records take accesses, m and left - take * cost), and the
 * check of the next take - 1 skips them (insert_guarded: a < run_var).
 * Returns take; *m becomes the run's bytes. */
static tree fp_run(gimple_seq *seq, location_t loc, const fp_access &fa, tree a, tree off, tree left, unsigned cost,
                   tree *m)
{
    tree u32 = unsigned_type_node, u64 = long_long_unsigned_type_node, uptr = pointer_sized_int_node;
    tree lg = build_int_cst(integer_type_node, exact_log2(fa.run_step));
    tree lim_line = gimple_build(seq, loc, RSHIFT_EXPR, u32,
                                 gimple_build(seq, loc, MINUS_EXPR, u32, build_int_cst(u32, PI_SHARE_LINE), off), lg);
    /* the loop's accesses from this one: (run_end - a) / step, 1 if run_end
     * is not above a (a count GCC's assumption did not hold for) */
    tree end = make_temp_ssa_name(uptr, NULL, "pi_run_end");
    gimple_seq_add_stmt(seq, gimple_build_assign(end, fa.run_end));
    tree d = gimple_build(seq, loc, RSHIFT_EXPR, uptr, gimple_build(seq, loc, MINUS_EXPR, uptr, end, a), lg);
    tree above = gimple_build(seq, loc, GT_EXPR, boolean_type_node, end, a);
    d = gimple_build(seq, loc, COND_EXPR, uptr, above, gimple_build(seq, loc, MIN_EXPR, uptr, d,
                                                                       build_int_cst(uptr, PI_SHARE_LINE)),
                     build_int_cst(uptr, 1));
    tree lim_fp = gimple_build(seq, loc, TRUNC_DIV_EXPR, u32,
                               gimple_build(seq, loc, MINUS_EXPR, u32, gimple_convert(seq, loc, u32, left),
                                            build_int_cst(u32, 1)),
                               build_int_cst(u32, cost));
    tree take = gimple_build(seq, loc, MIN_EXPR, u32, lim_line, gimple_convert(seq, loc, u32, d));
    take = gimple_build(seq, loc, MIN_EXPR, u32, take, lim_fp);
    tree nb = gimple_build(seq, loc, LSHIFT_EXPR, u32, take, lg); /* 1 to 64 bytes */
    tree ones = gimple_build(seq, loc, RSHIFT_EXPR, u64, build_int_cstu(u64, HOST_WIDE_INT_M1U),
                             gimple_build(seq, loc, MINUS_EXPR, u32, build_int_cst(u32, 64), nb));
    *m = gimple_build(seq, loc, LSHIFT_EXPR, u64, ones, off);
    tree upto = gimple_build(seq, loc, PLUS_EXPR, uptr, a, gimple_convert(seq, loc, uptr, nb));
    gimple_seq_add_stmt(seq, gimple_build_assign(fa.run_var, upto));
    return take;
}

/* The footprint path, for a byte that is not the thread's id, nor a shared
 * line's that the check skips or counts down (runtime/sharing.c, struct
 * sh_line's fp_id):
 *
 *     head = the words below __perfinst_share_shadow (runtime/sharing.c, struct sh_head);
 *     rec = head->recs + head->index[addr >> 6] * 64;
 *     if (rec->fp_id != id) goto call;              (not this thread's, or closed)
 *     if (rec->fp_epoch != head->epoch) goto call;
 *     m = bytes << (addr & 63);
 *     if (what && ((rec->o_r & rec->o_w) & m) != m) goto call;  (new bytes of a field: their site)
 *     left = rec->fp_left - cost; if (left <= 0) goto call;      (the footprint's end)
 *     rec->fp_left = left; rec->o_r |= m; rec->o_reads++;        (or o_w, o_writes; both)
 *     goto done;
 *
 * what __perfinst_share's own short path did for the owner's first
 * accesses to a line (a call each, about 100 instructions), in about 20.
 * Only a line in its owner's footprint has the owner's id as fp_id (the
 * runtime sets it while the byte is 0, and clears it before the byte
 * becomes another: shared, or an id given again), so the byte need not be
 * tested for 0: any other byte's record has another fp_id, or is record 0.
 * Returns the path's first block, whose every way out goes to cb or join. */
static basic_block fp_path(basic_block after, const fp_access &fa, tree a, tree idx, tree shadow, location_t loc,
                           basic_block cb, basic_block join)
{
    tree u8 = unsigned_char_type_node, u8p = build_pointer_type(u8), u32 = unsigned_type_node;
    tree u16 = short_unsigned_type_node, u64 = long_long_unsigned_type_node;
    auto field = [&](tree rec, tree type, unsigned off) {
        return build2(MEM_REF, type, rec, build_int_cst(u8p, off));
    };
    join_loop = join->loop_father;
    gimple_seq seq = NULL;
    tree u32p = build_pointer_type(u32);
    auto head = [&](tree type, unsigned below) {
        return build2(MEM_REF, type, shadow, build_int_cst(u8p, -(HOST_WIDE_INT)below));
    };
    tree ib = make_temp_ssa_name(u32p, NULL, "pi_index");
    gimple_seq_add_stmt(&seq, gimple_build_assign(ib, head(u32p, PI_SHARE_HEAD_INDEX)));
    tree ioff = gimple_build(&seq, loc, MULT_EXPR, sizetype, gimple_convert(&seq, loc, sizetype, idx),
                             size_int(4));
    tree ip = gimple_build(&seq, loc, POINTER_PLUS_EXPR, TREE_TYPE(ib), ib, ioff);
    tree k = make_temp_ssa_name(u32, NULL, "pi_rec");
    gimple_seq_add_stmt(&seq, gimple_build_assign(k, build2(MEM_REF, u32, ip, build_int_cst(u8p, 0))));
    tree rb = make_temp_ssa_name(u8p, NULL, "pi_recs");
    gimple_seq_add_stmt(&seq, gimple_build_assign(rb, head(u8p, PI_SHARE_HEAD_RECS)));
    tree roff = gimple_build(&seq, loc, LSHIFT_EXPR, sizetype, gimple_convert(&seq, loc, sizetype, k),
                             build_int_cst(integer_type_node, 6));
    tree rec = gimple_build(&seq, loc, POINTER_PLUS_EXPR, u8p, rb, roff);
    /* the id against the thread's id as a 32-bit word (its 3 bytes after it
     * are 0): not the check's own load of it, which GCC would then keep in a
     * register instead of comparing with memory, an instruction more on the
     * hot path */
    tree rid = make_temp_ssa_name(u8, NULL, "pi_fp_id");
    gimple_seq_add_stmt(&seq, gimple_build_assign(rid, field(rec, u8, PI_SHARE_REC_FP_ID)));
    tree me32 = make_temp_ssa_name(u32, NULL, "pi_me32");
    gimple_seq_add_stmt(&seq, gimple_build_assign(me32, tls_field(u32, 4)));
    gimple_seq_add_stmt(&seq, gimple_build_cond(NE_EXPR, gimple_convert(&seq, loc, u32, rid), me32, NULL_TREE,
                                                NULL_TREE));
    basic_block f1 = fp_block(after, seq, loc, cb);

    seq = NULL;
    tree re = make_temp_ssa_name(u32, NULL, "pi_fp_epoch");
    gimple_seq_add_stmt(&seq, gimple_build_assign(re, field(rec, u32, PI_SHARE_REC_FP_EPOCH)));
    tree ge = make_temp_ssa_name(u32, NULL, "pi_epoch");
    gimple_seq_add_stmt(&seq, gimple_build_assign(ge, head(u32, PI_SHARE_HEAD_EPOCH)));
    gimple_seq_add_stmt(&seq, gimple_build_cond(NE_EXPR, re, ge, NULL_TREE, NULL_TREE));
    basic_block f2 = fp_block(f1, seq, loc, cb);
    fp_chain(f1, f2);

    seq = NULL;
    /* the bytes' offset in the line, as (addr - rec) & 63 (records are
     * 64-byte aligned): from a value loaded here, so that GCC does not
     * compute the mask of a loop-invariant address before the loop and hold
     * it in a register the hot path needs */
    unsigned HOST_WIDE_INT ones = fa.size >= 64 ? HOST_WIDE_INT_M1U : (HOST_WIDE_INT_1U << fa.size) - 1;
    auto mask = [&](gimple_seq *q, tree *shp) {
        tree d = gimple_build(q, loc, MINUS_EXPR, pointer_sized_int_node, a,
                              gimple_convert(q, loc, pointer_sized_int_node, rec));
        *shp = gimple_build(q, loc, BIT_AND_EXPR, u32, gimple_convert(q, loc, u32, d), build_int_cst(u32, 63));
        return gimple_build(q, loc, LSHIFT_EXPR, u64, build_int_cstu(u64, ones), *shp);
    };
    /* (without a field to test, the mask is made after the footprint's
     * test, just before its use: GCC then needs no register to hold it
     * across the test, a copy less on the path) */
    tree sh = NULL_TREE, m = fa.what || fa.run_var ? mask(&seq, &sh) : NULL_TREE;
    basic_block last = f2;
    if (fa.what) {
        tree have = build_int_cstu(u64, HOST_WIDE_INT_M1U);
        if (fa.read) {
            tree r = make_temp_ssa_name(u64, NULL, "pi_or");
            gimple_seq_add_stmt(&seq, gimple_build_assign(r, field(rec, u64, PI_SHARE_REC_OR)));
            have = r;
        }
        if (fa.write) {
            tree w = make_temp_ssa_name(u64, NULL, "pi_ow");
            gimple_seq_add_stmt(&seq, gimple_build_assign(w, field(rec, u64, PI_SHARE_REC_OW)));
            have = fa.read ? gimple_build(&seq, loc, BIT_AND_EXPR, u64, have, w) : w;
        }
        tree t = gimple_build(&seq, loc, BIT_AND_EXPR, u64, have, m);
        gimple_seq_add_stmt(&seq, gimple_build_cond(NE_EXPR, t, m, NULL_TREE, NULL_TREE));
        basic_block f3 = fp_block(last, seq, loc, cb);
        fp_chain(last, f3);
        last = f3;
        seq = NULL;
    }
    tree left = make_temp_ssa_name(u16, NULL, "pi_fp_left");
    gimple_seq_add_stmt(&seq, gimple_build_assign(left, field(rec, u16, PI_SHARE_REC_FP_LEFT)));
    unsigned cost = (fa.read ? 1 : 0) + (fa.write ? 1 : 0);
    tree nl = gimple_build(&seq, loc, MINUS_EXPR, integer_type_node, gimple_convert(&seq, loc, integer_type_node, left),
                           build_int_cst(integer_type_node, cost));
    gimple_seq_add_stmt(&seq, gimple_build_cond(LE_EXPR, nl, integer_zero_node, NULL_TREE, NULL_TREE));
    basic_block f4 = fp_block(last, seq, loc, cb);
    fp_chain(last, f4);

    seq = NULL;
    tree take = build_int_cst(u32, 1);
    if (!m)
        m = mask(&seq, &sh);
    if (fa.run_var) { /* a run: this access and the next ones on the line (fp_run) */
        take = fp_run(&seq, loc, fa, a, sh, left, cost, &m);
        nl = gimple_build(&seq, loc, MINUS_EXPR, integer_type_node, gimple_convert(&seq, loc, integer_type_node, left),
                          gimple_build(&seq, loc, MULT_EXPR, integer_type_node,
                                       gimple_convert(&seq, loc, integer_type_node, take),
                                       build_int_cst(integer_type_node, cost)));
    }
    gimple_seq_add_stmt(&seq, gimple_build_assign(field(rec, u16, PI_SHARE_REC_FP_LEFT),
                                                  gimple_convert(&seq, loc, u16, nl)));
    for (int kind = 0; kind < 2; kind++) {
        if (!(kind ? fa.write : fa.read))
            continue;
        unsigned mo = kind ? PI_SHARE_REC_OW : PI_SHARE_REC_OR, no = kind ? PI_SHARE_REC_WRITES : PI_SHARE_REC_READS;
        tree old = make_temp_ssa_name(u64, NULL, "pi_mask");
        gimple_seq_add_stmt(&seq, gimple_build_assign(old, field(rec, u64, mo)));
        tree nm = gimple_build(&seq, loc, BIT_IOR_EXPR, u64, old, m);
        gimple_seq_add_stmt(&seq, gimple_build_assign(field(rec, u64, mo), nm));
        tree n = make_temp_ssa_name(u32, NULL, "pi_count");
        gimple_seq_add_stmt(&seq, gimple_build_assign(n, field(rec, u32, no)));
        tree n1 = gimple_build(&seq, loc, PLUS_EXPR, u32, n, take);
        gimple_seq_add_stmt(&seq, gimple_build_assign(field(rec, u32, no), n1));
    }
    basic_block f5 = create_empty_bb(f4);
    gimple_seq_set_location(seq, loc);
    gimple_stmt_iterator g = gsi_start_bb(f5);
    gsi_insert_seq_after(&g, seq, GSI_NEW_STMT);
    if (current_loops)
        add_bb_to_loop(f5, join->loop_father);
    fp_chain(f4, f5);
    edge ej = make_edge(f5, join, EDGE_FALLTHRU);
    ej->probability = profile_probability::always();
    return f1;
}

/* Insert CALL before the statement at *GSI behind the fast path:
 *
 *     b = __perfinst_share_shadow[addr >> 6];
 *     if (b == __perfinst_share_id) goto done;    (a line private to this thread)
 *     if (b != PI_SHARE_SAMPLED_BYTE) goto call;  (new, another's, or watched)
 *     if (--__perfinst_share_countdown != 0       (a shared line: sampled ...
 *         && <line known to the runtime for this thread>) goto done;   ... once seen there)
 *   call:
 *     __perfinst_share(addr, info, what);
 *   done:
 *
 * so that the accesses to memory only one thread uses cost a few
 * instructions and no call, and those to lines threads share call once in
 * PERFINST_SHARING_PERIOD on average.  The shadow is mapped before any
 * instrumented code runs (ensure_started: a constructor that runs first)
 * and covers every user address (47 bits: addr >> 6 is below 2^41), so the
 * check neither tests the shadow's address nor masks the index: the access
 * it guards would fault on an address the shadow does not cover. */
static void insert_guarded(gimple_stmt_iterator *gsi, gcall *call, tree addr, location_t loc, tree skip,
                           bool read, const fp_access &fa, unsigned fa_need)
{
    tree u8p = build_pointer_type(unsigned_char_type_node);
    tree base = make_temp_ssa_name(u8p, NULL, "pi_shadow");
    gcond *cs = NULL;
    if (skip) { /* a member of a group its head found private or sampled: no check */
        cs = gimple_build_cond(NE_EXPR, skip, boolean_false_node, NULL_TREE, NULL_TREE);
        gimple_set_location(cs, loc);
        gsi_insert_before(gsi, cs, GSI_SAME_STMT);
    }
    gimple_seq seq = NULL;
    gimple_seq_add_stmt(&seq, gimple_build_assign(base, shadow_decl()));
    tree a = gimple_convert(&seq, loc, pointer_sized_int_node, addr);
    tree idx = gimple_build(&seq, loc, RSHIFT_EXPR, pointer_sized_int_node, a,
                            build_int_cst(integer_type_node, 6));
    tree off = gimple_convert(&seq, loc, sizetype, idx);
    /* (p is the fast path's alone: the known-line test below computes its
     * own address from base and off -- a p it shared would be kept live
     * out of the fast path, an instruction more (lea) on every check) */
    tree p = gimple_build(&seq, loc, POINTER_PLUS_EXPR, u8p, base, off);
    tree b = make_temp_ssa_name(unsigned_char_type_node, NULL, "pi_owner");
    gimple_seq_add_stmt(&seq, gimple_build_assign(b, build2(MEM_REF, unsigned_char_type_node, p,
                                                            build_int_cst(u8p, 0))));
    tree me = make_temp_ssa_name(unsigned_char_type_node, NULL, "pi_me");
    gimple_seq_add_stmt(&seq, gimple_build_assign(me, id_decl()));
    gcond *c1 = gimple_build_cond(NE_EXPR, b, me, NULL_TREE, NULL_TREE);
    gimple_seq_add_stmt(&seq, c1);
    gimple_seq_set_location(seq, loc);
    gsi_insert_seq_before(gsi, seq, GSI_SAME_STMT);
    basic_block bb = gimple_bb(c1);
    edge e = split_block(bb, c1); /* bb: ... c1 | join: the access */
    basic_block join = e->dest;

    /* chk2: is the line a sampled shared one?  chk3: count down */
    basic_block chk2 = create_empty_bb(bb);
    basic_block chk3 = create_empty_bb(chk2);
    basic_block cb = create_empty_bb(chk3);
    gcond *c2 = gimple_build_cond(NE_EXPR, b, build_int_cst(unsigned_char_type_node, PI_SHARE_SAMPLED_BYTE),
                                  NULL_TREE, NULL_TREE);
    gimple_set_location(c2, loc);
    gimple_stmt_iterator g2 = gsi_start_bb(chk2);
    gsi_insert_after(&g2, c2, GSI_NEW_STMT);
    seq = NULL;
    tree cd = make_temp_ssa_name(unsigned_type_node, NULL, "pi_cd");
    gimple_seq_add_stmt(&seq, gimple_build_assign(cd, countdown_decl()));
    tree cd1 = gimple_build(&seq, loc, MINUS_EXPR, unsigned_type_node, cd, build_int_cst(unsigned_type_node, 1));
    gimple_seq_add_stmt(&seq, gimple_build_assign(countdown_decl(), cd1));
    gimple_seq_add_stmt(&seq, gimple_build_cond(EQ_EXPR, cd1, build_int_cst(unsigned_type_node, 0), NULL_TREE,
                                                NULL_TREE));
    gimple_seq_set_location(seq, loc);
    gimple_stmt_iterator g3 = gsi_start_bb(chk3);
    gsi_insert_seq_after(&g3, seq, GSI_NEW_STMT);
    /* chk4: the line known to the runtime for this thread?  (fa_need 0: a
     * check before this one, of the same bytes, made sure: known_after) */
    basic_block chk4 = fa_need ? create_empty_bb(chk3) : NULL;
    if (chk4) {
        seq = NULL;
        tree kn = known_lines(&seq, loc, base, off, build_int_cst(unsigned_char_type_node, fa_need), 1);
        gimple_seq_add_stmt(&seq, gimple_build_cond(NE_EXPR, kn, boolean_false_node, NULL_TREE, NULL_TREE));
        gimple_seq_set_location(seq, loc);
        gimple_stmt_iterator g4 = gsi_start_bb(chk4);
        gsi_insert_seq_after(&g4, seq, GSI_NEW_STMT);
    }
    gimple_stmt_iterator gcall_it = gsi_start_bb(cb);
    gsi_insert_after(&gcall_it, call, GSI_NEW_STMT);

    e->flags = (e->flags & ~EDGE_FALLTHRU) | EDGE_FALSE_VALUE; /* b == me: done */
    edge e2t = make_edge(bb, chk2, EDGE_TRUE_VALUE);
    /* not sampled: a read skips a line nobody wrote since it became shared
     * (tested after the sampled byte: in the programs of bench/sharing.sh a
     * load that is not on its thread's line is seldom on a read-only one,
     * bench/RESULTS.md), then the footprint path, or the call */
    basic_block fp = fa.on ? fp_path(chk3, fa, a, idx, base, loc, cb, join) : NULL;
    if (fp && fa.run_var) { /* a streaming access: skip what its run took (fp_run) */
        basic_block rk = create_empty_bb(chk3);
        seq = NULL;
        tree t = make_temp_ssa_name(pointer_sized_int_node, NULL, "pi_run");
        gimple_seq_add_stmt(&seq, gimple_build_assign(t, fa.run_var));
        gimple_seq_add_stmt(&seq, gimple_build_cond(LT_EXPR, a, t, NULL_TREE, NULL_TREE));
        gimple_seq_set_location(seq, loc);
        gimple_stmt_iterator gk = gsi_start_bb(rk);
        gsi_insert_seq_after(&gk, seq, GSI_NEW_STMT);
        edge rt = make_edge(rk, join, EDGE_TRUE_VALUE);
        edge rf = make_edge(rk, fp, EDGE_FALSE_VALUE);
        rt->probability = profile_probability::likely();
        rf->probability = rt->probability.invert();
        if (current_loops)
            add_bb_to_loop(rk, bb->loop_father);
        fp = rk;
    }
    basic_block not_sampled = fp ? fp : cb;
    edge ery = NULL, erf = NULL;
    if (read) {
        basic_block ro = create_empty_bb(chk2);
        gcond *cr = gimple_build_cond(EQ_EXPR, b, build_int_cst(unsigned_char_type_node, PI_SHARE_RO_BYTE), NULL_TREE,
                                      NULL_TREE);
        gimple_set_location(cr, loc);
        gimple_stmt_iterator gr = gsi_start_bb(ro);
        gsi_insert_after(&gr, cr, GSI_NEW_STMT);
        ery = make_edge(ro, join, EDGE_TRUE_VALUE);
        erf = make_edge(ro, not_sampled, EDGE_FALSE_VALUE);
        ery->probability = profile_probability::even();
        erf->probability = ery->probability.invert();
        if (current_loops)
            add_bb_to_loop(ro, bb->loop_father);
        not_sampled = ro;
    }
    edge e3t = make_edge(chk2, not_sampled, EDGE_TRUE_VALUE);
    edge e3f = make_edge(chk2, chk3, EDGE_FALSE_VALUE);
    edge e4t = make_edge(chk3, cb, EDGE_TRUE_VALUE);
    edge e4f = make_edge(chk3, chk4 ? chk4 : join, EDGE_FALSE_VALUE);
    edge e5t = chk4 ? make_edge(chk4, join, EDGE_TRUE_VALUE) : NULL;
    edge e5f = chk4 ? make_edge(chk4, cb, EDGE_FALSE_VALUE) : NULL;
    edge ec = make_edge(cb, join, EDGE_FALLTHRU);
    e2t->probability = profile_probability::unlikely();
    e->probability = e2t->probability.invert();
    e3t->probability = profile_probability::unlikely();
    e3f->probability = e3t->probability.invert();
    e4t->probability = profile_probability::very_unlikely();
    e4f->probability = e4t->probability.invert();
    if (chk4) {
        e5t->probability = profile_probability::very_likely();
        e5f->probability = e5t->probability.invert();
    }
    ec->probability = profile_probability::always();
    chk2->count = e2t->count();
    chk3->count = e3f->count();
    not_sampled->count = e3t->count();
    if (read && fp)
        fp->count = erf->count();
    if (chk4)
        chk4->count = e4f->count();
    cb->count = e3t->count() + e4t->count() + (chk4 ? e5f->count() : profile_count::zero());
    if (current_loops) {
        add_bb_to_loop(chk2, bb->loop_father);
        add_bb_to_loop(chk3, bb->loop_father);
        if (chk4)
            add_bb_to_loop(chk4, bb->loop_father);
        add_bb_to_loop(cb, bb->loop_father);
    }
    if (cs) { /* before it all: if (skip) goto done */
        basic_block sb = gimple_bb(cs);
        edge se = split_block(sb, cs); /* sb: ... cs | se->dest == bb: the check */
        se->flags = (se->flags & ~EDGE_FALLTHRU) | EDGE_FALSE_VALUE;
        edge st = make_edge(sb, join, EDGE_TRUE_VALUE);
        st->probability = profile_probability::likely();
        se->probability = st->probability.invert();
    }
}

/* Splits C's block after C, the condition just inserted, and puts SEQ in
 * a block of its own, entered (with probability P, unlikely) when C goes to SIDE
 * (EDGE_TRUE_VALUE or EDGE_FALSE_VALUE) and falling through into the rest
 * of the block; returns the edge that goes round SEQ, into the rest (its
 * dest), and in *INTO_REST the side block's edge into the rest. */
static edge side_block(gcond *c, gimple_seq seq, int side, edge *into_rest,
                       profile_probability p = profile_probability::unlikely())
{
    basic_block bb = gimple_bb(c);
    edge e = split_block(bb, c); /* bb: ... c | e->dest: the rest */
    basic_block sb = create_empty_bb(bb);
    gimple_stmt_iterator gs = gsi_start_bb(sb);
    gsi_insert_seq_after(&gs, seq, GSI_NEW_STMT);
    e->flags = (e->flags & ~EDGE_FALLTHRU) | (side == EDGE_TRUE_VALUE ? EDGE_FALSE_VALUE : EDGE_TRUE_VALUE);
    edge es = make_edge(bb, sb, side);
    edge ej = make_edge(sb, e->dest, EDGE_FALLTHRU);
    es->probability = p;
    e->probability = es->probability.invert();
    ej->probability = profile_probability::always();
    sb->count = es->count();
    if (current_loops)
        add_bb_to_loop(sb, bb->loop_father);
    if (into_rest)
        *into_rest = ej;
    return e;
}

/* The bytes the probe of a (a.ref) names: the reference (a bit-field's
 * representative, a part's whole) and its size. */
static tree probe_ref(const share_access &a, unsigned *size)
{
    tree r = unshare_expr(a.ref);
    if (TREE_CODE(r) == BIT_FIELD_REF || TREE_CODE(r) == REALPART_EXPR || TREE_CODE(r) == IMAGPART_EXPR)
        r = TREE_OPERAND(r, 0);
    if (TREE_CODE(r) == COMPONENT_REF && DECL_BIT_FIELD(TREE_OPERAND(r, 1))) {
        tree field = TREE_OPERAND(r, 1);
        tree repr = DECL_BIT_FIELD_REPRESENTATIVE(field);
        r = repr ? build3(COMPONENT_REF, TREE_TYPE(repr), TREE_OPERAND(r, 0), repr, NULL_TREE) : TREE_OPERAND(r, 0);
    }
    tree tsz = TYPE_SIZE_UNIT(TREE_TYPE(r));
    *size = tsz && TREE_CODE(tsz) == INTEGER_CST && tree_fits_uhwi_p(tsz) ? (unsigned)MIN(tree_to_uhwi(tsz), 1u << 30) : 1;
    return r;
}

/* A block operation of a constant length of at most a line, before its
 * call of __perfinst_share_block: the runtime's decision for each of its
 * (one or two) lines, inlined (access_range: a line private to this thread,
 * or one nobody wrote since it became shared when the block only reads it,
 * needs nothing; a sampled shared one counts the countdown down, and the
 * access that reaches 0 is the sample):
 *
 *     l0 = addr >> 6; l1 = (addr + len - 1) >> 6;
 *     b0 = __perfinst_share_shadow[l0]; b1 = __perfinst_share_shadow[l1];
 *     n = (b0 == SAMPLED) + (l1 != l0 && b1 == SAMPLED);
 *     ok = (b0 == id || (b0 == SAMPLED && <l0 known>) [|| b0 == RO]) && (the same of b1) && countdown > n;
 *     countdown = ok ? countdown - n : countdown;
 *     if (!ok) __perfinst_share_block(addr, len, kind);
 *
 * — the runtime then does what it did for every line (the countdown as it
 * was); when the check skips the call, the call would have done nothing
 * but count the countdown down by n.  A 64-byte memcpy costs about 25
 * instructions instead of a call of about 500 (lu's blocks). */
static void insert_block_guarded(gimple_stmt_iterator *gsi, gcall *call, tree addr, unsigned HOST_WIDE_INT len,
                                 bool read, location_t loc)
{
    tree u8 = unsigned_char_type_node, u8p = build_pointer_type(u8), u32 = unsigned_type_node;
    tree uptr = pointer_sized_int_node, bt = boolean_type_node;
    gimple_seq seq = NULL;
    tree base = make_temp_ssa_name(u8p, NULL, "pi_shadow");
    gimple_seq_add_stmt(&seq, gimple_build_assign(base, shadow_decl()));
    tree a = gimple_convert(&seq, loc, uptr, addr);
    tree six = build_int_cst(integer_type_node, 6);
    tree l0 = gimple_build(&seq, loc, RSHIFT_EXPR, uptr, a, six);
    tree last = gimple_build(&seq, loc, PLUS_EXPR, uptr, a, build_int_cst(uptr, len - 1));
    tree l1 = gimple_build(&seq, loc, RSHIFT_EXPR, uptr, last, six);
    tree me = make_temp_ssa_name(u8, NULL, "pi_me");
    gimple_seq_add_stmt(&seq, gimple_build_assign(me, id_decl()));
    tree sampled = build_int_cst(u8, PI_SHARE_SAMPLED_BYTE), ro = build_int_cst(u8, PI_SHARE_RO_BYTE);
    tree good = NULL_TREE, n = NULL_TREE;
    /* (both lines known: the second asked about only when it is another) */
    unsigned need = read ? SH_KNOWN_READ : SH_KNOWN_WRITE;
    tree lanes = gimple_build(&seq, loc, BIT_IOR_EXPR, u32, build_int_cst(u32, need),
                              gimple_build(&seq, loc, MULT_EXPR, u32,
                                           gimple_convert(&seq, loc, u32, gimple_build(&seq, loc, NE_EXPR, bt, l0, l1)),
                                           build_int_cst(u32, need << 8)));
    tree known = known_lines(&seq, loc, base, l0, lanes, 2);
    for (tree l : {l0, l1}) {
        tree p = gimple_build(&seq, loc, POINTER_PLUS_EXPR, u8p, base, gimple_convert(&seq, loc, sizetype, l));
        tree b = make_temp_ssa_name(u8, NULL, "pi_owner");
        gimple_seq_add_stmt(&seq, gimple_build_assign(b, build2(MEM_REF, u8, p, build_int_cst(u8p, 0))));
        tree s = gimple_build(&seq, loc, EQ_EXPR, bt, b, sampled);
        tree g = gimple_build(&seq, loc, BIT_IOR_EXPR, bt, gimple_build(&seq, loc, EQ_EXPR, bt, b, me),
                              gimple_build(&seq, loc, BIT_AND_EXPR, bt, s, known));
        if (read)
            g = gimple_build(&seq, loc, BIT_IOR_EXPR, bt, g, gimple_build(&seq, loc, EQ_EXPR, bt, b, ro));
        good = good ? gimple_build(&seq, loc, BIT_AND_EXPR, bt, good, g) : g;
        if (l == l1) /* the second line counts only if it is another */
            s = gimple_build(&seq, loc, BIT_AND_EXPR, bt, s, gimple_build(&seq, loc, NE_EXPR, bt, l0, l1));
        tree si = gimple_convert(&seq, loc, u32, s);
        n = n ? gimple_build(&seq, loc, PLUS_EXPR, u32, n, si) : si;
    }
    tree cd = make_temp_ssa_name(u32, NULL, "pi_cd");
    gimple_seq_add_stmt(&seq, gimple_build_assign(cd, countdown_decl()));
    tree ok = gimple_build(&seq, loc, BIT_AND_EXPR, bt, good, gimple_build(&seq, loc, GT_EXPR, bt, cd, n));
    tree cdn = gimple_build(&seq, loc, COND_EXPR, u32, ok, gimple_build(&seq, loc, MINUS_EXPR, u32, cd, n), cd);
    gimple_seq_add_stmt(&seq, gimple_build_assign(countdown_decl(), cdn));
    gcond *c = gimple_build_cond(EQ_EXPR, ok, boolean_false_node, NULL_TREE, NULL_TREE);
    gimple_seq_add_stmt(&seq, c);
    gimple_seq_set_location(seq, loc);
    gsi_insert_seq_before(gsi, seq, GSI_SAME_STMT);
    /* not ok: the call, then the block operation; ok: the block operation */
    side_block(c, gimple_seq_alloc_with_stmt(call), EDGE_TRUE_VALUE, NULL);
}

/* A block operation's probe: a call before it (after it, for the string it
 * made).  A string read before the call gets the inlined check of its first
 * line (most strings lie in one line: a line private to this thread, or one
 * the countdown does not pick, costs no call) and calls
 * __perfinst_share_string_checked; a block of a constant length of at most
 * a line gets the inlined check of its lines (insert_block_guarded);
 * otherwise no inlined check (the runtime checks each line). */
static void instrument_block(const share_access &a)
{
    static tree block_fn, string_fn, string_checked_fn;
    if (!block_fn) {
        block_fn = build_fn_decl("__perfinst_share_block",
                                 build_function_type_list(void_type_node, const_ptr_type_node, size_type_node,
                                                          unsigned_type_node, NULL_TREE));
        string_fn = build_fn_decl("__perfinst_share_string",
                                  build_function_type_list(void_type_node, const_ptr_type_node, unsigned_type_node,
                                                           NULL_TREE));
        string_checked_fn = build_fn_decl("__perfinst_share_string_checked", TREE_TYPE(string_fn));
        for (tree d : {block_fn, string_fn, string_checked_fn}) {
            TREE_NOTHROW(d) = 1;
            DECL_ATTRIBUTES(d) = tree_cons(get_identifier("leaf"), NULL_TREE, DECL_ATTRIBUTES(d));
        }
        for (tree *d : {&block_fn, &string_fn, &string_checked_fn})
            pi_gc_root(d);
    }
    gimple_stmt_iterator gsi = gsi_for_stmt(a.stmt);
    location_t loc = gimple_location(a.stmt);
    tree addr = force_gimple_operand_gsi(&gsi, fold_convert(const_ptr_type_node, unshare_expr(a.addr)), true,
                                         NULL_TREE, true, GSI_SAME_STMT);
    tree kind = build_int_cst(unsigned_type_node, a.store ? 1 : 0);
    gcall *call;
    if (a.block == SH_BLOCK) {
        tree len = force_gimple_operand_gsi(&gsi, fold_convert(size_type_node, unshare_expr(a.len)), true, NULL_TREE,
                                            true, GSI_SAME_STMT);
        call = gimple_build_call(block_fn, 3, addr, len, kind);
        if (!pi_opt.sharing_no_coalesce && TREE_CODE(len) == INTEGER_CST && tree_fits_uhwi_p(len) && tree_to_uhwi(len) >= 1 &&
            tree_to_uhwi(len) <= PI_SHARE_LINE) {
            gimple_set_location(call, loc);
            insert_block_guarded(&gsi, call, addr, tree_to_uhwi(len), !a.store, loc);
            return;
        }
    } else if (a.block == SH_STRING) {
        call = gimple_build_call(string_checked_fn, 2, addr, kind);
        gimple_set_location(call, loc);
        insert_guarded(&gsi, call, addr, loc, NULL_TREE, !a.store, fp_access(),
                       a.store ? SH_KNOWN_WRITE : SH_KNOWN_READ);
        return;
    } else
        call = gimple_build_call(string_fn, 2, addr, kind);
    gimple_set_location(call, loc);
    if (a.block == SH_STRING_AFTER && !stmt_ends_bb_p(a.stmt))
        gsi_insert_after(&gsi, call, GSI_SAME_STMT);
    else if (a.block == SH_STRING_AFTER) {
        edge e = find_fallthru_edge(gimple_bb(a.stmt)->succs);
        if (!e)
            return;
        gsi_insert_on_edge_immediate(e, call);
    } else
        gsi_insert_before(&gsi, call, GSI_SAME_STMT);
}

static void instrument(const share_access &a, tree skip)
{
    if (a.block) {
        instrument_block(a);
        return;
    }
    gimple_stmt_iterator gsi = gsi_for_stmt(a.stmt);
    location_t loc = gimple_location(a.stmt);
    tree addr;
    unsigned size = a.size;
    unsigned align = a.ref ? 0 : get_pointer_alignment(a.addr); /* (bits) */
    if (a.ref) {
        tree r = probe_ref(a, &size);
        align = get_object_alignment(r);
        tree base = get_base_address(r);
        if (base && DECL_P(base))
            TREE_ADDRESSABLE(base) = 1;
        addr = build_fold_addr_expr_with_type(r, const_ptr_type_node);
    } else
        addr = fold_convert(const_ptr_type_node, a.addr);
    addr = force_gimple_operand_gsi(&gsi, addr, true, NULL_TREE, true, GSI_SAME_STMT);
    tree what = a.ref ? what_of(a.ref)
                : TREE_CODE(a.addr) == ADDR_EXPR ? what_of(TREE_OPERAND(a.addr, 0)) /* __atomic_*(&s.f, ...) */
                                                : NULL_TREE;
    if (!what)
        what = build_int_cst(const_ptr_type_node, 0);
    /* info: size << 1 | is_store, bit 31 a read-modify-write (sizes are capped at 2^30) */
    unsigned info = (unsigned)size << 1 | (a.store ? 1u : 0u) | (a.rmw ? 1u << 31 : 0u);
    gcall *call = gimple_build_call(probe_decl(), 3, addr, build_int_cst(unsigned_type_node, info), what);
    gimple_set_location(call, loc);
    /* the footprint path, for an access that cannot cross a line: a byte, or
     * a power of two up to 64 bytes aligned to its size */
    fp_access fa = fp_access();
    if (!pi_opt.sharing_fp_call && size >= 1 && size <= 64 && !(size & (size - 1)) && align / BITS_PER_UNIT >= size) {
        fa.on = true;
        fa.read = !a.store || a.rmw;
        fa.write = a.store;
        fa.what = !integer_zerop(what);
        fa.size = size;
        if (a.run_var && !fa.what && (HOST_WIDE_INT)size == a.run_step) {
            fa.run_var = a.run_var;
            fa.run_end = a.run_end;
            fa.run_step = a.run_step;
        }
    }
    insert_guarded(&gsi, call, addr, loc, skip, !a.store, fa,
                   a.known ? 0 : a.store ? SH_KNOWN_WRITE : SH_KNOWN_READ);
}

/* ---- known lines made sure by an earlier check --------------------------------------
 *
 * A thread's first read and first write of each sampled shared line call
 * (its known lines, insert_guarded's chk4): once the runtime has seen it,
 * the line's bit stays set (only an allocation, a call, clears it).  So an
 * access whose every path from an earlier access of the same bytes and
 * kind — a check that dominates it — has no call or asm (a loop's latch
 * test `j < dim` after the guard `0 < dim` before the loop, kmeans's
 * volatile bounds) needs no test of its own: when its line is sampled there
 * and was at the earlier check, that check tested the bit or called.  (A
 * line that became shared, or was first written after being read-only,
 * between the two is tested again at the earlier check's next run.) */
#define SH_KNOWN_PAIRS 256 /* the region walks a function may take */

/* Has every block on a path from `from` to `to` no call (but an atomic
 * builtin) and no asm?  (the blocks reachable from `from` that reach `to`,
 * both included, all their statements) */
static bool call_free_between(function *fun, basic_block from, basic_block to)
{
    auto_sbitmap fw(last_basic_block_for_fn(fun)), bw(last_basic_block_for_fn(fun));
    bitmap_clear(fw);
    bitmap_clear(bw);
    /* the blocks reachable from b forward (succs) or backward (preds), into
     * seen, within `within` when given; false when one has a call or an asm
     * and calls is set */
    auto walk = [&](basic_block b0, bool forward, sbitmap seen, sbitmap within, bool calls) {
        auto_vec<basic_block> work;
        work.safe_push(b0);
        bitmap_set_bit(seen, b0->index);
        while (!work.is_empty()) {
            basic_block b = work.pop();
            tree ad;
            unsigned sz;
            bool st;
            for (gimple_stmt_iterator gsi = gsi_start_bb(b); calls && !gsi_end_p(gsi); gsi_next(&gsi))
                if ((is_gimple_call(gsi_stmt(gsi)) && !atomic_access(gsi_stmt(gsi), &ad, &sz, &st)) ||
                    gimple_code(gsi_stmt(gsi)) == GIMPLE_ASM)
                    return false;
            if (!forward && b == from)
                continue;
            edge e;
            edge_iterator ei;
            FOR_EACH_EDGE(e, ei, forward ? b->succs : b->preds)
            {
                basic_block n = forward ? e->dest : e->src;
                if (n != EXIT_BLOCK_PTR_FOR_FN(fun) && n != ENTRY_BLOCK_PTR_FOR_FN(fun) &&
                    (!within || bitmap_bit_p(within, n->index)) && bitmap_set_bit(seen, n->index))
                    work.safe_push(n);
            }
        }
        return true;
    };
    walk(from, true, fw, NULL, false);
    return walk(to, false, bw, fw, true);
}

/* Is x before y in their block? */
static bool stmt_before(gimple *x, gimple *y)
{
    for (gimple_stmt_iterator gsi = gsi_for_stmt(x); !gsi_end_p(gsi); gsi_next(&gsi))
        if (gsi_stmt(gsi) == y)
            return x != y;
    return false;
}

/* Mark the accesses whose line an earlier check made known (above). */
static void known_after(function *fun, vec<share_access> &acc)
{
    unsigned walks = 0;
    auto_vec<tree> refs;
    auto_vec<unsigned> sizes;
    auto_vec<hashval_t> hashes;
    for (unsigned i = 0; i < acc.length(); i++) {
        unsigned size = 0;
        tree r = acc[i].ref && !acc[i].block ? probe_ref(acc[i], &size) : NULL_TREE;
        refs.safe_push(r);
        sizes.safe_push(size);
        hashes.safe_push(r ? iterative_hash_expr(r, size) : 0);
    }
    for (unsigned i = 0; i < acc.length() && walks < SH_KNOWN_PAIRS; i++) {
        share_access &b = acc[i];
        if (!refs[i])
            continue;
        basic_block bb = gimple_bb(b.stmt);
        for (unsigned j = 0; j < acc.length() && walks < SH_KNOWN_PAIRS; j++) {
            const share_access &a = acc[j];
            if (j == i || !refs[j] || hashes[j] != hashes[i] || sizes[j] != sizes[i] || a.store != b.store)
                continue;
            basic_block ab = gimple_bb(a.stmt);
            if (ab == bb ? !stmt_before(a.stmt, b.stmt) : !dominated_by_p(CDI_DOMINATORS, bb, ab))
                continue;
            if (!operand_equal_p(refs[j], refs[i], OEP_MATCH_SIDE_EFFECTS))
                continue;
            walks++;
            if (call_free_between(fun, ab, bb)) {
                b.known = true;
                if (pi_opt.verbose)
                    inform(gimple_location(b.stmt), "perfinst: sharing: no known-line test: the check at line %d made sure",
                           LOCATION_LINE(gimple_location(a.stmt)));
                break;
            }
        }
    }
}

/* ---- coalescing: one check for a block's accesses to one line ------------------
 *
 * Accesses of one segment (one block, no call or asm between) through the
 * same base — a pointer SSA name or a declaration — at constant offsets that
 * span at most a line form a group (linreg's a->sx, a->sy, ... a->sxy).
 * Before the first, one check of the line the group's first and last bytes
 * lie in:
 *
 *     skip = false;
 *     lo = &first byte; hi = &last byte;
 *     if ((lo ^ hi) >= 64) goto done;               (on two lines this run)
 *     b = __perfinst_share_shadow[lo >> 6];
 *     if (b == __perfinst_share_id) goto yes;       (private to this thread)
 *     if (b != PI_SHARE_SAMPLED_BYTE) goto done;    (new, another's, watched)
 *     cd = __perfinst_share_countdown;
 *     if (cd <= K || <line not known>) goto done;   (a sample among the K, a first access)
 *     __perfinst_share_countdown = cd - K;          (K accesses counted down)
 *   yes:
 *     skip = true;
 *   done:
 *
 * and each access's own check starts with `if (skip) goto after the probe`.
 * When the group check does not skip, every access is checked as alone, so
 * the exact mode (every shared line's byte 0xff), a line's first accesses,
 * and the access the countdown picks take exactly the calls they took
 * without coalescing; the countdown is consumed as before.  The only
 * difference: another thread that makes the line shared, or opens a window
 * on it, between the group check and the group's last access is seen from
 * the next check on (as between a check and its access). */

static bool ssa_defined_before(tree name, gimple *g)
{
    gimple *d = SSA_NAME_DEF_STMT(name);
    if (SSA_NAME_IS_DEFAULT_DEF(name) || !d || !gimple_bb(d))
        return true;
    if (gimple_bb(d) != gimple_bb(g))
        return dominated_by_p(CDI_DOMINATORS, gimple_bb(g), gimple_bb(d));
    return gimple_code(d) == GIMPLE_PHI || gimple_uid(d) < gimple_uid(g);
}

/* The base and constant byte offset of the bytes a's probe names, or false. */
static bool group_key(share_access &a)
{
    if (!a.ref || a.lgroup || a.cgroup)
        return false;
    unsigned size;
    tree r = probe_ref(a, &size);
    poly_int64 bitsize, bitpos;
    tree offset;
    machine_mode mode;
    int unsignedp, reversep, volatilep = 0;
    tree base = get_inner_reference(r, &bitsize, &bitpos, &offset, &mode, &unsignedp, &reversep, &volatilep);
    HOST_WIDE_INT bp;
    if (offset || !bitpos.is_constant(&bp) || bp % BITS_PER_UNIT || size > PI_SHARE_LINE)
        return false;
    HOST_WIDE_INT off = bp / BITS_PER_UNIT;
    if (TREE_CODE(base) == MEM_REF) {
        tree p = TREE_OPERAND(base, 0);
        if (!tree_fits_shwi_p(TREE_OPERAND(base, 1)))
            return false;
        off += tree_to_shwi(TREE_OPERAND(base, 1));
        if (TREE_CODE(p) == ADDR_EXPR && DECL_P(TREE_OPERAND(p, 0)))
            base = TREE_OPERAND(p, 0);
        else if (TREE_CODE(p) == SSA_NAME && POINTER_TYPE_P(TREE_TYPE(p)) && ssa_defined_before(p, a.stmt))
            base = p;
        else
            return false;
    } else if (!VAR_P(base))
        return false;
    a.key = base;
    a.off = off;
    a.bytes = size;
    return true;
}

/* The fewest accesses a group has.  A group check costs about as much as
 * one access's check and each member a register test more: two accesses
 * gain little when the check skips them and lose a check when it does not
 * (a group on two lines, a line's first accesses). */
#ifndef SH_GROUP_MIN
#define SH_GROUP_MIN 3
#endif

/* Form the groups: greedily, in order, each access with the later ones of
 * its segment on the same base whose bytes keep the group within a line. */
static void coalesce_groups(vec<share_access> &acc)
{
    for (unsigned i = 0; i < acc.length(); i++)
        group_key(acc[i]);
    for (unsigned i = 0; i < acc.length(); i++) {
        share_access &h = acc[i];
        if (!h.key || h.head >= 0)
            continue;
        HOST_WIDE_INT lo = h.off, hi = h.off + h.bytes;
        unsigned n = 1;
        for (unsigned j = i + 1; j < acc.length() && acc[j].seg == h.seg; j++) {
            share_access &m = acc[j];
            if (!m.key || m.head >= 0 || m.key != h.key)
                continue;
            HOST_WIDE_INT nlo = MIN(lo, m.off), nhi = MAX(hi, m.off + (HOST_WIDE_INT)m.bytes);
            if (nhi - nlo > PI_SHARE_LINE)
                continue;
            lo = nlo, hi = nhi;
            m.head = (int)i;
            n++;
        }
        if (n >= SH_GROUP_MIN) {
            h.head = (int)i;
            h.members = n;
            h.lo = lo;
            h.hi = hi;
        } else /* too few to pay for the group check: each checked alone */
            for (unsigned j = i + 1; j < acc.length() && acc[j].seg == h.seg; j++)
                if (acc[j].head == (int)i)
                    acc[j].head = -1;
    }
}

static const char *key_name(tree key)
{
    tree v = TREE_CODE(key) == SSA_NAME ? SSA_NAME_VAR(key) : key;
    return v && DECL_P(v) && DECL_NAME(v) ? IDENTIFIER_POINTER(DECL_NAME(v)) : "a pointer";
}

/* The group check before h's statement (above); returns skip. */
static tree insert_group_check(const share_access &h, bool reads, unsigned need)
{
    gimple_stmt_iterator gsi = gsi_for_stmt(h.stmt);
    location_t loc = gimple_location(h.stmt);
    tree u8p = build_pointer_type(unsigned_char_type_node);
    tree uptr = pointer_sized_int_node;
    tree start = TREE_CODE(h.key) == SSA_NAME ? h.key : build_fold_addr_expr_with_type(h.key, ptr_type_node);
    if (DECL_P(h.key))
        TREE_ADDRESSABLE(h.key) = 1;
    gimple_seq seq = NULL;
    tree a0 = gimple_convert(&seq, loc, uptr, start);
    tree lo = gimple_build(&seq, loc, PLUS_EXPR, uptr, a0, build_int_cst(uptr, h.lo));
    tree hi = gimple_build(&seq, loc, PLUS_EXPR, uptr, a0, build_int_cst(uptr, h.hi - 1));
    tree x = gimple_build(&seq, loc, BIT_XOR_EXPR, uptr, lo, hi);
    /* span: one line? */
    gcond *c0 = gimple_build_cond(GE_EXPR, x, build_int_cst(uptr, PI_SHARE_LINE), NULL_TREE, NULL_TREE);
    gimple_seq_add_stmt(&seq, c0);
    gimple_seq_set_location(seq, loc);
    gsi_insert_seq_before(&gsi, seq, GSI_SAME_STMT);
    basic_block bb = gimple_bb(c0);
    edge e = split_block(bb, c0);
    basic_block join = e->dest;

    /* chk: the byte */
    basic_block chk = create_empty_bb(bb);
    seq = NULL;
    tree base = make_temp_ssa_name(u8p, NULL, "pi_shadow");
    gimple_seq_add_stmt(&seq, gimple_build_assign(base, shadow_decl()));
    tree idx = gimple_build(&seq, loc, RSHIFT_EXPR, uptr, lo, build_int_cst(integer_type_node, 6));
    tree off = gimple_convert(&seq, loc, sizetype, idx);
    tree p = gimple_build(&seq, loc, POINTER_PLUS_EXPR, u8p, base, off);
    tree b = make_temp_ssa_name(unsigned_char_type_node, NULL, "pi_owner");
    gimple_seq_add_stmt(&seq, gimple_build_assign(b, build2(MEM_REF, unsigned_char_type_node, p, build_int_cst(u8p, 0))));
    tree me = make_temp_ssa_name(unsigned_char_type_node, NULL, "pi_me");
    gimple_seq_add_stmt(&seq, gimple_build_assign(me, id_decl()));
    gimple_seq_add_stmt(&seq, gimple_build_cond(EQ_EXPR, b, me, NULL_TREE, NULL_TREE));
    gimple_stmt_iterator g = gsi_start_bb(chk);
    gsi_insert_seq_after(&g, seq, GSI_NEW_STMT);
    /* chk2: sampled? */
    basic_block chk2 = create_empty_bb(chk);
    g = gsi_start_bb(chk2);
    gsi_insert_after(&g, gimple_build_cond(NE_EXPR, b, build_int_cst(unsigned_char_type_node, PI_SHARE_SAMPLED_BYTE),
                                           NULL_TREE, NULL_TREE), GSI_NEW_STMT);
    /* chk3: room for the K accesses in the countdown? */
    basic_block chk3 = create_empty_bb(chk2);
    tree cd = make_temp_ssa_name(unsigned_type_node, NULL, "pi_cd");
    g = gsi_start_bb(chk3);
    gsi_insert_after(&g, gimple_build_assign(cd, countdown_decl()), GSI_NEW_STMT);
    seq = NULL;
    tree nokn = gimple_build(&seq, loc, EQ_EXPR, boolean_type_node,
                             known_lines(&seq, loc, base, idx, build_int_cst(unsigned_type_node, need), 1),
                             boolean_false_node);
    tree few = gimple_build(&seq, loc, BIT_IOR_EXPR, boolean_type_node,
                            gimple_build(&seq, loc, LE_EXPR, boolean_type_node, cd,
                                         build_int_cst(unsigned_type_node, h.members)),
                            nokn);
    gimple_seq_add_stmt(&seq, gimple_build_cond(NE_EXPR, few, boolean_false_node, NULL_TREE, NULL_TREE));
    gsi_insert_seq_after(&g, seq, GSI_NEW_STMT);
    /* dec: count them down */
    basic_block dec = create_empty_bb(chk3);
    seq = NULL;
    tree cd1 = gimple_build(&seq, loc, MINUS_EXPR, unsigned_type_node, cd, build_int_cst(unsigned_type_node, h.members));
    gimple_seq_add_stmt(&seq, gimple_build_assign(countdown_decl(), cd1));
    g = gsi_start_bb(dec);
    gsi_insert_seq_after(&g, seq, GSI_NEW_STMT);
    for (basic_block k : {chk, chk2, chk3, dec})
        for (gimple_stmt_iterator i = gsi_start_bb(k); !gsi_end_p(i); gsi_next(&i))
            gimple_set_location(gsi_stmt(i), loc);

    e->flags = (e->flags & ~EDGE_FALLTHRU) | EDGE_TRUE_VALUE; /* two lines: no skip */
    edge es = e;
    edge esf = make_edge(bb, chk, EDGE_FALSE_VALUE);
    edge ey = make_edge(chk, join, EDGE_TRUE_VALUE);           /* mine: skip */
    edge ecf, ero = NULL;
    if (reads) { /* reads only: a line nobody wrote since it became shared is skipped too */
        basic_block ro = create_empty_bb(chk);
        g = gsi_start_bb(ro);
        gsi_insert_after(&g, gimple_build_cond(EQ_EXPR, b, build_int_cst(unsigned_char_type_node, PI_SHARE_RO_BYTE),
                                               NULL_TREE, NULL_TREE), GSI_NEW_STMT);
        gimple_set_location(gsi_stmt(g), loc);
        edge ecr = make_edge(chk, ro, EDGE_FALSE_VALUE);
        ero = make_edge(ro, join, EDGE_TRUE_VALUE);            /* read-only shared: skip */
        ecf = make_edge(ro, chk2, EDGE_FALSE_VALUE);
        ey->probability = profile_probability::likely();
        ecr->probability = ey->probability.invert();
        ero->probability = profile_probability::even();
        ecf->probability = ero->probability.invert();
        ro->count = ecr->count();
        if (current_loops)
            add_bb_to_loop(ro, bb->loop_father);
    } else
        ecf = make_edge(chk, chk2, EDGE_FALSE_VALUE);
    edge e2 = make_edge(chk2, join, EDGE_TRUE_VALUE);          /* not sampled */
    edge e2f = make_edge(chk2, chk3, EDGE_FALSE_VALUE);
    edge e3 = make_edge(chk3, join, EDGE_TRUE_VALUE);          /* a sample among them */
    edge e3f = make_edge(chk3, dec, EDGE_FALSE_VALUE);
    edge ed = make_edge(dec, join, EDGE_FALLTHRU);             /* counted: skip */
    es->probability = profile_probability::unlikely();
    esf->probability = es->probability.invert();
    if (!reads) {
        ey->probability = profile_probability::likely();
        ecf->probability = ey->probability.invert();
    }
    e2->probability = profile_probability::unlikely();
    e2f->probability = e2->probability.invert();
    e3->probability = profile_probability::very_unlikely();
    e3f->probability = e3->probability.invert();
    ed->probability = profile_probability::always();
    chk->count = esf->count();
    chk2->count = ecf->count();
    chk3->count = e2f->count();
    dec->count = e3f->count();
    if (current_loops)
        for (basic_block k : {chk, chk2, chk3, dec})
            add_bb_to_loop(k, bb->loop_father);

    tree skip = make_temp_ssa_name(boolean_type_node, NULL, "pi_skip");
    gphi *phi = create_phi_node(skip, join);
    add_phi_arg(phi, boolean_false_node, es, loc);
    add_phi_arg(phi, boolean_true_node, ey, loc);
    if (ero)
        add_phi_arg(phi, boolean_true_node, ero, loc);
    add_phi_arg(phi, boolean_false_node, e2, loc);
    add_phi_arg(phi, boolean_false_node, e3, loc);
    add_phi_arg(phi, boolean_true_node, ed, loc);
    return skip;
}

/* ---- loop groups: one check before a short loop for all its accesses ---------------
 *
 * An innermost loop without calls or asm, with one exit, whose accesses run
 * once an iteration (their block dominates the exit's, which dominates the
 * latch) at addresses that move by a constant step (GCC's scalar
 * evolutions: base + step * i), and whose trip count GCC can compute before
 * it runs — a constant below SH_LOOP_MAX, or an expression of values set
 * before the loop (`for (j = k + 1; j < n; j++)`), checked at run time to
 * be below SH_LOOP_MAX — gets one check before it, of the lines each
 * access walks in the loop (at most 8 lines each: one 8-byte load of the
 * shadow's bytes for them):
 *
 *     for (j = j0; j < j0 + 8; j++)         skip = iterations < SH_LOOP_MAX && <for each access:
 *         a[i*n + j] -= f * a[k*n + j];            its lines (at most 8) all private to this thread
 *                                                  (or read-only shared, for a load), or all
 *                                                  sampled, each read (written) by this thread
 *                                                  before as far as the runtime saw (known_lines)>
 *                                                  && countdown > K;
 *                                           countdown = skip ? countdown - K : countdown;
 *                                           if (skip) <the loop as it was: no checks>
 *                                           else <the loop, each access checked alone>
 *
 * where K is the number of the loop's accesses to sampled lines (each
 * access's iterations).  The loop is versioned (GCC's loop_version) when
 * every access of it the pass instruments is in the group: the copy that
 * runs when skip holds has no checks at all; otherwise each access's check
 * starts with `if (skip) goto done`.  When skip is false every access is
 * checked alone, as without the group: the exact mode (a shared line's
 * byte is 0xff), a line's first accesses, the access the countdown picks
 * and a loop whose bytes lie on a private and a sampled line take exactly
 * the calls they took, and the countdown is consumed access by access.  The
 * difference, as for the block's groups: another thread that makes a line
 * shared, or opens a window on it, while the loop runs (at most
 * SH_LOOP_MAX iterations) is seen from the next check on.  (lu's blocks: 8
 * iterations of two accesses, every line shared; lurow's rows: n - k - 1
 * iterations.) */
#ifndef SH_LOOP_MAX
#define SH_LOOP_MAX 64
#endif
#define SH_LOOP_LINES 8 /* lines an access may walk in a loop: one 8-byte load of their bytes */

struct loop_group {
    class loop *loop;
    unsigned HOST_WIDE_INT iters; /* each member's accesses per entry (a constant trip count), or 0 */
    tree niter, mbz, assume;      /* else the latch's executions, when they are 0 instead (or NULL),
                                   * and what must hold for niter to be right (or NULL) */
    unsigned members;
    location_t loc;
    bool whole;                   /* every instrumented access of the loop is a member: version it */
};

/* The affine form of x in loop l (x = base + step * i at its i-th
 * iteration, base invariant in l), in pointer-sized integers: GCC's scalar
 * evolutions of each SSA name, combined here through the arithmetic they
 * are used in (they do not look into ivopts' TARGET_MEM_REFs). */
static bool iv_of(class loop *l, tree x, tree *base, HOST_WIDE_INT *step)
{
    tree uptr = pointer_sized_int_node;
    switch (TREE_CODE(x)) {
    case INTEGER_CST:
    case ADDR_EXPR:
        if (!is_gimple_min_invariant(x))
            return false;
        *base = fold_convert(uptr, x);
        *step = 0;
        return true;
    case SSA_NAME: {
        affine_iv iv;
        if (!simple_iv(l, l, x, &iv, false) || !tree_fits_shwi_p(iv.step))
            return false;
        *base = fold_convert(uptr, iv.base);
        *step = tree_to_shwi(iv.step);
        return true;
    }
    case MULT_EXPR: {
        tree c = TREE_OPERAND(x, 1);
        if (TREE_CODE(c) != INTEGER_CST || !tree_fits_shwi_p(c) || !iv_of(l, TREE_OPERAND(x, 0), base, step))
            return false;
        *base = fold_build2(MULT_EXPR, uptr, *base, fold_convert(uptr, c));
        *step *= tree_to_shwi(c);
        return true;
    }
    case PLUS_EXPR:
    case POINTER_PLUS_EXPR: {
        tree b1;
        HOST_WIDE_INT s1;
        if (!iv_of(l, TREE_OPERAND(x, 0), base, step) || !iv_of(l, TREE_OPERAND(x, 1), &b1, &s1))
            return false;
        *base = fold_build2(PLUS_EXPR, uptr, *base, b1);
        *step += s1;
        return true;
    }
    CASE_CONVERT:
        return (INTEGRAL_TYPE_P(TREE_TYPE(TREE_OPERAND(x, 0))) || POINTER_TYPE_P(TREE_TYPE(TREE_OPERAND(x, 0)))) &&
               iv_of(l, TREE_OPERAND(x, 0), base, step);
    default:
        return false;
    }
}

/* The affine form of &r in loop l (iv_of). */
static bool addr_iv(class loop *l, tree r, tree *base, HOST_WIDE_INT *step)
{
    poly_int64 bitsize, bitpos;
    tree offset;
    machine_mode mode;
    int unsignedp, reversep, volatilep = 0;
    tree ref = get_inner_reference(r, &bitsize, &bitpos, &offset, &mode, &unsignedp, &reversep, &volatilep);
    HOST_WIDE_INT bp;
    if (!bitpos.is_constant(&bp) || bp % BITS_PER_UNIT)
        return false;
    tree a;
    if (TREE_CODE(ref) == TARGET_MEM_REF)
        a = tree_mem_ref_addr(ptr_type_node, ref);
    else if (TREE_CODE(ref) == MEM_REF && tree_fits_shwi_p(TREE_OPERAND(ref, 1)))
        a = fold_build_pointer_plus_hwi(TREE_OPERAND(ref, 0), tree_to_shwi(TREE_OPERAND(ref, 1)));
    else if (DECL_P(ref))
        a = build_fold_addr_expr(ref);
    else
        return false;
    if (offset)
        a = fold_build_pointer_plus(a, fold_convert(sizetype, offset));
    a = fold_build_pointer_plus_hwi(a, bp / BITS_PER_UNIT);
    return iv_of(l, a, base, step);
}

/* Where a's accesses lie in loop l: the first byte at lbase + step * i in
 * its i-th iteration, or up to *span bytes past it for an element of an
 * array of a constant size at a variable index (histogram's
 * h->bins[image[i] >> 6]: the array's bytes; not an array at a struct's
 * end, which may be longer than declared).  *size: the access's bytes. */
static bool member_affine(class loop *l, const share_access &a, tree *lbase, HOST_WIDE_INT *step, HOST_WIDE_INT *span,
                          unsigned *size)
{
    tree r = probe_ref(a, size);
    *span = 0;
    if (*size > PI_SHARE_LINE)
        return false;
    if (addr_iv(l, r, lbase, step))
        return true;
    if (TREE_CODE(r) != ARRAY_REF || TREE_CODE(TREE_OPERAND(r, 1)) == INTEGER_CST || array_at_struct_end_p(r))
        return false;
    tree arr = TREE_OPERAND(r, 0), tsz = TYPE_SIZE_UNIT(TREE_TYPE(arr));
    if (!tsz || !tree_fits_uhwi_p(tsz) || tree_to_uhwi(tsz) > PI_SHARE_LINE || tree_to_uhwi(tsz) < *size ||
        !addr_iv(l, arr, lbase, step))
        return false;
    *span = (HOST_WIDE_INT)tree_to_uhwi(tsz) - *size;
    return true;
}

/* Can the check before loop l compute t, a trip count's expression (or
 * its may-be-zero condition), as straight-line code?  Values set before
 * the loop, constants, and arithmetic that cannot trap or branch. */
static bool before_loop_expr(class loop *l, tree t)
{
    switch (TREE_CODE(t)) {
    case INTEGER_CST:
        return true;
    case SSA_NAME:
        return SSA_NAME_IS_DEFAULT_DEF(t) || !gimple_bb(SSA_NAME_DEF_STMT(t)) ||
               !flow_bb_inside_loop_p(l, gimple_bb(SSA_NAME_DEF_STMT(t)));
    case ADDR_EXPR:
        return is_gimple_min_invariant(t);
    case TRUNC_DIV_EXPR: case EXACT_DIV_EXPR: case FLOOR_DIV_EXPR: case CEIL_DIV_EXPR:
    case TRUNC_MOD_EXPR: case FLOOR_MOD_EXPR:
        return TREE_CODE(TREE_OPERAND(t, 1)) == INTEGER_CST && !integer_zerop(TREE_OPERAND(t, 1)) &&
               before_loop_expr(l, TREE_OPERAND(t, 0));
    case LSHIFT_EXPR: case RSHIFT_EXPR:
        return TREE_CODE(TREE_OPERAND(t, 1)) == INTEGER_CST && before_loop_expr(l, TREE_OPERAND(t, 0));
    case PLUS_EXPR: case MINUS_EXPR: case MULT_EXPR: case POINTER_PLUS_EXPR: case POINTER_DIFF_EXPR:
    case BIT_AND_EXPR: case BIT_IOR_EXPR: case BIT_XOR_EXPR: case MIN_EXPR: case MAX_EXPR:
    case TRUTH_AND_EXPR: case TRUTH_OR_EXPR: case TRUTH_XOR_EXPR:
    case LT_EXPR: case LE_EXPR: case GT_EXPR: case GE_EXPR: case EQ_EXPR: case NE_EXPR:
        return before_loop_expr(l, TREE_OPERAND(t, 0)) && before_loop_expr(l, TREE_OPERAND(t, 1));
    case NEGATE_EXPR: case BIT_NOT_EXPR: case TRUTH_NOT_EXPR: case NON_LVALUE_EXPR:
    CASE_CONVERT:
        return before_loop_expr(l, TREE_OPERAND(t, 0));
    default:
        return false;
    }
}

/* t, an expression before_loop_expr accepts, as a value of type (the
 * statements computing it added to *seq: force_gimple_operand starts a
 * sequence of its own). */
static tree before_loop_value(gimple_seq *seq, tree type, tree t)
{
    gimple_seq s = NULL;
    tree v = force_gimple_operand(fold_convert(type, unshare_expr(t)), &s, true, NULL_TREE);
    gimple_seq_add_seq(seq, s);
    return v;
}

/* Loop l's trip count as the group needs it: a constant (*iters, the
 * latch's executions + 1, below SH_LOOP_MAX) or an expression the check
 * computes (g->niter, g->mbz, and g->assume: what GCC's count assumes, a
 * loop `p != end` walking by 8 that end - p is a multiple of 8); false if
 * neither.  With long_ok, a constant of SH_LOOP_MAX or more too. */
static bool loop_trips(class loop *l, edge ex, loop_group *g, bool long_ok = false)
{
    class tree_niter_desc nd;
    g->iters = 0;
    g->niter = g->mbz = g->assume = NULL_TREE;
    if (!number_of_iterations_exit_assumptions(l, ex, &nd, NULL) || !nd.niter || integer_zerop(nd.assumptions))
        return false;
    if (!integer_nonzerop(nd.assumptions)) {
        if (!before_loop_expr(l, nd.assumptions))
            return false;
        g->assume = nd.assumptions;
    }
    if (integer_nonzerop(nd.may_be_zero) && !g->assume) {
        g->iters = 1;
        return true;
    }
    if (integer_zerop(nd.may_be_zero) && TREE_CODE(nd.niter) == INTEGER_CST && !g->assume) {
        if (!tree_fits_uhwi_p(nd.niter) || (tree_to_uhwi(nd.niter) >= SH_LOOP_MAX && !long_ok))
            return false;
        g->iters = MIN(tree_to_uhwi(nd.niter), HOST_WIDE_INT_MAX - 1) + 1;
        return true;
    }
    if (!INTEGRAL_TYPE_P(TREE_TYPE(nd.niter)) || !before_loop_expr(l, nd.niter) ||
        !(integer_zerop(nd.may_be_zero) || before_loop_expr(l, nd.may_be_zero)))
        return false;
    g->niter = nd.niter;
    g->mbz = integer_zerop(nd.may_be_zero) ? NULL_TREE : nd.may_be_zero;
    return true;
}

/* The latch's executions of a loop whose trip count loop_trips gave as an
 * expression (g.niter), as a value computed before it: 0 when g.mbz holds. */
static tree latch_value(gimple_seq *seq, location_t loc, const loop_group &g)
{
    tree uptr = pointer_sized_int_node;
    tree n = before_loop_value(seq, uptr, g.niter);
    if (g.mbz)
        n = gimple_build(seq, loc, COND_EXPR, uptr, before_loop_value(seq, boolean_type_node, g.mbz),
                         build_int_cst(uptr, 0), n);
    return n;
}

/* Per loop of fun: 0 (not seen yet), or 2 when it has a call or an asm (a
 * callee may be instrumented, or create or join threads): none of its
 * accesses is grouped.  With atomics_ok (chunk groups) an __atomic or
 * __sync builtin is not a call: GCC expands it inline, and it is one of the
 * loop's accesses (fsbench's mixed: a shared counter bumped once in 1024
 * iterations). */
static void loop_states(function *fun, auto_vec<char> &state, bool atomics_ok = false)
{
    state.safe_grow_cleared(number_of_loops(fun));
    basic_block bb;
    tree ad;
    unsigned sz;
    bool st;
    FOR_EACH_BB_FN(bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi))
        if ((is_gimple_call(gsi_stmt(gsi)) && !(atomics_ok && atomic_access(gsi_stmt(gsi), &ad, &sz, &st))) ||
            gimple_code(gsi_stmt(gsi)) == GIMPLE_ASM)
            for (class loop *l = bb->loop_father; l; l = loop_outer(l))
                state[l->num] = 2;
}

/* The innermost loop a's access runs in once an iteration (its block
 * dominates the loop's one exit, which dominates the latch), and that exit;
 * NULL if none or the loop's state is 2. */
static class loop *member_loop(const share_access &a, const auto_vec<char> &state, edge *ex, bool *cond = NULL)
{
    if (!a.ref || a.block)
        return NULL;
    basic_block ab = gimple_bb(a.stmt);
    class loop *l = ab->loop_father;
    if (!loop_outer(l) || l->inner || state[l->num] == 2)
        return NULL;
    *ex = single_exit(l);
    if (!*ex || !dominated_by_p(CDI_DOMINATORS, l->latch, (*ex)->src))
        return NULL;
    if (!dominated_by_p(CDI_DOMINATORS, (*ex)->src, ab)) {
        /* with cond: an access that may not run in an iteration, and runs
         * at most once in one (a block of an innermost loop without an
         * irreducible region) */
        if (!cond || (ab->flags & BB_IRREDUCIBLE_LOOP))
            return NULL;
        *cond = true;
    }
    return l;
}

/* Find the loop groups (acc[i].lgroup, .lbase, .lstep). */
static void find_loop_groups(function *fun, vec<share_access> &acc, vec<loop_group> &groups)
{
    auto_vec<char> state; /* per loop: 0 not seen, 1 a group, 2 none */
    loop_states(fun, state);
    for (unsigned i = 0; i < acc.length(); i++) {
        share_access &a = acc[i];
        edge ex;
        class loop *l = member_loop(a, state, &ex);
        if (!l)
            continue;
        unsigned k;
        for (k = 0; k < groups.length() && groups[k].loop != l; k++)
            ;
        if (k == groups.length()) {
            loop_group g = {l, 0, NULL_TREE, NULL_TREE, NULL_TREE, 0, gimple_location(a.stmt), false};
            if (!loop_trips(l, ex, &g)) {
                state[l->num] = 2;
                continue;
            }
            state[l->num] = 1;
            groups.safe_push(g);
        }
        unsigned size;
        tree lbase;
        HOST_WIDE_INT step, span;
        if (!member_affine(l, a, &lbase, &step, &span, &size))
            continue;
        unsigned HOST_WIDE_INT iters = groups[k].iters;
        if (absu_hwi(step) > PI_SHARE_LINE ||
            (iters && (unsigned HOST_WIDE_INT)absu_hwi(step) * (iters - 1) + span + size >
                          (SH_LOOP_LINES - 1) * PI_SHARE_LINE + 1))
            continue; /* (449 bytes or fewer lie on at most 8 lines) */
        groups[k].members++;
        a.lgroup = k + 1;
        a.lbase = lbase;
        a.lstep = step;
        a.lspan = span;
    }
    /* too few accesses to pay for the check before the loop: alone */
    auto few = [&](const loop_group &g) { return g.iters && g.iters * g.members < SH_GROUP_MIN + 1; };
    for (unsigned i = 0; i < acc.length(); i++)
        if (acc[i].lgroup && few(groups[acc[i].lgroup - 1]))
            acc[i].lgroup = 0;
    for (unsigned k = 0; k < groups.length(); k++) {
        if (few(groups[k]))
            groups[k].members = 0;
        groups[k].whole = groups[k].members > 0;
    }
    /* a loop with an access the group does not cover keeps its checks in
     * every copy: not versioned */
    for (unsigned i = 0; i < acc.length(); i++) {
        class loop *l = gimple_bb(acc[i].stmt)->loop_father;
        for (unsigned k = 0; k < groups.length(); k++)
            if (groups[k].loop == l && acc[i].lgroup != k + 1)
                groups[k].whole = false;
    }
    /* ... and a loop of a trip count known only when it runs, whose
     * iterations could all pay for the test of skip and seldom skip (a
     * pass over a whole buffer), none: its accesses checked alone */
    for (unsigned i = 0; i < acc.length(); i++)
        if (acc[i].lgroup && !groups[acc[i].lgroup - 1].iters && !groups[acc[i].lgroup - 1].whole)
            acc[i].lgroup = 0;
    for (unsigned k = 0; k < groups.length(); k++)
        if (!groups[k].iters && !groups[k].whole)
            groups[k].members = 0;
}

/* One member's part of a loop's check (insert_loop_check): the lines of
 * the first bytes of its accesses in iterations 0 to n, from a0 on (the
 * line each access's own check reads), l0 to l0 + d, and w the shadow's 8
 * bytes from l0 on (d < 8, else the member fails).  Into FAST (c->mine):
 * every one of those lines this thread's.  Into UNI (c->ok_u, c->k_u): all
 * of them this thread's, or all sampled (or, for a load, all read-only
 * shared), and the accesses the checks would count down (all or none).
 * Into MIXED (if not NULL: c->ok_m, c->k_m), for a step that divides a
 * line and an access at one place an iteration (lurow's
 * rows: their middle lines the owner's, the lines at their ends shared with
 * the neighbouring rows): each line this thread's, sampled or read-only
 * shared, and the accesses to the sampled ones, line by line; for another
 * step, the uniform answer.  Returns whether MIXED has anything of its own. */
struct member_answer {
    tree mine, ok_u, k_u, ok_m, k_m;
};
static bool member_check(gimple_seq *fast, gimple_seq *uni, gimple_seq *mixed, location_t loc, const share_access &a,
                         tree a0, tree n, tree iters, tree shadow, tree me8, member_answer *c)
{
    tree u8 = unsigned_char_type_node, u8p = build_pointer_type(u8), u32 = unsigned_type_node;
    tree u64 = long_long_unsigned_type_node, uptr = pointer_sized_int_node, bt = boolean_type_node;
    tree u64u = build_aligned_type(u64, BITS_PER_UNIT); /* (the shadow's bytes of up to 8 lines, unaligned) */
    auto bytes8 = [&](unsigned v) { return build_int_cstu(u64, (unsigned HOST_WIDE_INT)v * 0x0101010101010101ull); };
    tree six = build_int_cst(integer_type_node, 6), zero64 = build_int_cst(u64, 0), zero = build_int_cst(u32, 0);
    unsigned HOST_WIDE_INT st = absu_hwi(a.lstep);
    tree walk = gimple_build(fast, loc, MULT_EXPR, uptr, n, build_int_cst(uptr, st));
    tree lo = a.lstep < 0 ? gimple_build(fast, loc, MINUS_EXPR, uptr, a0, walk) : a0;
    tree hi = a.lstep > 0 ? gimple_build(fast, loc, PLUS_EXPR, uptr, a0, walk) : a0;
    if (a.lspan)
        hi = gimple_build(fast, loc, PLUS_EXPR, uptr, hi, build_int_cst(uptr, a.lspan));
    tree l0 = gimple_build(fast, loc, RSHIFT_EXPR, uptr, lo, six);
    tree d = gimple_build(fast, loc, MINUS_EXPR, uptr, gimple_build(fast, loc, RSHIFT_EXPR, uptr, hi, six), l0);
    tree valid = gimple_build(fast, loc, LE_EXPR, bt, d, build_int_cst(uptr, SH_LOOP_LINES - 1));
    tree dm = gimple_build(fast, loc, MIN_EXPR, uptr, d, build_int_cst(uptr, SH_LOOP_LINES - 1));
    tree sh = gimple_build(fast, loc, MULT_EXPR, u32,
                           gimple_build(fast, loc, MINUS_EXPR, u32, build_int_cst(u32, SH_LOOP_LINES - 1),
                                        gimple_convert(fast, loc, u32, dm)),
                           build_int_cst(u32, 8));
    tree m = gimple_build(fast, loc, RSHIFT_EXPR, u64, build_int_cstu(u64, HOST_WIDE_INT_M1U), sh);
    tree p = gimple_build(fast, loc, POINTER_PLUS_EXPR, u8p, shadow, gimple_convert(fast, loc, sizetype, l0));
    tree w = make_temp_ssa_name(u64, NULL, "pi_owners");
    gimple_seq_add_stmt(fast, gimple_build_assign(w, build2(MEM_REF, u64u, p, build_int_cst(u8p, 0))));
    auto all = [&](gimple_seq *q, tree x) { /* the bytes of x in m all 0 */
        return gimple_build(q, loc, EQ_EXPR, bt, gimple_build(q, loc, BIT_AND_EXPR, u64, x, m), zero64);
    };
    tree xme = gimple_build(fast, loc, BIT_XOR_EXPR, u64, w, me8);
    c->mine = gimple_build(fast, loc, BIT_AND_EXPR, bt, valid, all(fast, xme));
    /* all alike */
    tree xs = gimple_build(uni, loc, BIT_XOR_EXPR, u64, w, bytes8(PI_SHARE_SAMPLED_BYTE));
    tree alls = all(uni, xs);
    /* sampled lines only once the runtime has seen this thread read (write)
     * each (a line its own has its bit too, once its footprint is taken) */
    tree known = known_lines(uni, loc, shadow, l0,
                             gimple_build(uni, loc, BIT_AND_EXPR, u64, m,
                                          bytes8(a.store ? SH_KNOWN_WRITE : SH_KNOWN_READ)),
                             SH_LOOP_LINES);
    tree good = gimple_build(uni, loc, BIT_IOR_EXPR, bt, c->mine, gimple_build(uni, loc, BIT_AND_EXPR, bt, alls, known));
    if (!a.store)
        good = gimple_build(uni, loc, BIT_IOR_EXPR, bt, good,
                            all(uni, gimple_build(uni, loc, BIT_XOR_EXPR, u64, w, bytes8(PI_SHARE_RO_BYTE))));
    c->ok_u = gimple_build(uni, loc, BIT_AND_EXPR, bt, valid, good);
    c->k_u = gimple_build(uni, loc, COND_EXPR, u32, alls, iters, zero);
    c->ok_m = c->ok_u;
    c->k_m = c->k_u;
    if (!mixed || a.lspan || !(a.lstep > 0 && st <= PI_SHARE_LINE && !(PI_SHARE_LINE % st)))
        return false;
    /* line by line: zb(x), 0x80 in each byte of x that is 0 */
    tree lo7 = bytes8(0x7f), hi1 = bytes8(0x80);
    auto zb = [&](tree x) {
        tree t = gimple_build(mixed, loc, PLUS_EXPR, u64, gimple_build(mixed, loc, BIT_AND_EXPR, u64, x, lo7), lo7);
        t = gimple_build(mixed, loc, BIT_IOR_EXPR, u64, gimple_build(mixed, loc, BIT_IOR_EXPR, u64, t, x), lo7);
        return gimple_build(mixed, loc, BIT_NOT_EXPR, u64, t);
    };
    tree m80 = gimple_build(mixed, loc, BIT_AND_EXPR, u64, m, hi1);
    tree zs = gimple_build(mixed, loc, BIT_AND_EXPR, u64, zb(xs), m80);
    tree any = gimple_build(mixed, loc, BIT_IOR_EXPR, u64, zb(xme), zs);
    if (!a.store)
        any = gimple_build(mixed, loc, BIT_IOR_EXPR, u64, any,
                           zb(gimple_build(mixed, loc, BIT_XOR_EXPR, u64, w, bytes8(PI_SHARE_RO_BYTE))));
    /* (its sampled lines known: zs's 0x80s moved to the bit a line needs) */
    tree known_m = known_lines(mixed, loc, shadow, l0,
                               gimple_build(mixed, loc, MULT_EXPR, u64,
                                            gimple_build(mixed, loc, RSHIFT_EXPR, u64, zs, build_int_cst(integer_type_node, 7)),
                                            build_int_cst(u64, a.store ? SH_KNOWN_WRITE : SH_KNOWN_READ)),
                               SH_LOOP_LINES);
    c->ok_m = gimple_build(mixed, loc, BIT_AND_EXPR, bt, gimple_build(mixed, loc, BIT_AND_EXPR, bt, valid, known_m),
                           gimple_build(mixed, loc, EQ_EXPR, bt, gimple_build(mixed, loc, BIT_AND_EXPR, u64, any, m80),
                                        m80));
    auto bit = [&](tree byte) { /* is line l0 + byte (a u64) sampled? */
        tree sh8 = gimple_build(mixed, loc, PLUS_EXPR, u32,
                                gimple_build(mixed, loc, MULT_EXPR, u32, gimple_convert(mixed, loc, u32, byte),
                                             build_int_cst(u32, 8)),
                                build_int_cst(u32, 7));
        tree t = gimple_build(mixed, loc, BIT_AND_EXPR, u64, gimple_build(mixed, loc, RSHIFT_EXPR, u64, zs, sh8),
                              build_int_cst(u64, 1));
        return gimple_build(mixed, loc, NE_EXPR, bt, t, zero64);
    };
    /* the first line holds c0 = ceil(r / st) of the accesses (r = 64 -
     * (a0 & 63)), each line between 64 / st, the last (l0 + d) the rest */
    tree s0 = bit(build_int_cst(u64, 0));
    tree r = gimple_build(mixed, loc, MINUS_EXPR, u32, build_int_cst(u32, PI_SHARE_LINE),
                          gimple_build(mixed, loc, BIT_AND_EXPR, u32, gimple_convert(mixed, loc, u32, a0),
                                       build_int_cst(u32, PI_SHARE_LINE - 1)));
    tree c0 = gimple_build(mixed, loc, TRUNC_DIV_EXPR, u32,
                           gimple_build(mixed, loc, PLUS_EXPR, u32, r, build_int_cst(u32, st - 1)), build_int_cst(u32, st));
    tree per = build_int_cst(u32, PI_SHARE_LINE / st);
    tree d32 = gimple_convert(mixed, loc, u32, dm);
    tree one = gimple_build(mixed, loc, EQ_EXPR, bt, d32, zero);
    /* the middle lines' sampled bytes counted: (a bit at each 8j) * 0x0101.. >> 56 */
    tree ends = gimple_build(mixed, loc, BIT_IOR_EXPR, u64, build_int_cst(u64, 0x80),
                             gimple_build(mixed, loc, LSHIFT_EXPR, u64, build_int_cst(u64, 0x80),
                                          gimple_build(mixed, loc, MULT_EXPR, u32, d32, build_int_cst(u32, 8))));
    tree mid = gimple_build(mixed, loc, BIT_AND_EXPR, u64, zs, gimple_build(mixed, loc, BIT_NOT_EXPR, u64, ends));
    tree nmid = gimple_build(mixed, loc, RSHIFT_EXPR, u64,
                             gimple_build(mixed, loc, MULT_EXPR, u64,
                                          gimple_build(mixed, loc, RSHIFT_EXPR, u64, mid, build_int_cst(integer_type_node, 7)),
                                          bytes8(1)),
                             build_int_cst(integer_type_node, 56));
    tree kmid = gimple_build(mixed, loc, MULT_EXPR, u32, gimple_convert(mixed, loc, u32, nmid), per);
    tree before_last = gimple_build(mixed, loc, PLUS_EXPR, u32, c0,
                                    gimple_build(mixed, loc, MULT_EXPR, u32,
                                                 gimple_build(mixed, loc, MINUS_EXPR, u32, d32, build_int_cst(u32, 1)), per));
    tree klast = gimple_build(mixed, loc, COND_EXPR, u32, bit(dm),
                              gimple_build(mixed, loc, MINUS_EXPR, u32, iters, before_last), zero);
    tree kfirst = gimple_build(mixed, loc, COND_EXPR, u32, s0, c0, zero);
    tree kmany = gimple_build(mixed, loc, PLUS_EXPR, u32, gimple_build(mixed, loc, PLUS_EXPR, u32, kfirst, kmid), klast);
    c->k_m = gimple_build(mixed, loc, COND_EXPR, u32, one, gimple_build(mixed, loc, COND_EXPR, u32, s0, iters, zero), kmany);
    return true;
}

/* The check of group gi before its loop (above); returns skip.  A trip
 * count known only when the loop runs is tested first (n, the latch's
 * executions, below SH_LOOP_MAX, and GCC's assumption); then three tiers,
 * each straight-line (member_check): every line this thread's (no
 * countdown), every access's lines all alike, its lines line by line.
 * With each access's lines (of its accesses' first bytes) l0 to l0 + d
 * (d < 8), w the shadow's 8 bytes from l0 on and m the mask of the d + 1
 * of them:
 *
 *     if (n < SH_LOOP_MAX) {                          (a count known when it runs)
 *         skip = (d <= 7 && ((w ^ id * 0x0101..01) & m) == 0) && ...;
 *         if (!skip) {
 *             ok = (d <= 7 && (<w's bytes in m all id> || <all SAMPLED>
 *                              [|| <all RO>, a load])) && ... ;
 *             K = (<all SAMPLED> ? n + 1 : 0) + ...;
 *             if (!ok)  ok, K = <each line id, SAMPLED [or RO]>, <the accesses to the SAMPLED ones>;
 *             skip = ok && countdown > K;
 *             countdown = skip ? countdown - K : countdown;
 *         }
 *     } else skip = false;
 *
 * The addresses are those of the loop's n + 1 iterations, which it makes
 * (its accesses dominate its exit): the shadow's bytes read are those of
 * lines the loop touches, and up to 7 after them (the runtime maps a page
 * beyond the shadow's end). */
static tree insert_loop_check(const loop_group &g, unsigned gi, vec<share_access> &acc)
{
    location_t loc = g.loc;
    tree u8 = unsigned_char_type_node, u8p = build_pointer_type(u8), u32 = unsigned_type_node;
    tree u64 = long_long_unsigned_type_node, uptr = pointer_sized_int_node, bt = boolean_type_node;
    gimple_seq pre = NULL, seq = NULL, uni = NULL, mixed = NULL;
    tree shadow = make_temp_ssa_name(u8p, NULL, "pi_shadow");
    gimple_seq_add_stmt(&seq, gimple_build_assign(shadow, shadow_decl()));
    tree me = make_temp_ssa_name(u8, NULL, "pi_me");
    gimple_seq_add_stmt(&seq, gimple_build_assign(me, id_decl()));
    auto bytes8 = [&](unsigned v) { return build_int_cstu(u64, (unsigned HOST_WIDE_INT)v * 0x0101010101010101ull); };
    tree me8 = gimple_build(&seq, loc, MULT_EXPR, u64, gimple_convert(&seq, loc, u64, me), bytes8(1));
    /* n: the latch's executions; one known only at run time is tested
     * first (pre: a loop of SH_LOOP_MAX iterations or more, or whose count
     * GCC's assumption does not hold, is not checked) */
    tree n;
    gcond *c0 = NULL;
    if (g.niter) {
        n = latch_value(&pre, loc, g);
        tree inrange = gimple_build(&pre, loc, LT_EXPR, bt, n, build_int_cst(uptr, SH_LOOP_MAX));
        if (g.assume)
            inrange = gimple_build(&pre, loc, BIT_AND_EXPR, bt, inrange, before_loop_value(&pre, bt, g.assume));
        c0 = gimple_build_cond(NE_EXPR, inrange, boolean_false_node, NULL_TREE, NULL_TREE);
        gimple_seq_add_stmt(&pre, c0);
    } else
        n = build_int_cst(uptr, g.iters - 1);
    tree iters = gimple_build(&uni, loc, PLUS_EXPR, u32, gimple_convert(&uni, loc, u32, n), build_int_cst(u32, 1));
    tree mine = NULL_TREE, ok_u = NULL_TREE, ok_m = NULL_TREE, k_u = build_int_cst(u32, 0), k_m = k_u;
    bool any_mixed = false;
    for (unsigned i = 0; i < acc.length(); i++) {
        const share_access &a = acc[i];
        if (a.lgroup != gi + 1)
            continue;
        unsigned size;
        probe_ref(a, &size);
        tree a0 = before_loop_value(&seq, uptr, a.lbase);
        member_answer c;
        any_mixed |= member_check(&seq, &uni, &mixed, loc, a, a0, n, iters, shadow, me8, &c);
        mine = mine ? gimple_build(&seq, loc, BIT_AND_EXPR, bt, mine, c.mine) : c.mine;
        ok_u = ok_u ? gimple_build(&uni, loc, BIT_AND_EXPR, bt, ok_u, c.ok_u) : c.ok_u;
        k_u = gimple_build(&uni, loc, PLUS_EXPR, u32, k_u, c.k_u);
        ok_m = ok_m ? gimple_build(&mixed, loc, BIT_AND_EXPR, bt, ok_m, c.ok_m) : c.ok_m;
        k_m = gimple_build(&mixed, loc, PLUS_EXPR, u32, k_m, c.k_m);
    }
    gcond *c = gimple_build_cond(NE_EXPR, mine, boolean_false_node, NULL_TREE, NULL_TREE);
    gimple_seq_add_stmt(&seq, c);
    for (gimple_seq *q : {&pre, &seq, &uni, &mixed})
        gimple_seq_set_location(*q, loc);
    edge e0 = NULL;
    if (c0) { /* if (n < SH_LOOP_MAX) <the check, in a block of its own>, else skip = false */
        gsi_insert_seq_on_edge_immediate(loop_preheader_edge(g.loop), pre);
        edge eb; /* (the check's block ends in its test: side_block below splits it) */
        e0 = side_block(c0, seq, EDGE_TRUE_VALUE, &eb, profile_probability::likely());
    } else
        gsi_insert_seq_on_edge_immediate(loop_preheader_edge(g.loop), seq);
    /* every line this thread's: skip (into the loop's preheader); else the
     * lines all alike, or line by line */
    edge ej;
    edge e = side_block(c, uni, EDGE_FALSE_VALUE, &ej);
    basic_block ub = ej->src, rest = ej->src;
    tree ok = ok_u, k = k_u;
    if (any_mixed) {
        gcond *cu = gimple_build_cond(NE_EXPR, ok_u, boolean_false_node, NULL_TREE, NULL_TREE);
        gimple_set_location(cu, loc);
        gimple_stmt_iterator gu = gsi_last_bb(ub);
        gsi_insert_after(&gu, cu, GSI_NEW_STMT);
        edge em;
        edge eu = side_block(cu, mixed, EDGE_FALSE_VALUE, &em);
        rest = eu->dest;
        ok = make_temp_ssa_name(bt, NULL, "pi_ok");
        gphi *po = create_phi_node(ok, rest);
        add_phi_arg(po, ok_u, eu, loc);
        add_phi_arg(po, ok_m, em, loc);
        k = make_temp_ssa_name(u32, NULL, "pi_k");
        gphi *pk = create_phi_node(k, rest);
        add_phi_arg(pk, k_u, eu, loc);
        add_phi_arg(pk, k_m, em, loc);
    }
    gimple_seq cnt = NULL;
    tree cd = make_temp_ssa_name(u32, NULL, "pi_cd");
    gimple_seq_add_stmt(&cnt, gimple_build_assign(cd, countdown_decl()));
    tree ok2 = gimple_build(&cnt, loc, BIT_AND_EXPR, bt, ok, gimple_build(&cnt, loc, GT_EXPR, bt, cd, k));
    tree cdn = gimple_build(&cnt, loc, COND_EXPR, u32, ok2, gimple_build(&cnt, loc, MINUS_EXPR, u32, cd, k), cd);
    gimple_seq_add_stmt(&cnt, gimple_build_assign(countdown_decl(), cdn));
    gimple_seq_set_location(cnt, loc);
    if (rest == ub) {
        gimple_stmt_iterator gr = gsi_last_bb(rest);
        gsi_insert_seq_after(&gr, cnt, GSI_NEW_STMT);
    } else {
        gimple_stmt_iterator gr = gsi_after_labels(rest);
        gsi_insert_seq_before(&gr, cnt, GSI_SAME_STMT);
    }
    tree skip = make_temp_ssa_name(bt, NULL, "pi_skip");
    gphi *phi = create_phi_node(skip, e->dest);
    add_phi_arg(phi, boolean_true_node, e, loc);
    add_phi_arg(phi, ok2, single_succ_edge(rest), loc);
    if (!c0)
        return skip;
    tree skip0 = make_temp_ssa_name(bt, NULL, "pi_skip");
    gphi *phi0 = create_phi_node(skip0, e0->dest);
    add_phi_arg(phi0, boolean_false_node, e0, loc);
    add_phi_arg(phi0, skip, single_succ_edge(e->dest), loc);
    return skip0;
}

/* The loop of group g in two copies (GCC's loop versioning): the loop as it
 * is, whose accesses get their checks, entered when skip is false, and a
 * copy without checks, entered when it holds.  False if GCC cannot copy
 * it (the accesses then test skip each). */
static bool version_loop(const loop_group &g, tree skip)
{
    initialize_original_copy_tables();
    class loop *copy = loop_version(g.loop, build2(EQ_EXPR, boolean_type_node, skip, boolean_false_node), NULL,
                                    profile_probability::unlikely(), profile_probability::likely(),
                                    profile_probability::unlikely(), profile_probability::likely(), true);
    free_original_copy_tables();
    return copy != NULL;
}

/* ---- chunk groups: a long loop's accesses checked once in 64 iterations ------------
 *
 * An innermost loop without calls or asm (an __atomic or __sync builtin is
 * an access, not a call), with one exit, of any trip count (none GCC knows,
 * or more iterations than a loop group takes), with an access at one
 * address — or one line — (histogram's h->pixels++ and
 * h->bins[image[i] >> 6]++, a thread's counter in fsbench): its accesses
 * that run once an iteration at addresses that move by a constant step (up
 * to a line), and those at one address that run in some iterations only
 * (fsbench's mixed: `if (me) mixed.b++; else mixed.a++`), are checked
 * together once every C iterations (C = 64, fewer for steps that would
 * walk more than 8 lines), at the top of the loop's header:
 *
 *     it, lim, mask, ks, kc: 0 on entry        (it: the iteration; lim -1: no chunk,
 *                                              a loop counted to run fewer than two)
 *     if (it >= lim) {                         (a new chunk; members at one address only:
 *                                               left 1 on entry, if (--left == 0), in memory)
 *         countdown += (C - runs_j) for each member j that need not run every
 *                      iteration and was taken for in the last chunk (kc), runs_j = 0;
 *         for each access j: its lines in iterations it .. it + C - 1;
 *         free_j = all this thread's (or read-only shared, for a load, each known);
 *         samp_j = all sampled (each known: known_lines);
 *         K = C * (the number of samp_j);
 *         take = every access free or sampled && countdown > K;
 *         countdown -= take ? K : 0;  ks = take ? (the number of samp_j that run every iteration) : 0;
 *         kc = take ? (samp_j << j of the others) : 0;
 *         mask = (free_j || (samp_j && take)) << j, ...;  lim = it + C;  (or left = C)
 *     }
 *     if (mask == all ones) <a copy of the loop's body without checks (only when
 *                            every access has one address: one that moves would
 *                            need its pointer in both copies, which costs more
 *                            registers than the checks' tests, histogram's loop)>
 *     else ... each access j: if (mask & 1 << j) <no check>, else its own check ...
 *     (a member j that need not run every iteration: runs_j++ where it runs, in both copies)
 *     (the latch: it++)
 *     (the exit: countdown += (lim - it - 1) * ks (or (left - 1) * ks) + the runs not made,
 *      as at a chunk's start: the chunk's iterations not run)
 *
 * A line this thread owns, or a read-only shared line read, needs nothing
 * of its accesses' checks, so those accesses skip alone; the countdown is
 * taken for a chunk's accesses to sampled lines only when every access of
 * the chunk skips (none then counts down by itself, and the exit gives back
 * what the chunk did not run), so that the countdown goes down access by
 * access as without the group.  As for the loop groups, another thread
 * that makes a line shared, or opens a window on it, is seen from the next
 * chunk on (at most C iterations later).  A loop without an access at one
 * address is a pass over data (wordcount's text, a first pass over a
 * buffer: lines in their footprint, which the chunk never skips): the test
 * per access would cost in every iteration, so it has no chunk group. */
#ifndef SH_CHUNK_MAX
#define SH_CHUNK_MAX 64
#endif
#define SH_CHUNK_MIN 8 /* fewer iterations a chunk: not worth it */

struct chunk_group {
    class loop *loop;
    unsigned HOST_WIDE_INT iters; /* a chunk's iterations */
    tree niter, mbz, assume;      /* the loop's trip count (loop_group), or NULL: a constant */
    unsigned members;
    bool fixed;                   /* a member at one place */
    bool all_fixed;               /* ... every member */
    location_t loc;
};

/* Find the chunk groups (acc[i].cgroup, .cbit, .lbase, .lstep, .lspan) in
 * loops without a loop group. */
static void find_chunk_groups(function *fun, vec<share_access> &acc, vec<chunk_group> &groups)
{
    auto_vec<char> state; /* per loop: 0 not seen, 1 a group, 2 none */
    loop_states(fun, state, true);
    for (unsigned i = 0; i < acc.length(); i++)
        if (acc[i].lgroup)
            state[gimple_bb(acc[i].stmt)->loop_father->num] = 2;
    for (unsigned i = 0; i < acc.length(); i++) {
        share_access &a = acc[i];
        edge ex;
        bool cond = false;
        class loop *l = member_loop(a, state, &ex, &cond);
        if (!l)
            continue;
        unsigned size;
        tree lbase;
        HOST_WIDE_INT step, span;
        if (!member_affine(l, a, &lbase, &step, &span, &size) || absu_hwi(step) > PI_SHARE_LINE || (cond && step))
            continue;
        unsigned k;
        for (k = 0; k < groups.length() && groups[k].loop != l; k++)
            ;
        if (k == groups.length()) {
            /* a trip count GCC knows before the loop: the chunks are taken only
             * when it has two or more (a check every few iterations of a short
             * loop would cost more than the checks it stands for) */
            loop_group t;
            if (!loop_trips(l, ex, &t, true) || (t.iters && t.iters < 2 * SH_CHUNK_MAX)) {
                state[l->num] = 2;
                continue;
            }
            chunk_group g = {l, SH_CHUNK_MAX, t.niter, t.mbz, t.assume, 0, false, true, gimple_location(a.stmt)};
            groups.safe_push(g);
            state[l->num] = 1;
        }
        if (groups[k].members == 32)
            continue;
        unsigned HOST_WIDE_INT c =
            step ? ((SH_LOOP_LINES - 1) * PI_SHARE_LINE - (unsigned HOST_WIDE_INT)span) / absu_hwi(step) + 1 : SH_CHUNK_MAX;
        groups[k].iters = MIN(groups[k].iters, c);
        groups[k].fixed |= !step;
        groups[k].all_fixed &= !step;
        a.cgroup = k + 1;
        a.cbit = groups[k].members++;
        a.ccnt = cond ? create_tmp_var(unsigned_type_node, "pi_ccnt") : NULL_TREE;
        if (cond)
            TREE_ADDRESSABLE(a.ccnt) = 1; /* (in memory: no SSA form to keep across the branches) */
        a.lbase = lbase;
        a.lstep = step;
        a.lspan = span;
    }
    for (unsigned k = 0; k < groups.length(); k++)
        if (!groups[k].fixed || groups[k].iters < SH_CHUNK_MIN)
            groups[k].members = 0;
    for (unsigned i = 0; i < acc.length(); i++)
        if (acc[i].cgroup && !groups[acc[i].cgroup - 1].members)
            acc[i].cgroup = 0;
}

/* The chunk check of group gi (above); returns the mask, valid from the
 * top of the loop's body on. */
static tree insert_chunk_check(const chunk_group &g, unsigned gi, vec<share_access> &acc)
{
    class loop *l = g.loop;
    location_t loc = g.loc;
    tree u8 = unsigned_char_type_node, u8p = build_pointer_type(u8), u32 = unsigned_type_node;
    tree u64 = long_long_unsigned_type_node, uptr = pointer_sized_int_node, bt = boolean_type_node;
    edge pre = loop_preheader_edge(l), back = loop_latch_edge(l), ex = single_exit(l);
    basic_block h = l->header;
    /* down: members at one address only (their copy without checks):
     * the chunk's counter counts down in memory */
    bool down = g.all_fixed;
    tree left0 = build_int_cst(uptr, down ? 1 : 0);
    if (g.niter) { /* fewer than two chunks' iterations (or GCC's count not right): no chunks */
        gimple_seq q = NULL;
        tree n = before_loop_value(&q, uptr, g.niter);
        tree few = gimple_build(&q, loc, LT_EXPR, bt, n, build_int_cst(uptr, 2 * g.iters));
        if (g.mbz)
            few = gimple_build(&q, loc, BIT_IOR_EXPR, bt, few, before_loop_value(&q, bt, g.mbz));
        if (g.assume)
            few = gimple_build(&q, loc, BIT_IOR_EXPR, bt, few,
                               gimple_build(&q, loc, BIT_NOT_EXPR, bt, before_loop_value(&q, bt, g.assume)));
        left0 = gimple_build(&q, loc, COND_EXPR, uptr, few, build_int_cst(uptr, down ? 0 : -1), left0);
        gimple_seq_set_location(q, loc);
        gsi_insert_seq_on_edge_immediate(pre, q);
        pre = loop_preheader_edge(l);
    }
    /* the members that need not run every iteration: each one's runs in the
     * chunk counted where it runs (0 before the loop; the counts put in the
     * members' blocks at the end, in the copy without checks too) */
    auto_vec<basic_block> cond_blocks;
    auto_vec<tree> cond_vars;
    auto count_runs = [&](basic_block b, tree var) {
        gimple_seq r = NULL;
        tree c0 = make_temp_ssa_name(u32, NULL, "pi_ccnt");
        gimple_seq_add_stmt(&r, gimple_build_assign(c0, var));
        gimple_seq_add_stmt(&r, gimple_build_assign(var, gimple_build(&r, loc, PLUS_EXPR, u32, c0, build_int_cst(u32, 1))));
        gimple_seq_set_location(r, loc);
        gimple_stmt_iterator ga = gsi_after_labels(b);
        gsi_insert_seq_before(&ga, r, GSI_SAME_STMT);
    };
    {
        gimple_seq q = NULL;
        for (unsigned i = 0; i < acc.length(); i++)
            if (acc[i].cgroup == gi + 1 && acc[i].ccnt) {
                gimple_seq_add_stmt(&q, gimple_build_assign(acc[i].ccnt, build_int_cst(u32, 0)));
                cond_blocks.safe_push(gimple_bb(acc[i].stmt));
                cond_vars.safe_push(acc[i].ccnt);
            }
        if (q) {
            gimple_seq_set_location(q, loc);
            gsi_insert_seq_on_edge_immediate(pre, q);
            pre = loop_preheader_edge(l);
        }
    }
    /* down: left, the chunk's iterations left, this one included, in memory
     * (a decrement and its test an iteration: two instructions; the
     * iteration's number and its comparison with the chunk's end took
     * four).  Otherwise it, the iteration, and lim, the chunk's end (a
     * member that moves needs it at the check; histogram's loop spilled its
     * image pointer with the counter in memory: 4.33x against 4.13x). */
    tree left = down ? create_tmp_var(uptr, "pi_left") : NULL_TREE;
    if (down) {
        TREE_ADDRESSABLE(left) = 1;
        gimple_seq q = NULL;
        gimple_seq_add_stmt(&q, gimple_build_assign(left, left0));
        gimple_seq_set_location(q, loc);
        gsi_insert_seq_on_edge_immediate(pre, q);
        pre = loop_preheader_edge(l);
    }
    tree it = down ? build_int_cst(uptr, 0) : make_temp_ssa_name(uptr, NULL, "pi_it");
    tree lim = down ? NULL_TREE : make_temp_ssa_name(uptr, NULL, "pi_lim");
    gphi *pit = down ? NULL : create_phi_node(it, h), *plim = down ? NULL : create_phi_node(lim, h);
    if (!down) {
        add_phi_arg(pit, build_int_cst(uptr, 0), pre, loc);
        add_phi_arg(plim, left0, pre, loc);
    }
    tree mask = make_temp_ssa_name(u32, NULL, "pi_mask"), ks = make_temp_ssa_name(u32, NULL, "pi_ks");
    /* (kc only with members that need not run every iteration) */
    tree kc = cond_blocks.length() ? make_temp_ssa_name(u32, NULL, "pi_kc") : build_int_cst(u32, 0);
    gphi *pmask = create_phi_node(mask, h), *pks = create_phi_node(ks, h);
    gphi *pkc = cond_blocks.length() ? create_phi_node(kc, h) : NULL;
    add_phi_arg(pmask, build_int_cst(u32, 0), pre, loc);
    add_phi_arg(pks, build_int_cst(u32, 0), pre, loc);
    if (pkc)
        add_phi_arg(pkc, build_int_cst(u32, 0), pre, loc);
    gimple_seq hs = NULL;
    gcond *c;
    if (down) {
        tree lv = make_temp_ssa_name(uptr, NULL, "pi_left");
        gimple_seq_add_stmt(&hs, gimple_build_assign(lv, left));
        tree left1 = gimple_build(&hs, loc, MINUS_EXPR, uptr, lv, build_int_cst(uptr, 1));
        gimple_seq_add_stmt(&hs, gimple_build_assign(left, left1));
        c = gimple_build_cond(EQ_EXPR, left1, build_int_cst(uptr, 0), NULL_TREE, NULL_TREE);
    } else
        c = gimple_build_cond(GE_EXPR, it, lim, NULL_TREE, NULL_TREE);
    gimple_seq_add_stmt(&hs, c);
    gimple_seq_set_location(hs, loc);
    gimple_stmt_iterator gh = gsi_after_labels(h);
    gsi_insert_seq_before(&gh, hs, GSI_SAME_STMT);
    /* the chunk's check */
    gimple_seq seq = NULL;
    tree shadow = make_temp_ssa_name(u8p, NULL, "pi_shadow");
    gimple_seq_add_stmt(&seq, gimple_build_assign(shadow, shadow_decl()));
    tree me = make_temp_ssa_name(u8, NULL, "pi_me");
    gimple_seq_add_stmt(&seq, gimple_build_assign(me, id_decl()));
    tree me8 = gimple_build(&seq, loc, MULT_EXPR, u64, gimple_convert(&seq, loc, u64, me),
                            build_int_cstu(u64, 0x0101010101010101ull));
    tree n = build_int_cst(uptr, g.iters - 1), iters = build_int_cst(u32, g.iters), zero = build_int_cst(u32, 0);
    tree all = NULL_TREE, kk = zero, ns = zero, ns_u = zero, kc_r = zero;
    /* the previous chunk's countdown back for the runs its members that need
     * not run every iteration did not make (iters each was taken for) */
    auto cond_back = [&](gimple_seq *q, tree kcv) {
        tree gb = zero;
        for (unsigned i = 0; i < acc.length(); i++)
            if (acc[i].cgroup == gi + 1 && acc[i].ccnt) {
                tree c0 = make_temp_ssa_name(u32, NULL, "pi_ccnt");
                gimple_seq_add_stmt(q, gimple_build_assign(c0, acc[i].ccnt));
                tree bit = gimple_build(q, loc, BIT_AND_EXPR, u32,
                                        gimple_build(q, loc, RSHIFT_EXPR, u32, kcv, build_int_cst(integer_type_node, acc[i].cbit)),
                                        build_int_cst(u32, 1));
                gb = gimple_build(q, loc, PLUS_EXPR, u32, gb,
                                  gimple_build(q, loc, MULT_EXPR, u32, bit, gimple_build(q, loc, MINUS_EXPR, u32, iters, c0)));
            }
        return gb;
    };
    tree gb = cond_back(&seq, kc);
    for (unsigned i = 0; i < acc.length(); i++)
        if (acc[i].cgroup == gi + 1 && acc[i].ccnt)
            gimple_seq_add_stmt(&seq, gimple_build_assign(acc[i].ccnt, zero));
    auto_vec<tree> frees, samps;
    for (unsigned i = 0; i < acc.length(); i++) {
        const share_access &a = acc[i];
        if (a.cgroup != gi + 1)
            continue;
        tree b0 = before_loop_value(&seq, uptr, a.lbase);
        tree a0 = a.lstep ? gimple_build(&seq, loc, PLUS_EXPR, uptr, b0,
                                         gimple_build(&seq, loc, MULT_EXPR, uptr, it, build_int_cst(uptr, a.lstep)))
                          : b0;
        member_answer ma;
        member_check(&seq, &seq, NULL, loc, a, a0, n, iters, shadow, me8, &ma);
        tree samp = gimple_build(&seq, loc, BIT_AND_EXPR, bt, ma.ok_u, gimple_build(&seq, loc, NE_EXPR, bt, ma.k_u, zero));
        tree fre = gimple_build(&seq, loc, BIT_AND_EXPR, bt, ma.ok_u, gimple_build(&seq, loc, EQ_EXPR, bt, ma.k_u, zero));
        all = all ? gimple_build(&seq, loc, BIT_AND_EXPR, bt, all, ma.ok_u) : ma.ok_u;
        ns = gimple_build(&seq, loc, PLUS_EXPR, u32, ns, gimple_convert(&seq, loc, u32, samp));
        if (a.ccnt)
            kc_r = gimple_build(&seq, loc, BIT_IOR_EXPR, u32, kc_r,
                                gimple_build(&seq, loc, LSHIFT_EXPR, u32, gimple_convert(&seq, loc, u32, samp),
                                             build_int_cst(integer_type_node, a.cbit)));
        else
            ns_u = gimple_build(&seq, loc, PLUS_EXPR, u32, ns_u, gimple_convert(&seq, loc, u32, samp));
        frees.safe_push(fre);
        samps.safe_push(samp);
    }
    kk = gimple_build(&seq, loc, MULT_EXPR, u32, ns, iters);
    tree cd0 = make_temp_ssa_name(u32, NULL, "pi_cd");
    gimple_seq_add_stmt(&seq, gimple_build_assign(cd0, countdown_decl()));
    tree cd = gb == zero ? cd0 : gimple_build(&seq, loc, PLUS_EXPR, u32, cd0, gb);
    tree take = gimple_build(&seq, loc, BIT_AND_EXPR, bt, all, gimple_build(&seq, loc, GT_EXPR, bt, cd, kk));
    tree cdn = gimple_build(&seq, loc, COND_EXPR, u32, take, gimple_build(&seq, loc, MINUS_EXPR, u32, cd, kk), cd);
    gimple_seq_add_stmt(&seq, gimple_build_assign(countdown_decl(), cdn));
    tree ks_r = gimple_build(&seq, loc, COND_EXPR, u32, take, ns_u, zero);
    kc_r = kc_r == zero ? zero : gimple_build(&seq, loc, COND_EXPR, u32, take, kc_r, zero);
    tree mask_r = zero;
    for (unsigned j = 0; j < frees.length(); j++) {
        tree b = gimple_build(&seq, loc, BIT_IOR_EXPR, bt, frees[j],
                              gimple_build(&seq, loc, BIT_AND_EXPR, bt, samps[j], take));
        mask_r = gimple_build(&seq, loc, BIT_IOR_EXPR, u32, mask_r,
                              gimple_build(&seq, loc, LSHIFT_EXPR, u32, gimple_convert(&seq, loc, u32, b),
                                           build_int_cst(integer_type_node, j)));
    }
    tree lim_r = down ? NULL_TREE : gimple_build(&seq, loc, PLUS_EXPR, uptr, it, build_int_cst(uptr, g.iters));
    if (down)
        gimple_seq_add_stmt(&seq, gimple_build_assign(left, build_int_cst(uptr, g.iters)));
    gimple_seq_set_location(seq, loc);
    edge ej;
    edge e = side_block(c, seq, EDGE_TRUE_VALUE, &ej);
    basic_block t = e->dest;
    auto join = [&](tree old, tree nw, const char *name) {
        tree v = make_temp_ssa_name(TREE_TYPE(old), NULL, name);
        gphi *p = create_phi_node(v, t);
        add_phi_arg(p, old, e, loc);
        add_phi_arg(p, nw, ej, loc);
        return v;
    };
    tree mask_t = join(mask, mask_r, "pi_mask"), ks_t = join(ks, ks_r, "pi_ks");
    tree lim_t = down ? NULL_TREE : join(lim, lim_r, "pi_lim");
    tree kc_t = pkc ? join(kc, kc_r, "pi_kc") : kc;
    /* the latch: the next iteration */
    if (!down) {
        gimple_seq lseq = NULL;
        tree it1 = gimple_build(&lseq, loc, PLUS_EXPR, uptr, it, build_int_cst(uptr, 1));
        gimple_stmt_iterator gl = gsi_after_labels(back->src);
        gsi_insert_seq_before(&gl, lseq, GSI_SAME_STMT);
        add_phi_arg(pit, it1, back, loc);
        add_phi_arg(plim, lim_t, back, loc);
    }
    add_phi_arg(pmask, mask_t, back, loc);
    add_phi_arg(pks, ks_t, back, loc);
    if (pkc)
        add_phi_arg(pkc, kc_t, back, loc);
    /* the exit: what the chunk did not run back into the countdown */
    gimple_seq xseq = NULL;
    tree rest;
    if (down) {
        tree lx = make_temp_ssa_name(uptr, NULL, "pi_left");
        gimple_seq_add_stmt(&xseq, gimple_build_assign(lx, left));
        rest = gimple_build(&xseq, loc, MINUS_EXPR, uptr, lx, build_int_cst(uptr, 1));
    } else
        rest = gimple_build(&xseq, loc, MINUS_EXPR, uptr, gimple_build(&xseq, loc, MINUS_EXPR, uptr, lim_t, it),
                            build_int_cst(uptr, 1));
    tree back_k = gimple_build(&xseq, loc, MULT_EXPR, u32, gimple_convert(&xseq, loc, u32, rest), ks_t);
    tree gx = cond_back(&xseq, kc_t);
    if (gx != zero)
        back_k = gimple_build(&xseq, loc, PLUS_EXPR, u32, back_k, gx);
    tree cx = make_temp_ssa_name(u32, NULL, "pi_cd");
    gimple_seq_add_stmt(&xseq, gimple_build_assign(cx, countdown_decl()));
    gimple_seq_add_stmt(&xseq, gimple_build_assign(countdown_decl(), gimple_build(&xseq, loc, PLUS_EXPR, u32, cx, back_k)));
    gimple_seq_set_location(xseq, loc);
    gsi_insert_seq_on_edge_immediate(ex, xseq);
    /* a chunk whose every access skips runs a copy of the loop's body
     * without checks (the counter and the test of the mask stay): for
     * accesses at one address each */
    if (!g.all_fixed) {
        for (unsigned j = 0; j < cond_blocks.length(); j++)
            count_runs(cond_blocks[j], cond_vars[j]);
        return mask_t;
    }
    edge st = split_block_after_labels(t);
    calculate_dominance_info(CDI_DOMINATORS); /* (get_loop_body's) */
    basic_block hn = st->dest, *body = get_loop_body(l);
    auto_vec<basic_block> region;
    for (unsigned i = 0; i < l->num_nodes; i++)
        if (body[i] != h && body[i] != t && body[i] != ej->src && body[i] != l->latch)
            region.safe_push(body[i]);
    free(body);
    free_dominance_info(CDI_DOMINATORS);
    if (!can_copy_bbs_p(region.address(), region.length())) {
        for (unsigned j = 0; j < cond_blocks.length(); j++)
            count_runs(cond_blocks[j], cond_vars[j]);
        return mask_t;
    }
    auto_vec<basic_block> copies;
    copies.safe_grow(region.length());
    initialize_original_copy_tables();
    copy_bbs(region.address(), region.length(), copies.address(), NULL, 0, NULL, l, l->latch, false);
    add_phi_args_after_copy(copies.address(), copies.length(), NULL);
    basic_block hn2 = get_bb_copy(hn);
    for (unsigned j = 0; j < cond_blocks.length(); j++) {
        count_runs(cond_blocks[j], cond_vars[j]);
        count_runs(get_bb_copy(cond_blocks[j]), cond_vars[j]);
    }
    free_original_copy_tables();
    gcond *ca = gimple_build_cond(EQ_EXPR, mask_t, build_int_cst(u32, g.members >= 32 ? 0xffffffffu : (1u << g.members) - 1),
                                  NULL_TREE, NULL_TREE);
    gimple_set_location(ca, loc);
    gimple_stmt_iterator gt = gsi_last_bb(t);
    gsi_insert_after(&gt, ca, GSI_NEW_STMT);
    st->flags = (st->flags & ~EDGE_FALLTHRU) | EDGE_FALSE_VALUE;
    edge et = make_edge(t, hn2, EDGE_TRUE_VALUE);
    et->probability = profile_probability::likely();
    st->probability = et->probability.invert();
    return mask_t;
}

/* ---- runs: a streaming access's footprint a line at a time ------------------------
 *
 * A pass over data another thread made (a histogram's image, a word
 * count's text) reads every line in its footprint: each access took the
 * footprint path (about 30 instructions) to record its bytes.  An access in
 * an innermost loop without calls or asm, run once an iteration, whose
 * address moves by its own size (a power of two up to a line: its bytes
 * are contiguous from one iteration to the next), in a loop whose trip
 * count is known before it runs and whose every other instrumented access
 * has one address in it, gets a run: where its footprint path records an
 * access, it records at once the accesses the loop will make on that line
 * from this one on (fp_run: up to the line's end, the loop's end, and one
 * fewer than the footprint has left, so that its last access still calls),
 * and the checks of the next ones skip them (the byte not the thread's id
 * and the address below the run's end).  Before the loop:
 *
 *     run = 0;  end = <the access's address in the iteration after the last>;
 *
 * The bytes, counts and footprint recorded are those the accesses would
 * have recorded one by one; as for a group, another thread that makes the
 * line shared, or opens a window on it, while a run lasts (at most 64
 * iterations) is seen from the run's end on. */
#define SH_RUN_MIN 16 /* the fewest iterations of a constant trip count a run is made for */

static void find_runs(function *fun, vec<share_access> &acc)
{
    auto_vec<char> state;
    loop_states(fun, state);
    tree uptr = pointer_sized_int_node;
    /* each access's loop and whether it moves in it (or may: not affine) */
    auto_vec<int> lnum;
    auto_vec<char> moves;
    for (unsigned i = 0; i < acc.length(); i++) {
        class loop *l = gimple_bb(acc[i].stmt)->loop_father;
        lnum.safe_push(l->num);
        tree lbase;
        HOST_WIDE_INT step = 1, span;
        unsigned size;
        bool fixed = loop_outer(l) && acc[i].ref && !acc[i].block && member_affine(l, acc[i], &lbase, &step, &span, &size) &&
                     step == 0;
        moves.safe_push(!fixed);
    }
    for (unsigned i = 0; i < acc.length(); i++) {
        share_access &a = acc[i];
        edge ex;
        class loop *l = member_loop(a, state, &ex);
        if (!l)
            continue;
        unsigned size;
        tree lbase;
        HOST_WIDE_INT step, span;
        if (!member_affine(l, a, &lbase, &step, &span, &size) || span || step <= 0 || step != (HOST_WIDE_INT)size ||
            step > PI_SHARE_LINE || exact_log2(step) < 0)
            continue;
        /* (the footprint path's: aligned to its size, no struct field named) */
        if (get_object_alignment(probe_ref(a, &size)) / BITS_PER_UNIT < size || what_of(a.ref))
            continue;
        bool alone = true;
        for (unsigned j = 0; j < acc.length() && alone; j++)
            alone = j == i || lnum[j] != l->num || !moves[j];
        loop_group g;
        /* (a loop of a few iterations would pay the lines before it for nothing) */
        if (!alone || !loop_trips(l, ex, &g, true) || (g.iters && g.iters < SH_RUN_MIN))
            continue;
        /* end = lbase + step * (the iterations: latch's executions + 1; none
         * when GCC's assumption does not hold) */
        location_t loc = gimple_location(a.stmt);
        gimple_seq seq = NULL;
        tree cnt, bt = boolean_type_node;
        if (g.iters)
            cnt = build_int_cstu(uptr, g.iters);
        else {
            cnt = gimple_build(&seq, loc, PLUS_EXPR, uptr, latch_value(&seq, loc, g), build_int_cst(uptr, 1));
        }
        if (g.assume)
            cnt = gimple_build(&seq, loc, COND_EXPR, uptr, before_loop_value(&seq, bt, g.assume), cnt,
                               build_int_cst(uptr, 0));
        tree b0 = before_loop_value(&seq, uptr, lbase);
        tree end = gimple_build(&seq, loc, PLUS_EXPR, uptr, b0,
                                gimple_build(&seq, loc, MULT_EXPR, uptr, cnt, build_int_cst(uptr, step)));
        /* both in memory: no register held across the loop for a path
         * taken once a line, and no SSA form to keep across the checks' blocks */
        tree rv = create_tmp_var(uptr, "pi_run"), re = create_tmp_var(uptr, "pi_run_end");
        TREE_ADDRESSABLE(rv) = TREE_ADDRESSABLE(re) = 1;
        gimple_seq_add_stmt(&seq, gimple_build_assign(rv, build_int_cst(uptr, 0)));
        gimple_seq_add_stmt(&seq, gimple_build_assign(re, end));
        gimple_seq_set_location(seq, loc);
        gsi_insert_seq_on_edge_immediate(loop_preheader_edge(l), seq);
        a.run_var = rv;
        a.run_end = re;
        a.run_step = step;
        if (pi_opt.verbose)
            inform(loc, "perfinst: sharing: a run of %wd-byte accesses: its footprint recorded a line at a time", step);
    }
}

/* ---- allocation calls ------------------------------------------------------------- */

static tree runtime_fn(const char *name, tree like)
{
    tree d = build_fn_decl(name, TREE_TYPE(like));
    TREE_NOTHROW(d) = 1;
    return d;
}

/* ---- align-alloc: where the plan's allocation sites are ---------------------
 *
 * The plan names an allocation by function and file:line from the DWARF
 * line table; a call written in a macro (its argument or its body) has
 * several places: the one GCC reports, the macro's expansion point and the
 * spelling location.  The site matches when the function matches (its
 * name, its assembler name, or that of the function it was cloned from)
 * and file:line is one of them.  A recommendation whose function this unit
 * compiled but whose call was not found is reported (with the allocation
 * calls the function has, as GCC sees them), at the end of the unit. */

struct alloc_site {
    const struct pifb_rec *rec;
    bool fn_seen, matched;
    char calls[300];          /* the allocation calls of its function: file:line, ... */
};
static vec<alloc_site> alloc_sites;
static bool alloc_sites_ready;

static alloc_site *alloc_site_of(const struct pifb_rec *r)
{
    for (unsigned i = 0; i < alloc_sites.length(); i++)
        if (alloc_sites[i].rec == r)
            return &alloc_sites[i];
    return NULL;
}

static bool fn_named(function *fun, const char *f)
{
    tree d = fun->decl;
    const char *asm_name = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(d));
    size_t n = strlen(f);
    if (!strcmp(asm_name, f) || (!strncmp(asm_name, f, n) && asm_name[n] == '.')) /* f.constprop.0, f.part.1 */
        return true;
    if (DECL_NAME(d) && !strcmp(IDENTIFIER_POINTER(DECL_NAME(d)), f))
        return true;
    /* C++: the names DWARF gives (Pool for Pool's constructor, A::f) */
    for (int v = 0; v <= 2; v += 2) {
        const char *p = lang_hooks.decl_printable_name(d, v);
        if (p && !strcmp(p, f))
            return true;
    }
    return false;
}

static bool loc_matches(location_t loc, const char *file, uint64_t line)
{
    location_t cand[3] = {loc, linemap_resolve_location(line_table, loc, LRK_MACRO_EXPANSION_POINT, NULL),
                          linemap_resolve_location(line_table, loc, LRK_SPELLING_LOCATION, NULL)};
    for (location_t c : cand) {
        expanded_location x = expand_location(c);
        if ((uint64_t)x.line == line && (!file || !x.file || !strcmp(lbasename(file), lbasename(x.file))))
            return true;
    }
    return false;
}

/* The recommendation `align-alloc func=F file=FILE line=N` for this call,
 * if any (noting, for the report, that F was compiled). */
static const struct pifb_rec *align_alloc_here(function *fun, gimple *g)
{
    unsigned it = 0;
    while (const struct pifb_rec *r = pi_feedback_next(PIFB_ALIGN_ALLOC, &it)) {
        const char *f = pifb_get(r, "func");
        uint64_t line = 0;
        if (!f || !fn_named(fun, f) || pifb_get_u64(r, "line", &line) != 0)
            continue;
        if (loc_matches(gimple_location(g), pifb_get(r, "file"), line))
            return r;
    }
    return NULL;
}

static bool is_new(tree fn)
{
    return fn && TREE_CODE(fn) == FUNCTION_DECL && DECL_IS_REPLACEABLE_OPERATOR_NEW_P(fn);
}

static bool is_delete(tree fn)
{
    return fn && TREE_CODE(fn) == FUNCTION_DECL && DECL_IS_OPERATOR_DELETE_P(fn);
}

/* C++: a call after (or before) g noting the object it allocated (or frees):
 * operator new and delete are left as they are, and recorded. */
static void note_call(gimple *g, bool alloc)
{
    static tree note_alloc_fn, note_free_fn;
    if (!note_alloc_fn) {
        note_alloc_fn = build_fn_decl("__perfinst_share_note_alloc",
                                      build_function_type_list(void_type_node, ptr_type_node, size_type_node,
                                                               NULL_TREE));
        note_free_fn = build_fn_decl("__perfinst_share_note_free",
                                     build_function_type_list(void_type_node, ptr_type_node, NULL_TREE));
        TREE_NOTHROW(note_alloc_fn) = TREE_NOTHROW(note_free_fn) = 1;
        pi_gc_root(&note_alloc_fn);
        pi_gc_root(&note_free_fn);
    }
    gimple_stmt_iterator gsi = gsi_for_stmt(g);
    if (!alloc) {
        gcall *c = gimple_build_call(note_free_fn, 1, gimple_call_arg(g, 0));
        gimple_set_location(c, gimple_location(g));
        gsi_insert_before(&gsi, c, GSI_SAME_STMT);
        return;
    }
    tree lhs = gimple_call_lhs(g);
    if (!lhs || TREE_CODE(lhs) != SSA_NAME)
        return;
    gcall *c = gimple_build_call(note_alloc_fn, 2, lhs, gimple_call_arg(g, 0));
    gimple_set_location(c, gimple_location(g));
    if (!stmt_ends_bb_p(g))
        gsi_insert_after(&gsi, c, GSI_SAME_STMT);
    else { /* new may throw: the normal edge */
        edge e = find_fallthru_edge(gimple_bb(g)->succs);
        if (!e)
            for (edge_iterator ei = ei_start(gimple_bb(g)->succs); !ei_end_p(ei); ei_next(&ei))
                if (!(ei_edge(ei)->flags & (EDGE_EH | EDGE_ABNORMAL)))
                    e = ei_edge(ei);
        if (e)
            gsi_insert_on_edge_immediate(e, c);
    }
}

/* operator new(size) at an align-alloc site: its aligned form,
 * operator new(size, std::align_val_t(64)) (C++17; libstdc++ allocates it
 * with aligned_alloc, and operator delete frees it).  The new already
 * aligned (a padded type asks for it): nothing to do. */
static bool align_new(gimple *g)
{
    if (gimple_call_num_args(g) >= 2) {
        tree al = gimple_call_arg(g, 1);
        return TREE_CODE(al) == INTEGER_CST && tree_fits_uhwi_p(al) && tree_to_uhwi(al) >= 64;
    }
    tree fn = gimple_call_fndecl(g);
    const char *name = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fn));
    const char *aligned = !strcmp(name, "_Znwm") ? "_ZnwmSt11align_val_t"
                          : !strcmp(name, "_Znam") ? "_ZnamSt11align_val_t" : NULL;
    if (!aligned || gimple_call_num_args(g) != 1)
        return false;
    tree d = build_fn_decl(aligned, build_function_type_list(ptr_type_node, size_type_node, size_type_node,
                                                             NULL_TREE));
    SET_DECL_ASSEMBLER_NAME(d, get_identifier(aligned));
    gcall *c = as_a<gcall *>(g);
    gcall *nc = gimple_build_call(d, 2, gimple_call_arg(c, 0), build_int_cst(size_type_node, 64));
    gimple_call_set_lhs(nc, gimple_call_lhs(c));
    gimple_set_location(nc, gimple_location(c));
    gimple_call_set_nothrow(nc, gimple_call_nothrow_p(c));
    gimple_stmt_iterator gsi = gsi_for_stmt(g);
    gsi_replace(&gsi, nc, true);
    return true;
}

/* N rounded up to whole lines, in size_t (statements into SEQ); a size
 * that would wrap becomes SIZE_MAX, so that the allocation fails as
 * malloc's would.  0 stays 0 (aligned_alloc(64, 0), as malloc(0)). */
static tree whole_lines(gimple_seq *seq, location_t loc, tree n)
{
    tree st = size_type_node, ones = build_all_ones_cst(st);
    n = gimple_convert(seq, loc, st, n);
    if (TREE_CODE(n) == INTEGER_CST && tree_fits_uhwi_p(n)) {
        unsigned HOST_WIDE_INT v = tree_to_uhwi(n), line = PI_SHARE_LINE;
        return v > tree_to_uhwi(ones) - (line - 1) ? ones : build_int_cst(st, (v + line - 1) & -line);
    }
    tree up = gimple_build(seq, loc, PLUS_EXPR, st, n, build_int_cst(st, PI_SHARE_LINE - 1));
    tree wrapped = gimple_build(seq, loc, LT_EXPR, boolean_type_node, up, n);
    tree lines = gimple_build(seq, loc, BIT_AND_EXPR, st, up, build_int_cst(st, -(HOST_WIDE_INT)PI_SHARE_LINE));
    return gimple_build(seq, loc, COND_EXPR, st, wrapped, ones, lines);
}

/* The call G at a planned site becomes aligned_alloc(64, SIZE) (SIZE in
 * SEQ's statements, inserted before it); in a build with detection, the
 * recording twin of aligned_alloc.  Returns the new call. */
static gcall *to_aligned_alloc(gimple *g, gimple_seq seq, tree size, bool record)
{
    gimple_stmt_iterator gsi = gsi_for_stmt(g);
    for (gimple_stmt_iterator i = gsi_start(seq); !gsi_end_p(i); gsi_next(&i))
        gimple_set_location(gsi_stmt(i), gimple_location(g));
    gsi_insert_seq_before(&gsi, seq, GSI_SAME_STMT);
    tree fn = builtin_decl_explicit(BUILT_IN_ALIGNED_ALLOC);
    if (record)
        fn = runtime_fn("__perfinst_share_aligned_alloc", fn);
    gcall *nc = gimple_build_call(fn, 2, build_int_cst(size_type_node, PI_SHARE_LINE), size);
    tree lhs = gimple_call_lhs(g);
    gimple_call_set_lhs(nc, lhs);
    gimple_set_location(nc, gimple_location(g));
    gimple_call_set_nothrow(nc, gimple_call_nothrow_p(as_a<gcall *>(g)));
    gsi_replace(&gsi, nc, true);
    if (lhs && TREE_CODE(lhs) == SSA_NAME && POINTER_TYPE_P(TREE_TYPE(lhs)))
        set_ptr_info_alignment(get_ptr_info(lhs), PI_SHARE_LINE, 0);
    return nc;
}

/* malloc(n) at a planned site becomes aligned_alloc(64, n rounded up to
 * whole lines): what a programmer writes (bench/sharing's hand fixes), with
 * no allocator of perfinst's between -- the repaired program imports what
 * the hand-fixed one imports, and its code lies where that one's does. */
static void line_malloc(gimple *g, bool record)
{
    gimple_seq seq = NULL;
    tree size = whole_lines(&seq, gimple_location(g), gimple_call_arg(g, 0));
    to_aligned_alloc(g, seq, size, record);
}

/* calloc(n, size) at a planned site: p = aligned_alloc(64, n * size rounded
 * up to whole lines); if (p) memset(p, 0, n * size) -- calloc's promise,
 * written as a programmer writes it (a product that would wrap asks for
 * SIZE_MAX, which fails as calloc does).  The memset is put in by
 * calloc_zero once the function's calls are all seen (it splits the
 * block).  Returns the new call. */
static gcall *line_calloc(gimple *g, bool record, tree *total)
{
    location_t loc = gimple_location(g);
    tree st = size_type_node, ones = build_all_ones_cst(st);
    gimple_seq seq = NULL;
    tree n = gimple_convert(&seq, loc, st, gimple_call_arg(g, 0));
    tree sz = gimple_convert(&seq, loc, st, gimple_call_arg(g, 1));
    if (TREE_CODE(n) == INTEGER_CST && TREE_CODE(sz) == INTEGER_CST) {
        wi::overflow_type ovf;
        wide_int prod = wi::umul(wi::to_wide(n), wi::to_wide(sz), &ovf);
        *total = ovf ? ones : wide_int_to_tree(st, prod);
    } else {
        /* wraps: size != 0 && n > SIZE_MAX / size (folded when size is a sizeof) */
        tree prod = gimple_build(&seq, loc, MULT_EXPR, st, n, sz);
        tree nz = gimple_build(&seq, loc, NE_EXPR, boolean_type_node, sz, build_zero_cst(st));
        tree big = gimple_build(&seq, loc, GT_EXPR, boolean_type_node, n,
                                gimple_build(&seq, loc, TRUNC_DIV_EXPR, st, ones, sz));
        tree wraps = gimple_build(&seq, loc, BIT_AND_EXPR, boolean_type_node, nz, big);
        *total = gimple_build(&seq, loc, COND_EXPR, st, wraps, ones, prod);
    }
    tree size = whole_lines(&seq, loc, *total);
    return to_aligned_alloc(g, seq, size, record);
}

/* After line_calloc's call C: if (p) memset(p, 0, TOTAL). */
static void calloc_zero(gcall *c, tree total)
{
    tree p = gimple_call_lhs(c);
    if (!p)
        return;
    gimple_stmt_iterator gsi = gsi_for_stmt(c);
    if (!is_gimple_reg(p)) { /* (-O0: a call's result may be stored to memory) */
        tree r = create_tmp_reg(TREE_TYPE(p));
        gimple_call_set_lhs(c, r);
        update_stmt(c);
        gimple *cp = gimple_build_assign(p, r);
        gimple_set_location(cp, gimple_location(c));
        gsi_insert_after(&gsi, cp, GSI_NEW_STMT);
        p = r;
    }
    gcond *cnd = gimple_build_cond(EQ_EXPR, p, build_zero_cst(TREE_TYPE(p)), NULL_TREE, NULL_TREE);
    gimple_set_location(cnd, gimple_location(c));
    gsi_insert_after(&gsi, cnd, GSI_NEW_STMT);
    gcall *z = gimple_build_call(builtin_decl_explicit(BUILT_IN_MEMSET), 3, p, integer_zero_node, total);
    gimple_set_location(z, gimple_location(c));
    edge round = side_block(cnd, gimple_seq_alloc_with_stmt(z), EDGE_FALSE_VALUE, NULL);
    /* (the memset is the likely side: only a failed allocation goes round) */
    edge into = EDGE_SUCC(round->src, EDGE_SUCC(round->src, 0) == round ? 1 : 0);
    round->probability = profile_probability::very_unlikely();
    into->probability = round->probability.invert();
    into->dest->count = into->count();
}

/* The recording twin's call G is no tail call: the twin names the object
 * by its return address, the allocation call's own, and a wrapper's
 * `return malloc(n)` (which the tail-call pass, before this one, marked)
 * would jump to it and name the wrapper's caller, where no call can be
 * aligned (xz's lzma_alloc: the plan's align-alloc not applied, and its
 * group refused). */
static void no_tail_call(gimple *g)
{
    if (gcall *c = dyn_cast<gcall *>(g))
        gimple_call_set_tail(c, false);
}

/* Redirect allocation calls: to the line allocator at recommended sites,
 * else (instrumented functions) to the recording twins; C++'s new and
 * delete noted.  Returns the number of calls changed. */
static unsigned redirect_allocs(function *fun, bool record)
{
    if (!alloc_sites_ready) {
        alloc_sites_ready = true;
        unsigned it = 0;
        while (const struct pifb_rec *r = pi_feedback_next(PIFB_ALIGN_ALLOC, &it)) {
            alloc_site a;
            memset(&a, 0, sizeof a);
            a.rec = r;
            alloc_sites.safe_push(a);
        }
    }
    for (unsigned i = 0; i < alloc_sites.length(); i++) {
        const char *f = pifb_get(alloc_sites[i].rec, "func");
        if (f && fn_named(fun, f))
            alloc_sites[i].fn_seen = true;
    }
    unsigned n = 0;
    basic_block bb;
    auto_vec<gimple *> news, deletes;
    auto_vec<gcall *> zeroes; /* repaired callocs, to be followed by their memset */
    auto_vec<tree> totals;
    FOR_EACH_BB_FN(bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
        gimple *g = gsi_stmt(gsi);
        if (!is_gimple_call(g))
            continue;
        tree fn = gimple_call_fndecl(g);
        bool cxx_new = is_new(fn), cxx_delete = is_delete(fn);
        if (!cxx_new && !cxx_delete && !gimple_call_builtin_p(g, BUILT_IN_NORMAL))
            continue;
        const char *rec = NULL, *line = NULL;
        if (!cxx_new && !cxx_delete)
            switch (DECL_FUNCTION_CODE(fn)) {
            case BUILT_IN_MALLOC: rec = "__perfinst_share_malloc"; line = "__perfinst_line_malloc"; break;
            case BUILT_IN_CALLOC: rec = "__perfinst_share_calloc"; line = "__perfinst_line_calloc"; break;
            case BUILT_IN_REALLOC: rec = "__perfinst_share_realloc"; line = "__perfinst_line_realloc"; break;
            case BUILT_IN_ALIGNED_ALLOC: rec = "__perfinst_share_aligned_alloc"; break;
            case BUILT_IN_POSIX_MEMALIGN: rec = "__perfinst_share_posix_memalign"; break;
            case BUILT_IN_FREE: rec = "__perfinst_share_free"; break;
            default: continue;
            }
        const struct pifb_rec *r = (line || cxx_new) && pi_feedback_path() ? align_alloc_here(fun, g) : NULL;
        if (line || cxx_new) {
            expanded_location x = expand_location(gimple_location(g));
            char at[300];
            snprintf(at, sizeof at, "%s:%d", x.file ? lbasename(x.file) : "?", x.line);
            for (unsigned i = 0; i < alloc_sites.length(); i++) {
                char *c = alloc_sites[i].calls;
                size_t len = strlen(c);
                if (alloc_sites[i].fn_seen && !strstr(c, at))
                    snprintf(c + len, sizeof alloc_sites[i].calls - len, "%s%s", len ? ", " : "", at);
            }
        }
        char why[600];
        if (r && !pi_sharing_group_ready(r, true, why, sizeof why)) {
            alloc_site *a = alloc_site_of(r);
            if (a)
                a->matched = true;
            pi_sharing_not_applied(r, gimple_location(g), why);
            r = NULL;
        }
        if (r) {
            alloc_site *a = alloc_site_of(r);
            if (a)
                a->matched = true;
            if (cxx_new) {
                bool was = gimple_call_num_args(g) >= 2;
                if (align_new(g)) {
                    pi_sharing_applied(r);
                    n += !was;
                    if (pi_opt.verbose)
                        inform(gimple_location(g), "perfinst: %s: this allocation gets cache lines of its own (%s)",
                               pi_feedback_path(), was ? "already the aligned operator new" : "operator new(size, 64)");
                } else
                    pi_sharing_not_applied(r, gimple_location(g), "this operator new has no aligned form");
                g = gsi_stmt(gsi);
            } else {
                built_in_function code = DECL_FUNCTION_CODE(fn);
                /* (a calloc that ends its block -- it could throw -- leaves
                 * no place for the memset after it: the line allocator) */
                bool inline_calloc = code == BUILT_IN_CALLOC && !stmt_ends_bb_p(g);
                if (pi_opt.verbose)
                    inform(gimple_location(g), "perfinst: %s: this allocation gets cache lines of its own (%s)",
                           pi_feedback_path(),
                           code == BUILT_IN_MALLOC ? "aligned_alloc(64, whole lines)"
                           : inline_calloc         ? "aligned_alloc(64, whole lines) and memset"
                                                   : line);
                if (code == BUILT_IN_MALLOC)
                    line_malloc(g, record);
                else if (inline_calloc) {
                    tree total;
                    zeroes.safe_push(line_calloc(g, record, &total));
                    totals.safe_push(total);
                } else {
                    gimple_call_set_fndecl(g, runtime_fn(line, fn));
                    update_stmt(g);
                }
                pi_sharing_applied(r);
                n++;
                continue;
            }
        }
        if (!record)
            continue;
        if (cxx_new || cxx_delete) {
            (cxx_new ? news : deletes).safe_push(g);
            continue;
        }
        gimple_call_set_fndecl(g, runtime_fn(rec, fn));
        update_stmt(g);
        if (DECL_FUNCTION_CODE(fn) != BUILT_IN_FREE)
            no_tail_call(g);
        n++;
    }
    for (unsigned i = 0; i < zeroes.length(); i++)
        calloc_zero(zeroes[i], totals[i]);
    for (gimple *g : news)
        note_call(g, true);
    for (gimple *g : deletes)
        note_call(g, false);
    return n + news.length() + deletes.length();
}

/* The end of the unit: align-alloc recommendations whose function was
 * compiled here but whose call was not found. */
void pi_sharing_alloc_finish(void)
{
    for (unsigned i = 0; i < alloc_sites.length(); i++) {
        const alloc_site &a = alloc_sites[i];
        if (!a.fn_seen || a.matched)
            continue;
        char why[600];
        snprintf(why, sizeof why, "no allocation call at %s:%s in %s (%s%s%s)",
                 pifb_get(a.rec, "file") ? pifb_get(a.rec, "file") : "?",
                 pifb_get(a.rec, "line") ? pifb_get(a.rec, "line") : "?", pifb_get(a.rec, "func"),
                 a.calls[0] ? "its allocation calls: " : "it has none the plugin can align", a.calls,
                 "");
        pi_sharing_not_applied(a.rec, UNKNOWN_LOCATION, why);
    }
}

/* ---- the pass ---------------------------------------------------------------------- */

bool pi_sharing_seen; /* a sharing directive was accepted in this unit (frontend) */

/* The plugin's own functions are not instrumented; C++'s static
 * initialisation of the program's globals (_GLOBAL__sub_I_NAME, the
 * objects' constructors inlined into it) is: the objects it allocates are
 * the program's. */
static bool own_function(tree decl)
{
    const char *n = DECL_NAME(decl) ? IDENTIFIER_POINTER(DECL_NAME(decl)) : "";
    return pi_is_own_decl(decl) && strncmp(n, "_GLOBAL__sub_", 13) != 0;
}

static unsigned sharing_execute(function *fun)
{
    if (own_function(fun->decl) || lookup_attribute("no_instrument_function", DECL_ATTRIBUTES(fun->decl)) ||
        pi_ifunc_resolver(fun->decl))
        return 0;
    fn_marked = pi_directive_bits(DECL_ATTRIBUTES(fun->decl)) & PI_D_SHARING;
    pta_valid = opt_for_fn(fun->decl, optimize) && opt_for_fn(fun->decl, flag_tree_pta) && fun->gimple_df &&
                !pi_opt.sharing_all_locals;
    bool on = pi_opt.sharing == 2 || fn_marked || pi_sharing_seen;
    unsigned changed = 0;
    if (on) {
        auto_vec<share_access> acc;
        auto_vec<loop_group> loops;
        auto_vec<tree> lskips, cmasks;
        auto_vec<chunk_group> chunks;
        bool loops_on = !pi_opt.sharing_no_coalesce && opt_for_fn(fun->decl, optimize) && gimple_in_ssa_p(fun);
        if (loops_on)
            loop_optimizer_init(LOOPS_NORMAL | LOOPS_HAVE_RECORDED_EXITS);
        renumber_gimple_stmt_uids(fun);
        find_accesses(fun, acc);
        if (loops_on) {
            calculate_dominance_info(CDI_DOMINATORS);
            scev_initialize();
            find_loop_groups(fun, acc, loops);
            scev_finalize();
            free_dominance_info(CDI_DOMINATORS);
            bool versioned = false;
            for (unsigned g = 0; g < loops.length(); g++) {
                if (!loops[g].members) {
                    lskips.safe_push(NULL_TREE);
                    continue;
                }
                if (pi_opt.verbose && loops[g].iters)
                    inform(loops[g].loc, "perfinst: sharing: one check before a loop of %wu iterations for its %u accesses",
                           loops[g].iters, loops[g].members);
                else if (pi_opt.verbose)
                    inform(loops[g].loc, "perfinst: sharing: one check before a loop of up to %d iterations "
                           "(counted before it) for its %u accesses", SH_LOOP_MAX, loops[g].members);
                lskips.safe_push(insert_loop_check(loops[g], g, acc));
            }
            /* a loop whose every access is in its group: a copy without checks */
            calculate_dominance_info(CDI_DOMINATORS);
            for (unsigned g = 0; g < loops.length(); g++)
                if (loops[g].members && loops[g].whole && version_loop(loops[g], lskips[g])) {
                    if (pi_opt.verbose)
                        inform(loops[g].loc, "perfinst: sharing: the loop without checks when that check passes");
                    lskips[g] = NULL_TREE;
                    versioned = true;
                    /* the copy with checks runs when the loop's check failed:
                     * its accesses are checked as if there were no group (a
                     * block's accesses through one base, one check) */
                    for (unsigned i = 0; i < acc.length(); i++)
                        if (acc[i].lgroup == g + 1)
                            acc[i].lgroup = 0;
                }
            free_dominance_info(CDI_DOMINATORS);
            if (versioned) {
                mark_virtual_operands_for_renaming(fun);
                update_ssa(TODO_update_ssa);
            }
            /* long loops: a check once in a chunk of iterations */
            calculate_dominance_info(CDI_DOMINATORS);
            scev_initialize();
            find_chunk_groups(fun, acc, chunks);
            scev_finalize();
            free_dominance_info(CDI_DOMINATORS);
            for (unsigned g = 0; g < chunks.length(); g++) {
                if (!chunks[g].members) {
                    cmasks.safe_push(NULL_TREE);
                    continue;
                }
                if (pi_opt.verbose)
                    inform(chunks[g].loc, "perfinst: sharing: one check every %wu iterations of a loop for its %u accesses",
                           chunks[g].iters, chunks[g].members);
                cmasks.safe_push(insert_chunk_check(chunks[g], g, acc));
            }
            if (cmasks.length()) { /* (the bodies copied without checks) */
                mark_virtual_operands_for_renaming(fun);
                update_ssa(TODO_update_ssa);
            }
            /* streaming accesses: their footprint a line at a time */
            if (!pi_opt.sharing_fp_call) {
                calculate_dominance_info(CDI_DOMINATORS);
                scev_initialize();
                find_runs(fun, acc);
                scev_finalize();
                free_dominance_info(CDI_DOMINATORS);
            }
            loop_optimizer_finalize();
            renumber_gimple_stmt_uids(fun);
        }
        if (!pi_opt.sharing_no_coalesce) {
            calculate_dominance_info(CDI_DOMINATORS);
            coalesce_groups(acc);
            free_dominance_info(CDI_DOMINATORS);
        }
        calculate_dominance_info(CDI_DOMINATORS);
        known_after(fun, acc);
        free_dominance_info(CDI_DOMINATORS);
        auto_vec<tree> skips;
        skips.safe_grow_cleared(acc.length());
        for (unsigned i = 0; i < acc.length(); i++) {
            if (acc[i].lgroup) {
                instrument(acc[i], lskips[acc[i].lgroup - 1]);
                continue;
            }
            if (acc[i].cgroup) { /* skip = mask & 1 << bit */
                gimple_seq q = NULL;
                location_t loc = gimple_location(acc[i].stmt);
                tree m = gimple_build(&q, loc, BIT_AND_EXPR, unsigned_type_node, cmasks[acc[i].cgroup - 1],
                                      build_int_cst(unsigned_type_node, 1u << acc[i].cbit));
                tree sk = gimple_build(&q, loc, NE_EXPR, boolean_type_node, m, build_int_cst(unsigned_type_node, 0));
                gimple_stmt_iterator gi = gsi_for_stmt(acc[i].stmt);
                gsi_insert_seq_before(&gi, q, GSI_SAME_STMT);
                instrument(acc[i], sk);
                continue;
            }
            int h = acc[i].head;
            if (h == (int)i) {
                if (pi_opt.verbose)
                    inform(gimple_location(acc[i].stmt),
                           "perfinst: sharing: one check for %u accesses through %qs (bytes %wd to %wd)",
                           acc[i].members, key_name(acc[i].key), acc[i].lo, acc[i].hi - 1);
                bool reads = true;
                unsigned need = 0; /* (the known lines' bits its members need) */
                for (unsigned j = i; j < acc.length(); j++)
                    if (acc[j].head == (int)i) {
                        if (acc[j].store)
                            reads = false, need |= SH_KNOWN_WRITE;
                        else
                            need |= SH_KNOWN_READ;
                    }
                skips[i] = insert_group_check(acc[i], reads, need);
            }
            instrument(acc[i], h >= 0 ? skips[h] : NULL_TREE);
        }
        changed += acc.length();
        if (acc.length())
            ensure_started();
    }
    changed += redirect_allocs(fun, pi_opt.sharing == 2 || fn_marked);
    if (!changed)
        return 0;
    free_dominance_info(CDI_DOMINATORS);
    free_dominance_info(CDI_POST_DOMINATORS);
    if (gimple_in_ssa_p(fun)) {
        mark_virtual_operands_for_renaming(fun);
        return TODO_update_ssa_only_virtuals;
    }
    return 0;
}

static bool sharing_gate(function *fun)
{
    return !seen_error() && (pi_opt.sharing == 2 || pi_sharing_seen || pi_feedback_path());
}
PI_GIMPLE_PASS(sharing, PROP_cfg)
