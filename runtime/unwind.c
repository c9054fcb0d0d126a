/* unwind.c — a signal-safe stack walker for x86-64 code built without frame
 * pointers: the DWARF call-frame information of .eh_frame, found through
 * each object's .eh_frame_hdr search table.
 *
 * Why our own: a frame-pointer walk gives garbage in -O2 code (GCC omits
 * the frame pointer; the walk stops at, or jumps through, the first frame
 * that uses rbp as an ordinary register).  libgcc's _Unwind_Backtrace reads
 * the same CFI but finds each frame's FDE with dl_iterate_phdr, which takes
 * the loader's lock, and it cannot start from an arbitrary interrupted
 * context; libunwind's unw_init_local2(UNW_INIT_SIGNAL_FRAME) can, but it
 * too asks dl_iterate_phdr on a cache miss and would be a new dependency of
 * the runtime (which is libc and pthreads only).  Here the objects' tables
 * are looked up once in normal context (pi_unwind_refresh: at start, when a
 * thread starts, from the idle samplers' loop) and the walk itself only
 * reads memory: the search table, the FDE and CIE, and the stack inside the
 * thread's bounds.  docs/sampling-stacks.md.
 *
 *   frame 0: the registers of the interrupted context (ucontext)
 *   each step: pc → FDE (binary search of .eh_frame_hdr) → run the CIE's and
 *   the FDE's CFA program up to pc → CFA = reg + offset; saved registers at
 *   CFA + n; the return address is the caller's pc; rsp = CFA.
 *   the end: the return address rule is "undefined" (_start, clone's child).
 *   code without an FDE: a leaf at a direct call's return address
 *   (step_stub), _init and _fini, the loader's entry code, or a frame
 *   pointer that leads to a return address (step_frame_pointer).
 */
#include "sample.h"

#include <elf.h>
#include <link.h>
#include <string.h>
#include <sys/auxv.h>

/* ---- the objects and their search tables ----------------------------------------- */

#define MAX_OBJS 512
struct obj {
    uintptr_t lo, hi;            /* executable segment(s), run-time */
    uintptr_t bias;
    const uint8_t *hdr;          /* .eh_frame_hdr, or NULL */
    const int32_t *table;        /* pairs (initial_loc, fde) relative to hdr */
    uint32_t nfde;
    uintptr_t start_lo, start_hi; /* the dynamic loader's entry code (no FDE): the first frame */
    struct initfini {             /* _init and _fini (DT_INIT, DT_FINI; no FDE): lo < body <= epi */
        uintptr_t lo, body, epi;  /* entry, after `sub $8,%rsp`, at `add $8,%rsp; ret` */
    } initfini[2];
    uint32_t build_id_len;
    uint8_t build_id[PI_BUILD_ID_MAX];
    char path[256];
};
static struct obj objs[MAX_OBJS];
static int nobjs;                /* published with a release store */
static pthread_mutex_t refresh_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned char seen[MAX_OBJS]; /* found by this refresh */
static unsigned table_gen;       /* bumped when the table changes: the walk caches restart */

static int same_obj(const struct obj *o, uintptr_t bias, uintptr_t lo)
{
    return o->bias == bias && o->lo == lo;
}

/* The dynamic loader's entry code: glibc's _start and _dl_start_user in
 * ld.so have no FDE.  _dl_start_user calls _dl_init, which runs the
 * libraries' constructors (libperfinst.so's starts the timers), so a
 * sample in a later constructor has a return address there.  It is the
 * process's first frame (it jumps to the program's _start, never returns):
 * a pc from the loader's entry point up to the next FDE ends the walk,
 * complete.  The loader is the object at AT_BASE; its ELF header (mapped,
 * at offset 0 of its first segment) gives the entry point. */
static void loader_entry(const struct dl_phdr_info *info, struct obj *o)
{
    uintptr_t base = (uintptr_t)getauxval(AT_BASE);
    if (!base || info->dlpi_addr != base || !o->hdr || !o->nfde)
        return;
    const ElfW(Ehdr) *eh = NULL;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_LOAD && info->dlpi_phdr[i].p_offset == 0)
            eh = (const ElfW(Ehdr) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
    if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) || !eh->e_entry)
        return;
    uintptr_t entry = base + eh->e_entry, next = o->hi;
    if (entry < o->lo || entry >= o->hi)
        return;
    intptr_t rel = (intptr_t)(entry - (uintptr_t)o->hdr);
    for (uint32_t i = 0; i < o->nfde; i++) /* the table is sorted: the first FDE past entry */
        if (o->table[2 * i] > rel) {
            next = (uintptr_t)o->hdr + (uintptr_t)(intptr_t)o->table[2 * i];
            break;
        }
    o->start_lo = entry;
    o->start_hi = next;
}

/* An object's _init and _fini (DT_INIT, DT_FINI) are glibc's crti.o and
 * crtn.o pieces of the .init and .fini sections, with no FDE:
 *     [endbr64]  sub $8,%rsp  (what other objects put into the section:
 *     calls, as gcrt1's __gmon_start__ call in _init)  add $8,%rsp  ret
 * A timer can expire on those instructions, and a sample in a function they
 * call returns into them; the constructor and destructor paths of every
 * object pass there.  Between the two adjustments the return address is at
 * rsp + 8, elsewhere at rsp.  The shape is checked, not assumed: code of
 * another shape keeps no range (the walk ends there, truncated). */
static void initfini_of(uintptr_t fn, const struct dl_phdr_info *info, struct initfini *r)
{
    static const uint8_t endbr[4] = {0xf3, 0x0f, 0x1e, 0xfa}, sub8[4] = {0x48, 0x83, 0xec, 0x08},
                         epi[5] = {0x48, 0x83, 0xc4, 0x08, 0xc3};
    uintptr_t end = 0; /* of the executable segment that holds fn: the bytes read are there */
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t s = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && fn >= s && fn < s + ph->p_filesz)
            end = s + ph->p_filesz;
    }
    if (!end || fn + 8 > end)
        return;
    const uint8_t *p = (const uint8_t *)fn;
    if (!memcmp(p, endbr, 4))
        p += 4;
    if (memcmp(p, sub8, 4))
        return;
    uintptr_t body = (uintptr_t)(p + 4);
    for (uintptr_t a = body; a + 5 <= end && a - body < 4096; a++)
        if (!memcmp((const void *)a, epi, 5)) {
            *r = (struct initfini){fn, body, a};
            return;
        }
}

