/* feedback.cc — -fplugin-arg-perfinst-feedback=FILE: load a `pmopt plan`
 * feedback file once (common/pifeedback, the format's one reader), keep the
 * recommendations -fplugin-arg-perfinst-feedback-only=LIST selects, and hand
 * them out by kind to the passes that apply them.  docs/formats.md
 * ("Feedback files") has the format; each kind is documented with the
 * feature that writes and applies it. */
#include "plugin.h"
#include "pifeedback.h"
#include <string>

static struct pifb_file fb;
static bool loaded;

bool pi_feedback_load(const char *only)
{
    struct pi_err err;
    if (!pi_opt.feedback) {
        if (only) {
            error("perfinst: %<-fplugin-arg-perfinst-feedback-only%> needs "
                  "%<-fplugin-arg-perfinst-feedback=FILE%>");
            return false;
        }
        return true;
    }
    if (pifb_read(pi_opt.feedback, &fb, &err) < 0 ||
        (only && pifb_select(&fb, only, &err) < 0)) {
        error("perfinst: %s", err.msg);
        pifb_free(&fb);
        return false;
    }
    for (uint32_t r = 0; r < fb.nrecs; r++) {
        const struct pifb_rec *rec = &fb.recs[r];
        /* the kinds of every loop (pifeedback.h): the rebuild's and the
           sharing repair's are applied by this plugin's passes
           (pass-feedback.cc, pass-promote.cc, repair-sharing.cc,
           pass-sharing.cc, repair-arrays.cc), the relink's by `pmopt
           relink` (order-functions by pass-feedback.cc too: .text.sorted),
           the others accepted silently.  Another kind is reported once and
           ignored (a newer plan). */
        if (!pifb_kind(rec->kind))
            warning(OPT_Wmissing_profile, "perfinst: %s:%u: recommendation %u (%qs) is not one this plugin "
                    "applies; ignored", fb.path, rec->line, rec->number, rec->kind);
    }
    loaded = true;
    return true;
}

const struct pifb_rec *pi_feedback_next(const char *kind, unsigned *iter)
{
    if (!loaded)
        return NULL;
    while (*iter < fb.nrecs) {
        const struct pifb_rec *rec = &fb.recs[(*iter)++];
        if (strcmp(rec->kind, kind) == 0)
            return rec;
    }
    return NULL;
}

const char *pi_feedback_path(void)
{
    return loaded ? fb.path : NULL;
}

/* The key under which the plan has this unit's file when it has nothing
 * under the unit's own: the one other key of the same file name (the file
 * compiled from another directory: CMake compiles a shared library's
 * objects in a directory of its own, the static library's in another, and
 * a key is relative to the compile's directory), or NULL (none, or
 * several: two files of one name).  Looked up once. */
const char *pi_feedback_other_key(void)
{
    static bool looked;
    static const char *other;
    if (looked || !loaded)
        return other;
    looked = true;
    const char *own = pi_unit_source(), *found = NULL;
    for (uint32_t i = 0; i < fb.nrecs; i++) {
        const char *src = pifb_get(&fb.recs[i], "src");
        if (!src)
            continue;
        if (strcmp(src, own) == 0 || (main_input_filename && strcmp(src, main_input_filename) == 0))
            return other = NULL;
        if (strcmp(lbasename(src), lbasename(own)) != 0)
            continue;
        if (found && strcmp(found, src) != 0)
            return other = NULL;
        found = src;
    }
    return other = found;
}

/* SRC (a recommendation's src=) is this unit's key (pi_feedback_for_unit
 * less the variant) */
bool pi_feedback_src_is_ours(const char *src)
{
    const char *other;
    return !src || strcmp(src, pi_unit_source()) == 0 ||
           (main_input_filename && strcmp(src, main_input_filename) == 0) ||
           ((other = pi_feedback_other_key()) && strcmp(src, other) == 0);
}

/* Is R (a recommendation with src=) about this unit?  Its key (paths.cc),
 * or the source as given to gcc, which plans written before keys wrote, or
 * the key the plan has the unit's file under from another directory; and
 * when the plan keys it with a variant= too (its file was several units of
 * the training build, compiled with other definitions or options: dav1d's
 * *_tmpl.c once per bit depth, whose static functions share their names),
 * this unit's variant (pi_unit_variant).  A unit whose variant the plan
 * does not have (it never ran, or its options changed since) takes none of
 * the other variants' recommendations: they are another unit's code. */
bool pi_feedback_for_unit(const struct pifb_rec *r)
{
    if (!pi_feedback_src_is_ours(pifb_get(r, "src")))
        return false;
    uint64_t v;
    return pifb_get_u64(r, "variant", &v) || v == pi_unit_variant();
}

/* Where a branch-profile's or promote-call's CFG was taken: 0 right after
 * `cfg` (no at=: every plan before format 3), 1 after the early inliner
 * (at=late), -1 an at= this plugin does not know */
