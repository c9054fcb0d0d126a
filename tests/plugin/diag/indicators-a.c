/* Diagnostics of dormant(types=..., threshold=N) (and, below, count(width=N)). */
__attribute__((perfinst("dormant(types=branch, threshold=0)"))) int a(void) { return 1; }  // expect-error: dormant threshold must be at least 1
__attribute__((perfinst("dormant(types=branch, threshold)"))) int b(void) { return 2; }  // expect-error: expected '=' after 'threshold'
__attribute__((perfinst("dormant(types=branch, thresh=3)"))) int c(void) { return 3; }  // expect-error: unknown instruction type 'thresh'
__attribute__((perfinst("dormant(types=, threshold=3)"))) int d(void) { return 4; }  // expect-error: expected an instruction type
/* fine: a threshold directive after a dormant one without its own */
__attribute__((perfinst("dormant(types=branch|load) threshold(count=3)"))) int e(void) { return 5; }
__attribute__((perfinst("dormant(types=branch,load, threshold=7)", "threshold(count=2)"))) int f(void) { return 6; }
int g(int n)
{
    #pragma perfinst dormant(types=branch)  // expect-error: cannot apply to a statement
    for (int i = 0; i < n; i++) n--;
    return n;
}
__attribute__((perfinst("count(width=12)"))) int h(void) { return 7; }  // expect-error: counter width must be 8, 16, 32 or 64, not 12
__attribute__((perfinst("count(size=16)"))) int i(void) { return 8; }  // expect-error: 'count' takes width=8|16|32|64, not 'size'
__attribute__((perfinst("count(width=16)"))) int j(void) { return 9; }
int k(int n)
{
    #pragma perfinst count(width=8)
    for (int i = 0; i < n; i++) n--;
    #pragma perfinst count(width=)  // expect-error: expected a number for width
    for (int i = 0; i < n; i++) n--;
    return n;
}
