/* Unknown directives and bad arguments: one expected error per marked line. */
#pragma perfinst frobnicate  // expect-error: unknown directive 'frobnicate'
int a(void) { return 1; }

#pragma perfinst threshold(count=0)  // expect-error: threshold count must be at least 1
int b(void) { return 2; }

#pragma perfinst threshold(handler=h)  // expect-error: 'threshold' needs count=N
int c(void) { return 3; }

#pragma perfinst types(branch,bogus)  // expect-error: unknown instruction type 'bogus'
int d(void) { return 4; }

#pragma perfinst cycles(code=0b1000)  // expect-error: 3-bit value
int e(void) { return 5; }

#pragma perfinst cycles(fast)  // expect-error: 'cycles' takes >N or code=0bXYZ
int f(void) { return 6; }

#pragma perfinst count(3)  // expect-error: directive 'count' takes no arguments
int g(void) { return 7; }

#pragma perfinst sample(sometimes)  // expect-error: 'sample' takes every=N or directed
int h(void) { return 8; }

#pragma perfinst  // expect-error: needs a directive
int i(void) { return 9; }

__attribute__((perfinst("cont"))) int j(void) { return 10; }  // expect-error: unknown directive 'cont'
__attribute__((perfinst(42))) int k(void) { return 11; }  // expect-error: takes directive strings
__attribute__((perfinst("dormant(kinds=fp)"))) int l(void) { return 12; }  // expect-error: 'dormant' takes types=
