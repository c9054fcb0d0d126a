/* t-pch.sh: a statement directive inside a function of a header compiled
 * to a precompiled header: refused at its line. */
static inline int looped(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++) {
#pragma perfinst count
        s += i;
    }
    return s;
}
