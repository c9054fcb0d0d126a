/* jumps.c — the jump slots' index (runtime/jumps.c, compiled in here with
 * stand-ins for the runtime it calls): each unit syncs exactly its own
 * slots, found through the module's infos ordered by their switch byte,
 * whatever order the infos are in (link order is sorted as a rule; here
 * they are also reversed and shuffled, which the heapsort must order). */
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
void *pi_rt_malloc(size_t n) { return (malloc)(n); }
void *pi_rt_calloc(size_t n, size_t k) { return (calloc)(n, k); }
void pi_rt_free(void *p) { (free)(p); }

#define NF 64 /* functions: two units of 32 */
static struct pi_jump_info infos[NF];
static uint64_t slots[NF];
static uint8_t fnon[NF];   /* unit 0: [0, 32), unit 1: [32, 64) */
static char clean_code[NF], counting_code[NF];

static int32_t rel(const void *field, const void *to)
{
    return (int32_t)((intptr_t)to - (intptr_t)field);
}

/* info i describes function perm[i] */
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
}

/* forward: unit 0 registers first (link order: unit 1's infos start where
 * unit 0's ended, found without a search), else unit 1 first */
static void check_order(const char *what, const int *perm, int forward)
{
    lay_out(perm);
    indexes = NULL; /* (a fresh module) */
    struct pi_unit_rt u[2];
    memset(u, 0, sizeof u);
    for (int k = 0; k < 2; k++) {
        u[k].fnon = fnon + 32 * k;
        u[k].nfuncs = 32;
        for (int f = 0; f < 32; f++)
            fnon[32 * k + f] = (uint8_t)((f + k) % 2);
    }
    for (int i = 0; i < 2; i++) {
        int k = forward ? i : 1 - i;
        the_unit = &u[k];
        __perfinst_register_jumps(7, infos, infos + NF);
        EXPECT_EQ(32, u[k].njumps);
        for (int f = 0; f < NF; f++) {
            int mine = f / 32 == k, done = forward ? f / 32 <= k : f / 32 >= k;
            uint64_t want = !done ? 0 : fnon[f] ? (uintptr_t)&counting_code[f] : (uintptr_t)&clean_code[f];
            if (slots[f] != want)
                unit_fail(__FILE__, __LINE__, "%s: unit %d: function %d's slot (mine %d)", what, k, f, mine);
        }
    }
    /* a switch of unit 0 changes: only its slots follow */
    fnon[3] ^= 1;
    fnon[40] ^= 1; /* unit 1's: not synced by unit 0 */
    pi_sync_jumps_locked(&u[0]);
    EXPECT_EQ((uintptr_t)(fnon[3] ? &counting_code[3] : &clean_code[3]), slots[3]);
    EXPECT_EQ((uintptr_t)(fnon[40] ? &clean_code[40] : &counting_code[40]), slots[40]);
}

TEST(jump_index_link_order)
{
    int perm[NF];
    for (int i = 0; i < NF; i++)
        perm[i] = i;
    check_order("sorted", perm, 0);
    check_order("sorted, in link order", perm, 1);
}

TEST(jump_index_reversed_and_shuffled)
{
    int perm[NF];
    for (int i = 0; i < NF; i++)
        perm[i] = NF - 1 - i;
    check_order("reversed", perm, 0);
    check_order("reversed, units in link order", perm, 1);
    uint32_t x = 12345;
    for (int i = NF - 1; i > 0; i--) {
        x = x * 1103515245u + 12345u;
        int j = (int)((x >> 16) % (uint32_t)(i + 1)), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    check_order("shuffled", perm, 0);
    check_order("shuffled, units in link order", perm, 1);
}
