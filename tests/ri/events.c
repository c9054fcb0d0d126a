/* The collection buffer's events.  argv[1]:
 *   calls  f0() .. f11() (callret), then two directed sample points
 *   loop   loop(10): a counted loop in a sample function, then a point
 *   emit   five emit(i * i), emits of a field, a pointer's field, an array
 *          element, then a point */
#include <perfinst.h>
#include <stdio.h>
#include <string.h>

#define F(n) PERFINST("callret") __attribute__((noinline)) int f##n(int x) { return x + n; }
F(0) F(1) F(2) F(3) F(4) F(5) F(6) F(7) F(8) F(9) F(10) F(11)

#pragma perfinst sample(directed)
__attribute__((noinline)) int mark(int x) { return x ^ 1; }

#pragma perfinst sample(every=1000000)
__attribute__((noinline)) int loop(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += i;
    return s;
}

struct item { int id; long weight[3]; };

int main(int argc, char **argv)
{
    volatile int s = 0;
    const char *what = argc > 1 ? argv[1] : "calls";
    if (!strcmp(what, "calls")) {
        s += f0(s); s += f1(s); s += f2(s); s += f3(s); s += f4(s); s += f5(s);
        s += f6(s); s += f7(s); s += f8(s); s += f9(s); s += f10(s); s += f11(s);
        s += mark(s);
        s += mark(s);
    } else if (!strcmp(what, "loop")) {
        s += loop(10);
        s += mark(s);
    } else {
        struct item it = {42, {5, 6, 7}};
        struct item *p = &it;
        long arr[4] = {100, 200, 300, 400};
        for (int i = 1; i <= 5; i++) {
            #pragma perfinst emit(i * i)
            s += i;
        }
        #pragma perfinst emit(it.id)
        #pragma perfinst emit(p->weight[2] + 1000)
        #pragma perfinst emit(arr[3] - (arr[0] / 2))
        s += mark(s);
    }
    printf("%d\n", s);
    return 0;
}
