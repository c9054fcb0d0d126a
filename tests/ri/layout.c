/* Report-group layout, byte by byte, in a program buffer the program owns
 * (perfinst_ri_load with roa/rla), then rgs changed by perfinst_ri_modify.
 * Prints "FAIL ..." lines and exits 1 on any mismatch. */
#include <perfinst.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#pragma perfinst sample(directed)
__attribute__((noinline)) int point(int x) { return x + 3; }

static int failures;
#define CHECK(c, ...) do { if (!(c)) { printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); putchar('\n'); failures++; } } while (0)

static uint64_t le(const uint8_t *p, int n) { uint64_t v = 0; while (n--) v = v << 8 | p[n]; return v; }

static _Alignas(4096) uint8_t buf[4096];

/* point's code: [point, point + 256) (its probes included, at -O0) */
static int in_point(uint64_t a) { return a >= (uint64_t)(uintptr_t)point && a < (uint64_t)(uintptr_t)point + 256; }

static void check_sysinfo(const uint8_t *r)
{
    CHECK(r[0] == 1 && r[1] == 1, "EXTRA sysinfo type/flags %u/%u", r[0], r[1]);
    CHECK(le(r + 2, 2) <= 1, "cpu %u", (unsigned)le(r + 2, 2));
    CHECK(le(r + 4, 4) == 0x12345, "signature 0x%x", (unsigned)le(r + 4, 4));
    CHECK(le(r + 8, 4) == 0x99, "microcode 0x%x", (unsigned)le(r + 8, 4));
    CHECK(r[12] == 0 && r[13] == 0 && r[14] == 0 && r[15] == 0, "capability/reserved");
}

int main(void)
{
    struct perfinst_ri_controls c = {0};
    c.roa = c.rca = (uint64_t)(uintptr_t)buf;
    c.rla = c.roa + sizeof buf - 1;
    c.rgs = 2;            /* 8 records, 128 bytes */
    c.mode = PERFINST_RI_M_NONE;
    c.sf = 1;
    c.cb_size = 8;
    c.flags = PERFINST_RI_C | PERFINST_RI_R | PERFINST_RI_B | PERFINST_RI_E | PERFINST_RI_N;
    CHECK(perfinst_ri_load(&c) == 0, "load");
    CHECK(perfinst_ri_test() == 2, "test: valid and altered");
    CHECK(perfinst_ri_test() == 1, "test: valid");
    perfinst_ri_on();

    perfinst_ri_emit(0xdeadbeef);
    volatile int s = point(1);        /* CALL, then the directed unit: group 0 */
    s += point(2);                    /* RETURN, CALL, unit: group 1 */

    struct perfinst_ri_controls now;
    perfinst_ri_store(&now);
    CHECK(now.rca == c.roa + 256, "rca advanced by two groups: +%llu", (unsigned long long)(now.rca - c.roa));

    const uint8_t *g = buf;
    /* group 0: BEGIN */
    CHECK(g[0] == 2, "g0 r0 type %u (BEGIN)", g[0]);
    CHECK(g[1] == 0, "g0 r0 flags 0x%x", g[1]);
    CHECK(g[2] == 2 && g[3] == 2, "g0 rgs %u mode %u", g[2], g[3]);
    CHECK(le(g + 4, 4) == 2, "BEGIN nrg %u (2 groups)", (unsigned)le(g + 4, 4));
    CHECK(le(g + 8, 8) != 0, "BEGIN tod");
    /* body, newest first: CALL point, EMIT, filler x3 */
    CHECK(g[16] == 12 && in_point(le(g + 24, 8)), "g0 r1 CALL into point (type %u)", g[16]);
    CHECK(g[32] == 10 && le(g + 40, 8) == 0xdeadbeef, "g0 r2 EMIT 0xdeadbeef (type %u)", g[32]);
    for (int i = 3; i <= 5; i++) {
        int zero = 1;
        for (int k = 0; k < 16; k++)
            zero &= g[16 * i + k] == 0;
        CHECK(zero, "g0 r%d filler", i);
    }
    check_sysinfo(g + 96);
    CHECK(g[112] == 4 && g[113] == 4, "g0 r7 INSTRUCTION directed (%u, 0x%x)", g[112], g[113]);
    CHECK(in_point(le(g + 114, 6)), "g0 instruction address in point");
    CHECK(le(g + 120, 8) == 1, "g0 units %llu", (unsigned long long)le(g + 120, 8));

    g = buf + 128;
    CHECK(g[0] == 3, "g1 r0 type %u (TIMESTAMP)", g[0]);
    CHECK(g[2] == 2 && le(g + 4, 4) == 1, "g1 rgs %u, group index %u", g[2], (unsigned)le(g + 4, 4));
    CHECK(le(g + 8, 8) >= le(buf + 8, 8), "TOD does not go back");
    CHECK(g[16] == 12, "g1 r1 CALL (%u)", g[16]);
    CHECK(g[32] == 13 && in_point(le(g + 34, 6)), "g1 r2 RETURN from point (%u)", g[32]);
    CHECK(g[48] == 12, "g1 r3 CALL (%u)", g[48]);
    CHECK(g[64] == 10, "g1 r4 EMIT (%u)", g[64]);
    CHECK(g[80] == 0, "g1 r5 filler (%u)", g[80]);
    check_sysinfo(g + 96);
    CHECK(g[112] == 4 && le(g + 120, 8) == 2, "g1 INSTRUCTION, units 2");
    CHECK(buf[256] == 0, "nothing past rca");

    /* a new rgs rewinds rca to roa: the next group is a BEGIN of 4 records */
    struct perfinst_ri_controls m = now;
    m.rgs = 1;
    CHECK(perfinst_ri_modify(&m, PERFINST_RI_SET_RGS) == 0, "modify rgs");
    perfinst_ri_store(&now);
    CHECK(now.rca == c.roa && now.rgs == 1, "rgs change rewinds rca");
    s += point(3);
    CHECK(buf[0] == 2 && buf[2] == 1 && le(buf + 4, 4) == 1, "a fresh BEGIN with rgs 1");
    CHECK(buf[16] == 12 && buf[32] == 1 && buf[48] == 4, "rgs 1: CALL, sysinfo, instruction");
    /* an invalid load is refused and leaves the controls invalid */
    struct perfinst_ri_controls bad = c;
    bad.rgs = 9;
    CHECK(perfinst_ri_load(&bad) == -1 && perfinst_ri_test() == 0, "rgs 9 is refused");
    printf("%s (%d)\n", failures ? "failed" : "layout ok", s);
    return failures != 0;
}
