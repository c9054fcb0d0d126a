/* a * b is partially redundant in pr: computed on the call's path and
 * again after the join.  Tree PRE (not its code hoisting, which GCC runs in
 * the same pass at -O2) computes it on the other path too and joins the
 * two with a new PHI: t-counting-opt.sh reads that from -fdump-statistics
 * for the counting copy.  Compiled only, never run. */
int g(int);

int pr(int a, int b, int c)
{
    int x = 0;
    if (c)
        x = g(a * b);
    return x + (a * b) * 7;
}