static void find_initfini(const struct dl_phdr_info *info, struct obj *o)
{
    const ElfW(Dyn) *d = NULL;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
            d = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
    for (; d && d->d_tag != DT_NULL; d++)
        if (d->d_tag == DT_INIT || d->d_tag == DT_FINI) /* not relocated in place by ld.so */
            initfini_of(info->dlpi_addr + d->d_un.d_ptr, info, &o->initfini[d->d_tag == DT_FINI]);
}

static int refresh_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)data;
    (void)size;
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    const uint8_t *hdr = NULL;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
            uintptr_t s = info->dlpi_addr + ph->p_vaddr, e = s + ph->p_memsz;
            lo = s < lo ? s : lo;
            hi = e > hi ? e : hi;
        } else if (ph->p_type == PT_GNU_EH_FRAME)
            hdr = (const uint8_t *)(info->dlpi_addr + ph->p_vaddr);
    }
    if (hi <= lo)
        return 0;
    int n = nobjs;
    for (int i = 0; i < n; i++)
        if (same_obj(&objs[i], info->dlpi_addr, lo) && objs[i].hdr == hdr) {
            seen[i] = 1;
            return 0;
        }
    if (n == MAX_OBJS)
        return 0;
    struct obj *o = &objs[n];
    memset(o, 0, sizeof *o);
    o->lo = lo;
    o->hi = hi;
    o->bias = info->dlpi_addr;
    /* .eh_frame_hdr: version 1, then the encodings of eh_frame_ptr, the
     * count and the table; we read the common table form (datarel sdata4). */
    if (hdr && hdr[0] == 1 && hdr[3] == 0x3b) {
        const uint8_t *p = hdr + 4;
        int ok = 1;
        switch (hdr[1] & 0x0f) { /* eh_frame_ptr: skip it */
        case 0x03: case 0x0b: p += 4; break;
        case 0x00: case 0x04: case 0x0c: p += 8; break;
        default: ok = 0;
        }
        uint32_t count = 0;
        if (ok && ((hdr[2] & 0x0f) == 0x03 || (hdr[2] & 0x0f) == 0x0b)) {
            memcpy(&count, p, 4);
            p += 4;
        } else if (ok && ((hdr[2] & 0x0f) == 0x04 || (hdr[2] & 0x0f) == 0x0c)) {
            uint64_t c;
            memcpy(&c, p, 8);
            count = (uint32_t)c;
            p += 8;
        } else
            ok = 0;
        if (ok) {
            o->hdr = hdr;
            o->table = (const int32_t *)p;
            o->nfde = count;
        }
    }
    loader_entry(info, o);
    find_initfini(info, o);
    /* the build-id, for pmopt to match the file it symbolizes with */
    for (int i = 0; i < info->dlpi_phnum && !o->build_id_len; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_NOTE)
            o->build_id_len = pi_note_build_id((const unsigned char *)(info->dlpi_addr + ph->p_vaddr),
                                               ph->p_filesz, ph->p_align, o->build_id);
    }
    const char *name = info->dlpi_name && *info->dlpi_name ? info->dlpi_name
                       : !n ? (pi.exe ? pi.exe : "") : "";
    size_t len = strlen(name);
    if (len >= sizeof o->path)
        len = sizeof o->path - 1;
    memcpy(o->path, name, len);
    o->path[len] = 0;
    seen[n] = 1;
    PI_STORE(&nobjs, n + 1);
    PI_STORE(&table_gen, table_gen + 1);
    return 0;
}

/* An object that went away (dlclose) keeps its entry with an empty range,
 * so no pc finds its tables any more (a walk already inside it when it is
 * unmapped is a race the program's own dlclose would lose too). */
void pi_unwind_refresh(void)
{
    pthread_mutex_lock(&refresh_lock);
    memset(seen, 0, sizeof seen);
    dl_iterate_phdr(refresh_cb, NULL);
    for (int i = 0; i < nobjs; i++)
        if (!seen[i] && objs[i].hi) {
            PI_STORE(&objs[i].hi, 0);
            PI_STORE(&table_gen, table_gen + 1);
        }
    pthread_mutex_unlock(&refresh_lock);
}

void pi_unwind_write_maps(struct pi_rec_writer *w)
{
    int n = PI_LOAD(&nobjs);
    for (int i = 0; i < n; i++) {
        const struct obj *o = &objs[i];
        if (!PI_LOAD(&o->hi))
            continue;
        struct pi_rec_sample_map m = {.lo = o->lo, .hi = o->hi, .bias = o->bias,
                                      .build_id_len = o->build_id_len,
                                      .path_len = (uint32_t)strlen(o->path) + 1};
        memcpy(m.build_id, o->build_id, sizeof m.build_id);
        w->begin(PI_REC_SAMPLE_MAP);
        w->put(&m, sizeof m);
        w->put(o->path, m.path_len);
        w->end();
    }
}

static const struct obj *obj_of(uintptr_t pc)
{
    int n = PI_LOAD(&nobjs);
    for (int i = 0; i < n; i++)
        if (pc >= objs[i].lo && pc < objs[i].hi)
            return &objs[i];
    return NULL;
}

/* ---- reading CFI ----------------------------------------------------------------------------- */

struct rd {
    const uint8_t *p, *end;
    int bad;
};

static uint64_t uleb(struct rd *r)
{
    uint64_t v = 0;
    unsigned shift = 0;
    while (r->p < r->end) {
        uint8_t b = *r->p++;
        if (shift < 64)
            v |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
        if (!(b & 0x80))
            return v;
    }
    r->bad = 1;
    return 0;
}

static int64_t sleb(struct rd *r)
{
    int64_t v = 0;
    unsigned shift = 0;
    uint8_t b = 0;
    while (r->p < r->end) {
        b = *r->p++;
        if (shift < 64)
            v |= (int64_t)((uint64_t)(b & 0x7f) << shift);
        shift += 7;
        if (!(b & 0x80)) {
            if (shift < 64 && (b & 0x40))
                v |= -((int64_t)1 << shift);
            return v;
        }
    }
    r->bad = 1;
    return 0;
}

