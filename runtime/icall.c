/* icall.c — the targets of indirect calls, for function ordering
 * (docs/layout.md "Indirect calls").
 *
 * In a function counted whole, the plugin puts before every call through a
 * pointer (gcc-plugin/pass-count.cc, only in the counting copy) an inline
 * cache of two targets, a thread-local slot of four words of its unit:
 *
 *   if (slot[0] == fnptr) slot[1] += 1;
 *   else if (slot[2] == fnptr) slot[3] += 1;
 *   else __perfinst_icall_miss2(U, S, fnptr, slot);   S: the call's PI_SITE_CALL site
 *
 * so only a target that is neither of the last two comes here (a site
 * that alternates between two never does).  Two more ways per slot, the
 * victims, live here (in the slot's cache_ref, which the thread finds
 * through a small table of its own by the slot's address): a target among
 * them comes back into the slot with its hits in place of a way that was
 * not hit since the slot last came here, or counts its hit among the
 * victims where both were (victim_hit) — an interpreter's call of its
 * builtins rotating over three targets (gawk's `split`, `int`, `length`
 * on each record) misses the slot once a turn, not at every call, and
 * costs no table update.  A target in none of the four
 * ways adds the hits of the oldest victim to the pair (site, its target),
 * moves each way one older and makes fnptr the newer with this call as its
 * one hit: one table update per miss at most.  Pairs are counted in a fixed open-addressing
 * table updated with atomics (no lock: the fatal-signal path writes it too).
 * The hits still in the slots are added when their thread ends, when the
 * trace is written (every thread's, as the counters are) and when their
 * unit is unloaded: the runtime learns each slot at its thread's first miss
 * there (slot[0] is 0 until then, and slot[2] with it) and keeps it in the
 * thread's list.
 * A miss costs 100 to 190 instructions (the stub, this C path, a table
 * update when a target leaves the victims): at a site of many targets in
 * turn (nginx's access-log handlers, its phase checkers: ten and fourteen)
 * or of a few in an order the data gives (json-c's per-type serialisers:
 * six) most of what counting costs.  So once a slot's ways were hit fewer
 * than 3 times a miss, over a window of 256 misses (over a quarter of its
 * calls missed: three targets in turn miss a third, four half, five or
 * more every call), it is saturated, unless PERFINST_ICALL=exact:
 * slot[2] holds PI_ICALL_SAT (no function's address) and slot[3] counts
 * down the misses to the next sample; the stub's first instructions (or
 * pi_icall_miss's first test) count a miss down and return.  Each sample
 * adds to the pair (site, its target) the misses since the last sample,
 * the period: 32 to 95, drawn at random, so that a rotation cannot alias
 * with it.  Way 0 keeps the target of the four ways that was hit most and
 * still counts its hits exactly (a dominant target that the others evict
 * stays exact, and costs a hit).  Every PI_ICALL_REJUDGE samples the slot
 * goes back to two exact ways and is judged again (sampled_miss).  The
 * site's pairs are then estimates, flagged PI_ICALL_SAMPLED in the trace
 * (tests/count/t-icall-sampled.sh).
 * At exit every pair becomes an ICALL record (type 58) with the run-time
 * target; pmopt maps it to a function of the program and adds the arc
 * (caller, callee, calls) to the call graph it orders.  A pair that finds
 * the table full is lost and counted (icall_lost, in the trace as an ICALL
 * record with site PI_NONE and count = the lost calls).
 */
#include "runtime.h"

#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PI_MAX_ICALLS 8192 /* power of two */
#define PI_ICALL_SAT 1       /* slot[2] of a saturated slot: no function's address */
#define PI_ICALL_WINDOW 256  /* misses of the two ways before a slot is judged */
#define PI_ICALL_HITS_PER_MISS 3 /* fewer hits a miss in a window: sampled */
#define PI_ICALL_REJUDGE 128 /* samples before a saturated slot is judged again */
#define PI_ICALL_PERIOD_MIN 32
#define PI_ICALL_PERIOD_SPAN 64

