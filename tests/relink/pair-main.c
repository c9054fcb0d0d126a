/* A program calling work and other 1000 times each (tests/relink/t-onecmd.sh, t-listing.sh). */
#include <stdio.h>
int work(int); int other(int);
int main(void) { long s = 0; for (int i = 0; i < 1000; i++) s += work(i) + other(i); printf("%ld\n", s); return 0; }
