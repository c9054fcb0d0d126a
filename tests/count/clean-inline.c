/* What the clean copies keep of gcc -O2's inlining under all=count
 * (tests/count/t-clean-inline.sh).
 *
 * find() is a hash-chain lookup (Lua's luaH_getshortstr): a loop of a few
 * blocks, each with its counter.  gcc -O2 inlines it into get_str and
 * get_any; the counted function's summary must say the size -O2's does,
 * with the overhead GCC charges a call that stays a call ("executed if not
 * inlined") left whole, or the clean copies call it (pass-inlsize.cc).
 *
 * Keys 0-7 are in their buckets, 8-15 one step down a chain, 16-19 absent
 * (two steps); get_str looks up keys 0-19 ten times, get_any five: 300
 * lookups. */
#include <stdio.h>

struct node {
    long key;
    long val;
    int tt;
    int next;
};

struct table {
    unsigned char lsize;
    struct node *node;
};

long find(struct table *t, long key)
{
    struct node *n = &t->node[key & ((1 << t->lsize) - 1)]; // expect-count: 300
    for (;;) {
        if (n->tt == 4 && n->key == key) // expect-count: 480
            return n->val; // expect-count: 240
        if (n->next == 0) // expect-count: 240
            return -1; // expect-count: 60
        n += n->next; // expect-count: 180
    }
}

__attribute__((noinline)) long get_str(struct table *t, long key)
{
    long v = find(t, key); // expect-count: 200
    return v < 0 ? 0 : v;
}

__attribute__((noinline)) long get_any(struct table *t, long key, int kind)
{
    if (kind == 0) // expect-count: 200
        return find(t, key); // expect-count: 100
    return key; // expect-count: 100
}

int main(void)
{
    static struct node nodes[16];
    struct table t = {3, nodes};
    for (int i = 0; i < 8; i++) {
        nodes[i] = (struct node){i, 100 + i, 4, 8};
        nodes[i + 8] = (struct node){i + 8, 108 + i, 4, 0};
    }
    long s = 0;
    for (int r = 0; r < 10; r++)
        for (long k = 0; k < 20; k++)
            s += get_str(&t, k) + get_any(&t, k, r & 1);
    printf("%ld\n", s);
    return 0;
}
