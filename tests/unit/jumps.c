/* jumps.c — the jump slots (runtime/jumps.c, compiled in here with
 * stand-ins for the runtime it calls): each unit hands over the range of
 * its own infos and syncs exactly its own slots, in whatever order its
 * functions' infos are; a unit of an earlier plugin hands over its
 * module's every info, and each slot still follows its own byte. */
#include "../../runtime/jumps.c"

#include "unit.h"

struct pi_state pi;
static struct pi_unit_rt *the_unit;
void pi_init(void) {}
struct pi_unit_rt *pi_unit_of_id_locked(uint64_t unit_id)
{
    (void)unit_id;
    return the_unit;
}

#define NF 64 /* functions: two units of 32 */
static struct pi_jump_info infos[NF + 1]; /* (the last: an empty info) */
static uint64_t slots[NF];
static uint8_t fnon[NF];   /* unit 0: [0, 32), unit 1: [32, 64) */
static char clean_code[NF], counting_code[NF];

static int32_t rel(const void *field, const void *to)
{
    return (int32_t)((intptr_t)to - (intptr_t)field);
}

/* info i describes function perm[i]; each unit's infos are its own 32 */
static void lay_out(const int *perm)
{
    for (int i = 0; i < NF; i++) {
        int f = perm[i];
        infos[i].slot = rel(&infos[i].slot, &slots[f]);
        infos[i].clean = rel(&infos[i].clean, &clean_code[f]);
        infos[i].counting = rel(&infos[i].counting, &counting_code[f]);
        infos[i].sw = rel(&infos[i].sw, &fnon[f]);
        slots[f] = 0;
    }
    memset(&infos[NF], 0, sizeof infos[NF]);
}

static uint64_t want(int f)
{
    return (uintptr_t)(fnon[f] ? &counting_code[f] : &clean_code[f]);
}

static void units(struct pi_unit_rt *u)
{
    memset(u, 0, 2 * sizeof *u);
    for (int k = 0; k < 2; k++) {
        u[k].fnon = fnon + 32 * k;
        u[k].nfuncs = 32;
        for (int f = 0; f < 32; f++)
            fnon[32 * k + f] = (uint8_t)((f + k) % 2);
    }
}

/* unit 1 registers first, then unit 0 (with the empty info after its own) */
static void check_order(const char *what, const int *perm)
{
    lay_out(perm);
    struct pi_unit_rt u[2];
    units(u);
    for (int i = 0; i < 2; i++) {
        int k = 1 - i;
        the_unit = &u[k];
        __perfinst_register_jumps(7, infos + 32 * k, infos + 32 * k + 32 + (k == 0 ? 0 : 1));
        for (int f = 0; f < NF; f++) {
            int done = f / 32 >= k;
            if (slots[f] != (done ? want(f) : 0))
                unit_fail(__FILE__, __LINE__, "%s: unit %d registered: function %d's slot", what, k, f);
        }
    }
    /* a switch of unit 0 changes: only its slots follow */
    fnon[3] ^= 1;
    fnon[40] ^= 1; /* unit 1's: not synced by unit 0 */
    pi_sync_jumps_locked(&u[0]);
    EXPECT_EQ(want(3), slots[3]);
    EXPECT_EQ((uintptr_t)(fnon[40] ? &clean_code[40] : &counting_code[40]), slots[40]);
    pi_sync_jumps_locked(&u[1]);
    EXPECT_EQ(want(40), slots[40]);
}

static void shuffle_unit(int *perm, int k, uint32_t x)
{
    for (int i = 31; i > 0; i--) {
        x = x * 1103515245u + 12345u;
        int j = (int)((x >> 16) % (uint32_t)(i + 1)), t = perm[32 * k + i];
        perm[32 * k + i] = perm[32 * k + j];
        perm[32 * k + j] = t;
    }
}

TEST(jump_slots_unit_ranges)
{
    int perm[NF];
    for (int i = 0; i < NF; i++)
        perm[i] = i;
    check_order("in order", perm);
    for (int i = 0; i < 32; i++)
        perm[i] = 31 - i;
    check_order("unit 0 reversed", perm);
    shuffle_unit(perm, 0, 12345);
    shuffle_unit(perm, 1, 777);
    check_order("both shuffled", perm);
}

/* a unit of an earlier plugin passed the module's range: every slot synced,
 * each from its own byte, at its registration and at its switch changes */
TEST(jump_slots_module_range)
{
    int perm[NF];
    for (int i = 0; i < NF; i++)
        perm[i] = NF - 1 - i;
    lay_out(perm);
    struct pi_unit_rt u[2];
    units(u);
    the_unit = &u[0];
    __perfinst_register_jumps(7, infos, infos + NF + 1);
    for (int f = 0; f < NF; f++)
        EXPECT_EQ(want(f), slots[f]);
    fnon[50] ^= 1;
    pi_sync_jumps_locked(&u[0]);
    EXPECT_EQ(want(50), slots[50]);
}

/* a unit the runtime refused (no record): its bytes are 0, its slots go to
 * the clean copies */
TEST(jump_slots_refused_unit)
{
    int perm[NF];
    for (int i = 0; i < NF; i++)
        perm[i] = i;
    lay_out(perm);
    memset(fnon, 0, sizeof fnon);
    the_unit = NULL;
    __perfinst_register_jumps(7, infos + 32, infos + NF);
    for (int f = 0; f < NF; f++)
        EXPECT_EQ(f < 32 ? 0 : (uintptr_t)&clean_code[f], slots[f]);
}
