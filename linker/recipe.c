/* recipe.c — the LINK chunk: what `pmopt relink` needs to replay the link.
 *
 * argv is the command line the link stage received, with the real collect2
 * as argv[0] and its --pi- options kept (relink runs the stage again with
 * it); cwd the directory it ran in; env the variables collect2 and
 * lto-wrapper read, which gcc's driver set; and for each input that could
 * be resolved (file operands, -l libraries, -T scripts, the runtime the
 * stage added) its absolute path, the index of the argument that named it
 * (PI_NONE for the runtime), its size, mtime and pi_hash64, so that relink
 * can tell whether an input changed since.  strtab starts with "" at
 * offset 0.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pild.h"

/* What collect2 (and the lto-wrapper it may run) read from the
 * environment, and where the stage found the runtime. */
static const char *const recorded_env[] = {
    "COLLECT_GCC", "COLLECT_GCC_OPTIONS", "COLLECT_LTO_WRAPPER", "COMPILER_PATH",
    "LIBRARY_PATH", "GCC_EXEC_PREFIX", "PERFINST_LIB_DIR",
};

static uint32_t add_str(struct pild_buf *st, const char *s)
{
    uint32_t off = (uint32_t)st->len;
    pild_buf_add(st, s, strlen(s) + 1);
    return off;
}

int pild_recipe_build(const struct pild_link *k, uint32_t flags, struct pild_buf *out)
{
    char *cwd = getcwd(NULL, 0);
    if (!cwd) {
        pild_err("getcwd: %s", strerror(errno));
        return -1;
    }
    struct pild_buf st = {0};
    struct pi_link l = {.argc = (uint32_t)k->rec.n, .level = PI_LINK_COLLECT2, .flags = flags};
    add_str(&st, "");
    l.argv = (uint32_t)st.len;
    for (size_t i = 0; i < k->rec.n; i++)
        add_str(&st, k->rec.v[i]);
    l.cwd = add_str(&st, cwd);
    l.output = add_str(&st, k->output);
    l.env = (uint32_t)st.len;
    for (size_t i = 0; i < sizeof recorded_env / sizeof recorded_env[0]; i++) {
        const char *v = getenv(recorded_env[i]);
        if (!v)
            continue;
        char *kv = pild_xasprintf("%s=%s", recorded_env[i], v);
        add_str(&st, kv);
        free(kv);
        l.nenv++;
    }
    if (!l.nenv)
        l.env = 0;

    struct pi_link_input *in = pild_xmalloc((k->ninputs + 1) * sizeof *in);
    for (size_t i = 0; i < k->ninputs; i++) {
        const struct pild_input *src = &k->inputs[i];
        if (!src->path)
            continue;
        in[l.ninputs++] = (struct pi_link_input){
            .path = add_str(&st, src->path),
            .argi = src->argi,
            .size = src->size,
            .mtime_ns = src->mtime_ns,
            .hash = src->hash,
        };
    }
    free(cwd);
    if (st.len > UINT32_MAX) {
        pild_err("%s: link recipe too large", k->output);
        free(in), free(st.p);
        return -1;
    }
    l.strtab_size = (uint32_t)st.len;

    size_t start = pild_chunk_begin(out, PI_CHUNK_LINK, PI_LINK_VERSION);
    pild_buf_add(out, &l, sizeof l);
    pild_buf_add(out, in, l.ninputs * sizeof *in);
    pild_buf_add(out, st.p, st.len);
    free(in), free(st.p);
    if (pild_chunk_end(out, start, PI_SECTION_LINK) != 0)
        return -1;
    if (pild_verbose)
        pild_note("%s: " PI_SECTION_LINK ": %u arguments, %u inputs, %u environment variables "
                  "recorded", k->output, l.argc, l.ninputs, l.nenv);
    return 0;
}