static uint64_t fixed(struct rd *r, int n)
{
    if (r->end - r->p < n) {
        r->bad = 1;
        return 0;
    }
    uint64_t v = 0;
    memcpy(&v, r->p, (size_t)n);
    r->p += n;
    return v;
}

/* A pointer in encoding enc (DW_EH_PE_*). */
static uint64_t encoded(struct rd *r, uint8_t enc)
{
    if (enc == 0xff)
        return 0;
    const uint8_t *at = r->p;
    uint64_t v;
    switch (enc & 0x0f) {
    case 0x00: v = fixed(r, 8); break;
    case 0x01: v = uleb(r); break;
    case 0x02: v = fixed(r, 2); break;
    case 0x03: v = fixed(r, 4); break;
    case 0x04: v = fixed(r, 8); break;
    case 0x09: v = (uint64_t)sleb(r); break;
    case 0x0a: v = (uint64_t)(int64_t)(int16_t)fixed(r, 2); break;
    case 0x0b: v = (uint64_t)(int64_t)(int32_t)fixed(r, 4); break;
    case 0x0c: v = fixed(r, 8); break;
    default: r->bad = 1; return 0;
    }
    switch (enc & 0x70) {
    case 0x00: break;
    case 0x10: v += (uint64_t)(uintptr_t)at; break; /* pcrel */
    default: r->bad = 1; return 0;                  /* textrel, datarel, funcrel: not in .eh_frame */
    }
    if (enc & 0x80)
        r->bad = 1; /* indirect: only for personality pointers, which we skip */
    return v;
}

#define NREGS 17 /* DWARF x86-64: 0 rax 1 rdx 2 rcx 3 rbx 4 rsi 5 rdi 6 rbp 7 rsp 8-15 r8-r15 16 ra */
#define RA 16
#define SP 7
#define BP 6
enum { R_SAME, R_UNDEF, R_OFFSET, R_VAL_OFFSET, R_REG, R_EXPR, R_VAL_EXPR };
struct rule {
    uint8_t how;
    int64_t val;
    const uint8_t *expr;     /* R_EXPR, R_VAL_EXPR: the block (uleb length first) */
};
struct frame_state {
    int cfa_reg;
    int64_t cfa_off;
    const uint8_t *cfa_expr; /* DW_CFA_def_cfa_expression, or NULL */
    struct rule r[NREGS];
};

struct cie {
    uint64_t code_align;
    int64_t data_align;
    uint64_t ra_reg;
    uint8_t fde_enc;
    int has_z, signal_frame;
    const uint8_t *insns, *insns_end;
};

static int parse_cie(const uint8_t *p, struct cie *c)
{
    uint32_t len32;
    memcpy(&len32, p, 4);
    if (len32 == 0xffffffffu || len32 < 8)
        return -1;
    struct rd r = {p + 4, p + 4 + len32, 0};
    if (fixed(&r, 4) != 0) /* CIE id 0 in .eh_frame */
        return -1;
    uint8_t version = (uint8_t)fixed(&r, 1);
    const char *aug = (const char *)r.p;
    while (r.p < r.end && *r.p)
        r.p++;
    r.p++;
    if (version == 4) { /* address size, segment size */
        r.p += 2;
    }
    c->code_align = uleb(&r);
    c->data_align = sleb(&r);
    c->ra_reg = version == 1 ? fixed(&r, 1) : uleb(&r);
    c->fde_enc = 0; /* absptr */
    c->has_z = 0;
    c->signal_frame = 0;
    const uint8_t *aug_end = NULL;
    for (const char *a = aug; *a && !r.bad; a++) {
        switch (*a) {
        case 'z': {
            uint64_t n = uleb(&r);
            c->has_z = 1;
            aug_end = r.p + n;
            break;
        }
        case 'R': c->fde_enc = (uint8_t)fixed(&r, 1); break;
        case 'L': fixed(&r, 1); break;
        case 'P': {
            uint8_t e = (uint8_t)fixed(&r, 1);
            encoded(&r, e & 0x7f); /* the personality pointer: skipped */
            break;
        }
        case 'S': c->signal_frame = 1; break;
        case 'B': break;
        default:
            if (!aug_end)
                return -1; /* an augmentation we cannot skip */
            goto done;
        }
    }
done:
    if (aug_end)
        r.p = aug_end;
    if (r.bad || r.p > r.end || c->ra_reg != RA)
        return -1;
    c->insns = r.p;
    c->insns_end = r.end;
    return 0;
}

/* The FDE covering pc in o: 0 with the CIE, the FDE's instructions and its
 * start address, or -1. */
static int find_fde(const struct obj *o, uintptr_t pc, struct cie *c, const uint8_t **insns,
                    const uint8_t **insns_end, uintptr_t *start)
{
    if (!o->hdr || !o->nfde)
        return -1;
    intptr_t rel = (intptr_t)(pc - (uintptr_t)o->hdr);
    uint32_t lo = 0, hi = o->nfde;
    if (rel < o->table[0])
        return -1;
    while (hi - lo > 1) { /* the last entry with initial_loc <= pc */
        uint32_t mid = lo + (hi - lo) / 2;
        if (o->table[2 * mid] <= rel)
            lo = mid;
        else
            hi = mid;
    }
    const uint8_t *fde = o->hdr + o->table[2 * lo + 1];
    uint32_t len32, cie_off;
    memcpy(&len32, fde, 4);
    if (len32 == 0xffffffffu || len32 < 12)
        return -1;
    memcpy(&cie_off, fde + 4, 4);
    if (!cie_off || parse_cie(fde + 4 - cie_off, c))
        return -1;
    struct rd r = {fde + 8, fde + 4 + len32, 0};
    uintptr_t begin = (uintptr_t)encoded(&r, c->fde_enc);
    uintptr_t range = (uintptr_t)encoded(&r, c->fde_enc & 0x0f);
    if (r.bad || pc < begin || pc - begin >= range)
        return -1;
    if (c->has_z) {
        uint64_t n = uleb(&r);
        r.p += n;
    }
    if (r.bad || r.p > r.end)
        return -1;
    *insns = r.p;
    *insns_end = r.end;
    *start = begin;
    return 0;
}

