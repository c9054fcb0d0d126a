/* Numbers out of range, a directive on a label, on a no_instrument_function
 * function, alone in an empty body (issue 16).  No header: also -m32-free. */
__attribute__((perfinst("threshold(count=99999999999999999999999999999999)"))) int a(void) { return 1; }  // expect-error: out of range (at most 18446744073709551615)
#pragma perfinst threshold(count=99999999999999999999999999999999)  // expect-error: out of range (at most 18446744073709551615)
int b(void) { return 2; }
#pragma perfinst cycles(>18446744073709551616)  // expect-error: 18446744073709551616
int c(void) { return 3; }
#pragma perfinst cycles(>18446744073709551615)
int c2(void) { return 3; }
#define BIG 0x10000000000000000
#pragma perfinst sample(every=BIG)  // expect-error: 0x10000000000000000
int d(void) { return 4; }
#pragma perfinst threshold(count=0777)
int e(void) { return 5; }
__attribute__((perfinst("cycles(>18446744073709551616)"))) int e2(void) { return 5; }  // expect-error: cycles: 18446744073709551616 is out of range
int f(int x)
{
    switch (x) {
    #pragma perfinst count  // expect-error: is followed by a label (case), not a statement
    case 1:
        x++;
        break;
    #pragma perfinst trap  // expect-error: is followed by a label (default), not a statement
    default:
        x--;
    }
    #pragma perfinst count  // expect-error: is followed by a label (a goto label)
again:
    if (x < 3) {
        x++;
        goto again;
    }
    return x;
}
__attribute__((perfinst("count"), no_instrument_function)) int g(int x) { return x * 3; }  // expect-error: no_instrument_function
__attribute__((no_instrument_function)) int h(int x)
{
    #pragma perfinst count  // expect-error: no_instrument_function
    for (int i = 0; i < 3; i++) x++;
    return x;
}
void k(void)
{
    #pragma perfinst count  // expect-error: is not followed by a statement
}
void m(void)
{
    {
        #pragma perfinst trap  // expect-error: is not followed by a statement
    }
}
