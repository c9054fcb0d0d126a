/* bench/i1sim/i1sim.c — a valgrind tool: cachegrind's I1 simulation for
 * many layouts of one program in one run (docs/layout.md "Counting many
 * layouts in one run").
 *
 *   valgrind --tool=i1sim --layouts=FILE [--out=FILE] ./prog ARGS
 *
 * FILE describes K layouts of the running executable as address deltas:
 *
 *   i1sim-layouts 1
 *   geometry SIZE ASSOC LINE        (cachegrind's --I1; default 32768 8 64)
 *   layouts K
 *   name I LABEL                    (optional, 0 <= I < K)
 *   region LO HI D0 D1 ... D(K-1)   (hex link addresses of the executable,
 *                                    [LO, HI); decimal byte deltas, each a
 *                                    multiple of LINE)
 *
 * Every instruction fetch is simulated once per layout, in a cache of its
 * own, at its address plus the delta of its region in that layout (0 outside
 * every region: the shared libraries, the loader, code no region names).
 * The cache is cachegrind's I1 (cg_sim.c): LRU sets holding the line
 * number as tag, an instruction that straddles two lines refers to both and
 * misses once if either misses.  So a layout whose executable is this one
 * with its code moved by the region's deltas counts what cachegrind counts
 * on that executable, as long as the program runs the same instructions
 * there (bench/layout-map.py writes FILE from the linked layouts).
 *
 * The output (--out, default i1sim.out): "i1sim 1", "irefs N", then one
 * line "layout I MISSES LABEL" per layout.
 */
#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_machine.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_clientstate.h"

#define MAX_LAYOUTS 1024

static const HChar *clo_layouts = NULL;
static const HChar *clo_out = "i1sim.out";

static UInt g_size = 32768, g_assoc = 8, g_line = 64;
static UInt line_bits, sets_mask, layout_tags;   /* layout_tags: sets * assoc */
static Int nlayouts;
static HChar *labels[MAX_LAYOUTS];

typedef struct {
    Addr lo, hi;     /* link addresses */
    Long *delta;     /* nlayouts deltas, in bytes as read, in lines once checked */
} Region;
static Region *regions;
static Int nregions, cap_regions;

static UWord *tags;          /* nlayouts * sets * assoc, MRU first */
static ULong *misses;        /* per layout */
static ULong irefs;

/* what the instrumentation knows of one instruction */
typedef struct {
    Addr a;          /* runtime address */
    UInt len;
    Int region;      /* -1: no region (delta 0 everywhere) */
} Instr;

/* the last reference: an instruction wholly in the line of the last one,
 * in the same region, refers to an MRU line of every layout (a hit that
 * changes nothing) */
static UWord last_line1 = ~(UWord)0, last_line2 = ~(UWord)0;
static Int last_region = -2;