struct icall_slot {
    uint64_t key;  /* 0 free, ~0 being claimed; else a hash of (unit, site, target) | 1 */
    uint64_t unit_id;
    uint32_t site;
    uint64_t target;
    uint64_t count;
    uint32_t flags; /* PI_ICALL_SAMPLED */
};
static struct icall_slot icalls[PI_MAX_ICALLS];
static uint64_t icall_lost;
/* The slots taken, a bit each: the trace's writer and the fork child visit
 * those alone (the 8,192 slots' scan was 57,000 instructions of the exit
 * of every process that made an indirect call, busybox's included). */
static uint64_t icall_taken[PI_MAX_ICALLS / 64];
static uint32_t icall_used; /* slots taken: none, and the trace's writer skips even the bits */

/* The miss as the stub calls it first: pi_icall_miss and every function
 * it calls (icall_add, miss_slow, victim_hit, remember's common part and
 * the look-up through my_refs) use no vector, mask or x87 register, so
 * that the stub need not save them (general-regs-only; GCC inlines no
 * default-ISA function into these, so every function on this path is one
 * of them, runtime.h's pi_slot_* too), and call nothing outside this
 * group: libc may use vector registers (tests/count/t-icall-stub.sh
 * checks libperfinst.so's code).  What needs libc (a new chunk: gettid,
 * calloc) is pi_icall_miss_libc's, after the stub saved the vector state. */
#pragma GCC push_options
#pragma GCC target("general-regs-only")

__attribute__((noinline)) /* (tests/count/t-icall-cache.sh counts its calls) */
static void icall_add(uint64_t unit_id, uint32_t site, uint64_t t, uint64_t n, uint32_t flags)
{
    /* a multiplicative mix, not the byte-wise FNV: this runs on every
       change of target of the training build */
    uint64_t key = unit_id * 0x9e3779b97f4a7c15ull ^ (t + site) * 0xc2b2ae3d27d4eb4full;
    key = pi_slot_key(key ^ key >> 29);
    for (uint32_t i = 0; i < 64; i++) {
        uint32_t at = (uint32_t)(key + i) & (PI_MAX_ICALLS - 1);
        struct icall_slot *s = &icalls[at];
        uint64_t k = pi_slot_take(&s->key);
        if (k == 0) {
            __atomic_fetch_add(&icall_used, 1, __ATOMIC_RELAXED);
            __atomic_fetch_or(&icall_taken[at / 64], 1ull << (at % 64), __ATOMIC_RELAXED);
            s->unit_id = unit_id;
            s->site = site;
            s->target = t;
            __atomic_fetch_or(&s->flags, flags, __ATOMIC_RELAXED);
            __atomic_fetch_add(&s->count, n, __ATOMIC_RELAXED);
            __atomic_store_n(&s->key, key, __ATOMIC_RELEASE);
            return;
        }
        if (k == key && s->unit_id == unit_id && s->site == site && s->target == t) {
            if (flags)
                __atomic_fetch_or(&s->flags, flags, __ATOMIC_RELAXED);
            __atomic_fetch_add(&s->count, n, __ATOMIC_RELAXED);
            return;
        }
    }
    __atomic_fetch_add(&icall_lost, n, __ATOMIC_RELAXED);
}

/* The inline caches a thread has used: chunks on one list for all threads,
 * each owned by one thread (owner 0: free for the next thread to take). */
struct cache_ref {
    uint64_t *slot; /* the thread's slot (four words) in its unit's TLS */
    uint64_t unit_id;
    uint32_t site;
    uint64_t victim[2][2]; /* the two older ways: target (0: none), hits */
    uint64_t seen[2];      /* the slot's hits (slot[1], slot[3]) when it last came here */
    unsigned flip;         /* both ways idle: every other victim hit goes back into the slot */
    uint32_t misses;       /* misses of the two ways in this window of PI_ICALL_WINDOW */
    uint64_t hits;         /* the ways' hits in the window */
    uint32_t period;       /* saturated: the misses the next sample stands for */
    uint32_t rng;          /* saturated: the periods' generator */
    uint32_t samples;      /* saturated: samples taken since it was judged */
};
#define CHUNK_REFS 126
struct cache_chunk {
    struct cache_chunk *next;
    pid_t owner;    /* tid; 0 free */
    uint32_t n;     /* refs[0..n) valid (release-stored after the ref) */
    struct cache_ref refs[CHUNK_REFS];
};
static struct cache_chunk *chunks;
/* The units that have refs, one bit a hash of the unit's id: a unit that
 * leaves with none looks at no chunk (at exit each of BusyBox's 558 units
 * walked the chunks, with a gettid system call each). */
