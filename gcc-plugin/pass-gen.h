/* pass-gen.h — a pass's boilerplate, generated: its pass_data, its class
 * and the factory plugin_init registers, so that a pass file reads as the
 * pass's logic.
 *
 * A pass file writes two functions and one line:
 *
 *     static bool blocking_gate(function *fun) { return !seen_error(); }
 *     static unsigned int blocking_execute(function *fun) { ...; return TODO_FLAGS; }
 *     PI_GIMPLE_PASS(blocking, PROP_cfg)
 *
 * which defines the pass "perfinst_blocking" (the name -fdump-passes and
 * -fdump-tree-perfinst_blocking use) and
 * `opt_pass *pi_make_blocking_pass(gcc::context *)`, declared in plugin.h
 * and registered in plugin_init (perfinst.cc) in the order the passes run.
 *
 *   PI_GIMPLE_PASS(NAME, REQUIRED)      a GIMPLE pass; REQUIRED: the
 *                                       properties it needs (PROP_cfg, ...)
 *   PI_GIMPLE_PASS_CLONABLE(NAME, REQ)  one registered after every instance
 *                                       of its reference pass (GCC clones it)
 *   PI_RTL_PASS(NAME)
 *   PI_SIMPLE_IPA_PASS(NAME)
 *   PI_IPA_PASS(NAME)                   an IPA_PASS with no summaries of its
 *                                       own: GCC places a new pass only next
 *                                       to one of its own type, so a pass
 *                                       that must run among the regular IPA
 *                                       passes (before "inline", "cp") is one
 *
 * No pass provides or destroys properties or asks for TODO flags up
 * front: an execute function returns the flags it needs.  For an IPA pass
 * `fun` is NULL.
 */
#ifndef PERFINST_PASS_GEN_H
#define PERFINST_PASS_GEN_H

/* The regular IPA pass's summary hooks, all absent. */
#define PI_PASS_NO_SUMMARIES_ , NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL

#define PI_PASS_(NAME, TYPE, BASE, REQUIRED, BASE_ARGS, CLONABLE)                               \
    static const pass_data NAME##_pass_data = {                                                 \
        TYPE, "perfinst_" #NAME, OPTGROUP_NONE, TV_NONE, REQUIRED, 0, 0, 0, 0,                  \
    };                                                                                          \
    namespace {                                                                                 \
    class NAME##_pass : public BASE {                                                           \
    public:                                                                                     \
        NAME##_pass(gcc::context *ctxt) : BASE(NAME##_pass_data, ctxt BASE_ARGS) {}             \
        opt_pass *clone() final override                                                        \
        {                                                                                       \
            return CLONABLE ? new NAME##_pass(m_ctxt) : BASE::clone();                          \
        }                                                                                       \
        bool gate(function *fun) final override { return NAME##_gate(fun); }                    \
        unsigned int execute(function *fun) final override { return NAME##_execute(fun); }     \
    };                                                                                          \
    }                                                                                           \
    opt_pass *pi_make_##NAME##_pass(gcc::context *ctxt)                                         \
    {                                                                                           \
        return new NAME##_pass(ctxt);                                                           \
    }

#define PI_GIMPLE_PASS(NAME, REQUIRED) PI_PASS_(NAME, GIMPLE_PASS, gimple_opt_pass, REQUIRED, , false)
#define PI_GIMPLE_PASS_CLONABLE(NAME, REQUIRED) \
    PI_PASS_(NAME, GIMPLE_PASS, gimple_opt_pass, REQUIRED, , true)
#define PI_RTL_PASS(NAME) PI_PASS_(NAME, RTL_PASS, rtl_opt_pass, 0, , false)
#define PI_SIMPLE_IPA_PASS(NAME) PI_PASS_(NAME, SIMPLE_IPA_PASS, simple_ipa_opt_pass, 0, , false)
#define PI_IPA_PASS(NAME) \
    PI_PASS_(NAME, IPA_PASS, ipa_opt_pass_d, 0, PI_PASS_NO_SUMMARIES_, false)

#endif