static void fail(const HChar *what, const HChar *detail)
{
    VG_(umsg)("i1sim: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    VG_(exit)(2);
}

static __inline__ Bool set_ref_is_miss(UWord *set, UWord tag)
{
    UInt i, j;
    if (set[0] == tag) return False;
    for (i = 1; i < g_assoc; i++)
        if (set[i] == tag) {
            for (j = i; j > 0; j--) set[j] = set[j - 1];
            set[0] = tag;
            return False;
        }
    for (j = g_assoc - 1; j > 0; j--) set[j] = set[j - 1];
    set[0] = tag;
    return True;
}

static VG_REGPARM(1) void i1_ref(Instr *in)
{
    UWord b1 = in->a >> line_bits, b2 = (in->a + in->len - 1) >> line_bits;
    Int k;
    irefs++;
    if (b1 == b2 && in->region == last_region && (b1 == last_line1 || b1 == last_line2))
        return;
    last_line1 = b1; last_line2 = b2; last_region = in->region;
    for (k = 0; k < nlayouts; k++) {
        Long d = in->region < 0 ? 0 : regions[in->region].delta[k];
        UWord m1 = b1 + d, m2 = b2 + d;
        UWord *c = tags + (SizeT)k * layout_tags;
        /* across two lines: both referred to (either may change), one miss */
        Bool miss = set_ref_is_miss(c + (m1 & sets_mask) * g_assoc, m1);
        if (m2 != m1) miss |= set_ref_is_miss(c + (m2 & sets_mask) * g_assoc, m2);
        if (miss) misses[k]++;
    }
}

/* ---- the executable's link addresses ---- */
static PtrdiffT exe_bias;
static Bool exe_known;
static Addr regions_lo, regions_hi;

static const HChar *base_name(const HChar *p)
{
    const HChar *s = VG_(strrchr)(p, '/');
    return s ? s + 1 : p;
}

/* the executable's load bias, from its debug information (read when it was
 * mapped, before its first instruction runs) */
static void find_exe(void)
{
    const DebugInfo *di;
    for (di = VG_(next_DebugInfo)(NULL); di; di = VG_(next_DebugInfo)(di)) {
        const HChar *f = VG_(DebugInfo_get_filename)(di);
        if (f && VG_(strcmp)(base_name(f), base_name(VG_(args_the_exename))) == 0) {
            exe_bias = VG_(DebugInfo_get_text_bias)(di);
            exe_known = True;
            return;
        }
    }
}

/* the region of runtime address A, or -1 (every region lies in the
 * executable's image: an address between the first region and the end of
 * the last is the executable's, whatever its section) */
static Int region_of(Addr a)
{
    Addr link;
    Int lo = 0, hi = nregions - 1;
    if (!exe_known) find_exe();
    if (!exe_known || nregions == 0) return -1;
    link = a - exe_bias;
    if (link < regions_lo || link >= regions_hi) return -1;
    while (lo <= hi) {
        Int mid = (lo + hi) / 2;
        if (link < regions[mid].lo) hi = mid - 1;
        else if (link >= regions[mid].hi) lo = mid + 1;
        else return mid;
    }
    return -1;
}

/* a bump allocator for Instr records (never freed: a translation may be
 * discarded and made again, which costs a record more) */
static Instr *pool;
static UInt pool_left;
static Instr *new_instr(void)
{
    if (pool_left == 0) {
        pool_left = 65536;
        pool = VG_(malloc)("i1sim.instr", pool_left * sizeof(Instr));
    }
    pool_left--;
    return pool++;
}

static IRSB *i1_instrument(VgCallbackClosure *closure, IRSB *in, const VexGuestLayout *layout,
                           const VexGuestExtents *vge, const VexArchInfo *archinfo_host,
                           IRType gWordTy, IRType hWordTy)
{
    IRSB *out = deepCopyIRSBExceptStmts(in);
    Int i;
    (void)closure; (void)layout; (void)vge; (void)archinfo_host; (void)gWordTy; (void)hWordTy;
    for (i = 0; i < in->stmts_used; i++) {
        IRStmt *st = in->stmts[i];
        if (!st || st->tag == Ist_NoOp) continue;
        addStmtToIRSB(out, st);
        if (st->tag == Ist_IMark) {
            Instr *r = new_instr();
            IRDirty *d;
            r->a = st->Ist.IMark.addr + st->Ist.IMark.delta;
            r->len = st->Ist.IMark.len ? st->Ist.IMark.len : VG_MIN_INSTR_SZB;
            r->region = region_of(r->a);
            d = unsafeIRDirty_0_N(1, "i1_ref", VG_(fnptr_to_fnentry)(&i1_ref),
                                  mkIRExprVec_1(mkIRExpr_HWord((HWord)r)));
            addStmtToIRSB(out, IRStmt_Dirty(d));
        }
    }
    return out;
}

/* ---- the layouts file ---- */
static HChar *next_line(HChar **p)
{
    HChar *s = *p, *e;
    if (!*s) return NULL;
    e = VG_(strchr)(s, '\n');
    if (e) { *e = 0; *p = e + 1; } else *p = s + VG_(strlen)(s);
    return s;
}

static HChar *skip_ws(HChar *s)
{
    while (*s == ' ' || *s == '\t') s++;
    return s;
}

static void read_layouts(void)
{
    SysRes sr;
    Int fd;
    struct vg_stat st;
    HChar *buf, *p, *l;
    Long got = 0;
    UInt lineno = 0;
    if (!clo_layouts) fail("--layouts=FILE is required", NULL);
    sr = VG_(open)(clo_layouts, VKI_O_RDONLY, 0);
    if (sr_isError(sr)) fail("cannot open the layouts file", clo_layouts);
    fd = sr_Res(sr);
    if (VG_(fstat)(fd, &st) != 0) fail("cannot stat the layouts file", clo_layouts);
    buf = VG_(malloc)("i1sim.file", st.size + 1);
    while (got < st.size) {
        Int n = VG_(read)(fd, buf + got, st.size - got);
        if (n <= 0) fail("cannot read the layouts file", clo_layouts);
        got += n;
    }
    buf[got] = 0;
    VG_(close)(fd);
    p = buf;
    while ((l = next_line(&p)) != NULL) {
        HChar *s = skip_ws(l), *e;
        lineno++;
        if (lineno == 1) {
            if (VG_(strcmp)(s, "i1sim-layouts 1") != 0)
                fail("not an i1sim layouts file (first line \"i1sim-layouts 1\")", clo_layouts);
            continue;
        }
        if (!*s || *s == '#') continue;
        if (VG_(strncmp)(s, "geometry ", 9) == 0) {
            g_size = VG_(strtoull10)(s + 9, &e);
            g_assoc = VG_(strtoull10)(e, &e);
            g_line = VG_(strtoull10)(e, &e);
        } else if (VG_(strncmp)(s, "layouts ", 8) == 0) {
            nlayouts = VG_(strtoll10)(s + 8, &e);
            if (nlayouts < 1 || nlayouts > MAX_LAYOUTS) fail("layouts: expected 1 to 1024", clo_layouts);
        } else if (VG_(strncmp)(s, "name ", 5) == 0) {
            Long i = VG_(strtoll10)(s + 5, &e);
            if (i < 0 || i >= nlayouts) fail("name: no such layout", clo_layouts);
            labels[i] = VG_(strdup)("i1sim.label", skip_ws(e));
        } else if (VG_(strncmp)(s, "region ", 7) == 0) {
            Region *r;
            Int k;
            if (nlayouts < 1) fail("region before layouts", clo_layouts);
            if (nregions == cap_regions) {
                cap_regions = cap_regions ? 2 * cap_regions : 256;
                regions = VG_(realloc)("i1sim.regions", regions, cap_regions * sizeof(Region));
            }
            r = &regions[nregions++];
            r->lo = VG_(strtoull16)(s + 7, &e);
            r->hi = VG_(strtoull16)(e, &e);
            if (r->hi <= r->lo) fail("region: empty or reversed", clo_layouts);
            if (nregions > 1 && r->lo < regions[nregions - 2].hi)
                fail("regions must be sorted and disjoint", clo_layouts);
            r->delta = VG_(malloc)("i1sim.delta", nlayouts * sizeof(Long));
            for (k = 0; k < nlayouts; k++) {
                HChar *before = e;
                r->delta[k] = VG_(strtoll10)(e, &e);
                if (e == before) fail("region: fewer deltas than layouts", clo_layouts);
            }
            if (*skip_ws(e)) fail("region: more deltas than layouts", clo_layouts);
        } else
            fail("unknown line in the layouts file", clo_layouts);
    }
    if (nlayouts < 1) fail("no \"layouts K\" line", clo_layouts);
    if (nregions) { regions_lo = regions[0].lo; regions_hi = regions[nregions - 1].hi; }
}

static void i1_post_clo_init(void)
{
    UInt sets, k;
    Int i;
    read_layouts();
    if (g_line < 4 || (g_line & (g_line - 1)) || g_assoc < 1 || g_size % (g_line * g_assoc))
        fail("bad geometry", clo_layouts);
    sets = g_size / (g_line * g_assoc);
    if (sets & (sets - 1)) fail("geometry: the number of sets must be a power of two", clo_layouts);
    sets_mask = sets - 1;
    for (line_bits = 0; (1u << line_bits) < g_line; line_bits++) ;
    for (i = 0; i < nregions; i++)
        for (k = 0; k < (UInt)nlayouts; k++)
            if (regions[i].delta[k] % (Long)g_line)
                fail("a delta is not a multiple of the line size", clo_layouts);
            else
                regions[i].delta[k] /= (Long)g_line;
    layout_tags = sets * g_assoc;
    tags = VG_(malloc)("i1sim.tags", (SizeT)nlayouts * layout_tags * sizeof(UWord));
    for (k = 0; k < (UInt)nlayouts * layout_tags; k++) tags[k] = ~(UWord)0;
    misses = VG_(calloc)("i1sim.misses", nlayouts, sizeof(ULong));
}

static void i1_fini(Int exitcode)
{
    SysRes sr;
    Int fd, k;
    HChar line[512];
    (void)exitcode;
    if (!exe_known) VG_(umsg)("i1sim: warning: the executable's code was never seen\n");
    sr = VG_(open)(clo_out, VKI_O_CREAT | VKI_O_TRUNC | VKI_O_WRONLY, VKI_S_IRUSR | VKI_S_IWUSR);
    if (sr_isError(sr)) fail("cannot write", clo_out);
    fd = sr_Res(sr);
    VG_(sprintf)(line, "i1sim 1\nirefs %llu\n", irefs);
    VG_(write)(fd, line, VG_(strlen)(line));
    for (k = 0; k < nlayouts; k++) {
        VG_(snprintf)(line, sizeof line, "layout %d %llu %s\n", k, misses[k], labels[k] ? labels[k] : "-");
        VG_(write)(fd, line, VG_(strlen)(line));
    }
    VG_(close)(fd);
}

static Bool i1_option(const HChar *arg)
{
    if VG_STR_CLO(arg, "--layouts", clo_layouts) {}
    else if VG_STR_CLO(arg, "--out", clo_out) {}
    else return False;
    return True;
}

static void i1_usage(void)
{
    VG_(printf)("    --layouts=FILE    the layouts to simulate (required)\n"
                "    --out=FILE        where the counts go [i1sim.out]\n");
}

static void i1_debug_usage(void) {}

static void i1_pre_clo_init(void)
{
    VG_(details_name)("i1sim");
    VG_(details_version)("1");
    VG_(details_description)("cachegrind's I1 for many layouts in one run (perfinst bench)");
    VG_(details_copyright_author)("perfinst");
    VG_(details_bug_reports_to)("perfinst");
    VG_(basic_tool_funcs)(i1_post_clo_init, i1_instrument, i1_fini);
    VG_(needs_command_line_options)(i1_option, i1_usage, i1_debug_usage);
}

VG_DETERMINE_INTERFACE_VERSION(i1_pre_clo_init)
