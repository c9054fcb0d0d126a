/* retfwd.c — t-lines-retfwd.sh: a never-run `return 0;` whose merged
 * return is reached through one forwarder every `return 0` goes through
 * (Tcl 8.6's Tcl_RegexpObjCmd, generic/tclCmdMZ.c:249), and one of a
 * variable (TclCompileObj, generic/tclExecute.c:1766) */
#include <stdio.h>
#include <stdlib.h>
static int sink;
__attribute__((noinline)) int about_of(const char *s) { return s[0] == 'x' ? -1 : 1; }
__attribute__((noinline)) void setres(int v) { sink += v; }
__attribute__((noinline)) int cmd(int about, int doinline, const char *s, int n)
{
    int all = 0, i;
    if (doinline && n != 0) {
        setres(-1);
        goto err;
    }
    if (about) {
        if (about_of(s) < 0) {
        err:
            setres(-2);
            return 1;
        }
        return 0; /* @never */
    }
    for (i = 0; s[i]; i++) {
        if (s[i] == '!') {
            setres(3);
            return 1;
        }
        if (s[i] == '?') {
            if (!doinline)
                setres(0);
            return 0; /* @quest */
        }
        all++;
    }
    if (doinline)
        setres(5);
    else
        setres(all);
    return 0;
}
/* the same with a variable (Tcl's TclCompileObj, tclExecute.c:1766) */
struct bc {
    int a, b;
};
static struct bc store[4];
__attribute__((noinline)) struct bc *find(int k) { return k % 3 ? &store[k % 4] : NULL; }
__attribute__((noinline)) void fix(struct bc *p) { p->b++; }
__attribute__((noinline)) struct bc *compile(int k, const int *invoker)
{
    struct bc *codePtr = &store[k & 3];
    if (codePtr->a > 100) {
        sink++;
        goto recompile;
    }
    if (invoker == NULL) {
        return codePtr; /* @vnever */
    } else {
        struct bc *h = find(k);
        if (!h)
            return codePtr;
        fix(h);
        if (h->b > 1000000)
            goto recompile;
        return codePtr;
    }
recompile:
    codePtr = &store[(k + 1) & 3];
    codePtr->a = 0;
    return codePtr;
}
/* a label every goto runs: its return keeps their count */
__attribute__((noinline)) int chk(int a, int b)
{
    if (a < 0)
        goto bad;
    if (b < 0)
        goto bad;
    return a + b;
bad:
    setres(7);
    return 0; /* @bad */
}
int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100, s = 0;
    const char *w[] = {"abc", "hello", "zz", "why?"};
    for (int i = 0; i < n; i++)
        s += cmd(0, 0, w[i % 4], 0);
    for (int i = 0; i < n; i++)
        s += chk(i % 5 - 1, i % 3 - 1);
    int inv = 1;
    for (int i = 0; i < n; i++)
        s += (int)(compile(i, &inv) - store);
    printf("%d %d\n", s, sink);
    return 0;
}
