/* recipe.c — the LINK chunk: what `pmopt relink` needs to replay the link.
 *
 * argv is the driver command line exactly as run, with the temporary
 * output replaced by the real one; cwd the directory it ran in; and for
 * each input that could be resolved (file operands, -l libraries, -T
 * scripts, the runtime) its absolute path, the index of the argument that
 * named it, its size, mtime and pi_hash64, so that relink can tell whether
 * an input changed since.  strtab starts with "" at offset 0.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pild.h"

static uint32_t add_str(struct pild_buf *st, const char *s)
{
    uint32_t off = (uint32_t)st->len;
    pild_buf_add(st, s, strlen(s) + 1);
    return off;
}

int pild_recipe_build(const struct pild_cmd *c, struct pild_buf *out)
{
    char *cwd = getcwd(NULL, 0);
    if (!cwd) {
        pild_err("getcwd: %s", strerror(errno));
        return -1;
    }
    struct pild_buf st = {0};
    struct pi_link l = {.argc = (uint32_t)c->argc};
    add_str(&st, "");
    l.argv = (uint32_t)st.len;
    for (size_t i = 0; i < c->argc; i++)
        add_str(&st, c->argv[i]);
    l.cwd = add_str(&st, cwd);
    l.output = add_str(&st, c->output);

    struct pi_link_input *in = pild_xmalloc((c->ninputs + 1) * sizeof *in);
    for (size_t i = 0; i < c->ninputs; i++) {
        const struct pild_input *src = &c->inputs[i];
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
        pild_err("%s: link recipe too large", c->output);
        free(in), free(st.p);
        return -1;
    }
    l.strtab_size = (uint32_t)st.len;

    size_t start = pild_chunk_begin(out, PI_CHUNK_LINK);
    pild_buf_add(out, &l, sizeof l);
    pild_buf_add(out, in, l.ninputs * sizeof *in);
    pild_buf_add(out, st.p, st.len);
    free(in), free(st.p);
    if (pild_chunk_end(out, start, PI_SECTION_LINK) != 0)
        return -1;
    if (pild_verbose)
        pild_note("%s: " PI_SECTION_LINK ": %u arguments, %u inputs recorded", c->output, l.argc,
                  l.ninputs);
    return 0;
}
