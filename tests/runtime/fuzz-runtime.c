/* fuzz-runtime.c — libFuzzer harness for libperfinst's readers of
 * untrusted input.
 *
 * The first byte of the input picks the reader, the rest is its input:
 *   even  the loader stage (runtime/loader.c): pi_shadow_from_file on the
 *         bytes as a module's whole file (ELF64 section headers, build-id
 *         note, .perfinst.xlat chunks, items and translation table), for a
 *         module spanning the file's PT_LOAD segments, at line size
 *         16 << (bits 1-3 % 7) (the file's table used as is or rebuilt),
 *         loaded at its link-time addresses or 0x7f0000000000 above
 *         (bit 6), its build-id none or not the file's (bit 7); then
 *         lookups in the segment built
 *   odd   the PERFINST_OVERLAY parser (runtime/overlay.c): pi_overlay_parse
 *         on the bytes as text, then pi_overlay_on
 * Only loader.c, elfscan.c, overlay.c and common/xlat-blocks.c are linked in: the rest
 * of the runtime (start-up, threads, traces) is stubbed below, so nothing
 * is interposed and no trace is written.  FUZZ_VERBOSE=1 says what each
 * input led to.  Build and run (t-fuzz.sh does
 * this with a fixed budget):
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -pthread -Iinclude -Icommon \
 *     -Iruntime tests/runtime/fuzz-runtime.c runtime/loader.c runtime/elfscan.c runtime/overlay.c \
 *     common/xlat-blocks.c -o fuzz
 *   ./fuzz CORPUS_DIR
 */
#include "runtime.h"
#include "piformat.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the rest of the runtime, stubbed -------------------------------------------- */

struct pi_state pi = {.lock = PTHREAD_MUTEX_INITIALIZER};
__thread struct pi_thread *pi_self __attribute__((tls_model("initial-exec")));

void pi_init(void) {}
void pi_say(const char *s, ...) { (void)s; } /* quiet */
struct pi_thread *pi_thread_self_locked(void) { return NULL; }
uint64_t *pi_thread_block(const struct pi_thread *t, const struct pi_unit_rt *u) { return NULL; }
void pi_slot_set_locked(struct pi_thread *t, uint32_t index, uint64_t *p) {}

/* the runtime's own number formatting (say.c), its pi_say left out */
#define pi_say pi_say_unused
#include "../../runtime/say.c"
#undef pi_say

/* FUZZ_VERBOSE=1: say what each input led to (t-fuzz.sh checks the seeds). */
static int verbose = -1;

/* ---- the loader stage ------------------------------------------------------------- */

/* What dl_iterate_phdr would say of the file loaded at its link-time
 * addresses plus bias: the span of its PT_LOAD segments, at most max_span
 * (FUZZ_MAX_SPAN, else 64 KiB).  Items must lie in the span, and a table
 * rebuilt for a smaller line size has up to span / line size refs per item:
 * legitimately slow to sort for a large span, which is not what the fuzzer
 * is looking for.  (t-fuzz.sh replays fuzz-regress/ without the limit.) */
static uint64_t max_span;
static void module_span(const uint8_t *f, size_t n, struct pi_module *m, uintptr_t bias)
{
    Elf64_Ehdr eh;
    m->bias = bias;
    m->lo = bias + 0x1000;
    m->hi = bias + 0x11000;
    if (n < sizeof eh)
        return;
    memcpy(&eh, f, sizeof eh);
    if (eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phoff > n ||
        eh.e_phnum > (n - eh.e_phoff) / sizeof(Elf64_Phdr))
        return;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (unsigned i = 0; i < eh.e_phnum; i++) {
        Elf64_Phdr ph;
        memcpy(&ph, f + eh.e_phoff + i * sizeof ph, sizeof ph);
        if (ph.p_type != PT_LOAD || ph.p_memsz > UINT64_MAX - bias - ph.p_vaddr)
            continue;
        lo = ph.p_vaddr < lo ? ph.p_vaddr : lo;
        hi = ph.p_vaddr + ph.p_memsz > hi ? ph.p_vaddr + ph.p_memsz : hi;
    }
    if (lo < hi) {
        m->lo = bias + lo;
        m->hi = bias + (hi - lo > max_span ? lo + max_span : hi);
    }
}