static uint64_t ref_units;
static inline __attribute__((always_inline)) uint64_t unit_bit(uint64_t unit_id)
{
    return 1ull << ((unit_id * 0x9e3779b97f4a7c15ull) >> 58);
}
static __thread struct cache_chunk *my_chunk __attribute__((tls_model("initial-exec")));
/* The thread's refs by their slot's address (direct-mapped: a slot whose
 * entry another took misses its victims until its next first miss, which
 * never comes — it then updates the table as with two ways; its victims'
 * hits are counted when its ref is flushed).  Small: static TLS. */
#define VICTIM_REFS 16
static __thread struct cache_ref *my_refs[VICTIM_REFS] __attribute__((tls_model("initial-exec")));
static unsigned ref_index(const uint64_t *slot) { return (unsigned)((uintptr_t)slot >> 5) & (VICTIM_REFS - 1); }

/* A new ref for SLOT in the thread's chunk, which has room
 * (pi_icall_miss_libc takes a chunk when it has none); its fields one by
 * one: a struct assignment may be a block store (vector registers, or a
 * call of memset). */
static struct cache_ref *remember(uint64_t *slot, uint64_t unit_id, uint32_t site)
{
    struct cache_chunk *c = my_chunk;
    struct cache_ref *r = &c->refs[c->n];
    r->slot = slot;
    r->unit_id = unit_id;
    r->site = site;
    r->victim[0][0] = r->victim[0][1] = r->victim[1][0] = r->victim[1][1] = 0;
    r->seen[0] = r->seen[1] = 0;
    r->flip = 0;
    r->misses = 0;
    r->hits = 0;
    r->period = 0;
    r->samples = 0;
    r->rng = (uint32_t)site * 2654435761u | 1;
    if (!(__atomic_load_n(&ref_units, __ATOMIC_RELAXED) & unit_bit(unit_id)))
        __atomic_fetch_or(&ref_units, unit_bit(unit_id), __ATOMIC_RELAXED);
    __atomic_store_n(&c->n, c->n + 1, __ATOMIC_RELEASE);
    return r;
}

/* The misses a sample stands for: 32 to 95 (xorshift). */
static uint32_t next_period(struct cache_ref *r)
{
    uint32_t x = r->rng;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    r->rng = x;
    return PI_ICALL_PERIOD_MIN + (x >> 8) % PI_ICALL_PERIOD_SPAN;
}

/* R's slot has missed PI_ICALL_WINDOW times with too few hits: the slot
 * samples its misses from here on.  Way 0 keeps, with its hits, the target
 * of the four ways that was hit most (a site whose one target takes most
 * of its calls among others that rotate keeps counting that one exactly,
 * at the hit's cost); the other three's hits and this miss's call of
 * TARGET go to the table, and the victims are emptied. */
static void saturate(struct cache_ref *r, uint64_t target, uint64_t *slot)
{
    uint64_t way[4][2] = {{slot[0], slot[1]}, {slot[2], slot[3]}, {r->victim[0][0], r->victim[0][1]},
                          {r->victim[1][0], r->victim[1][1]}};
    int keep = 0, held = 0;
    for (int w = 0; w < 4; w++) {
        if (way[w][1] && way[w][0] == target) /* (a victim: this call is its hit) */
            way[w][1]++, held = 1;
        if (way[w][1] > way[keep][1])
            keep = w;
    }
    for (int w = 0; w < 4; w++)
        if (w != keep && way[w][1])
            icall_add(r->unit_id, r->site, way[w][0], way[w][1], PI_ICALL_SAMPLED);
    if (!held)
        icall_add(r->unit_id, r->site, target, 1, PI_ICALL_SAMPLED);
    r->victim[0][0] = r->victim[0][1] = r->victim[1][0] = r->victim[1][1] = 0;
    r->period = next_period(r);
    slot[0] = way[keep][0];
    slot[1] = way[keep][1];
    slot[2] = PI_ICALL_SAT;
    slot[3] = r->period;
}

