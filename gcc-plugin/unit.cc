/* unit.cc — the translation unit's perfinst tables and what is generated
 * from them once every function has been instrumented.
 *
 * While the lowering pass instruments functions (pass-count.cc) it adds
 * functions, sites, successor lists, counters, arcs (arcs.cc) and source
 * lines (lines.cc) here.  At the start of IPA (pi_unit_finish) this file
 *   - gives the per-thread counter array its size:
 *         static __thread uint64_t __perfinst_ctr[NCOUNTERS];
 *   - generates the getter, the mode word and the constructor/destructor
 *     that register the unit with libperfinst (ABI in include/perfinst.h):
 *         static uint64_t *__perfinst_tls(void) { return __perfinst_ctr; }
 *         static int __perfinst_mode = 1;
 *         static unsigned __perfinst_nctr = NCOUNTERS;
 *         ctor: __perfinst_register_unit2(PI_ABI_VERSION, UNIT_ID, __perfinst_nctr,
 *                                         __perfinst_tls, &__perfinst_mode,
 *                                         __perfinst_fnon, __perfinst_nfn,
 *                                         .Lpi_jinfo_lo, .Lpi_jinfo_hi);
 *         dtor: __perfinst_unregister_unit(UNIT_ID, __perfinst_tls);
 *   - writes the UNIT chunk (include/perfinst-format.h) as top-level
 *     assembly into the non-allocated section .perfinst, so that -flto
 *     carries it unchanged to the final object.
 * A unit with no instrumented site gets none of this, unless it was prepared
 * while parsing (a directive on a function, a statement directive, or watched
 * data seen): then it registers with what it has, possibly no counters.
 */
#include "plugin.h"
#include "file-prefix-map.h"
#include <string>

static uint64_t unit_id;
static bool unit_id_done;
static tree ctr_var;       /* __perfinst_ctr */
static tree tls_getter;    /* __perfinst_tls */
static tree mode_var;      /* __perfinst_mode */
static tree nctr_var;      /* __perfinst_nctr */
static tree fnon_var;      /* __perfinst_fnon: per function, 1 = the counting copy runs */
static tree nfn_var;       /* __perfinst_nfn: its length */
static tree icall_var;     /* __perfinst_ctr_icall: per indirect call, the last target and its hits */
static bool icall_in_asm;  /* a cache made one asm (pi_icall_asm_template): icall_var only named in asms */
static enum tls_model icall_tls; /* icall_var's TLS model, which GCC keeps in its varpool node */
static tree ctr_off_var;   /* __perfinst_ctr_off: -fPIC, the counters' offset from %fs:0 if static (pass-tls.cc) */
static tree ctr_slot_var;  /* __perfinst_ctr_slot: -fPIC, else the runtime's slot of the module's TLS block's offset */
static unsigned nicalls;
static hash_map<tree, unsigned> *func_index; /* FUNCTION_DECL -> index in funcs */

static vec<pi_func> funcs;
static vec<pi_site> sites;
static vec<uint32_t> succs;
static vec<pi_arc> arcs;
static vec<pi_line> lines;
static unsigned ncounters;
static std::string strtab(1, '\0');
static hash_map<nofree_string_hash, unsigned> *strmap;

/* An option of cc1's command line that changes nothing of the generated
 * code, or names a file only to say where something is written or found
 * (output and dump names, cc1's temporary assembly file, dependency
 * output, diagnostics' looks, the plugin's own location, the garbage
 * collector's pace), is left out of
 * the unit's identity. */
static bool option_names_no_code(const struct cl_decoded_option *o)
{
    switch (o->opt_index) {
    case OPT_SPECIAL_input_file: /* the source: hashed as its key */
    case OPT_o: case OPT_dumpbase: case OPT_dumpbase_ext: case OPT_dumpdir:
    case OPT_quiet: case OPT_v: case OPT_version:
    case OPT_iplugindir_: case OPT_fplugin_:
    case OPT_M: case OPT_MD: case OPT_MF: case OPT_MG: case OPT_MM: case OPT_MMD:
    case OPT_MP: case OPT_MQ: case OPT_MT:
    case OPT_fpreprocessed: case OPT_fworking_directory:
    case OPT_ffile_prefix_map_: case OPT_fdebug_prefix_map_: case OPT_fmacro_prefix_map_:
    case OPT_fprofile_prefix_map_: case OPT_fmessage_length_:
    case OPT__param_ggc_min_expand_: case OPT__param_ggc_min_heapsize_: /* when GCC collects its garbage */
        return true;
    case OPT_fplugin_arg_:
        /* -fplugin-arg-perfinst-feedback=FILE, -verbose, -prefix-map=...: a
           path, or nothing the code depends on (a feedback rebuild is
           another program: its units need not share the training build's
           ids, and the same object is wanted in every checkout) */
        return o->arg && pi_plugin_arg_is_local(o->arg);
    default:
        return o->orig_option_with_args_text &&
               strncmp(o->orig_option_with_args_text, "-fdiagnostics-", 14) == 0;
    }
}

/* Options whose argument is a path: hashed as the path's key. */
static bool option_takes_path(size_t opt)
{
    return opt == OPT_I || opt == OPT_iquote || opt == OPT_isystem || opt == OPT_idirafter ||
           opt == OPT_include || opt == OPT_imacros || opt == OPT_isysroot || opt == OPT__sysroot_ ||
           opt == OPT_iprefix || opt == OPT_iwithprefix || opt == OPT_iwithprefixbefore;
}

static uint64_t hash_str(uint64_t h, const char *s)
{
    return pi_hash64(h, s, strlen(s) + 1);
}

/* The hash of the unit's source key (paths.cc), its language and the
 * options cc1 was given, less those that name no code (above), paths
 * hashed as their keys; with PERFINST_ARGS false, less every
 * -fplugin-arg-perfinst-* too. */
static uint64_t options_hash(bool perfinst_args)
{
    uint64_t h = hash_str(PI_HASH64_INIT, pi_unit_source());
    h = hash_str(h, lang_hooks.name);
    for (unsigned i = 1; i < save_decoded_options_count; i++) {
        const struct cl_decoded_option *o = &save_decoded_options[i];
        if (option_names_no_code(o))
            continue;
        if (!perfinst_args && o->opt_index == OPT_fplugin_arg_ && o->arg && pi_plugin_arg_is_ours(o->arg))
            continue;
        if (option_takes_path(o->opt_index) && o->arg) {
            h = hash_str(h, cl_options[o->opt_index].opt_text);
            h = hash_str(h, pi_path_key(o->arg));
            continue;
        }
        for (size_t k = 0; k < o->canonical_option_num_elements; k++)
            h = hash_str(h, o->canonical_option[k]);
    }
    return h ? h : 1;
}

