/* hashwalk.c — a hash table of length-prefixed names walked as nginx's
 * ngx_hash_find walks its buckets (tests/count/t-offmode-loop.sh): a
 * bucket's entries in a row, each skipped on a length mismatch, else
 * compared byte by byte.  In the counting copy GCC keeps the byte loop's
 * counter in a register (store motion) with a flag saying it changed,
 * tested after the loop where bb-reorder put the counter's store in a
 * block of its own and the other way through a block of just a jump.
 *
 *   hashwalk [ROUNDS] [BUCKETS]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct entry {
    void *value;
    unsigned short len;
    unsigned char name[1];
};

struct table {
    struct entry **bucket;
    uintptr_t nbuckets;
};

#define ROUND_UP(p, a) ((unsigned char *)(((uintptr_t)(p) + ((a) - 1)) & ~(uintptr_t)((a) - 1)))

__attribute__((noinline)) void *lookup(struct table *t, uintptr_t key, const unsigned char *name, size_t len)
{
    struct entry *e = t->bucket[key % t->nbuckets];
    if (!e)
        return NULL;
    while (e->value) {
        if (len != (size_t)e->len)
            goto skip;
        for (uintptr_t i = 0; i < len; i++)
            if (name[i] != e->name[i])
                goto skip;
        return e->value;
    skip:
        e = (struct entry *)ROUND_UP(&e->name[0] + e->len, sizeof(void *));
        continue;
    }
    return NULL;
}

static const char *const words[] = {
    "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
    "juliett", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo",
    "sierra", "tango", "uniform", "victor", "whiskey", "xray", "yankee", "zulu",
};
static const char *const asked[] = {
    "echo", "kilo", "november", "whiskey", "zulu", "quebec", "sierra-x", "tangos", "limb",
};
#define NW (sizeof words / sizeof words[0])
#define NA (sizeof asked / sizeof asked[0])
#define MAXB 64

static uintptr_t key_of(const char *s, size_t n)
{
    uintptr_t k = 0;
    while (n--)
        k = k * 31 + (unsigned char)*s++;
    return k;
}

int main(int argc, char **argv)
{
    long rounds = argc > 1 ? atol(argv[1]) : 10000;
    size_t nb = argc > 2 ? (size_t)atol(argv[2]) : 13;
    static unsigned char space[MAXB][512];
    static struct entry *heads[MAXB];
    size_t used[MAXB] = {0};
    if (nb < 1 || nb > MAXB)
        return 2;
    struct table t = {heads, nb};
    for (size_t b = 0; b < nb; b++)
        heads[b] = (struct entry *)space[b];
    for (size_t w = 0; w < NW; w++) {
        size_t n = strlen(words[w]), b = key_of(words[w], n) % nb;
        struct entry *e = (struct entry *)(space[b] + used[b]);
        e->value = (void *)words[w];
        e->len = (unsigned short)n;
        memcpy(e->name, words[w], n);
        used[b] = (size_t)(ROUND_UP(e->name + n, sizeof(void *)) - space[b]);
    }
    uintptr_t keys[NA];
    size_t lens[NA];
    for (size_t a = 0; a < NA; a++)
        keys[a] = key_of(asked[a], lens[a] = strlen(asked[a]));
    long found = 0;
    for (long r = 0; r < rounds; r++)
        for (size_t a = 0; a < NA; a++)
            found += lookup(&t, keys[a], (const unsigned char *)asked[a], lens[a]) != NULL;
    printf("found %ld\n", found);
    return 0;
}