/* Run a CFA program from loc up to (and including) instructions before
 * target.  init: the state after the CIE's program, for DW_CFA_restore. */
static int run_cfa(struct rd *r, const struct cie *c, uintptr_t loc, uintptr_t target,
                   struct frame_state *fs, const struct frame_state *init)
{
    struct frame_state stack[8];
    int depth = 0;
    while (r->p < r->end && !r->bad) {
        uint8_t op = *r->p++;
        uint64_t reg = 0;
        int64_t off;
        switch (op & 0xc0) {
        case 0x40: /* advance_loc */
            loc += (op & 0x3f) * c->code_align;
            if (loc > target)
                return 0;
            continue;
        case 0x80: /* offset */
            reg = op & 0x3f;
            off = (int64_t)uleb(r) * c->data_align;
            if (reg < NREGS)
                fs->r[reg] = (struct rule){R_OFFSET, off, NULL};
            continue;
        case 0xc0: /* restore */
            reg = op & 0x3f;
            if (reg < NREGS)
                fs->r[reg] = init ? init->r[reg] : (struct rule){R_SAME, 0, NULL};
            continue;
        }
        switch (op) {
        case 0x00: break; /* nop */
        case 0x01: loc = (uintptr_t)encoded(r, c->fde_enc); if (loc > target) return 0; break;
        case 0x02: loc += fixed(r, 1) * c->code_align; if (loc > target) return 0; break;
        case 0x03: loc += fixed(r, 2) * c->code_align; if (loc > target) return 0; break;
        case 0x04: loc += fixed(r, 4) * c->code_align; if (loc > target) return 0; break;
        case 0x05: /* offset_extended */
            reg = uleb(r);
            off = (int64_t)uleb(r) * c->data_align;
            if (reg < NREGS)
                fs->r[reg] = (struct rule){R_OFFSET, off, NULL};
            break;
        case 0x06: /* restore_extended */
            reg = uleb(r);
            if (reg < NREGS)
                fs->r[reg] = init ? init->r[reg] : (struct rule){R_SAME, 0, NULL};
            break;
        case 0x07: /* undefined */
            reg = uleb(r);
            if (reg < NREGS)
                fs->r[reg] = (struct rule){R_UNDEF, 0, NULL};
            break;
        case 0x08: /* same_value */
            reg = uleb(r);
            if (reg < NREGS)
                fs->r[reg] = (struct rule){R_SAME, 0, NULL};
            break;
        case 0x09: { /* register */
            reg = uleb(r);
            uint64_t r2 = uleb(r);
            if (reg < NREGS)
                fs->r[reg] = (struct rule){R_REG, (int64_t)r2, NULL};
            break;
        }
        case 0x0a: /* remember_state */
            if (depth == 8)
                return -1;
            stack[depth++] = *fs;
            break;
        case 0x0b: /* restore_state: the rules and the CFA, as libgcc does */
            if (!depth)
                return -1;
            *fs = stack[--depth];
            break;
        case 0x0c: /* def_cfa */
            fs->cfa_reg = (int)uleb(r);
            fs->cfa_off = (int64_t)uleb(r);
            fs->cfa_expr = NULL;
            break;
        case 0x0d: fs->cfa_reg = (int)uleb(r); fs->cfa_expr = NULL; break;
        case 0x0e: fs->cfa_off = (int64_t)uleb(r); break;
        case 0x0f: { /* def_cfa_expression */
            fs->cfa_expr = r->p;
            uint64_t n = uleb(r);
            r->p += n;
            break;
        }
        case 0x10: case 0x16: { /* expression, val_expression */
            reg = uleb(r);
            const uint8_t *e = r->p;
            uint64_t n = uleb(r);
            r->p += n;
            if (reg < NREGS)
                fs->r[reg] = (struct rule){op == 0x10 ? R_EXPR : R_VAL_EXPR, 0, e};
            break;
        }
        case 0x11: /* offset_extended_sf */
            reg = uleb(r);
            off = sleb(r) * c->data_align;
            if (reg < NREGS)
                fs->r[reg] = (struct rule){R_OFFSET, off, NULL};
            break;
        case 0x12: /* def_cfa_sf */
            fs->cfa_reg = (int)uleb(r);
            fs->cfa_off = sleb(r) * c->data_align;
            fs->cfa_expr = NULL;
            break;
        case 0x13: fs->cfa_off = sleb(r) * c->data_align; break;
        case 0x14: /* val_offset */
            reg = uleb(r);
            off = (int64_t)uleb(r) * c->data_align;
            if (reg < NREGS)
                fs->r[reg] = (struct rule){R_VAL_OFFSET, off, NULL};
            break;
        case 0x15:
            reg = uleb(r);
            off = sleb(r) * c->data_align;
            if (reg < NREGS)
                fs->r[reg] = (struct rule){R_VAL_OFFSET, off, NULL};
            break;
        case 0x2e: uleb(r); break; /* GNU_args_size */
        case 0x2f: /* GNU_negative_offset_extended */
            reg = uleb(r);
            off = -(int64_t)uleb(r) * c->data_align;
            if (reg < NREGS)
                fs->r[reg] = (struct rule){R_OFFSET, off, NULL};
            break;
        default:
            return -1;
        }
    }
    return r->bad ? -1 : 0;
}

/* ---- the walk ---------------------------------------------------------------------------------- */

struct bounds {
    uintptr_t lo, hi;
};

static int readable(const struct bounds *b, uintptr_t a)
{
    return a >= b->lo && a + 8 <= b->hi && !(a & 7);
}

static int load(const struct bounds *b, uintptr_t a, uint64_t *v)
{
    if (!readable(b, a))
        return -1;
    *v = *(const uint64_t *)a;
    return 0;
}

/* A DWARF expression of the few forms .eh_frame uses: breg, lit, const,
 * plus_uconst, deref, the arithmetic, shifts and comparisons (glibc's
 * signal trampoline; GNU ld's PLT entries, whose CFA is rsp + 8, plus 8
 * more from the entry's 11th byte on: `breg7 8; breg16 0; lit15; and;
 * lit11; ge; lit3; shl; plus`, tests/sampling/t-plt.sh).  The CFA (or
 * nothing) is pushed first. */