/* The unit's identity: options_hash with perfinst's arguments.  So two
 * identical compiles get one id wherever the tree lies and whatever cc1's
 * temporary files are called (with or without -pipe), and the same file
 * compiled twice with other options or definitions gets two, which
 * perfinst-ld requires of objects linked together (docs/design.md, "Unit
 * identity"). */
uint64_t pi_unit_id(void)
{
    if (unit_id_done)
        return unit_id;
    unit_id = options_hash(true);
    unit_id_done = true;
    return unit_id;
}

/* The unit's variant: options_hash without perfinst's arguments, the same
 * in the training build (all=count) and the rebuild (feedback=) of one
 * compile, and another for the same file compiled with other definitions
 * or options (dav1d's *_tmpl.c, once with -DBITDEPTH=8 and once with 16):
 * the producer string carries it ("variant=HEX"), and `pmopt plan` keys a
 * recommendation with it when its source key is several units' (the
 * rebuild's pi_feedback_for_unit). */
uint64_t pi_unit_variant(void)
{
    static uint64_t v;
    if (!v)
        v = options_hash(false);
    return v;
}

uint32_t pi_unit_str(const char *s)
{
    if (!s || !*s)
        return 0;
    if (!strmap)
        strmap = new hash_map<nofree_string_hash, unsigned>(64);
    if (unsigned *off = strmap->get(s))
        return *off;
    unsigned off = strtab.size();
    strtab.append(s, strlen(s) + 1);
    strmap->put(xstrdup(s), off);
    return off;
}

/* A source file's name in the unit's tables: as GCC writes it into the
 * debug information (-fdebug-prefix-map, -ffile-prefix-map applied), so
 * that pmopt finds it spelled as DWARF spells it, and the object is as
 * reproducible across build directories as GCC's own output. */
uint32_t pi_unit_file(const char *file)
{
    return pi_unit_str(file ? remap_debug_filename(file) : file);
}

int pi_unit_func_index(tree fndecl)
{
    unsigned *i = func_index && fnon_var ? func_index->get(fndecl) : NULL;
    return i ? (int)*i : -1;
}

/* The assembler name of __perfinst_fnon (a jump slot names its byte). */
const char *pi_fnon_asm_name(void)
{
    return fnon_var ? IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fnon_var)) : NULL;
}

/* The byte of fnon that chooses function `func`'s copy (non-LTO only). */
tree pi_fnon_ref(unsigned func)
{
    return build4(ARRAY_REF, unsigned_char_type_node, fnon_var, build_int_cst(sizetype, func), NULL_TREE,
                  NULL_TREE);
}

unsigned pi_unit_add_func(tree fndecl, uint32_t directives)
{
    if (!func_index) {
        func_index = new hash_map<tree, unsigned>(64);
        pi_gc_root_map(&func_index);
    }
    func_index->put(fndecl, funcs.length());
    pi_func f;
    memset(&f, 0, sizeof f);
    expanded_location xl = expand_location(DECL_SOURCE_LOCATION(fndecl));
    f.name = pi_unit_str(IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fndecl)));
    f.file = pi_unit_file(xl.file);
    f.line = xl.line;
    f.first_site = sites.length();
    f.directives = directives;
    funcs.safe_push(f);
    return funcs.length() - 1;
}

void pi_site_init(pi_site *s, unsigned func, unsigned kind, expanded_location xl)
{
    memset(s, 0, sizeof *s);
    s->func = func;
    s->counter = PI_NONE;
    s->file = pi_unit_file(xl.file);
    s->line = xl.line;
    s->column = xl.column > 0xffff ? 0xffff : xl.column;
    s->kind = kind;
}

unsigned pi_unit_add_site(const struct pi_site *site)
{
    pi_site s = *site;
    s.succ_first = succs.length(); /* valid even when it gets no successor */
    s.nsucc = 0;
    sites.safe_push(s);
    funcs.last().nsites++;
    return sites.length() - 1;
}

void pi_unit_add_succ(unsigned site, unsigned succ_site)
{
    if (sites[site].nsucc == 0)
        sites[site].succ_first = succs.length();
    gcc_assert(sites[site].succ_first + sites[site].nsucc == succs.length());
    sites[site].nsucc++;
    succs.safe_push(succ_site);
}

void pi_unit_set_counter(unsigned site, unsigned counter)
{
    sites[site].counter = counter;
}

/* The site's own counter is updated at its block's end (pass-count.cc). */
void pi_unit_set_counter_at_end(unsigned site)
{
    sites[site].arg |= PI_SITE_COUNTER_AT_END;
}

unsigned pi_unit_add_counter(void)
{
    return ncounters++;
}

unsigned pi_unit_add_counters(unsigned n)
{
    unsigned first = ncounters;
    ncounters += n;
    return first;
}

/* The function whose site or arc has COUNTER as its own, or -1. */
int pi_unit_counter_func(unsigned counter)
{
    static vec<int> owner;
    static bool built;
    if (!built) {
        built = true;
        owner.safe_grow(ncounters);
        for (unsigned i = 0; i < ncounters; i++)
            owner[i] = -1;
        for (unsigned f = 0; f < funcs.length(); f++) {
            for (unsigned s = funcs[f].first_site; s < funcs[f].first_site + funcs[f].nsites; s++)
                if (sites[s].counter < ncounters)
                    owner[sites[s].counter] = (int)f;
            for (unsigned a = funcs[f].first_arc; a < funcs[f].first_arc + funcs[f].narcs; a++)
                if (arcs[a].counter < ncounters)
                    owner[arcs[a].counter] = (int)f;
        }
    }
    return counter < owner.length() ? owner[counter] : -1;
}

const char *pi_unit_func_name(unsigned func)
{
    return strtab.c_str() + funcs[func].name;
}

unsigned pi_unit_ncounters(void)
{
    return ncounters;
}

unsigned pi_unit_narcs(void)
{
    return arcs.length();
}

/* Sites from FIRST_SITE on: is every one plain counting (no directive but
 * count, a 64-bit counter)?  Then no reader and no runtime code knows
 * their counters by any number but the metadata's (ctr-order.cc). */
bool pi_unit_sites_plain(unsigned first_site)
{
    for (unsigned s = first_site; s < sites.length(); s++)
        if ((sites[s].directives & ~(uint32_t)PI_D_COUNT) || PI_SITE_COUNTER_BITS(sites[s].arg))
            return false;
    return true;
}

/* Counters C0 .. C0+N-1 become MAP[c - C0] in the sites from FIRST_SITE
 * and the arcs from FIRST_ARC on (the last function's: ctr-order.cc). */