/* A miss of a saturated slot whose countdown ran out: TARGET stands for
 * the period's misses.  R may be another slot's (my_refs is direct-mapped):
 * then the mean period.  Every PI_ICALL_REJUDGE samples the slot of R goes
 * back to two ways, exact, to be judged again over a window: a site whose
 * calls rotate in one phase of the program and keep to two targets in the
 * next (Lua's calls of its C functions) does not stay sampled, with one
 * way, for good. */
static void sampled_miss(struct cache_ref *r, uint64_t unit_id, uint32_t site, uint64_t target, uint64_t *slot)
{
    int mine = r && r->slot == slot;
    uint32_t n = mine && r->period ? r->period : PI_ICALL_PERIOD_MIN + PI_ICALL_PERIOD_SPAN / 2;
    icall_add(unit_id, site, target, n, PI_ICALL_SAMPLED);
    if (mine && ++r->samples == PI_ICALL_REJUDGE) {
        r->samples = 0;
        r->misses = 0;
        r->hits = 0;
        r->seen[0] = slot[1];
        r->seen[1] = 0;
        slot[3] = 0;
        slot[2] = 0; /* (last: the stub tests slot[2] first) */
        return;
    }
    slot[3] = mine ? (r->period = next_period(r)) : n;
}

/* A target in neither way nor among the victims, or the slot's first. */
__attribute__((noinline)) static void miss_slow(uint64_t unit_id, uint32_t site, uint64_t target, uint64_t *slot)
{
    if (slot[0] == 0)
        my_refs[ref_index(slot)] = remember(slot, unit_id, site);
    else {
        struct cache_ref *r = my_refs[ref_index(slot)];
        if (r && r->slot == slot) {
            if (r->victim[1][1])
                icall_add(unit_id, site, r->victim[1][0], r->victim[1][1], 0);
            r->victim[1][0] = r->victim[0][0];
            r->victim[1][1] = r->victim[0][1];
            r->victim[0][0] = slot[2];
            r->victim[0][1] = slot[3];
        } else if (slot[3])
            icall_add(unit_id, site, slot[2], slot[3], 0);
        slot[2] = slot[0];
        slot[3] = slot[1];
    }
    slot[0] = target;
    slot[1] = 1;
}

/* TARGET, victim W of R, called again.  Which way of the slot was hit
 * since the slot last came here tells which one the victim may replace:
 * - both: the site rotates over more targets than the two ways, and any
 *   way evicted is the next one called (with the older way evicted every
 *   time, three targets in turn missed the slot at every call): the hit
 *   counts here, among the victims;
 * - one: the victim takes the idle way's place, the newer way;
 * - neither (the slot's last visit was this call's predecessor): every
 *   other time the victim goes back in, newer, the older way a victim;
 *   else the hit counts here.
 * Three targets in turn then miss the slot once a turn, four twice or
 * less (tests/count/t-icall-victims.sh). */
static void victim_hit(struct cache_ref *r, int w, uint64_t target, uint64_t *slot)
{
    int newer = slot[1] > r->seen[0], older = slot[3] > r->seen[1];
    if ((newer && older) || (!newer && !older && (r->flip ^= 1))) {
        r->victim[w][1]++;
        return;
    }
    uint64_t hits = r->victim[w][1];
    if (older && !newer) {
        r->victim[w][0] = slot[0];
        r->victim[w][1] = slot[1];
    } else {
        r->victim[w][0] = slot[2];
        r->victim[w][1] = slot[3];
        slot[2] = slot[0];
        slot[3] = slot[1];
    }
    slot[0] = target;
    slot[1] = hits + 1;
}

/* The miss, but for a slot's first when the thread has no chunk with room
 * for its ref: then 1, and nothing changed (pi_icall_miss_libc's turn);
 * else 0. */
