/* earlyexit-main.c — calls earlyexit.c's check() 1000 times, each early
 * exit 10 times (tests/count/t-counter-tree.sh) */
#include <stdio.h>
struct item {
    int flags;
    int num;
    const char *s;
};
int check(const struct item *it);

int main(void)
{
    long t = 0;
    for (int i = 0; i < 1000; i++) {
        struct item it = {0, i % 7, "x"};
        switch (i % 100) {
        case 1: it.flags = 1; break;
        case 2: it.flags = 2; break;
        case 3: it.num = -1; break;
        case 4: it.s = "-"; break;
        }
        t += check(&it);
    }
    printf("%ld\n", t);
    return 0;
}