void pi_unit_renumber_counters(unsigned first_site, unsigned first_arc, unsigned c0, unsigned n,
                               const unsigned *map)
{
    for (unsigned s = first_site; s < sites.length(); s++)
        if (sites[s].counter != PI_NONE && sites[s].counter >= c0 && sites[s].counter - c0 < n)
            sites[s].counter = map[sites[s].counter - c0];
    for (unsigned a = first_arc; a < arcs.length(); a++)
        if (arcs[a].counter != PI_NONE && arcs[a].counter >= c0 && arcs[a].counter - c0 < n)
            arcs[a].counter = map[arcs[a].counter - c0];
}

/* An arc of the last function added (its arcs are consecutive). */
void pi_unit_add_arc(const struct pi_arc *a)
{
    if (funcs.last().narcs == 0)
        funcs.last().first_arc = arcs.length();
    gcc_assert(funcs.last().first_arc + funcs.last().narcs == arcs.length());
    funcs.last().narcs++;
    arcs.safe_push(*a);
}

/* A source line of site SITE (a site's lines are consecutive). */
void pi_unit_add_line(unsigned site, uint32_t file, unsigned line)
{
    if (sites[site].nlines == 0)
        sites[site].line_first = lines.length();
    gcc_assert(sites[site].line_first + sites[site].nlines == lines.length());
    sites[site].nlines++;
    pi_line l = { line ? file : 0, line };
    lines.safe_push(l);
}

void pi_unit_set_probe(unsigned site, const struct pi_directive_spec *d)
{
    sites[site].directives |= d->kind;
    if (d->threshold)
        sites[site].threshold = d->threshold;
    if (d->kind == PI_D_CYCLES)
        sites[site].arg |= (d->arg & 7u) << 8; /* beside the types mask: PI_SITE_CYCLES_CODE */
    if (d->name[0])
        sites[site].handler = pi_unit_str(d->name);
}

void pi_unit_func_done(unsigned func, uint64_t cfg_checksum, bool late)
{
    funcs[func].cfg_checksum = cfg_checksum;
    if (late)
        funcs[func].directives |= PI_FUNC_LATE;
    if (pi_split_part(current_function_decl))
        funcs[func].directives |= PI_FUNC_PART;
}

unsigned pi_unit_nsites(void)
{
    return sites.length();
}

/* May a function body of this compile hold instrumentation (counter
 * updates, site markers, probe calls)?  In lto1 any may: the bodies come
 * from other units.  In cc1 only if this unit made sites or counters, or
 * was prepared for registration (pi_unit_prepare) — all of which happens
 * while parsing and lowering, before IPA.  The passes that would
 * otherwise visit every function whatever the directives (the counting
 * copies, the split, the code ranges, the uninit guard) ask this first,
 * so that a unit with nothing to instrument is compiled exactly as
 * without the plugin (tests/plugin/t-no-directives.sh). */
bool pi_unit_instrumented(void)
{
    return in_lto_p || !sites.is_empty() || ncounters || ctr_var || icall_var || mode_var;
}

/* DECL's symbol as the assembly names it (no target encoding) */
const char *pi_asm_name(tree decl)
{
    return targetm.strip_name_encoding(IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(decl)));
}

bool pi_is_own_decl(tree decl)
{
    if (!decl || !DECL_NAME(decl))
        return false;
    const char *n = IDENTIFIER_POINTER(DECL_NAME(decl));
    return strncmp(n, "__perfinst_", 11) == 0 || (DECL_ARTIFICIAL(decl) && strncmp(n, "_GLOBAL__", 9) == 0);
}

/* A body GCC made from the program's code, artificial but the program's:
 * an OpenMP region's (main._omp_fn.0, run by the threads of its team), a
 * version of a function with target_clones (f.avx2, f.default: not the
 * resolver that picks one), a C++ coroutine's (F's frame .actor, which
 * runs the coroutine's body from each resume point, and .destroy).  A
 * coroutine's only with count-at=late: its resume points become edges of
 * its flow graph in the early passes (the IFN_CO_* calls expanded), so
 * counters on the arcs of the graph before that would not add up. */
static bool outlined_body(tree fndecl)
{
    cgraph_node *node = cgraph_node::get(fndecl);
    if ((node && node->parallelized_function) || DECL_FUNCTION_VERSIONED(fndecl))
        return true;
    if (!pi_opt.count_late)
        return false;
    const char *n = DECL_ASSEMBLER_NAME_SET_P(fndecl) ? IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fndecl)) : "";
    size_t len = strlen(n);
    return (len > 6 && strcmp(n + len - 6, ".actor") == 0) || (len > 8 && strcmp(n + len - 8, ".destroy") == 0);
}

/* An ifunc resolver (the target of an alias with attribute ifunc), or a
 * function of the unit that only resolvers call.  It runs while the
 * program is relocated: in a static link before the thread pointer is
 * set (a counter there faults), in a dynamic one before the thread's
 * counters are initialised (its counts would be overwritten). */
static bool is_resolver(cgraph_node *node)
{
    ipa_ref *ref;
    FOR_EACH_ALIAS(node, ref) {
        symtab_node *alias = ref->referring;
        if (alias->ifunc_resolver || lookup_attribute("ifunc", DECL_ATTRIBUTES(alias->decl)))
            return true;
    }
    return false;
}

bool pi_ifunc_resolver(tree fndecl)
{
    cgraph_node *node = cgraph_node::get(fndecl);
    if (!node)
        return false;
    node = node->ultimate_alias_target();
    if (is_resolver(node))
        return true;
    if (!node->callers || node->address_taken || TREE_PUBLIC(fndecl))
        return false;
    for (cgraph_edge *e = node->callers; e; e = e->next_caller)
        if (!is_resolver(e->caller->inlined_to ? e->caller->inlined_to : e->caller))
            return false;
    return true;
}

/* The gate of every instrumenting pass: never the plugin's own code,
 * functions the compiler made up (implicit C++ members, static
 * initialisers), no_instrument_function ones or ifunc resolvers; a C++
 * lambda and the bodies GCC makes from the program's code (OpenMP
 * regions, target clones, coroutines) are the user's although GCC marks
 * them artificial. */
bool pi_skip_function(tree fndecl)
{
    return pi_is_own_decl(fndecl) ||
           (DECL_ARTIFICIAL(fndecl) && !pi_is_lambda_function(fndecl) && !outlined_body(fndecl)) ||
           lookup_attribute("no_instrument_function", DECL_ATTRIBUTES(fndecl)) || pi_ifunc_resolver(fndecl);
}

/* A part GCC's early ipa-split cut off a function (F.part.N: artificial,
 * its origin F), counted as F is (count-at=late meets it; at cfg it does
 * not exist yet). */