__attribute__((visibility("hidden"))) int pi_icall_miss(uint64_t unit_id, uint32_t site, uint64_t target,
                                                         uint64_t *slot)
{
    struct cache_ref *r = my_refs[ref_index(slot)];
    if (slot[2] == PI_ICALL_SAT) {
        /* (the stub counted this miss down already, to 0) */
        if (slot[3] > 1) {
            slot[3]--;
            return 0;
        }
        sampled_miss(r, unit_id, site, target, slot);
        return 0;
    }
    if (slot[0] == 0 && (!my_chunk || my_chunk->n == CHUNK_REFS))
        return 1;
    if (slot[0] != 0 && r && r->slot == slot) {
        /* over a quarter of the calls in a window missed: sampled from
           here on */
        r->hits += slot[1] - r->seen[0] + slot[3] - r->seen[1];
        if (++r->misses == PI_ICALL_WINDOW && !pi.icall_exact) {
            if (r->hits < (uint64_t)PI_ICALL_HITS_PER_MISS * PI_ICALL_WINDOW) {
                saturate(r, target, slot);
                return 0;
            }
            r->misses = 0;
            r->hits = 0;
        }
    }
    int w = 0;
    if (slot[0] != 0 && r && r->slot == slot)
        while (w < 2 && r->victim[w][0] != target)
            w++;
    if (slot[0] != 0 && r && r->slot == slot && w < 2)
        victim_hit(r, w, target, slot);
    else {
        miss_slow(unit_id, site, target, slot);
        r = my_refs[ref_index(slot)];
        if (!r || r->slot != slot)
            return 0;
    }
    r->seen[0] = slot[1];
    r->seen[1] = slot[3];
    return 0;
}

#pragma GCC pop_options

/* The thread's chunk is full or it has none: take a free one or allocate
 * one.  0: no memory. */
