/* emit(EXPR) never makes the program crash: an emit whose expression would
 * dereference a null pointer, index a declared array out of its bounds or
 * divide by zero (or LONG_MIN by -1) records nothing, and the program runs
 * as it would without the directive.
 *   p->x / d and p->arr[i] for (p, d, i) =
 *     (&a, 5, 1)      20, 2
 *     (NULL, 5, 1)    -, -        (p is null)
 *     (&a, 0, 2)      -, 3        (d is 0)
 *     (&a, 4, 7)      25, -       (arr[7] is out of arr[3])
 *     (&mn, -1, 0)    -, 9        (LONG_MIN / -1)
 * then emit(k / 0) (GCC warns: division by zero), which never records. */
#include <limits.h>
#include <perfinst.h>
#include <stdio.h>
struct s {
    long x;
    long arr[3];
};
PERFINST("sample(directed)")
__attribute__((noinline)) long mark(long v) { return v + 1; }
__attribute__((noinline)) long f(struct s *p, long d, int i)
{
    long r = 0;
    #pragma perfinst emit(p->x / d)
    r += d;
    #pragma perfinst emit(p->arr[i])
    r += i;
    return r;
}
__attribute__((noinline)) long g(long k)
{
    #pragma perfinst emit(k / 0)
    return k + 1;
}
int main(void)
{
    struct s a = {100, {1, 2, 3}}, mn = {LONG_MIN, {9, 9, 9}};
    long t = f(&a, 5, 1) + f(NULL, 5, 1) + f(&a, 0, 2) + f(&a, 4, 7) + f(&mn, -1, 0) + g(4);
    printf("%ld\n", mark(t));
    return 0;
}
