/* Reached as weird.h from x.c (compiled as x.c) and as /ABS/weird.h from
 * y.c (compiled as /ABS/y.c). */
static inline int weird_add(int x) { return x + 7; }   /* expect: 8 entries, 2 units */