bool pi_split_part(tree fndecl)
{
    cgraph_node *node = cgraph_node::get(fndecl);
    return node && node->split_part && DECL_ABSTRACT_ORIGIN(fndecl);
}

/* The translation unit's context: file-scope decls we make must have it,
 * or the LTO streamer's free_lang_data falls over them. */
static tree unit_context(void)
{
    return all_translation_units && !all_translation_units->is_empty() ? (*all_translation_units)[0]
                                                                        : NULL_TREE;
}

/* *VAR, a static of the unit the plugin keeps (a root of the collector) */
static void static_var(tree *var, const char *name, tree type, tree init)
{
    tree v = build_decl(BUILTINS_LOCATION, VAR_DECL, get_identifier(name), type);
    DECL_CONTEXT(v) = unit_context();
    TREE_STATIC(v) = 1;
    TREE_PUBLIC(v) = 0;
    DECL_ARTIFICIAL(v) = 1;
    DECL_IGNORED_P(v) = 1;
    TREE_USED(v) = 1;
    TREE_ADDRESSABLE(v) = 1;
    DECL_INITIAL(v) = init;
    *var = v;
    pi_gc_root(var);
}

/* A pointer-sized static, 0, that the unit's constructor sets and only
 * code pass-tls.cc adds after IPA reads: kept, and its store too (IPA
 * would drop a store to a variable nothing reads). */
static void kept_offset_var(tree *var, const char *name)
{
    static_var(var, name, pointer_sized_int_node, build_zero_cst(pointer_sized_int_node));
    DECL_PRESERVE_P(*var) = 1;
    varpool_node::finalize_decl(*var);
    varpool_node::get(*var)->force_output = 1;
}

/* The counter array is created incomplete on first use and given its
 * size in pi_unit_finish, when the number of counters is known. */
tree pi_counter_ref(unsigned counter)
{
    if (!ctr_var) {
        static_var(&ctr_var, "__perfinst_ctr", build_array_type(uint64_type_node, NULL_TREE), NULL_TREE);
        DECL_NONALIASED(ctr_var) = 1;
        set_decl_tls_model(ctr_var, decl_default_tls_model(ctr_var));
    }
    return build4(ARRAY_REF, uint64_type_node, ctr_var, build_int_cst(sizetype, counter),
                  NULL_TREE, NULL_TREE);
}

/* __perfinst_ctr, or NULL_TREE before the first counter. */
tree pi_counter_decl(void)
{
    return ctr_var;
}

/* __perfinst_ctr_off, or NULL_TREE: a unit compiled for a shared object
 * (-fPIC: the counters' TLS model is a dynamic one) that registers with the
 * runtime, whose constructor sets it (pi_unit_prepare) and whose counting
 * code adds to %fs:__perfinst_ctr_off+8*K while it is not 0 (pass-tls.cc). */
tree pi_counter_offset_decl(void)
{
    return ctr_off_var;
}

/* The inline cache of indirect call K (pass-count.cc, add_icall_cache):
 * two ways of two words, a target this thread called there and the calls
 * to it since the runtime last saw them (words 0 and 1: the newer target;
 * 2 and 3: the one before it).  A thread-local array like the
 * counters (so the hit path is two plain instructions and exact under
 * threads), sized in pi_unit_finish; the runtime learns each slot's
 * address from its first miss (runtime/icall.c).  Named like the counters
 * so that the split and the summaries treat its updates as theirs. */
unsigned pi_unit_add_icall(void)
{
    if (!icall_var) {
        static_var(&icall_var, "__perfinst_ctr_icall", build_array_type(uint64_type_node, NULL_TREE), NULL_TREE);
        DECL_NONALIASED(icall_var) = 1;
        icall_tls = decl_default_tls_model(icall_var);
        set_decl_tls_model(icall_var, icall_tls);
    }
    return nicalls++;
}

/* __perfinst_ctr_icall, or NULL_TREE before the first indirect call site. */
tree pi_icall_decl(void)
{
    return icall_var;
}

tree pi_icall_slot_ref(unsigned k, unsigned word)
{
    return build4(ARRAY_REF, uint64_type_node, icall_var, build_int_cst(sizetype, 4 * k + word), NULL_TREE,
                  NULL_TREE);
}

/* The start of every way's template (the AT&T test of the slot, up to its
 * offset), which pi_is_icall_asm recognises. */
static const char *icall_asm_head(void)
{
    static char *head;
    if (!head)
        head = xasprintf("cmpq %%0, %%%%fs:%s@tpoff+", IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(icall_var)));
    return head;
}

/* Indirect call K's whole cache (site SITE) as one asm's template
 * (pass-count.cc add_icall_asm), operand 0 the target: the newer way's
 * test and hit inline, the older way's and the miss out of line (the
 * section's subsection 1), the miss a call of the runtime's stub, which
 * saves and restores every register (runtime/icall.c
 * __perfinst_icall_stub) — so that GCC sees an asm that changes no
 * register but the flags, and the counting copy keeps its registers and
 * tail calls as the clean copy would.  The out-of-line code steps over the
 * red zone (a function whose only call is a tail call is a leaf and may
 * use it), pushes the stub's arguments (the target, the site, the slot's
 * offset from the thread pointer, the unit id, the asm's end for an
 * unwinder), and calls the stub through the GOT (no lazy-binding PLT stub,
 * which may change %r10 and %r11).  AT&T only (add_icall_asm's
 * conditions).  finalcopy.cc drops it from f whole: from its first line
 * (the slot's test) to its last (PI_OOL_ASM_END).
 *
 * FORM: ICALL_LOCAL_EXEC, the slots by their local-exec offset, a
 * constant of an executable's link; ICALL_BASED (-fPIC, pass-tls.cc),
 * operand 1 the counters' offset from the thread pointer, from which the
 * asm's first two lines make the slots' in %r11 (a clobber), their
 * distance in the module's TLS block being a constant of the link
 * (`leaq ICALL@dtpoff(%1), %r11; subq $CTR@dtpoff, %r11`: no register of
 * its own live across the function's calls, where a callee-saved one
 * would cost a push and a pop on every call, in f too), then tests
 * `%fs:D(%r11)`; the first line tagged PI_ICALL_BASED_TAG; ICALL_FLAT
 * (-fPIC where pass-tls computes no offset: setjmp, a nonlocal label),
 * operand 1 the slots' address by GCC's TLS model (`D(%1)`, the offset
 * pushed for the stub made so by subtracting %fs:0). */
enum icall_form { ICALL_LOCAL_EXEC, ICALL_BASED, ICALL_FLAT };

