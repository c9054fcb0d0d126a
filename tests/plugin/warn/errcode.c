/* An error code checked by a function of its own, zstd's way (reduced from
   zstd 1.5.4's lib/legacy/zstd_v01.c by cvise): read_header returns an
   error before it sets its out-parameters, and decode checks the code with
   is_error before it uses them.  Without the plugin GCC relates the two
   and gives no warning at -O1; with all=count the counter updates in
   decode's body (both copies in one function at -O1) kept the paths apart
   and it said "'data' may be used uninitialized".  tests/plugin/t-warnings.sh */
#include <stddef.h>

#define ERROR(e) ((size_t) - (e))

static unsigned err_is_error(size_t code) { return code > (size_t)-120; }
unsigned is_error(size_t code) { return err_is_error(code); }

struct stream {
    int unused;
};
struct state {
    const unsigned char *end;
    struct stream s;
};
struct ctx {
    unsigned lltable[1025], offtable[513], mltable[1025];
};
size_t start(struct stream *s, const void *p, size_t n);
size_t block_size(const void *p, size_t n, int *type);

static size_t read_header(size_t *len_out, const unsigned char **data, size_t *len, unsigned *t1, unsigned *t2,
                          unsigned *t3, const void *src, size_t n)
{
    const unsigned char *const istart = src;
    const unsigned char *ip = istart;
    size_t l;
    (void)len_out, (void)t1, (void)t2, (void)t3;
    if (n < 5)
        return ERROR(72);
    else
        l = ip[1];
    *data = ip;
    *len = l;
    return ip - istart;
}

static size_t decode(void *c, void *dst, const void *src, size_t n)
{
    struct ctx *ctx = c;
    const unsigned char *ip = src, *const iend = ip + n;
    unsigned char *const ostart = dst, *op = ostart;
    size_t code, len, nb;
    const unsigned char *data;
    code = read_header(&nb, &data, &len, ctx->lltable, ctx->mltable, ctx->offtable, ip, iend - ip);
    if (is_error(code))
        return code;
    {
        struct state st;
        st.end = data + len;
        code = start(&st.s, ip, iend - ip);
    }
    return op - ostart;
}

static size_t decode_block(void *ctx, void *dst, const void *src, size_t n)
{
    return decode(ctx, dst, src, n);
}

size_t decode_all(void *ctx, void *dst, size_t cap, const void *src, size_t n)
{
    const unsigned char *ip = src, *iend = ip + n;
    unsigned char *const ostart = dst, *op = ostart, *const oend = ostart + cap;
    size_t code = 0;
    int type;
    for (;;) {
        size_t size = block_size(ip, iend - ip, &type);
        if (type == 0)
            code = decode_block(ctx, op, ip, size);
        if (is_error(code) || size == 0)
            return code;
        op += code;
        ip += size;
        if (op > oend)
            return ERROR(70);
    }
}
