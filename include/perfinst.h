/* perfinst.h — the public interface of perfinst.
 *
 * Directives, in two spellings (docs/directives.md has the full reference):
 *
 *     #pragma perfinst count                 // file scope: the next definition
 *     int f(int x) { ... }
 *
 *     int g(int n) {
 *         #pragma perfinst count             // in a body: the next statement
 *         for (int i = 0; i < n; i++) work(i);
 *     }
 *
 *     __attribute__((perfinst("count", "threshold(count=13)"))) int h(void);
 *
 * The macros below produce those spellings when the perfinst plugin is
 * loaded (it defines __PERFINST__) and nothing otherwise, so marked code
 * still builds with a plain compiler:
 *
 *     PERFINST("count") int f(int x) { ... }
 *     PERFINST_PRAGMA(count)
 *
 * The run-time API (libperfinst) is declared after the macros.  The symbols
 * that start with __perfinst_ are the ABI between plugin-generated code and
 * the runtime (docs/runtime.md); programs do not call them.
 */
#ifndef PERFINST_H
#define PERFINST_H

#include <stdint.h>

#ifdef __PERFINST__
#define PERFINST(...) __attribute__((perfinst(__VA_ARGS__)))
#define PERFINST_PRAGMA(...) _Pragma(PERFINST_STR_(perfinst __VA_ARGS__))
#else
#define PERFINST(...)
#define PERFINST_PRAGMA(...)
#endif
#define PERFINST_STR_(x) #x

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the mode register ---------------------------------------------------
 * On by default; PERFINST_MODE=off in the environment starts it off.  While
 * off, instrumented code counts nothing. */
int perfinst_mode(void);      /* 1 on, 0 off */
void perfinst_enable(void);
void perfinst_disable(void);

/* ---- shadow lookup ---------------------------------------------------------
 * Which shadow item (marked code or data) covers an address, through the
 * translation table the loader stage mapped for the module (seed 004 M12). */
struct perfinst_shadow_item {
    uintptr_t addr;       /* run-time address of the item's first byte */
    uint32_t length;      /* bytes */
    uint32_t site;        /* site index within its unit */
    uint64_t unit_id;
    uint32_t counter;     /* counter index within its unit, or 0xffffffff */
    uint32_t directives;  /* the indicator: PI_D_* bits (perfinst-format.h) */
    uint64_t threshold;
};
const struct perfinst_shadow_item *perfinst_shadow_lookup(const void *addr);

/* The item's execution count so far: counts flushed from finished threads
 * plus the live counts of the calling thread. */
uint64_t perfinst_item_count(const struct perfinst_shadow_item *item);

/* The cache-line size the loader stage uses (sysfs, or PERFINST_LINE_SIZE). */
unsigned perfinst_line_size(void);

/* Write the trace now (to PERFINST_OUT or the default name); counting goes
 * on and the trace is rewritten at exit.  Returns 0, or -1 with errno. */
int perfinst_write_trace(void);

/* ---- ABI used by plugin-generated code (do not call) ------------------ */
void __perfinst_register_unit(uint32_t abi_version, uint64_t unit_id,
                              uint32_t ncounters, uint64_t *(*tls_counters)(void),
                              int *mode);
void __perfinst_unregister_unit(uint64_t unit_id, uint64_t *(*tls_counters)(void));
extern int __perfinst_on; /* the mode register instrumented functions test at entry */

#ifdef __cplusplus
}
#endif

#endif /* PERFINST_H */