static int eval_expr(const uint8_t *e, const uint64_t *regs, const struct bounds *b, int push_cfa,
                     uint64_t cfa, uint64_t *out)
{
    struct rd r = {e, e + 16, 0};
    uint64_t n = uleb(&r);
    r.end = r.p + n;
    uint64_t st[16];
    int sp = 0;
    if (push_cfa)
        st[sp++] = cfa;
    while (r.p < r.end && !r.bad) {
        uint8_t op = *r.p++;
        if (sp >= 15)
            return -1;
        if (op >= 0x30 && op <= 0x4f) { /* lit0..31 */
            st[sp++] = op - 0x30;
        } else if (op >= 0x70 && op <= 0x80) { /* breg0..16 */
            st[sp++] = regs[op - 0x70] + (uint64_t)sleb(&r);
        } else {
            switch (op) {
            case 0x06: /* deref */
                if (sp < 1 || load(b, st[sp - 1], &st[sp - 1]))
                    return -1;
                break;
            case 0x08: st[sp++] = fixed(&r, 1); break;
            case 0x09: st[sp++] = (uint64_t)(int64_t)(int8_t)fixed(&r, 1); break;
            case 0x0a: st[sp++] = fixed(&r, 2); break;
            case 0x0b: st[sp++] = (uint64_t)(int64_t)(int16_t)fixed(&r, 2); break;
            case 0x0c: st[sp++] = fixed(&r, 4); break;
            case 0x0d: st[sp++] = (uint64_t)(int64_t)(int32_t)fixed(&r, 4); break;
            case 0x10: st[sp++] = uleb(&r); break;
            case 0x11: st[sp++] = (uint64_t)sleb(&r); break;
            case 0x23: if (sp < 1) return -1; st[sp - 1] += uleb(&r); break;
            case 0x1a: case 0x1c: case 0x22: case 0x1e: case 0x21: case 0x2a: case 0x2d:
            case 0x29: case 0x2b: case 0x2c: case 0x2e: case 0x24: case 0x25: case 0x26: case 0x27: {
                if (sp < 2)
                    return -1;
                uint64_t y = st[--sp], x = st[--sp], v = 0;
                switch (op) {
                case 0x1a: v = x & y; break;
                case 0x1c: v = x - y; break;
                case 0x22: v = x + y; break;
                case 0x1e: v = x * y; break;
                case 0x21: v = x | y; break;
                case 0x27: v = x ^ y; break;
                case 0x24: v = y < 64 ? x << y : 0; break;                             /* shl */
                case 0x25: v = y < 64 ? x >> y : 0; break;                             /* shr */
                case 0x26: v = (uint64_t)((int64_t)x >> (y < 64 ? y : 63)); break; /* shra */
                case 0x2a: v = (int64_t)x >= (int64_t)y; break;
                case 0x2d: v = (int64_t)x < (int64_t)y; break;
                case 0x29: v = x == y; break;
                case 0x2b: v = (int64_t)x > (int64_t)y; break;
                case 0x2c: v = (int64_t)x <= (int64_t)y; break;
                case 0x2e: v = x != y; break;
                }
                st[sp++] = v;
                break;
            }
            default:
                return -1;
            }
        }
    }
    if (r.bad || sp < 1)
        return -1;
    *out = st[sp - 1];
    return 0;
}

/* One step: regs of the caller of the frame at regs[RA].  exact: regs[RA]
 * is the pc of an interrupted instruction (frame 0, or the frame a signal
 * interrupted), not a return address; *exact_next says so of the caller. */
static const uint8_t kept_regs[7] = {3, 6, 12, 13, 14, 15, RA};

/* The step of a cached pc. */
static int step_cached(uint64_t *regs, const struct pi_ucache_ent *e, const struct bounds *b,
                       int *end, int *exact_next)
{
    uint64_t cfa = regs[e->cfa_reg] + (uint64_t)(int64_t)e->cfa_off;
    if (e->ra_undef) {
        *end = 1;
        return 0;
    }
    uint64_t out[NREGS];
    memcpy(out, regs, sizeof out);
    for (int i = 0; i < 7; i++)
        if (e->off[i] != INT16_MIN && load(b, cfa + (uint64_t)(int64_t)e->off[i], &out[kept_regs[i]]))
            return -1;
    out[SP] = cfa;
    *exact_next = 0;
    if (out[RA] == 0) {
        *end = 1;
        return 0;
    }
    if (cfa <= regs[SP])
        return -1;
    memcpy(regs, out, sizeof out);
    return 0;
}

/* Keep fs's rules for pc look in the cache if they are of the plain kind. */
static void cache_put(struct pi_ucache *cache, uintptr_t look, const struct frame_state *fs,
                      const struct cie *c)
{
    if (fs->cfa_expr || fs->cfa_reg < 0 || fs->cfa_reg >= NREGS || c->signal_frame ||
        fs->cfa_off != (int32_t)fs->cfa_off)
        return;
    struct pi_ucache_ent e = {.pc = look, .cfa_off = (int32_t)fs->cfa_off,
                              .cfa_reg = (uint8_t)fs->cfa_reg, .ra_undef = fs->r[RA].how == R_UNDEF};
    for (int i = 0; i < 7; i++)
        e.off[i] = INT16_MIN;
    for (int r = 0; r < NREGS; r++) {
        const struct rule *ru = &fs->r[r];
        if (ru->how == R_SAME || (ru->how == R_UNDEF && r != RA) || (r == RA && e.ra_undef))
            continue;
        int k = -1;
        for (int i = 0; i < 7; i++)
            if (kept_regs[i] == r)
                k = i;
        if (k < 0 || ru->how != R_OFFSET || ru->val != (int16_t)ru->val || ru->val == INT16_MIN)
            return;
        e.off[k] = (int16_t)ru->val;
    }
    cache->e[(look ^ (look >> 9)) % PI_UCACHE_SIZE] = e;
}

/* An interrupted pc no FDE covers.  glibc's clone and clone3 end their FDE
 * before the system call (the child's unwind information would be wrong),
 * so a timer that expires during the call is delivered at such a pc; in
 * the parent rsp points at the return address.  That address is taken only
 * when it follows a direct call (e8 rel32) to at most 4 KiB below pc from
 * code whose own FDE covers the call — the call's target, or where a
 * jump there leads: a counting copy calls an assembly leaf of another unit
 * (GMP's mpn_add_n) at its weak stand-in `g.pi_entry: jmp g` —; any other
 * FDE-less code still ends the walk. */
