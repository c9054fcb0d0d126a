/* copycalls.c's far_add, a unit of its own (t-copy-calls.sh). */
__attribute__((noinline)) int far_add(int a, int b)
{
    return a + b + (a > b);                      // expect-count: 45
}