static char *icall_asm_text(unsigned k, unsigned site, enum icall_form form)
{
    const char *n = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(icall_var));
    unsigned long long t0 = 8ull * 4 * k;
    char *w[4];
    for (unsigned i = 0; i < 4; i++)
        w[i] = form == ICALL_LOCAL_EXEC ? xasprintf("%%%%fs:%s@tpoff+%llu", n, t0 + 8 * i)
               : form == ICALL_BASED    ? xasprintf("%%%%fs:%llu(%%%%r11)", t0 + 8 * i)
                                        : xasprintf("%llu(%%1)", t0 + 8 * i);
    char *slot = form == ICALL_LOCAL_EXEC ? xasprintf("pushq $%s@tpoff+%llu", n, t0)
                 : form == ICALL_BASED
                     ? xasprintf("pushq %%%%r11\n\taddq $%llu, (%%%%rsp)", t0)
                     : xasprintf("pushq %%1\n\taddq $%llu, (%%%%rsp)\n\tpushq %%%%rax\n\tmovq %%%%fs:0, %%%%rax\n"
                                 "\tsubq %%%%rax, 8(%%%%rsp)\n\tpopq %%%%rax",
                                 t0);
    uint64_t u = pi_unit_id();
    char *head = form == ICALL_BASED ? xasprintf("leaq %s@dtpoff(%%1), %%%%r11" PI_ICALL_BASED_TAG "\n\tsubq $%s@dtpoff, %%%%r11\n\t",
                                                 n, IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(ctr_var)))
                                     : xstrdup("");
    char *text = xasprintf("%scmpq %%0, %s\n\tjne 1f\n\taddq $1, %s\n"
                           "\t.subsection 1\n"
                           "1:\tcmpq %%0, %s\n\tjne 3f\n\taddq $1, %s\n\tjmp 2f\n"
                           "3:\tleaq -128(%%%%rsp), %%%%rsp\n\tpushq %%0\n\tpushq $%u\n\t%s\n"
                           "\tpushq $%d\n\tmovl $%u, 4(%%%%rsp)\n"
                           "\tpushq %%%%rax\n\tleaq 2f(%%%%rip), %%%%rax\n\txchgq %%%%rax, (%%%%rsp)\n"
                           "\tcall *__perfinst_icall_stub@GOTPCREL(%%%%rip)\n\tjmp 2f\n"
                           "\t.subsection 0\n" PI_OOL_ASM_END,
                           head, w[0], w[1], w[2], w[3], site, slot,
                           (int)(uint32_t)u, (unsigned)(u >> 32));
    for (unsigned i = 0; i < 4; i++)
        free(w[i]);
    free(slot);
    free(head);
    return text;
}

char *pi_icall_asm_template(unsigned k, unsigned site)
{
    icall_in_asm = true;
    return icall_asm_text(k, site, ICALL_LOCAL_EXEC);
}

/* The cache G (pi_is_icall_asm) rebased: operand 1, the counters' offset
 * from the thread pointer (FLAT: the slots' address), added to its
 * inputs. */
void pi_icall_asm_rebase(gimple *g, tree base, bool flat)
{
    gasm *a = as_a<gasm *>(g);
    const char *t = gimple_asm_string(a), *p = t + strlen(icall_asm_head()), *s = strstr(t, "pushq %0\n\tpushq $");
    char *end;
    unsigned long long t0 = strtoull(p, &end, 10);
    gcc_assert(end != p && s && t0 % 32 == 0);
    unsigned site = (unsigned)strtoul(s + strlen("pushq %0\n\tpushq $"), NULL, 10);
    char *text = icall_asm_text(t0 / 32, site, flat ? ICALL_FLAT : ICALL_BASED);
    vec<tree, va_gc> *inputs = NULL;
    vec_safe_push(inputs, pi_asm_operand("r", TREE_VALUE(gimple_asm_input_op(a, 0))));
    vec_safe_push(inputs, pi_asm_operand("r", base));
    vec<tree, va_gc> *clobbers = NULL;
    if (!flat)
        vec_safe_push(clobbers, build_tree_list(NULL_TREE, build_string(4, "r11")));
    gasm *b = gimple_build_asm_vec(ggc_strdup(text), inputs, NULL, clobbers, NULL);
    free(text);
    gimple_asm_set_volatile(b, true);
    gimple_asm_set_inline(b, true);
    gimple_set_location(b, gimple_location(g));
    gimple_stmt_iterator gsi = gsi_for_stmt(g);
    gsi_replace(&gsi, b, false);
}

/* -fPIC (pass-tls.cc): the counters' offset from the thread pointer as
 * one asm of one output, once per call of a counting copy: the offset the
 * unit's constructor stored (__perfinst_ctr_off), and where that is 0 (the
 * module's TLS block not static: a dlopen'ed module; or before the
 * constructor), out of line, the thread's offset of the module's block in
 * the runtime's slot the constructor was given (__perfinst_ctr_slot, the
 * slot's offset from the thread pointer; runtime/thread.c pi_mod_bases)
 * plus the counters' place in the block (@dtpoff); where either is 0, the
 * runtime's stub's (__perfinst_ctr_base_stub, which fills the slot): it
 * steps over the red zone,
 * pushes the unit's getter (__perfinst_tls, the counters' address by GCC's
 * TLS model) and the asm's end, calls the stub through the GOT and pops
 * the offset the stub leaves.  GCC sees no call and no register changed
 * but the output: the counting copy keeps its arguments in their
 * registers, and finalcopy.cc drops the asm from f whole (from its load to
 * its last line, PI_OOL_ASM_END).  AT&T, no retpolines (the stub's call
 * is indirect), LP64 and not -mcmodel=large (its %rip-relative operands). */
bool pi_ctr_base_asm_ok(void)
{
    return ctr_off_var && tls_getter && ix86_asm_dialect == ASM_ATT && ix86_indirect_branch == indirect_branch_keep &&
           TARGET_LP64 && ix86_cmodel != CM_LARGE_PIC;
}

/* its first line up to the register */
static const char *ctr_base_asm_head(void)
{
    static char *head;
    if (!head)
        head = xasprintf("movq %s(%%rip), %%", IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(ctr_off_var)));
    return head;
}