static uintptr_t through_jumps(uintptr_t target)
{
    for (int hop = 0; hop < 2; hop++) {
        const struct obj *o = obj_of(target);
        if (!o || target + 16 > o->hi) /* (endbr64, then up to 7 bytes of jump) */
            return target;
        const uint8_t *p = (const uint8_t *)target;
        if (p[0] == 0xf3 && p[1] == 0x0f && p[2] == 0x1e && p[3] == 0xfa)
            p += 4; /* endbr64 */
        int32_t rel;
        if (p[0] == 0xf2 && p[1] == 0xff && p[2] == 0x25)
            p++; /* bnd jmp: a PLT entry of an IBT/MPX-era linker */
        if (p[0] == 0xe9)
            memcpy(&rel, p + 1, 4), target = (uintptr_t)(p + 5) + (uintptr_t)(intptr_t)rel;
        else if (p[0] == 0xeb)
            target = (uintptr_t)(p + 2) + (uintptr_t)(intptr_t)(int8_t)p[1];
        else if (p[0] == 0xff && p[1] == 0x25) { /* jmp *GOT(%rip): a PLT entry; the GOT is the object's, mapped */
            memcpy(&rel, p + 2, 4);
            uint64_t to;
            memcpy(&to, (const void *)((uintptr_t)(p + 6) + (uintptr_t)(intptr_t)rel), 8);
            target = (uintptr_t)to;
        } else
            return target;
    }
    return target;
}

/* Whether ra follows a direct call (e8 rel32, in code an FDE covers) of
 * the function pc is in: the call's target, or where a jump or a PLT
 * entry there leads, at most reach bytes below pc. */
static int calls_into(uint64_t ra, uintptr_t pc, uintptr_t reach)
{
    const struct obj *co = ra >= 5 ? obj_of(ra - 1) : NULL;
    if (!co || ra - 5 < co->lo)
        return 0;
    const uint8_t *call = (const uint8_t *)(ra - 5); /* in the object's code */
    if (call[0] != 0xe8)
        return 0;
    struct cie c;
    const uint8_t *insns, *insns_end;
    uintptr_t start;
    if (find_fde(co, ra - 1, &c, &insns, &insns_end, &start) || ra - 5 < start)
        return 0;
    int32_t rel;
    memcpy(&rel, call + 1, 4);
    uintptr_t target = (uintptr_t)ra + (uintptr_t)(intptr_t)rel;
    return (target <= pc && pc - target < reach) ||
           ((target = through_jumps(target)) <= pc && pc - target < reach);
}

static int step_stub(uint64_t *regs, const struct bounds *b, int *exact_next)
{
    uint64_t ra;
    if (load(b, regs[SP], &ra) || !calls_into(ra, regs[RA], 4096))
        return -1;
    regs[RA] = ra;
    regs[SP] += 8;
    *exact_next = 0;
    return 0;
}

/* Code no FDE covers that pushed registers and keeps no frame pointer
 * (GMP's mpn functions in assembly: 41-68 % of their samples cut): the
 * nearest word above rsp, within SCAN_WORDS, that is a return address
 * after a direct call (e8 rel32, in code an FDE covers) whose target — or
 * where a jump or a PLT entry there leads — is at most 64 KiB below pc:
 * the call of the function pc is in.  0 with *slot and *ra, else -1. */
#define SCAN_WORDS 64
static int scan_return(const uint64_t *regs, const struct bounds *b, uint64_t *slot, uint64_t *ra)
{
    for (int k = 1; k <= SCAN_WORDS; k++) {
        uint64_t at = regs[SP] + 8 * (uint64_t)k, v;
        if (load(b, at, &v))
            return -1;
        if (calls_into(v, regs[RA], 65536)) {
            *slot = at;
            *ra = v;
            return 0;
        }
    }
    return -1;
}

/* Whether ra is a return address: the instruction before it is a call —
 * `call rel32` (e8) or `call r/m64` (ff /2, 2 to 7 bytes with its ModRM,
 * SIB and displacement) — in code an FDE covers. */
static int after_call(uintptr_t ra)
{
    const struct obj *o = obj_of(ra - 1);
    struct cie c;
    const uint8_t *insns, *insns_end;
    uintptr_t start;
    if (!o || ra < o->lo + 7 || find_fde(o, ra - 1, &c, &insns, &insns_end, &start))
        return 0;
    const uint8_t *e = (const uint8_t *)ra; /* ra - 7 .. ra - 1: in the object's code */
    if (e[-5] == 0xe8)
        return 1;
    for (int k = 2; k <= 7; k++) {
        const uint8_t *p = e - k;
        if (p[0] != 0xff || ((p[1] >> 3) & 7) != 2)
            continue;
        int mod = p[1] >> 6, rm = p[1] & 7, len = 2;
        if (mod != 3 && rm == 4) {
            len++; /* SIB */
            if (mod == 0 && (p[2] & 7) == 5)
                len += 4;
        }
        if (mod == 0 && rm == 5)
            len += 4; /* rip + disp32 */
        len += mod == 1 ? 1 : mod == 2 ? 4 : 0;
        if (len == k)
            return 1;
    }
    return 0;
}

/* Code no FDE covers that keeps a frame pointer (hand-written assembly —
 * nasm's and yasm's functions that begin `push rbp; mov rbp, rsp`, as
 * libjpeg-turbo's SIMD code does —, code generated at run time): rbp
 * points at the caller's rbp, the return address above it.  Taken only
 * when rbp lies in the stack at or above rsp and the word at rbp + 8 is a
 * return address (after_call); -O2 code uses rbp as an ordinary register,
 * and a value that fails either test ends the walk, truncated. */
static int step_frame_pointer(uint64_t *regs, const struct bounds *b, int *exact_next)
{
    uint64_t fp = regs[BP], saved, ra;
    if (fp < regs[SP] || load(b, fp, &saved) || load(b, fp + 8, &ra) || !after_call(ra))
        return -1;
    regs[RA] = ra;
    regs[SP] = fp + 16;
    regs[BP] = saved;
    *exact_next = 0;
    return 0;
}

