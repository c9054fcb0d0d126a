/* Reached as lib//compress/../common/mem.h from lib/compress/a.c and as
 * /ABS/lib/common/mem.h from b.c (tests/pmopt/t-file-spellings.sh). */
static inline int mem_read(const int *p, int i) { return p[i] * 2; }   /* expect: 8 entries, 2 units */