char *pi_ctr_base_asm_template(void)
{
    return xasprintf("movq %s(%%%%rip), %%0\n\ttestq %%0, %%0\n\tjz 1f\n"
                     "\t.subsection 1\n"
                     "1:\tmovq %s(%%%%rip), %%0\n\ttestq %%0, %%0\n\tjz 3f\n"
                     "\tmovq %%%%fs:(%%0), %%0\n\ttestq %%0, %%0\n\tjz 3f\n"
                     "\tleaq %s@dtpoff(%%0), %%0\n\tjmp 2f\n"
                     "3:\tleaq -128(%%%%rsp), %%%%rsp\n"
                     "\tpushq %%%%rax\n\tleaq %s(%%%%rip), %%%%rax\n\txchgq %%%%rax, (%%%%rsp)\n"
                     "\tpushq %%%%rax\n\tleaq 2f(%%%%rip), %%%%rax\n\txchgq %%%%rax, (%%%%rsp)\n"
                     "\tcall *__perfinst_ctr_base_stub@GOTPCREL(%%%%rip)\n"
                     "\tpopq %%0\n\tleaq 128(%%%%rsp), %%%%rsp\n\tjmp 2f\n"
                     "\t.subsection 0\n" PI_OOL_ASM_END,
                     IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(ctr_off_var)),
                     IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(ctr_slot_var)),
                     IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(ctr_var)),
                     IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(tls_getter)));
}

/* T is such an asm's template */
bool pi_ctr_base_asm_template_p(const char *t)
{
    if (!ctr_off_var)
        return false;
    const char *n = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(ctr_off_var));
    size_t k = strlen(n);
    return strncmp(t, "movq ", 5) == 0 && strncmp(t + 5, n, k) == 0 && strncmp(t + 5 + k, "(%%rip), %0\n", 12) == 0;
}

/* L (a line of the assembly, not NUL-terminated, N bytes) is the first of
 * such an asm: `\tmovq __perfinst_ctr_off(%rip), %REG` */
bool pi_ctr_base_asm_line(const char *l, size_t n)
{
    if (!ctr_off_var)
        return false;
    const char *head = ctr_base_asm_head();
    size_t k = strlen(head);
    return n > k + 1 && l[0] == '\t' && memcmp(l + 1, head, k) == 0;
}

/* An indirect call's cache made by pi_icall_asm_template (an asm of one
 * input); none before this unit's first such call. */
bool pi_is_icall_asm(const gimple *g)
{
    if (!icall_var || gimple_code(g) != GIMPLE_ASM)
        return false;
    const gasm *a = as_a<const gasm *>(g);
    const char *head = icall_asm_head();
    return gimple_asm_nlabels(a) == 0 && gimple_asm_ninputs(a) == 1 && gimple_asm_noutputs(a) == 0 &&
           strncmp(gimple_asm_string(a), head, strlen(head)) == 0;
}

/* A static function of no arguments, built the way cgraph_build_static_cdtor
 * builds constructors: returning `value`, or ('I'/'D') a constructor or
 * destructor whose body is `value`. */
static tree build_function(const char *name, tree rettype, tree value, char which = 0)
{
    tree decl = build_decl(BUILTINS_LOCATION, FUNCTION_DECL, get_identifier(name),
                           build_function_type_list(rettype, NULL_TREE));
    tree saved_decl = current_function_decl;
    DECL_CONTEXT(decl) = unit_context();
    current_function_decl = decl;
    tree resdecl = build_decl(BUILTINS_LOCATION, RESULT_DECL, NULL_TREE, rettype);
    DECL_ARTIFICIAL(resdecl) = 1;
    DECL_IGNORED_P(resdecl) = 1;
    DECL_RESULT(decl) = resdecl;
    DECL_CONTEXT(resdecl) = decl;
    allocate_struct_function(decl, false);
    TREE_STATIC(decl) = 1;
    TREE_USED(decl) = 1;
    DECL_ARTIFICIAL(decl) = 1;
    DECL_IGNORED_P(decl) = 1;
    DECL_NO_INSTRUMENT_FUNCTION_ENTRY_EXIT(decl) = 1;
    DECL_UNINLINABLE(decl) = 1;
    DECL_INITIAL(decl) = make_node(BLOCK);
    BLOCK_SUPERCONTEXT(DECL_INITIAL(decl)) = decl;
    TREE_USED(DECL_INITIAL(decl)) = 1;
    if (which) {
        DECL_SAVED_TREE(decl) = value;
        if (which == 'I') {
            DECL_STATIC_CONSTRUCTOR(decl) = 1;
            decl_init_priority_insert(decl, DEFAULT_INIT_PRIORITY);
        } else {
            DECL_STATIC_DESTRUCTOR(decl) = 1;
            /* the unit leaves the runtime after every destructor of its
               module without a priority, GCC's own included: a prioritised
               .fini_array entry comes before those in the array, which
               runs last to first.  So a shared library's static objects,
               whose destructors its crtbeginS entry runs (__cxa_finalize),
               are destroyed while their code still counts; and 102 runs
               before the static runtime's trace writer (core.c, 101) */
            decl_fini_priority_insert(decl, 102);
        }
    } else {
        DECL_SAVED_TREE(decl) = build1(RETURN_EXPR, void_type_node,
                                       build2(MODIFY_EXPR, rettype, resdecl, value));
    }
    /* the gimplifier gives statements input_location, which may be a
       statement's of the function being compiled, with its BLOCK: one
       this function's tree does not have (-fchecking's verify_gimple) */
    location_t saved_loc = input_location;
    input_location = BUILTINS_LOCATION;
    gimplify_function_tree(decl);
    input_location = saved_loc;
    /* still parsing: finalized as a parsed function, but without the
       garbage collection add_new_function would run there, which would
       free the trees pi_unit_prepare holds in its locals for the next */
    gcc_assert(symtab->state == PARSING);
    cgraph_node::finalize_function(decl, true);
    set_cfun(NULL);
    current_function_decl = saved_decl;
    return decl;
}

static tree runtime_fn(const char *name, tree type)
{
    tree decl = build_fn_decl(name, type); /* extern, public */
    DECL_VISIBILITY(decl) = VISIBILITY_DEFAULT;
    return decl;
}

/* Called while the front end is still parsing (the symbol table accepts new
 * functions as if they were parsed), at the end of the first function that
 * will be instrumented.  The number of counters is not known yet: the
 * constructor passes it from __perfinst_nctr, whose value pi_unit_finish
 * fills in. */
