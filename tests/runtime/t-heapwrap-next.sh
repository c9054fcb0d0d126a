#!/bin/bash
# libperfinst.so's allocator wrappers (runtime/heap-wrap.c) wrap the
# allocator that comes after it in the lookup scope, not glibc's always: a
# plain program linked with an allocator that replaces malloc and free
# (mimalloc, jemalloc, tcmalloc; here a toy arena, which aborts on a
# foreign free) and run with LD_PRELOAD=libperfinst.so (sampling a plain
# program) got glibc's blocks from the wrappers and gave them to the
# allocator's free: "free of a block not mine", abort (mimalloc: its heap
# silently corrupted).  Without such an allocator the wrappers stay
# glibc's (t-heapwrap.sh: their cost).
. "$PERFINST_TOP/tests/lib.sh"
[ -z "${PERFINST_SANITIZE:-}" ] || skip "the sanitizer builds leave the allocator wrappers out"
cat > arena.c << 'C'
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static _Alignas(64) char arena[1 << 24];
static size_t used;
int arena_owns(void *p) { return (char *)p >= arena && (char *)p < arena + sizeof arena; }
void *malloc(size_t n) { n = (n + 63) & ~(size_t)63; if (used + n > sizeof arena) return NULL; void *p = arena + used; used += n; return p; }
void *calloc(size_t a, size_t b) { void *p = malloc(a * b); if (p) memset(p, 0, a * b); return p; }
void *realloc(void *o, size_t n) { void *p = malloc(n); if (p && o) memcpy(p, o, n); return p; }
void *aligned_alloc(size_t a, size_t n) { return a <= 64 ? malloc(n) : NULL; }
void *memalign(size_t a, size_t n) { return aligned_alloc(a, n); }
int posix_memalign(void **o, size_t a, size_t n) { return (*o = aligned_alloc(a, n)) ? 0 : 12; }
void free(void *p) {
    if (p && !arena_owns(p)) {
        static const char m[] = "arena: free of a block not mine\n";
        fwrite(m, 1, sizeof m - 1, stderr);
        abort();
    }
}
C
cat > main.c << 'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int arena_owns(void *p);
int main(void) {
    void *b[4];
    b[0] = malloc(100);
    b[1] = calloc(3, 10);
    b[2] = realloc(malloc(8), 200);
    b[3] = aligned_alloc(64, 64);
    void *q;
    int r = posix_memalign(&q, 64, 32);
    int mine = (r == 0 && arena_owns(q));
    for (int i = 0; i < 4; i++) { mine += arena_owns(b[i]); free(b[i]); }
    char *s = strdup("hello");   /* libc's own allocation */
    mine += arena_owns(s);
    free(s);
    free(q);
    printf("%d of 6 from the arena\n", mine);
    return 0;
}
C
gcc -O2 -fno-builtin -fPIC -shared -o libarena.so arena.c   # (no builtins: GCC makes malloc+memset a call of calloc)
gcc -O2 -o m main.c -L. -larena -Wl,-rpath,"$PWD"
./m > plain.out || fail "the plain program"
assert_eq "without the runtime" "6 of 6 from the arena" "$(cat plain.out)"
PERFINST_OUT=/dev/null LD_PRELOAD=$B/libperfinst.so ./m > out 2> err || { cat err >&2; fail "preloaded, the program died"; }
assert_eq "libperfinst.so preloaded: the arena's blocks" "6 of 6 from the arena" "$(cat out)"
PERFINST_SAMPLE=cpu:1ms PERFINST_OUT=s.pit LD_PRELOAD=$B/libperfinst.so ./m > out 2> err || { cat err >&2; fail "sampled, the program died"; }
assert_eq "sampled" "6 of 6 from the arena" "$(cat out)"
[ -s s.pit ] || fail "no trace of the sampled run"
ok "a trace"
