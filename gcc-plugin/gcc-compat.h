/* gcc-compat.h — the one place for GCC's headers and version churn.
 *
 * Every plugin file includes this first.  The plugin is compiled as C++
 * because GCC's headers are, but written in plain C style.
 *
 * Front-end symbols: with -flto GCC also loads the plugin into lto1, which
 * has no C front end.  Everything we use from c-family (pragmas, add_stmt,
 * the preprocessor) is therefore referenced weakly and checked for NULL
 * before use (see pi_have_c_frontend()).
 */
#ifndef PERFINST_GCC_COMPAT_H
#define PERFINST_GCC_COMPAT_H

#include "gcc-plugin.h"
#include "config.h"
#include "system.h"
#include "coretypes.h"
#include "backend.h"
#include "target.h"
#include "tree.h"
#include "c-family/c-common.h" /* before diagnostic-core.h, for format checking */
#include "c-family/c-pragma.h"
#include "cpplib.h"
#include "memmodel.h"
#include "gimple.h"
#include "rtl.h"
#include "tree-pass.h"
#include "cgraph.h"
#include "ssa.h"
#include "stringpool.h"
#include "attribs.h"
#include "diagnostic-core.h"
#include "fold-const.h"
#include "stor-layout.h"
#include "varasm.h"
#include "gimple-iterator.h"
#include "gimplify.h"
#include "gimplify-me.h"
#include "tree-cfg.h"
#include "tree-iterator.h"
#include "cfghooks.h"
#include "emit-rtl.h"
#include "output.h"
#include "insn-config.h"
#include "recog.h"
#include "insn-attr.h"
#include "langhooks.h"
#include "toplev.h"
#include "opts.h"
#include "options.h"
#include "rtl-iter.h"
#include "sbitmap.h"
#include "version.h"
#include "context.h"

#if BUILDING_GCC_VERSION < 12000 || BUILDING_GCC_VERSION >= 13000
#warning "perfinst is developed against GCC 12; other versions are untested"
#endif

/* Weak references to the C front end (absent from lto1). */
extern void c_register_pragma_with_expansion(const char *, const char *, pragma_handler_1arg)
    __attribute__((weak));
extern enum cpp_ttype pragma_lex(tree *, location_t *) __attribute__((weak));
extern tree add_stmt(tree) __attribute__((weak));
extern tree lookup_name(tree) __attribute__((weak));
extern void cpp_define(cpp_reader *, const char *) __attribute__((weak));
extern int cpp_defined(cpp_reader *, const unsigned char *, int) __attribute__((weak));
extern cpp_reader *parse_in __attribute__((weak));
/* the preprocessor (libcpp), for the feedback file as an input (feedback.cc);
   deps_add_dep is libcpp's mkdeps.h, which the plugin headers lack */
extern class mkdeps *cpp_get_deps(cpp_reader *) __attribute__((weak));
extern void deps_add_dep(class mkdeps *, const char *) __attribute__((weak));
extern cpp_buffer *cpp_push_buffer(cpp_reader *, const unsigned char *, size_t, int) __attribute__((weak));
extern cpp_options *cpp_get_options(cpp_reader *) __attribute__((weak));
extern const cpp_token *cpp_peek_token(cpp_reader *, int) __attribute__((weak));
/* The C front end's expression builders (cc1 only; c-typeck.cc): GCC's own
 * type checks, conversions and diagnostics for emit(EXPR) (emit-expr.cc). */
extern tree build_binary_op(location_t, enum tree_code, tree, tree, bool) __attribute__((weak));
extern tree build_indirect_ref(location_t, tree, ref_operator) __attribute__((weak));
extern tree build_component_ref(location_t, tree, tree, location_t) __attribute__((weak));
extern tree build_array_ref(location_t, tree, tree) __attribute__((weak));
extern tree c_fully_fold(tree, bool, bool *, bool) __attribute__((weak));
/* c-common.cc: an optimize attribute's arguments applied to global_options
   (the counting copies' options, pass-countfn.cc) */
extern bool parse_optimize_options(tree, bool) __attribute__((weak));

static inline bool pi_have_c_frontend(void)
{
    return c_register_pragma_with_expansion != NULL && pragma_lex != NULL && add_stmt != NULL;
}

/* c-opts.cc: the precompiled header this compile writes (--output-pch=),
 * or NULL.  Such a compile parses and stops: what its trees hold goes into
 * the header's file and comes back in every unit that includes it, what
 * the plugin keeps in its own memory does not. */
extern const char *pch_file __attribute__((weak));
static inline bool pi_writing_pch(void)
{
    return &pch_file != NULL && pch_file != NULL;
}

#endif