void pi_unit_prepare(void)
{
    /* (a precompiled header: made in each unit that includes it) */
    if (mode_var || in_lto_p || seen_error() || pi_writing_pch())
        return;
    tree u32 = unsigned_type_node, u64 = uint64_type_node;
    tree getter_ptr = build_pointer_type(build_function_type_list(ptr_type_node, NULL_TREE));

    pi_counter_ref(0); /* creates __perfinst_ctr */
    tls_getter = build_function("__perfinst_tls", ptr_type_node,
                                fold_convert(ptr_type_node, build_fold_addr_expr(ctr_var)));
    pi_gc_root(&tls_getter);
    static_var(&mode_var, "__perfinst_mode", integer_type_node, integer_one_node);
    varpool_node::finalize_decl(mode_var);
    static_var(&nctr_var, "__perfinst_nctr", u32, build_int_cst(u32, 0));
    varpool_node::finalize_decl(nctr_var);
    static_var(&nfn_var, "__perfinst_nfn", u32, build_int_cst(u32, 0));
    varpool_node::finalize_decl(nfn_var);
    static_var(&fnon_var, "__perfinst_fnon", build_array_type(unsigned_char_type_node, NULL_TREE), NULL_TREE);

    tree unreg = runtime_fn("__perfinst_unregister_unit",
                            build_function_type_list(void_type_node, u64, getter_ptr, NULL_TREE));
    tree id = build_int_cst(u64, pi_unit_id());
    tree getter = fold_convert(getter_ptr, build_fold_addr_expr(tls_getter));
    /* read the counts through volatile accesses: they are filled in after
       parsing */
    tree nctr = build1(INDIRECT_REF, u32, build_fold_addr_expr(nctr_var));
    TREE_THIS_VOLATILE(nctr) = 1;
    TREE_SIDE_EFFECTS(nctr) = 1;
    tree nfn = build1(INDIRECT_REF, u32, build_fold_addr_expr(nfn_var));
    TREE_THIS_VOLATILE(nfn) = 1;
    TREE_SIDE_EFFECTS(nfn) = 1;
    /* the jump slots of the unit's split functions (pass-split.cc): its
       infos, in subsection 1 of __perfinst_jumpinfo, between two local
       labels of the unit's (subsections 0 and 2).  Not the module's
       __start/__stop___perfinst_jumpinfo, which GNU ld 2.40 leaves in a
       shared object's dynamic symbols (hidden, but dpkg-gensymbols and ABI
       checkers take them for new exports).  With -flto no unit emits
       infos (fnon is cc1's: pass-split), and a partition may not hold the
       labels: none passed */
    tree jstart = null_pointer_node, jstop = null_pointer_node;
    if (!flag_lto) {
        tree jt = build_array_type(char_type_node, NULL_TREE);
        static const char range[] = "\t.pushsection " PI_JUMPINFO_SECTION ",\"a\",@progbits\n"
                                    "\t.balign 4\n" PI_JUMPINFO_LO ":\n"
                                    "\t.subsection 2\n" PI_JUMPINFO_HI ":\n\t.popsection\n";
        symtab->finalize_toplevel_asm(build_string(sizeof range - 1, range));
        jstart = build_decl(BUILTINS_LOCATION, VAR_DECL, get_identifier("*" PI_JUMPINFO_LO), jt);
        jstop = build_decl(BUILTINS_LOCATION, VAR_DECL, get_identifier("*" PI_JUMPINFO_HI), jt);
        for (tree j : {jstart, jstop}) {
            DECL_EXTERNAL(j) = 1;
            TREE_PUBLIC(j) = 0;
            DECL_ARTIFICIAL(j) = 1;
            TREE_USED(j) = 1;
        }
        jstart = fold_convert(ptr_type_node, build_fold_addr_expr(jstart));
        jstop = fold_convert(ptr_type_node, build_fold_addr_expr(jstop));
    }
    /* the unit, the per-function switches the split functions test at
       entry and its jump slots, in one call (one lock) */
    tree reg = runtime_fn("__perfinst_register_unit2",
                          build_function_type_list(void_type_node, u32, u64, u32, getter_ptr,
                                                   integer_ptr_type_node, ptr_type_node, u32,
                                                   ptr_type_node, ptr_type_node, NULL_TREE));
    tree ctor = build_call_expr(reg, 9, build_int_cst(u32, PI_ABI_VERSION), id, nctr, getter,
                                build_fold_addr_expr(mode_var),
                                fold_convert(ptr_type_node, build_fold_addr_expr(fnon_var)), nfn, jstart, jstop);
    /* -fPIC: the counters' offset from the thread pointer when they are in
       the static TLS block, the same in every thread (pass-tls.cc) */
    if (DECL_TLS_MODEL(ctr_var) == TLS_MODEL_GLOBAL_DYNAMIC || DECL_TLS_MODEL(ctr_var) == TLS_MODEL_LOCAL_DYNAMIC) {
        kept_offset_var(&ctr_off_var, "__perfinst_ctr_off");
        tree offfn = runtime_fn("__perfinst_tls_static_offset",
                                build_function_type_list(pointer_sized_int_node, const_ptr_type_node, NULL_TREE));
        tree call = build_call_expr(offfn, 1, fold_convert(const_ptr_type_node, build_fold_addr_expr(ctr_var)));
        ctor = build2(COMPOUND_EXPR, void_type_node, ctor,
                      build2(MODIFY_EXPR, pointer_sized_int_node, ctr_off_var,
                             fold_convert(pointer_sized_int_node, call)));
        /* not static (a dlopen'ed module): where the runtime keeps each
           thread's offset of the module's block (pi_ctr_base_asm_template) */
        kept_offset_var(&ctr_slot_var, "__perfinst_ctr_slot");
        tree slotfn = runtime_fn("__perfinst_tls_slot", build_function_type_list(pointer_sized_int_node, u64,
                                                                                 getter_ptr, NULL_TREE));
        tree slot = build2(MODIFY_EXPR, pointer_sized_int_node, ctr_slot_var,
                           fold_convert(pointer_sized_int_node,
                                        build_call_expr(slotfn, 2, unshare_expr(id), unshare_expr(getter))));
        tree none = build2(EQ_EXPR, boolean_type_node, ctr_off_var, build_zero_cst(pointer_sized_int_node));
        ctor = build2(COMPOUND_EXPR, void_type_node, ctor,
                      build3(COND_EXPR, void_type_node, none, slot, build_empty_stmt(BUILTINS_LOCATION)));
    }
    build_function("__perfinst_ctor", void_type_node, ctor, 'I');
    tree dtor = build_call_expr(unreg, 2, id, unshare_expr(getter)); /* (a tree of its own: see build_function) */
    build_function("__perfinst_dtor", void_type_node, dtor, 'D');
}

/* ---- the UNIT chunk --------------------------------------------------- */

static void put(std::string &blob, const void *p, size_t n)
{
    blob.append((const char *)p, n);
}