/* The interrupted pc in code no FDE covers, not at a return address
 * (step_stub): a frame pointer (step_frame_pointer) or a scanned return
 * address (scan_return).  When both are found the nearer frame is the
 * true one: the frame pointer's when its return address is the scanned
 * one (it restores rbp too); else the scanned, and an rbp whose frame lies
 * above it is still the caller's (the leaf made none: GMP's mul_basecase
 * called by mul_n, which reckons its frame from rbp), kept; else the
 * caller's rbp may be a word the leaf pushed that is a frame above the
 * return address.  The registers the leaf may have changed without
 * saying so are then unknown, made 0 (rbx, r12-r15, and rbp unless kept
 * or found): a later frame whose CFA is reckoned from one of them reads
 * outside the stack and ends the walk, truncated, rather than going on
 * wrong. */
static int step_leaf(uint64_t *regs, const struct bounds *b, int *exact_next)
{
    uint64_t slot, ra, fp = regs[BP], saved, fra;
    int fp_ok = fp >= regs[SP] && !load(b, fp, &saved) && !load(b, fp + 8, &fra) && after_call(fra);
    if (scan_return(regs, b, &slot, &ra))
        return step_frame_pointer(regs, b, exact_next);
    if (fp_ok && fp + 8 == slot)
        return step_frame_pointer(regs, b, exact_next);
    regs[3] = regs[12] = regs[13] = regs[14] = regs[15] = 0; /* rbx r12-r15 */
    if (!(fp_ok && fp + 8 > slot)) {
        /* the leaf used rbp: the caller's may be among the words it pushed,
           one that is a frame above the return address (GMP's mul_basecase
           under mul_n: all but 4 of 150 periods cut) */
        regs[BP] = 0;
        for (uint64_t at = regs[SP]; at < slot; at += 8) {
            uint64_t w, wra;
            if (!load(b, at, &w) && w > slot && !load(b, w, &saved) && !load(b, w + 8, &wra) &&
                after_call(wra)) {
                regs[BP] = w;
                break;
            }
        }
    }
    regs[RA] = ra;
    regs[SP] = slot + 8;
    *exact_next = 0;
    return 0;
}

/* A pc in _init or _fini (look: pc, or a return address - 1): the caller's
 * frame, as a CFA rule rsp + 8 or rsp + 16 would give it.  1 when look is
 * there (-1 when the return address cannot be read), 0 when not. */
static int step_initfini(const struct obj *o, uintptr_t look, uint64_t *regs,
                         const struct bounds *b)
{
    for (int i = 0; i < 2; i++) {
        const struct initfini *r = &o->initfini[i];
        if (!r->lo || look < r->lo || look > r->epi + 4) /* epi + 4: the ret */
            continue;
        uint64_t cfa = regs[SP] + (look >= r->body && look <= r->epi ? 16 : 8), ra;
        if (load(b, cfa - 8, &ra))
            return -1;
        regs[RA] = ra;
        regs[SP] = cfa;
        return 1;
    }
    return 0;
}

static int step(uint64_t *regs, int exact, const struct bounds *b, int *end, int *exact_next,
                struct pi_ucache *cache)
{
    uintptr_t pc = regs[RA];
    /* A return address is one past the call: look up the call itself. */
    uintptr_t look = exact ? pc : pc - 1;
    if (cache) {
        const struct pi_ucache_ent *e = &cache->e[(look ^ (look >> 9)) % PI_UCACHE_SIZE];
        if (e->pc == look) {
            cache->hits++;
            return step_cached(regs, e, b, end, exact_next);
        }
        cache->misses++;
    }
    const struct obj *o = obj_of(look);
    if (!o)
        return step_frame_pointer(regs, b, exact_next);
    struct cie c;
    const uint8_t *insns, *insns_end;
    uintptr_t start;
    if (find_fde(o, look, &c, &insns, &insns_end, &start)) {
        if (look >= o->start_lo && look < o->start_hi) { /* the loader's entry code: the first frame */
            *end = 1;
            return 0;
        }
        int in = step_initfini(o, look, regs, b);
        if (in) {
            *exact_next = 0;
            return in < 0 ? -1 : 0;
        }
        if (exact && !step_stub(regs, b, exact_next))
            return 0;
        return exact ? step_leaf(regs, b, exact_next) : step_frame_pointer(regs, b, exact_next);
    }
    struct frame_state fs, init;
    memset(&fs, 0, sizeof fs); /* R_SAME everywhere */
    struct rd r = {c.insns, c.insns_end, 0};
    if (run_cfa(&r, &c, start, UINTPTR_MAX, &fs, NULL))
        return -1;
    init = fs;
    r = (struct rd){insns, insns_end, 0};
    if (run_cfa(&r, &c, start, look, &fs, &init))
        return -1;
    if (cache)
        cache_put(cache, look, &fs, &c);

    uint64_t cfa;
    if (fs.cfa_expr) {
        if (eval_expr(fs.cfa_expr, regs, b, 0, 0, &cfa))
            return -1;
    } else {
        if (fs.cfa_reg < 0 || fs.cfa_reg >= NREGS)
            return -1;
        cfa = regs[fs.cfa_reg] + (uint64_t)fs.cfa_off;
    }
    if (fs.r[RA].how == R_UNDEF) {
        *end = 1;
        return 0;
    }
    uint64_t out[NREGS];
    memcpy(out, regs, sizeof out);
    for (int i = 0; i < NREGS; i++) {
        const struct rule *ru = &fs.r[i];
        uint64_t v;
        switch (ru->how) {
        case R_SAME: break;
        case R_UNDEF: break;
        case R_OFFSET:
            if (load(b, cfa + (uint64_t)ru->val, &v))
                return -1;
            out[i] = v;
            break;
        case R_VAL_OFFSET: out[i] = cfa + (uint64_t)ru->val; break;
        case R_REG:
            if (ru->val < 0 || ru->val >= NREGS)
                return -1;
            out[i] = regs[ru->val];
            break;
        case R_EXPR:
            if (eval_expr(ru->expr, regs, b, 1, cfa, &v) || load(b, v, &v))
                return -1;
            out[i] = v;
            break;
        case R_VAL_EXPR:
            if (eval_expr(ru->expr, regs, b, 1, cfa, &v))
                return -1;
            out[i] = v;
            break;
        }
    }
    out[SP] = cfa;
    *exact_next = c.signal_frame; /* a signal trampoline's caller was interrupted, not calling */
    if (out[RA] == 0) {
        *end = 1;
        return 0;
    }
    /* no progress: a loop in bad CFI (the signal trampoline moves rsp up too) */
    if (cfa <= regs[SP] && !c.signal_frame)
        return -1;
    memcpy(regs, out, sizeof out);
    return 0;
}

