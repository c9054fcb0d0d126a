/* ind.c — the fixture of the indicators' views (ind.json, t-indicators.sh):
 * a threshold site (hot), two cycles sites (slow: a threshold, coded: a
 * code), a function counted with types(branch,call,ret) (typed), a named
 * region and a trace_start/trace_stop pair in main, a trap site (tr).
 * mid and top are plain functions: the callers of hot in the events. */
#include "markers.h"

int hot(int x)
{
    PI_S(0); x = x * 2; PI_E(0);
    return x;
}

int mid(int x) { return hot(x) + 1; }
int top(int x) { return mid(x) + 1; }

int slow(int x)
{
    PI_S(1); x++; PI_E(1);
    return x;
}

int coded(int x)
{
    PI_S(2); x--; PI_E(2);
    return x;
}

int typed(int x)
{
    PI_S(3); x += 1; PI_E(3);
    if (x > 3) {
        PI_S(4); x += 2; PI_E(4);
    }
    PI_S(5); x += 3; PI_E(5);
    if (x > 100) {
        PI_S(11); x -= 2; PI_E(11);
    }
    return x;
}

int tr(int x)
{
    PI_S(12); x ^= 1; PI_E(12);
    return x;
}

int main(int argc, char **argv)
{
    int s = 0;
    for (int v = 0; v < 3; v++) {
        PI_S(6); s += v; PI_E(6);
        for (int i = 0; i < 4; i++) {
            PI_S(7); s += i; PI_E(7);
        }
        PI_S(8); s++; PI_E(8);
        if (s > 1000) {
            PI_S(13); s--; PI_E(13);
        }
    }
    PI_S(9); s += top(argc); PI_E(9);
    PI_S(10); s += slow(s) + coded(s) + typed(s) + tr(s); PI_E(10);
    return s & 1;
}