static void fuzz_loader(const uint8_t *data, size_t n, unsigned L, uintptr_t bias, int bid)
{
    /* An exact-size heap copy: any read past the file is an ASan report. */
    unsigned char *f = malloc(n ? n : 1);
    if (!f)
        return;
    memcpy(f, data, n);
    static struct pi_module m;
    memset(&m, 0, sizeof m);
    m.path = "fuzz";
    m.file = "fuzz";
    m.live = 1;
    module_span(f, n, &m, bias);
    /* A build-id to compare with the file's (equal to the seed program's
     * only by chance: a mismatch is one more refusal to reach). */
    if (bid) {
        m.build_id_len = 20;
        memset(m.build_id, 0x5a, 20);
    }

    struct pi_shadow *sh = NULL;
    uint32_t file_line = 0;
    int rebuilt = 0;
    struct pi_dec_err e;
    const char *why = pi_shadow_from_file(f, n, &m, L, &sh, &file_line, &rebuilt, &e);
    free(f);
    if (why) {
        if (verbose)
            fprintf(stderr, "fuzz-runtime: loader: no shadow segment: %s\n", why);
        return;
    }

    /* Lookups through the public API, as a program would make them. */
    m.shadow = sh;
    m.shadow_state = 1;
    pi.line_size = L;
    pi.modules = pi.modules_tail = &m;
    /* One address a line, or 1024 spread over the module. */
    uint64_t span = m.hi - m.lo, step = span / 1024 > L ? span / 1024 : L;
    unsigned hits = 0;
    for (uint64_t a = m.lo; a < m.hi && a - m.lo < 1024 * step; a += step) {
        const struct perfinst_shadow_item *it = perfinst_shadow_lookup((const void *)(uintptr_t)a);
        if (it) {
            hits++;
            (void)perfinst_item_count(it);
            if (it->length && it->addr + it->length - 1 >= m.lo && it->addr + it->length - 1 < m.hi)
                (void)perfinst_shadow_lookup((const void *)(uintptr_t)(it->addr + it->length - 1));
        }
    }
    pi.modules = pi.modules_tail = NULL;
    pi_shadow_free(sh);
    if (verbose)
        fprintf(stderr, "fuzz-runtime: loader: shadow segment, line size %u%s, %u of %llu lookups found an item\n",
                L, rebuilt ? " (rebuilt)" : "", hits,
                (unsigned long long)((span + step - 1) / step < 1024 ? (span + step - 1) / step : 1024));
}

/* ---- the overlay parser ----------------------------------------------------------- */

static void fuzz_overlay(const uint8_t *data, size_t n)
{
    char *text = malloc(n + 1);
    if (!text)
        return;
    memcpy(text, data, n);
    text[n] = 0;
    pi_overlay_parse("fuzz", text);
    if (verbose)
        fprintf(stderr, "fuzz-runtime: overlay: %s\n", pi_overlay_active() ? "rules" : "no rules");
    uint64_t unit = 0;
    memcpy(&unit, data, n < sizeof unit ? n : sizeof unit);
    (void)pi_overlay_on(unit, 3);
    (void)pi_overlay_on(0x5c1f0e2a9b3d4c77ull, 0);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (verbose < 0) {
        verbose = getenv("FUZZ_VERBOSE") != NULL;
        const char *s = getenv("FUZZ_MAX_SPAN");
        max_span = s ? strtoull(s, NULL, 0) : 0x10000;
    }
    if (size < 1)
        return 0;
    if (data[0] & 1)
        fuzz_overlay(data + 1, size - 1);
    else
        fuzz_loader(data + 1, size - 1, 16u << ((data[0] >> 1 & 7) % 7),
                    data[0] & 0x40 ? (uintptr_t)0x7f0000000000 : 0, data[0] >= 0x80);
    return 0;
}