int pi_feedback_point(const struct pifb_rec *r)
{
    const char *at = pifb_get(r, "at");
    if (!at)
        return 0;
    return strcmp(at, "late") == 0 ? 1 : -1;
}

/* ---- the feedback file as an input of the compile -----------------------
 *
 * A feedback file changes the object as a header does, so build tools must
 * see it as one (docs/layout.md, "The feedback file is an input"):
 *
 *   - make: the file is added to the -MD/-MMD dependency list (deps_add_dep);
 *   - ccache in depend mode hashes the files that list names;
 *   - ccache in its default direct mode learns a compile's inputs from the
 *     preprocessor's output (`gcc -E`, with this plugin loaded): each file
 *     named by a line marker is hashed into the cached result's manifest,
 *     and the text of the output is hashed into the result's key.  So,
 *     before the main file's first line (after the command line's -include
 *     and -imacros files), the preprocessor reads
 *
 *         #line 1 "prog.fb"
 *         #pragma perfinst_feedback 0x<pi_hash64 of prog.fb's bytes>
 *         #line 1 "x.c"
 *
 *     which `gcc -E` writes out as a line marker naming prog.fb (a changed
 *     file misses the manifest) and a line that changes with its content (a
 *     changed file gets another result key, also when ccache runs without
 *     direct mode).  The compile proper reads the same lines: the pragma
 *     does nothing, the second #line puts the main file back at line 1.
 *
 * Not with preprocessed input (-fpreprocessed, a .i file): it already holds
 * the lines, written by the `gcc -E` that made it. */

/* The pragma's handler: the hash was for build tools; nothing to do. */
static void handle_feedback_pragma(cpp_reader *)
{
    tree val;
    location_t loc;
    while (pragma_lex(&val, &loc) != CPP_EOF)
        ;
}

/* PATH as a C string literal's contents */
static std::string c_string(const char *path)
{
    std::string r;
    for (const char *p = path; *p; p++) {
        if (*p == '"' || *p == '\\')
            r += '\\';
        r += *p;
    }
    return r;
}

static bool file_hash(const char *path, uint64_t *h)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    char buf[65536];
    size_t n;
    *h = PI_HASH64_INIT;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        *h = pi_hash64(*h, buf, n);
    bool ok = !ferror(f);
    fclose(f);
    return ok;
}

/* The lines, made at PLUGIN_PRAGMAS, are read once the main file starts
 * for real: after the command line's -include and -imacros files (and
 * stdc-predef.h), when the front end puts the main file back (a rename to
 * its name, PLUGIN_INCLUDE_FILE).  Read any earlier, a -include would be
 * pushed on top of them, and libcpp looks for it beside the file of the
 * buffer on top, which these lines do not have (a segmentation fault in
 * _cpp_find_file). */
static char *pending;        /* the lines, until read */
static size_t pending_len;
static const char *main_name; /* the main file as entered first */

void pi_feedback_main_file(void *gcc_data, void *)
{
    const char *name = (const char *)gcc_data;
    if (!name)
        return;
    if (!main_name) { /* (the plugin is loaded before the main file is entered) */
        main_name = xstrdup(name);
        return;
    }
    if (!pending || strcmp(name, main_name) != 0)
        return;
    char *buf = pending;
    pending = NULL; /* (the lines' own #line renames to the main file too) */
    cpp_push_buffer(parse_in, (const unsigned char *)buf, pending_len, 0);
}

/* PLUGIN_PRAGMAS (the main file is open, nothing read from it yet; also in
 * `gcc -E`). */
void pi_feedback_as_input(void *, void *)
{
    if (c_register_pragma_with_expansion)
        c_register_pragma_with_expansion(NULL, "perfinst_feedback", handle_feedback_pragma);
    if (!loaded || !parse_in || !cpp_get_deps || !cpp_push_buffer || !cpp_get_options)
        return;
    if (class mkdeps *deps = cpp_get_deps(parse_in))
        if (deps_add_dep)
            deps_add_dep(deps, fb.path);
    uint64_t h;
    if (cpp_get_options(parse_in)->preprocessed || !main_input_filename)
        return;
    if (!file_hash(fb.path, &h)) {
        error("perfinst: feedback file %qs: %m", fb.path);
        return;
    }
    char hex[32];
    snprintf(hex, sizeof hex, "0x%016llx", (unsigned long long)h);
    std::string text = "#line 1 \"" + c_string(fb.path) + "\"\n#pragma perfinst_feedback " + hex +
                       "\n#line 1 \"" + c_string(main_input_filename) + "\"\n";
    /* libcpp keeps reading the buffer until the main file is done: never
       freed; its line scanner reads 16 bytes at a time, past the end of the
       last line (files.cc pads what it reads so): 16 bytes of padding */
    pending = XCNEWVEC(char, text.size() + 16);
    memcpy(pending, text.data(), text.size());
    pending_len = text.size();
}
