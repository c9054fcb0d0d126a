/* A header compiled to a precompiled header (t-pch.sh): inline code
 * counted where it is included, a directive that rides on its function's
 * declaration (a file-scope pragma: an attribute of it), and a watched
 * variable, whose accesses the including unit's code counts. */
#ifndef PCH_H
#define PCH_H
#include <stdio.h>
#include <stdlib.h>
#include <perfinst.h>

#pragma perfinst watch
static long hits;

static inline int hsum(const int *v, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += v[i] & 1 ? v[i] : 2;
    hits++;
    return s;
}

#pragma perfinst count
static inline int marked(int x)
{
    if (x > 5)                      // expect-count: 10
        return x * 3;               // expect-count: 4
    return x + 1;                   // expect-count: 6
}
#endif