int pi_unwind(const ucontext_t *uc, uintptr_t stack_lo, uintptr_t stack_hi, uint64_t *frames,
              int max, int *complete, struct pi_ucache *cache)
{
    if (cache && cache->gen != PI_LOAD(&table_gen)) {
        memset(cache->e, 0, sizeof cache->e);
        cache->gen = PI_LOAD(&table_gen);
    }
    const greg_t *g = uc->uc_mcontext.gregs;
    uint64_t regs[NREGS] = {
        (uint64_t)g[REG_RAX], (uint64_t)g[REG_RDX], (uint64_t)g[REG_RCX], (uint64_t)g[REG_RBX],
        (uint64_t)g[REG_RSI], (uint64_t)g[REG_RDI], (uint64_t)g[REG_RBP], (uint64_t)g[REG_RSP],
        (uint64_t)g[REG_R8],  (uint64_t)g[REG_R9],  (uint64_t)g[REG_R10], (uint64_t)g[REG_R11],
        (uint64_t)g[REG_R12], (uint64_t)g[REG_R13], (uint64_t)g[REG_R14], (uint64_t)g[REG_R15],
        (uint64_t)g[REG_RIP],
    };
    struct bounds b = {stack_lo, stack_hi};
    int n = 0, end = 0;
    *complete = 0;
    /* On a stack we do not know the bounds of (a coroutine's, a signal
     * stack) any read could fault: the pc alone. */
    if (!stack_hi || regs[SP] < stack_lo || regs[SP] >= stack_hi) {
        frames[0] = regs[RA];
        return max > 0;
    }
    if (regs[SP] - 128 > b.lo)
        b.lo = regs[SP] - 128; /* the red zone is below rsp; nothing lives further down */
    int exact = 1;
    while (n < max) {
        frames[n++] = regs[RA];
        if (step(regs, exact, &b, &end, &exact, cache))
            return n;
        if (end) {
            *complete = 1;
            return n;
        }
    }
    return n;
}

/* ---- the calling thread's own stack ---------------------------------------------------------- */

static __thread uintptr_t self_lo, self_hi; /* the mapping of the calling thread's stack */
static __thread int self_no_maps;           /* /proc/self/maps could not be read: not again */

struct stack_find {
    uintptr_t sp, lo, hi;
};

static int stack_line(const char *s, size_t n, void *arg)
{
    struct stack_find *f = arg;
    uint64_t lo, hi;
    if (!pi_maps_range(s, n, &lo, &hi) || f->sp < lo || f->sp >= hi)
        return 0;
    f->lo = lo;
    f->hi = hi;
    return 1;
}

/* The return addresses from start (a probe's, in the marked code) on: the
 * thread's own registers here, walked as a sample's are (so the runtime
 * needs no libgcc unwinder: no libgcc_s loaded in every process), the
 * frames before start (the runtime's own) left out.  Normal context only:
 * the first call of a thread reads its stack's bounds, and a start in no
 * object the table knows (the first walk, a library loaded since) refreshes
 * the table. */
unsigned pi_stack_from(uintptr_t start, uintptr_t *frames, unsigned max)
{
    if (max <= 1 || !start) {
        frames[0] = start;
        return 1;
    }
    uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
    if ((sp < self_lo || sp >= self_hi) && !self_no_maps) {
        /* the mapping that holds this frame, read again when the frame is
           outside it (the first walk, the main thread's stack grown, another
           stack); not pthread_getattr_np, which takes memory from the
           program's heap (the main thread's reads /proc/self/maps through
           stdio) */
        struct stack_find f = {sp, 0, 0};
        self_no_maps = pi_maps_each(stack_line, &f) < 0; /* (then the walk gives start alone) */
        self_lo = f.lo;
        self_hi = f.hi;
    }
    if (!obj_of(start))
        pi_unwind_refresh();
    /* the registers the walk needs, at label 1 (no stack change between) */
    uint64_t r[8];
    __asm__ volatile("leaq 1f(%%rip), %%rax\n\t"
                     "movq %%rax, 0(%0)\n\t"
                     "movq %%rsp, 8(%0)\n\t"
                     "movq %%rbp, 16(%0)\n\t"
                     "movq %%rbx, 24(%0)\n\t"
                     "movq %%r12, 32(%0)\n\t"
                     "movq %%r13, 40(%0)\n\t"
                     "movq %%r14, 48(%0)\n\t"
                     "movq %%r15, 56(%0)\n"
                     "1:"
                     :
                     : "r"(r)
                     : "rax", "memory");
    ucontext_t uc;
    memset(&uc.uc_mcontext, 0, sizeof uc.uc_mcontext);
    greg_t *g = uc.uc_mcontext.gregs;
    g[REG_RIP] = (greg_t)r[0];
    g[REG_RSP] = (greg_t)r[1];
    g[REG_RBP] = (greg_t)r[2];
    g[REG_RBX] = (greg_t)r[3];
    g[REG_R12] = (greg_t)r[4];
    g[REG_R13] = (greg_t)r[5];
    g[REG_R14] = (greg_t)r[6];
    g[REG_R15] = (greg_t)r[7];
    /* the runtime's own frames before start are a few: the walk goes no
       further than max frames past them (an allocation's 4, not the
       whole stack) */
    uint64_t buf[PI_SAMPLE_MAX_FRAMES];
    int complete, want = max + 16 < PI_SAMPLE_MAX_FRAMES ? (int)max + 16 : PI_SAMPLE_MAX_FRAMES;
    int n = pi_unwind(&uc, self_lo, self_hi, buf, want, &complete, NULL);
    unsigned k = 0;
    int i = 0;
    while (i < n && buf[i] != start)
        i++;
    for (; i < n && k < max; i++)
        frames[k++] = (uintptr_t)buf[i];
    if (k == 0) /* the walk did not reach the probe's frame */
        frames[k++] = start;
    return k;
}