static int take_chunk(void)
{
    pid_t me = gettid();
    struct cache_chunk *f;
    for (f = __atomic_load_n(&chunks, __ATOMIC_ACQUIRE); f; f = f->next) {
        pid_t free_ = 0; /* (a failed exchange stores the owner it found here) */
        if (__atomic_load_n(&f->owner, __ATOMIC_RELAXED) == 0 &&
            __atomic_compare_exchange_n(&f->owner, &free_, me, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
            break;
    }
    if (!f) {
        f = calloc(1, sizeof *f);
        if (!f)
            return 0;
        f->owner = me;
        struct cache_chunk *head = __atomic_load_n(&chunks, __ATOMIC_RELAXED);
        do
            f->next = head;
        while (!__atomic_compare_exchange_n(&chunks, &head, f, 1, __ATOMIC_RELEASE, __ATOMIC_RELAXED));
    }
    f->n = 0;
    my_chunk = f;
    /* A thread the runtime did not start (libc's pthread_create comes
       first: a counted library LD_PRELOADed or loaded by a plain program)
       is made known, so that its key destructor gives the chunk back as it
       ends: its slots lie in its TLS, which goes away with it. */
    if (!pi_self && pi_lock_from_counted()) {
        pi_thread_self_locked();
        pthread_mutex_unlock(&pi.lock);
    }
    return 1;
}

/* The miss, with libc's calls when it needs them: a chunk, then the miss.
 * With no memory the slot stays unknown to the runtime (never flushed:
 * the hits its ways get are lost) and works as two ways alone. */
__attribute__((visibility("hidden"))) void pi_icall_miss_libc(uint64_t unit_id, uint32_t site, uint64_t target,
                                                               uint64_t *slot)
{
    if (!pi_icall_miss(unit_id, site, target, slot)) /* (a sanitized stub calls this one only) */
        return;
    if (take_chunk())
        pi_icall_miss(unit_id, site, target, slot);
    else {
        slot[0] = target;
        slot[1] = 1;
    }
}

PI_EXPORT void __perfinst_icall_miss2(uint64_t unit_id, uint32_t site, uint64_t target, uint64_t *slot)
{
    if (pi_icall_miss(unit_id, site, target, slot))
        pi_icall_miss_libc(unit_id, site, target, slot);
}

/* clean-copies=final's miss path (gcc-plugin/unit.cc pi_icall_asm_template):
 * the whole cache is one asm in the counting copy, which GCC sees clobber
 * no register (only the flags, as every asm on x86), so its miss comes here
 * with every register of the program live.  The asm's out-of-line code
 * steps over the red zone and pushes, in this order, the target, the site,
 * the slot's local-exec offset, the unit id and the address of the asm's
 * end, then calls; here, above the return address:
 *
 *     8(%rsp) the asm's end   16 unit   24 slot offset   32 site   40 target
 *
 * and 128 bytes of red zone above those, then the function's own stack.
 * The stub saves the caller-saved general registers, aligns the stack and
 * calls pi_icall_miss with the slot's address (%fs:0 + offset: the
 * thread's slot), which changes no other register (general-regs-only, and
 * it calls nothing outside its group); it returns 0 when it did the miss:
 * the stub restores and returns, popping its arguments and the red zone
 * (`ret $168`).  It returns 1, having changed nothing, when the miss needs
 * libc (the thread's first miss of a slot, its chunk full or none: gettid,
 * calloc, which may use vector registers): then the stub saves the whole
 * extended state too — x87, xmm, ymm, zmm, k — with XSAVE, or x87 and xmm
 * with FXSAVE on a processor without it, calls pi_icall_miss_libc,
 * restores it and returns as above: once per 126 slots a thread misses
 * (tests/count/t-icall-stub.sh counts both under callgrind).  Its frame
 * description tells an unwinder that it was called from the asm's end
 * with the function's own stack pointer (CFA = the pointer before the
 * asm), so that a stack sampled in the miss, either way, goes on through
 * the counted function's frames; the out-of-line code itself (in the
 * function's section's subsection 1) has no frame description.  The size
 * of the save area comes from CPUID the first time (no C code may run
 * before the save but pi_icall_miss: any could change a vector register).
 * In a runtime built with AddressSanitizer or ThreadSanitizer, whose
 * checks call their own runtime, the stub always takes the second way. */
#if defined __SANITIZE_ADDRESS__ || defined __SANITIZE_THREAD__
/* the sanitizers' checks in pi_icall_miss call their runtime, which may
   use vector registers: always the whole save (pi_icall_miss_libc) */
#define PI_STUB_FAST "\tjmp 7f\n"
#else
#define PI_STUB_FAST \
    "\tandq $-16, %rsp\n" \
    "\tmovq 24(%rbp), %rdi\n" \
    "\tmovl 40(%rbp), %esi\n" \
    "\tmovq 48(%rbp), %rdx\n" \
    "\tmovq %fs:0, %rcx\n" \
    "\taddq 32(%rbp), %rcx\n" \
    "\tcall pi_icall_miss\n" /* general registers only */ \
    "\ttestl %eax, %eax\n" \
    "\tjnz 7f\n"
#endif
/* the stubs' save area (runtime.h PI_STUB_SAVE_EXT): bytes (0: not yet
   known), and XSAVE or FXSAVE */
__attribute__((used)) uint32_t pi_stub_save_size;
__attribute__((used)) uint8_t pi_stub_xsave;

__asm__(".text\n"
        "\t.globl __perfinst_icall_stub\n"
        "\t.type __perfinst_icall_stub, @function\n"
        "\t.p2align 4\n"
        "__perfinst_icall_stub:\n"
        "\t.cfi_startproc\n"
        "\t.cfi_def_cfa_offset 176\n"
        "\t.cfi_offset 16, -168\n" /* the return address: the asm's end */
        "\tendbr64\n"
        /* a saturated slot (slot[2] = PI_ICALL_SAT): count the miss down and
           return, until the sample's (slot[3] reaching 0) */
        "\tpushq %rax\n"
        "\t.cfi_adjust_cfa_offset 8\n"
        "\tmovq %fs:0, %rax\n"
        "\taddq 32(%rsp), %rax\n"
        "\tcmpq $1, 16(%rax)\n" /* PI_ICALL_SAT */
        "\tjne 5f\n"
        "\tsubq $1, 24(%rax)\n"
        "\tjz 5f\n"
        "\tpopq %rax\n"
        "\t.cfi_adjust_cfa_offset -8\n"
        "\tret $168\n"
        "\t.cfi_adjust_cfa_offset 8\n"
        "5:\tpopq %rax\n"
        "\t.cfi_adjust_cfa_offset -8\n"
        "\tpushq %rbp\n"
        "\t.cfi_def_cfa_offset 184\n"
        "\t.cfi_offset %rbp, -184\n"
        "\tmovq %rsp, %rbp\n"
        "\t.cfi_def_cfa_register %rbp\n"
        "\tpushq %rax\n\tpushq %rcx\n\tpushq %rdx\n\tpushq %rsi\n\tpushq %rdi\n"
        "\tpushq %r8\n\tpushq %r9\n\tpushq %r10\n\tpushq %r11\n\tpushq %rbx\n"
        PI_STUB_FAST
        "6:\tleaq -80(%rbp), %rsp\n"
        "\tpopq %rbx\n\tpopq %r11\n\tpopq %r10\n\tpopq %r9\n\tpopq %r8\n"
        "\tpopq %rdi\n\tpopq %rsi\n\tpopq %rdx\n\tpopq %rcx\n\tpopq %rax\n"
        "\tpopq %rbp\n"
        "\t.cfi_remember_state\n"
        "\t.cfi_def_cfa %rsp, 176\n"
        "\t.cfi_restore %rbp\n"
        "\tret $168\n"
        /* pi_icall_miss changed nothing: the vector state is saved, then
           pi_icall_miss_libc does the miss */
        "\t.cfi_restore_state\n"
        "7:" PI_STUB_SAVE_EXT
        "\tmovq 24(%rbp), %rdi\n"
        "\tmovl 40(%rbp), %esi\n"
        "\tmovq 48(%rbp), %rdx\n"
        "\tmovq %fs:0, %rcx\n"
        "\taddq 32(%rbp), %rcx\n"
        "\tcall pi_icall_miss_libc\n"
        PI_STUB_RESTORE_EXT("6b")
        "\t.cfi_endproc\n"
        "\t.size __perfinst_icall_stub, .-__perfinst_icall_stub\n");

/* The hits of one slot's ways go into the table (RESET: and the slot is
 * emptied, its thread ending). */
static void flush_slot(struct cache_ref *r, int reset)
{
    int sat = __atomic_load_n(&r->slot[2], __ATOMIC_RELAXED) == PI_ICALL_SAT;
    uint32_t flags = sat ? PI_ICALL_SAMPLED : 0;
    for (int w = 0; w < (sat ? 2 : 4); w += 2) {
        uint64_t hits = __atomic_exchange_n(&r->slot[w + 1], 0, __ATOMIC_RELAXED);
        if (hits)
            icall_add(r->unit_id, r->site, __atomic_load_n(&r->slot[w], __ATOMIC_RELAXED), hits, flags);
        if (reset)
            r->slot[w] = 0;
    }
    if (sat && reset)
        r->slot[2] = r->slot[3] = 0;
    for (int w = 0; w < 2; w++) {
        uint64_t hits = __atomic_exchange_n(&r->victim[w][1], 0, __ATOMIC_RELAXED);
        if (hits)
            icall_add(r->unit_id, r->site, __atomic_load_n(&r->victim[w][0], __ATOMIC_RELAXED), hits, flags);
        if (reset)
            r->victim[w][0] = 0;
    }
}

/* The hits still in the slots go into the table: of every thread (the
 * trace), or of the caches of one unit (its module is unloaded). */
static void flush(int one_unit, uint64_t unit_id)
{
    for (struct cache_chunk *c = __atomic_load_n(&chunks, __ATOMIC_ACQUIRE); c; c = c->next) {
        pid_t owner = __atomic_load_n(&c->owner, __ATOMIC_ACQUIRE);
        /* an owner that ended without giving its chunk back (it took it
           after its key destructor's last round): its slots' TLS is gone */
        if (!owner || (owner != gettid() && syscall(SYS_tgkill, pi.pid, owner, 0) != 0))
            continue;
        uint32_t n = __atomic_load_n(&c->n, __ATOMIC_ACQUIRE);
        for (uint32_t i = 0; i < n; i++) {
            struct cache_ref *r = &c->refs[i];
            if (!r->slot || (one_unit && r->unit_id != unit_id))
                continue;
            flush_slot(r, 0);
            if (one_unit)
                r->slot = NULL; /* its TLS goes away with the module */
        }
    }
}

void pi_icall_unit_gone(uint64_t unit_id)
{
    if (__atomic_load_n(&ref_units, __ATOMIC_ACQUIRE) & unit_bit(unit_id))
        flush(1, unit_id);
}

/* The calling thread ends: its slots' hits are counted and its chunks
 * freed for another thread. */
void pi_icall_thread_exit(void)
{
    pid_t me = gettid();
    for (struct cache_chunk *c = __atomic_load_n(&chunks, __ATOMIC_ACQUIRE); c; c = c->next) {
        if (__atomic_load_n(&c->owner, __ATOMIC_RELAXED) != me)
            continue;
        for (uint32_t i = 0; i < c->n; i++) {
            struct cache_ref *r = &c->refs[i];
            if (r->slot)
                flush_slot(r, 1);
        }
        __atomic_store_n(&c->n, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&c->owner, 0, __ATOMIC_RELEASE);
    }
    my_chunk = NULL;
    memset(my_refs, 0, sizeof my_refs);
}

void pi_icall_write(struct pi_rec_writer *w)
{
    flush(0, 0);
    uint32_t words = __atomic_load_n(&icall_used, __ATOMIC_RELAXED) ? PI_MAX_ICALLS / 64 : 0;
    for (uint32_t word = 0; word < words; word++)
        for (uint64_t bits = __atomic_load_n(&icall_taken[word], __ATOMIC_RELAXED); bits;
             bits &= bits - 1) {
            struct icall_slot *s = &icalls[word * 64 + (uint32_t)__builtin_ctzll(bits)];
            uint64_t k = __atomic_load_n(&s->key, __ATOMIC_ACQUIRE);
            if (k == 0 || k == ~0ULL)
                continue;
            struct pi_rec_icall r = {.unit_id = s->unit_id, .site = s->site, .target = s->target,
                                     .flags = __atomic_load_n(&s->flags, __ATOMIC_RELAXED),
                                     .count = __atomic_load_n(&s->count, __ATOMIC_RELAXED)};
            if (!r.count)
                continue;
            w->begin(PI_REC_ICALL);
            w->put(&r, sizeof r);
            w->end();
        }
    uint64_t lost = __atomic_load_n(&icall_lost, __ATOMIC_RELAXED);
    if (lost) {
        struct pi_rec_icall r = {.site = PI_NONE, .count = lost};
        w->begin(PI_REC_ICALL);
        w->put(&r, sizeof r);
        w->end();
    }
}

/* In a fork child: the calls before the fork are the parent's (as the
 * counters are); the pairs stay, their counts start afresh.  Only the
 * forking thread came along: the other threads' chunks are free again. */
void pi_icall_after_fork(void)
{
    for (uint32_t word = 0; word < PI_MAX_ICALLS / 64; word++)
        for (uint64_t bits = __atomic_load_n(&icall_taken[word], __ATOMIC_RELAXED); bits; bits &= bits - 1) {
            struct icall_slot *s = &icalls[word * 64 + (uint32_t)__builtin_ctzll(bits)];
            s->count = 0;
            s->flags = 0;
        }
    icall_lost = 0;
    pid_t me = gettid();
    for (struct cache_chunk *c = chunks; c; c = c->next) {
        if (c->owner == 0)
            continue;
        if (c != my_chunk && (!my_chunk || c->owner != my_chunk->owner)) {
            c->n = 0;
            c->owner = 0;
            continue;
        }
        c->owner = me;
        for (uint32_t i = 0; i < c->n; i++)
            if (c->refs[i].slot) {
                c->refs[i].slot[1] = 0;
                if (c->refs[i].slot[2] != PI_ICALL_SAT) /* (else slot[3] is the countdown) */
                    c->refs[i].slot[3] = 0;
                c->refs[i].victim[0][1] = c->refs[i].victim[1][1] = 0;
            }
    }
}