static std::string unit_chunk(void)
{
    std::string blob;
    struct pi_chunk_hdr h;
    struct pi_unit u;
    memset(&h, 0, sizeof h);
    memset(&u, 0, sizeof u);
    u.unit_id = pi_unit_id();
    u.nfuncs = funcs.length();
    u.nsites = sites.length();
    u.nsuccs = succs.length();
    u.narcs = arcs.length();
    u.nlines = lines.length();
    u.ncounters = ncounters;
    u.source = pi_unit_str(pi_unit_source()); /* the key, paths.cc */
    /* the level as it was given: -Os and -Oz are optimize 2 to GCC, -Og 1,
       -Ofast 3 (BusyBox builds with -Os: "-O2" said otherwise) */
    char level[16];
    if (optimize_fast)
        snprintf(level, sizeof level, "fast");
    else if (optimize_debug)
        snprintf(level, sizeof level, "g");
    else if (optimize_size)
        snprintf(level, sizeof level, "%s", optimize_size == 2 ? "z" : "s");
    else
        snprintf(level, sizeof level, "%d", optimize);
    char producer[256];
    snprintf(producer, sizeof producer, "perfinst %s gcc %s -O%s variant=%016llx", PERFINST_VERSION,
             version_string, level, (unsigned long long)pi_unit_variant());
    u.producer = pi_unit_str(producer);
    u.line_size = 64;
    u.strtab_size = strtab.size();
    size_t size = sizeof h + sizeof u + funcs.length() * sizeof(pi_func) +
                  sites.length() * sizeof(pi_site) + succs.length() * 4 + arcs.length() * sizeof(pi_arc) +
                  lines.length() * sizeof(pi_line) + strtab.size();
    size = (size + 7) & ~(size_t)7;
    h.magic = PI_CHUNK_MAGIC;
    h.version = PI_FORMAT_VERSION;
    h.kind = PI_CHUNK_UNIT;
    h.size = size;
    h.hdr_crc = pi_crc32(0, &h, 12);
    put(blob, &h, sizeof h);
    put(blob, &u, sizeof u);
    if (funcs.length())
        put(blob, funcs.address(), funcs.length() * sizeof(pi_func));
    if (sites.length())
        put(blob, sites.address(), sites.length() * sizeof(pi_site));
    if (succs.length())
        put(blob, succs.address(), succs.length() * 4);
    if (arcs.length())
        put(blob, arcs.address(), arcs.length() * sizeof(pi_arc));
    if (lines.length())
        put(blob, lines.address(), lines.length() * sizeof(pi_line));
    put(blob, strtab.data(), strtab.size());
    blob.resize(size, '\0');
    return blob;
}

/* Bytes as assembly: .quad lines into the non-allocated .perfinst, 32
 * words a line (GNU as takes about a thousand instructions a value and as
 * many again a line: sqlite3.c's 5.6 MB chunk took 1.17 G instructions one
 * word a line, 0.65 G so). */
static std::string as_asm(const std::string &blob)
{
    std::string s = "\t.pushsection " PI_SECTION_META ",\"\",@progbits\n\t.balign 8\n";
    char word[32];
    for (size_t i = 0; i < blob.size(); i += 8) {
        uint64_t v;
        memcpy(&v, blob.data() + i, 8);
        snprintf(word, sizeof word, "%s0x%llx", i % 256 == 0 ? "\t.quad " : ",", (unsigned long long)v);
        s += word;
        if (i % 256 == 248 || i + 8 >= blob.size())
            s += '\n';
    }
    s += "\t.popsection";
    return s;
}

/* A variable whose size is known only now (pi_unit_finish), finalized
 * this late: analyzed by hand, or the symbol table never outputs it; and
 * not "body removed": while it was not yet a definition, the unreachable-
 * node removal marked it so (-fchecking's symtab verifier refuses a
 * definition with that mark). */
static void finalize_late(tree var)
{
    varpool_node::finalize_decl(var);
    varpool_node *vn = varpool_node::get(var);
    if (vn) {
        vn->body_removed = false;
        if (!vn->analyzed)
            vn->analyze();
    }
}

void pi_unit_finish(void)
{
    static bool done;
    /* a unit prepared for registration (pi_unit_prepare) needs its counter
     * array and its UNIT chunk even when nothing ended up instrumented (the
     * function was deleted, or did not touch the watched data after all):
     * its getter refers to the array, its registration to the unit */
    if (done || in_lto_p || seen_error() || (sites.is_empty() && !ctr_var))
        return;
    done = true;
    pi_copyprof_reserve();
    if (ctr_var && nctr_var) {
        TREE_TYPE(ctr_var) = build_array_type_nelts(uint64_type_node, ncounters ? ncounters : 1);
        SET_DECL_ALIGN(ctr_var, 64 * BITS_PER_UNIT);
        DECL_USER_ALIGN(ctr_var) = 1;
        relayout_decl(ctr_var);
        finalize_late(ctr_var);
        DECL_INITIAL(nctr_var) = build_int_cst(unsigned_type_node, ncounters);
        /* every function starts on (its counting copy), until the runtime says */
        unsigned nf = funcs.length() ? funcs.length() : 1;
        tree ftype = build_array_type_nelts(unsigned_char_type_node, nf);
        std::string ones(nf, '\1');
        tree init = build_string(nf, ones.data());
        TREE_TYPE(init) = ftype;
        TREE_TYPE(fnon_var) = ftype;
        DECL_INITIAL(fnon_var) = init;
        relayout_decl(fnon_var);
        finalize_late(fnon_var);
        DECL_INITIAL(nfn_var) = build_int_cst(unsigned_type_node, funcs.length());
    } else {
        /* only data sites of functions parsed before the watch directive
         * (an extern variable marked at its later definition): no registration
         * code was made, so the unit cannot register */
        gcc_assert(ncounters == 0);
    }
    if (icall_var) {
        TREE_TYPE(icall_var) = build_array_type_nelts(uint64_type_node, 4 * nicalls);
        relayout_decl(icall_var);
        /* -fPIC: pass-tls.cc, after IPA, leaves the cache reached only
           from asms (its offset from the counters', a constant of the
           link); clean-copies=final's caches are asms: kept */
        if (ctr_off_var || icall_in_asm)
            DECL_PRESERVE_P(icall_var) = 1;
        finalize_late(icall_var);
        /* named only in asms, before IPA (count-at=cfg), the variable's node
           was deleted as unreachable, and finalize_decl made a new one
           without the TLS model: as a plain read-only variable in .rodata
           the asms' %fs:...@tpoff did not assemble */
        if (DECL_TLS_MODEL(icall_var) == TLS_MODEL_NONE)
            set_decl_tls_model(icall_var, icall_tls);
        if ((ctr_off_var || icall_in_asm) && varpool_node::get(icall_var))
            varpool_node::get(icall_var)->force_output = 1;
    }
    std::string text = as_asm(unit_chunk());
    symtab->finalize_toplevel_asm(build_string(text.size(), text.c_str()));
    if (pi_opt.verbose)
    {
        char msg[160];
        snprintf(msg, sizeof msg, "unit %016llx: %u functions, %u sites, %u arcs, %u counters",
                 (unsigned long long)pi_unit_id(), funcs.length(), sites.length(), arcs.length(),
                 ncounters);
        inform(UNKNOWN_LOCATION, "perfinst: %s", msg);
    }
}
