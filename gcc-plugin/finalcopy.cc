/* finalcopy.cc — clean-copies=final: the clean copy f made from its
 * counting copy's assembly (docs/design.md, "One RTL compile for both
 * copies").
 *
 * With clean-copies=late each counted function keeps one, counting body
 * through the GIMPLE passes and is split just before expansion into
 * f.count.N (counting) and f (clean): expansion and every RTL pass then run
 * twice, once on each copy (bench/RESULTS.md 2026-11-30 06:30: 607 M of
 * late's 880 M extra instructions on Lua's lparser.c).  With
 * clean-copies=final f.count.N is compiled once, at the unit's own options,
 * with its counter updates as `addq $N, %fs:__perfinst_ctr@tpoff+K` asm
 * statements (no operand, no register: they only clobber the flags, which
 * GCC treats every asm as clobbering), and while it is, the assembly GCC
 * writes for it is captured (pi_final_capture).  f's code is then that
 * assembly less the counter updates: its body, from the line after
 * `.cfi_startproc` to the `.cfi_endproc`, with
 *
 *   - every counter update's line deleted (and the `#APP` ... `#NO_APP`
 *     group around it when nothing else of it is left),
 *   - every store into the counters GCC made (a loop whose calls write no
 *     memory keeps its counters in registers: store motion's load before
 *     it, register adds, stores at its exits; copies.cc call_free_loops):
 *     an instruction whose destination is `CTR@tpoff` (counter_use),
 *   - and what only fed those stores: the counters' loads, register adds
 *     and copies, store motion's flags that a counter changed with their
 *     tests and jumps, each marked `.LDLn:` in the copy's RTL (finaldead,
 *     below: GCC's def-use chains; an induction variable IVOPTs shared
 *     with the program stays),
 *   - the copy's own test (copy-calls=direct, pass-tailjump.cc: `cmpb $0,
 *     __perfinst_fnon+F(%rip); je f`, which f, entered by its own test,
 *     does not need) deleted, and its calls of counting copies
 *     (`g.count.N`, `g.pi_entry`) made calls of g,
 *   - every local label the body defines (`.L12:`, `.LVL3:`, `.LBB7:`) and
 *     every `.loc` view symbol (`view .LVU4`) renamed `.L12_f` ...: f's
 *     own labels, one definition each in the unit,
 *   - f.count.N's name made f's (a recursive call runs the clean f),
 *   - its switches to another section (a jump table in .rodata) made
 *     `.pushsection` / `.popsection`, so that the body returns to f's
 *     section, whatever it is named,
 *   - under -fPIC, the asm that computes the counters' offset
 *     (pi_ctr_base_asm_template) deleted whole, and the stores of the
 *     counters (`%fs:D(%reg)`), which finaldead marks (where code f would
 *     keep reads the counters through the offset, f is late's),
 *   - each indirect call's inline cache deleted: one asm, from its
 *     `cmpq %REG, %fs:ICALL@tpoff+K` / `jne 1f` to its `.subsection 0` /
 *     `2:` (pass-count.cc add_icall_asm; its out-of-line part, the older
 *     way and the miss's call of the runtime's stub, is in between),
 *   - the jumps the counters' blocks left threaded (a jump to `jmp .LB`
 *     goes to .LB; a jmp to the next instruction goes; a jmp to a return
 *     block of at most four instructions becomes a copy of it),
 *   - the calls -O2 would make tail calls (tagged on the copy's GIMPLE:
 *     "tail calls" below) its epilogue and a jump, and a frame left with
 *     no call dropped.
 *
 * pass-countfn.cc (latecopy) puts that text in f as one basic asm after
 * the dispatch (`if (__perfinst_fnon[F]) return f.count.N(...)`), which
 * GCC expands and writes as it does late's: f's prologue stays empty, its
 * `.cfi_startproc`/`.cfi_endproc`, labels for DWARF and its symbol are
 * GCC's own, and the copied body carries its `.cfi_*` directives (the
 * dispatch moves no stack) and its `.loc` lines.  f's registers for
 * -fipa-ra are those of its sibling call to f.count.N, whose code is f's
 * and more.  f's ranges for `pmopt plan --clean-ranges`: f.count.N's
 * CODE chunks with f's labels, in .perfinst.clean (the same counts of
 * instructions: pass-ranges counts no asm).
 *
 * What f's debugging information lacks: its variables' locations and its
 * lexical blocks and inlined calls (GCC's DWARF for f describes the one
 * asm; lines, unwinding and the symbol are f's).
 *
 * A body with an exception table (`.cfi_personality`, `.cfi_lsda .LLSDAn`
 * in its FDE; the table after it in a .gcc_except_table section):
 * f keeps both directives and gets a copy of the table in that section,
 * its labels renamed as the body's, its base `.LFBn` f's name, the
 * landing pads it names kept as reachable.  A hot/cold split: the cold
 * part's FDE follows the hot part's in the copy's cold section; f's is
 * returned apart (*COLD: pushed into that section, its own
 * .cfi_startproc/.cfi_endproc, the symbol f.cold), since f's one asm is
 * inside GCC's FDE for f; the cold part's table's base `.LCOLDBn` is
 * f.cold.
 *
 * A function the text does not fit (a third frame description,
 * a non-local label, any other reference to perfinst's symbols in code
 * that stays than a counter's load, a counter's update whose flags are
 * read, an unbalanced section switch) gets late's clean copy instead:
 * pi_final_derive says why. */
#include "plugin.h"
#include "tree-eh.h"
#include "df.h"
#include "tm_p.h"

/* tree-ssa-live.h's (which includes libiberty's partition.h, not among
   GCC's plugin headers) */
typedef hash_map<int_hash<unsigned int, -1U>, unsigned int> live_vars_map;
extern vec<bitmap_head> compute_live_vars(struct function *, live_vars_map *);
extern bitmap live_vars_at_stmt(vec<bitmap_head> &, live_vars_map *, gimple *);
extern void destroy_live_vars(vec<bitmap_head> &);

/* ---- capturing what GCC writes ------------------------------------------ */

static FILE *real_out;
static char *cap_buf;
static size_t cap_len;

/* the numbers of the `.LDLn` markers of the copy being captured (its
   counters' dead loads and adds: finaldead below) */
static hash_set<int_hash<int, -1, -2>> *dead_marks;
/* The markers' numbers: MARK_BASE + 1, + 2, ... in the unit.  GCC writes
   its own NOTE_INSN_DELETED_DEBUG_LABELs (a named label, `cleanup:`,
   deleted in RTL at -g) as `.LDLn` too, n from a counter of its own that
   starts at 1 (not label_num, which gen_label_rtx takes from): markers
   numbered by gen_label_rtx met them, `.LDL12` defined twice in one
   unit (libgit2's merge.c: the assembler refused it), and one of GCC's
   labels could have been taken for a marker, the instruction after it
   left out of f.  No unit deletes a billion labels. */
#define MARK_BASE 1000000000
static int mark_count;
/* -fPIC: code f would keep reads the counters through their offset
   (finaldead), which f leaves out */
static bool pic_offset_read;

void pi_final_capture_start(void)
{
    if (dead_marks)
        dead_marks->empty();
    pic_offset_read = false;
    real_out = asm_out_file;
    cap_buf = NULL;
    cap_len = 0;
    FILE *m = open_memstream(&cap_buf, &cap_len);
    if (m) {
        asm_out_file = m;
        /* the copy's section named in its text: GCC writes a switch only
           to another section than the last function's */
        in_section = NULL;
    }
}

/* Stops capturing: the text (malloc'd, NUL-terminated; NULL if none was
 * captured), not yet written to the assembly (pi_final_write). */
char *pi_final_capture_end(size_t *len)
{
    if (asm_out_file == real_out) {
        *len = 0;
        return NULL;
    }
    fclose(asm_out_file);
    asm_out_file = real_out;
    *len = cap_len;
    return cap_buf;
}

void pi_final_write(const char *text, size_t len)
{
    if (text && len)
        fwrite(text, 1, len, asm_out_file);
}

/* ---- the text ------------------------------------------------------------ */

struct outbuf {
    char *p;
    size_t n, cap;
};

static void put(outbuf *t, const char *s, size_t n)
{
    if (t->n + n + 1 > t->cap) {
        t->cap = (t->n + n + 1) * 2;
        t->p = (char *)xrealloc(t->p, t->cap);
    }
    memcpy(t->p + t->n, s, n);
    t->n += n;
    t->p[t->n] = 0;
}

static void puts_(outbuf *t, const char *s) { put(t, s, strlen(s)); }

static bool ident_char(char c) { return ISALNUM(c) || c == '_' || c == '.' || c == '$'; }

struct line {
    const char *s;
    size_t n;
};

static bool starts(const line &l, const char *p)
{
    size_t k = strlen(p);
    return l.n >= k && memcmp(l.s, p, k) == 0;
}

static bool contains(const line &l, const char *p)
{
    size_t k = strlen(p);
    for (size_t i = 0; i + k <= l.n; i++)
        if (memcmp(l.s + i, p, k) == 0)
            return true;
    return false;
}

static bool equals(const line &l, const char *p) { return l.n == strlen(p) && memcmp(l.s, p, l.n) == 0; }

/* the length of L to copy where its text is written twice: a `.loc`'s view
   symbol (` view .LVU7`) is defined once, so a copy ends before it */
static size_t copy_len(const line &l)
{
    if (starts(l, "\t.loc "))
        for (size_t k = 0; k + 6 <= l.n; k++)
            if (memcmp(l.s + k, " view ", 6) == 0)
                return k;
    return l.n;
}

/* a counter update's line that ends in PI_TAIL_TAG (a call f makes a tail
   call comes right before it: pi_final_mark_tail_calls) */
static bool ends(const line &l, const char *tag)
{
    size_t k = strlen(tag);
    return l.n > k && memcmp(l.s + l.n - k, tag, k) == 0;
}

static bool tail_tagged(const line &l) { return ends(l, PI_TAIL_TAG); }

/* `\taddq $N, %fs:CTR@tpoff+K` (pi_counters_as_asm's update, AT&T), with
   PI_TAIL_TAG after it or not */
static bool counter_line(const line &l, const char *ctr)
{
    const char *s = l.s, *e = l.s + l.n;
    if (tail_tagged(l))
        e -= strlen(PI_TAIL_TAG);
    if (l.n < 8 || memcmp(s, "\taddq $", 7) != 0)
        return false;
    s += 7;
    const char *d = s;
    while (s < e && ISDIGIT(*s))
        s++;
    if (s == d || e - s < 6 || memcmp(s, ", %fs:", 6) != 0)
        return false;
    s += 6;
    size_t k = strlen(ctr);
    if ((size_t)(e - s) < k + 7 || memcmp(s, ctr, k) != 0 || memcmp(s + k, "@tpoff+", 7) != 0)
        return false;
    s += k + 7;
    d = s;
    while (s < e && ISDIGIT(*s))
        s++;
    return s > d && s == e;
}

/* `\taddq $N, %fs:D(%REG)` ending in PI_CTR_BASED_TAG (an update through
   the counters' base: copies.cc pi_counter_asm_rebase), with PI_TAIL_TAG
   after it or not */
static bool based_counter_line(const line &l)
{
    const char *e = l.s + l.n;
    if (tail_tagged(l))
        e -= strlen(PI_TAIL_TAG);
    size_t k = strlen(PI_CTR_BASED_TAG);
    return l.n > 7 && memcmp(l.s, "\taddq $", 7) == 0 && (size_t)(e - l.s) > k + 7 &&
           memcmp(e - k, PI_CTR_BASED_TAG, k) == 0;
}

/* `\tcmpq %REG, %fs:ICALL@tpoff+K`: the first line of an indirect call's
   cache (unit.cc pi_icall_asm_template); under -fPIC any line tagged
   PI_ICALL_BASED_TAG (the slots' offset made from the counters', which
   the cache's test follows: pass-tls.cc) */
static bool icall_cmp_line(const line &l, const char *icall)
{
    if (icall && ends(l, PI_ICALL_BASED_TAG))
        return true;
    if (!icall || l.n < 8 || memcmp(l.s, "\tcmpq %", 7) != 0)
        return false;
    const char *s = l.s + 7, *e = l.s + l.n;
    while (s < e && ISALNUM(*s))
        s++;
    size_t k = strlen(icall);
    if (e - s < 6 || memcmp(s, ", %fs:", 6) != 0 || (size_t)(e - (s += 6)) < k + 7 || memcmp(s, icall, k) != 0 ||
        memcmp(s + k, "@tpoff+", 7) != 0)
        return false;
    s += k + 7;
    const char *d = s;
    while (s < e && ISDIGIT(*s))
        s++;
    return s > d && s == e;
}

/* an instruction line (not a label, a directive, a comment) */
static bool insn_line(const line &l)
{
    return l.n > 1 && l.s[0] == '\t' && ISALPHA(l.s[1]);
}

/* an instruction after which control does not fall through */
static bool uncond_line(const line &l)
{
    static const char *const ops[] = {"jmp", "ret", "ud2"};
    for (unsigned i = 0; i < 3; i++) {
        size_t k = strlen(ops[i]);
        if (l.n >= k + 1 && memcmp(l.s + 1, ops[i], k) == 0 && (l.n == k + 1 || !ISALNUM(l.s[k + 1])))
            return true;
    }
    return false;
}

/* How instruction line L uses the counters CTR (a call-free loop's, which
 * GCC's store motion keeps in a register: loaded before the loop, stored
 * at its exits; copies.cc call_free_loops), named `CTR@tpoff` in a memory
 * operand (`%fs:CTR@tpoff+K`, or `CTR@tpoff+K(%reg)` off %fs:0):
 * CTR_NONE, CTR_READ (a load, a compare: f keeps it, reading the counter
 * as the copy does), CTR_WRITE (the counter its destination, AT&T's last
 * operand: f leaves it out), CTR_WRITE_FLAGS (a write that sets the flags
 * as well: add, sub, inc ...), CTR_OTHER (an exchange, a write of a
 * register too: f cannot be made).  The name only as `CTR@`: another
 * perfinst symbol may start with it (the inline caches'). */
enum ctr_use { CTR_NONE, CTR_READ, CTR_WRITE, CTR_WRITE_FLAGS, CTR_OTHER };

/* an instruction line's mnemonic (`\taddq\t...` -> "addq") */
static line mnemonic(const line &l)
{
    line op = {l.s + 1, 0};
    while (1 + op.n < l.n && ISALNUM(l.s[1 + op.n]))
        op.n++;
    return op;
}

/* `CTR@tpoff` at L's offset I, the name whole (K: CTR's length) */
static bool counter_ref_at(const line &l, size_t i, const char *ctr, size_t k)
{
    return i + k + 6 <= l.n && memcmp(l.s + i, ctr, k) == 0 && memcmp(l.s + i + k, "@tpoff", 6) == 0 &&
           (i == 0 || !ident_char(l.s[i - 1]));
}

static ctr_use counter_use(const line &l, const char *ctr)
{
    size_t k = strlen(ctr);
    /* where CTR@tpoff is, and where the last operand begins (the last
       comma outside parentheses) */
    size_t at = l.n, last = 0;
    int depth = 0;
    for (size_t i = 0; i < l.n; i++) {
        char c = l.s[i];
        if (c == '(')
            depth++;
        else if (c == ')')
            depth--;
        else if (c == ',' && depth == 0)
            last = i + 1;
        else if (c == '#')
            break;
        if (at == l.n && counter_ref_at(l, i, ctr, k))
            at = i;
    }
    if (at == l.n || !insn_line(l))
        return CTR_NONE;
    line op = mnemonic(l);
    if (last == 0) /* one operand: `incq %fs:CTR@tpoff+K` */
        last = 1 + op.n;
    if (at < last)
        return CTR_READ; /* a source */
    static const char *const others[] = {"xchg", "cmpxchg", "xadd", "bts", "btr", "btc", "lock", "rep"};
    for (unsigned i = 0; i < ARRAY_SIZE(others); i++)
        if (starts(op, others[i]))
            return CTR_OTHER;
    static const char *const reads[] = {"cmp", "test", "push", "prefetch", "comis", "ucomis", "vcomis", "vucomis",
                                        "ptest", "vptest", "bt"};
    for (unsigned i = 0; i < ARRAY_SIZE(reads); i++)
        if (starts(op, reads[i]))
            return CTR_READ;
    static const char *const flags[] = {"add", "sub", "inc", "dec", "and", "or", "xor", "neg", "adc", "sbb",
                                        "sh", "sa", "ro", "rc"};
    for (unsigned i = 0; i < ARRAY_SIZE(flags); i++)
        if (starts(op, flags[i]))
            return CTR_WRITE_FLAGS;
    return CTR_WRITE;
}

/* L reads the counters CTR and mentions no other perfinst symbol */
static bool only_counter_reads(const line &l, const char *ctr)
{
    if (counter_use(l, ctr) != CTR_READ)
        return false;
    size_t k = strlen(ctr), p = strlen("__perfinst");
    for (size_t i = 0; i + p <= l.n; i++)
        if (memcmp(l.s + i, "__perfinst", p) == 0 && !counter_ref_at(l, i, ctr, k))
            return false;
    return true;
}

/* an instruction that reads the flags: a conditional jump, set, move,
   adc, sbb, pushf, lahf */
static bool reads_flags(const line &l)
{
    if (!insn_line(l))
        return false;
    line op = mnemonic(l);
    if (op.n >= 2 && op.s[0] == 'j' && !starts(op, "jmp"))
        return true;
    static const char *const r[] = {"set", "cmov", "adc", "sbb", "rcl", "rcr", "pushf", "lahf"};
    for (unsigned i = 0; i < ARRAY_SIZE(r); i++)
        if (starts(op, r[i]))
            return true;
    return false;
}

/* `.LDLn:`, a marker finaldead put before a dead load or add (below) */
static bool dead_mark(const line &l)
{
    if (!dead_marks || l.n < 6 || memcmp(l.s, ".LDL", 4) != 0 || l.s[l.n - 1] != ':')
        return false;
    long long n = 0;
    for (size_t i = 4; i + 1 < l.n; i++) {
        if (!ISDIGIT(l.s[i]) || n > INT_MAX)
            return false;
        n = n * 10 + (l.s[i] - '0');
    }
    return n > MARK_BASE && n <= INT_MAX && dead_marks->contains((int)n);
}

/* the instruction after a marker as finaldead marks them: a move, an add
   or a subtraction into a register, a zeroing xor, a compare or test, a
   conditional jump (whatever else it is stays) */
static bool dead_insn_line(const line &l, const char *ctr)
{
    if (!insn_line(l) || contains(l, "#") || (contains(l, "__perfinst") && !only_counter_reads(l, ctr)))
        return false;
    line op = mnemonic(l);
    if (op.n >= 2 && op.s[0] == 'j' && !starts(op, "jmp"))
        return true;
    static const char *const ops[] = {"mov", "lea", "add", "sub", "inc", "dec", "xor", "test", "cmp"};
    bool known = false;
    for (unsigned i = 0; i < ARRAY_SIZE(ops) && !known; i++)
        known = starts(op, ops[i]);
    if (!known || starts(op, "movs"))
        return false;
    /* its destination (the last operand) a register; or under -fPIC a
       counter, through the offset (`%fs:D(%reg)`: finaldead marks the
       stores there) */
    size_t i = l.n;
    while (i > 0 && l.s[i - 1] != ',' && l.s[i - 1] != '\t' && l.s[i - 1] != ' ')
        i--;
    if (i + 4 < l.n && memcmp(l.s + i, "%fs:", 4) == 0 && pi_counter_offset_decl())
        return starts(op, "mov") || starts(op, "add");
    if (i >= l.n || l.s[i] != '%')
        return false;
    for (i++; i < l.n; i++)
        if (!ISALNUM(l.s[i]))
            return false;
    return true;
}

/* a label this line defines: `.L12:` -> ".L12" (into buf), else NULL; *other:
   the line defines another (a symbol, not a local numeric label) */
static const char *label_def(const line &l, char *buf, size_t bufsize, bool *other)
{
    size_t i = 0;
    while (i < l.n && ident_char(l.s[i]))
        i++;
    if (i == 0 || i >= l.n || l.s[i] != ':' || i + 1 >= bufsize)
        return NULL;
    bool numeric = true;
    for (size_t k = 0; k < i; k++)
        numeric = numeric && ISDIGIT(l.s[k]);
    if (l.n < 2 || l.s[0] != '.' || l.s[1] != 'L') {
        *other = !numeric;
        return NULL;
    }
    memcpy(buf, l.s, i);
    buf[i] = 0;
    return buf;
}

/* the view symbol of a `.loc ... view .LVU4` line, into buf */
static const char *view_def(const line &l, char *buf, size_t bufsize)
{
    if (!starts(l, "\t.loc "))
        return NULL;
    for (size_t i = 0; i + 8 <= l.n; i++)
        if (memcmp(l.s + i, " view .L", 8) == 0) {
            size_t b = i + 6, e = b;
            while (e < l.n && ident_char(l.s[e]))
                e++;
            if (e - b + 1 > bufsize)
                return NULL;
            memcpy(buf, l.s + b, e - b);
            buf[e - b] = 0;
            return buf;
        }
    return NULL;
}

struct renamer {
    hash_set<nofree_string_hash> *labels;
    const char *copy_name, *f_name;
    bool missing;   /* a .L name not defined in the body (the constants' .LC0 ...) */
    const char *fb;    /* the copy's `.LFBn` (its exception table's base): f's name */
    const char *coldb; /* its cold part's `.LCOLDBn` (that part's table's base): f's cold symbol */
};

/* The function a counting copy's call of NAME calls in f: G for G's entry
 * `G.pi_entry` or G's counting copy (copy-calls=direct, pass-tailjump.cc),
 * else NULL (NAME itself). */
static const char *called_function(const char *name)
{
    static char g[256];
    size_t n = strlen(name), k = strlen(".pi_entry");
    if (n > k && n - k < sizeof g && strcmp(name + n - k, ".pi_entry") == 0) {
        memcpy(g, name, n - k);
        g[n - k] = 0;
        return g;
    }
    if (!strstr(name, ".count."))
        return NULL;
    symtab_node *s = symtab_node::get_for_asmname(get_identifier(name));
    tree o = s && TREE_CODE(s->decl) == FUNCTION_DECL ? pi_countfn_origin(s->decl) : NULL_TREE;
    return o ? pi_asm_name(o) : NULL;
}

/* L with its labels, the copy's name and the counting copies it calls
   renamed, onto OUT */
static void put_renamed(outbuf *out, const line &l, renamer *r)
{
    char buf[256];
    size_t i = 0, from = 0;
    while (i < l.n) {
        if (!ident_char(l.s[i]) || (i > 0 && ident_char(l.s[i - 1]))) {
            i++;
            continue;
        }
        size_t e = i;
        while (e < l.n && ident_char(l.s[e]))
            e++;
        size_t k = e - i;
        if (k < sizeof buf && k >= 2 && l.s[i] == '.' && l.s[i + 1] == 'L') {
            memcpy(buf, l.s + i, k);
            buf[k] = 0;
            if (r->labels->contains(buf)) {
                put(out, l.s + from, e - from);
                puts_(out, "_f");
                from = e;
            } else if (r->fb && strcmp(buf, r->fb) == 0) {
                put(out, l.s + from, i - from);
                puts_(out, r->f_name);
                from = e;
            } else if (r->coldb && strcmp(buf, r->coldb) == 0) {
                put(out, l.s + from, i - from);
                puts_(out, r->f_name);
                puts_(out, ".cold");
                from = e;
            } else
                r->missing = true;
        } else if (k >= strlen(r->copy_name) && memcmp(l.s + i, r->copy_name, strlen(r->copy_name)) == 0 &&
                   (k == strlen(r->copy_name) || (k == strlen(r->copy_name) + 5 && memcmp(l.s + e - 5, ".cold", 5) == 0))) {
            /* the copy's name, and its cold part's */
            put(out, l.s + from, i - from);
            puts_(out, r->f_name);
            if (k > strlen(r->copy_name))
                puts_(out, ".cold");
            from = e;
        } else if (k < sizeof buf) {
            memcpy(buf, l.s + i, k);
            buf[k] = 0;
            if (const char *g = called_function(buf)) {
                put(out, l.s + from, i - from);
                put(out, g, strlen(g));
                from = e;
            }
        }
        i = e;
    }
    put(out, l.s + from, l.n - from);
}

/* the section a `.section NAME,...`, `.text`, `.data` or `.bss` line
   switches to (its name's length in *n), or NULL */
static const char *section_switch(const line &l, size_t *n)
{
    static const char *const plain[] = {"\t.text", "\t.data", "\t.bss"};
    for (unsigned i = 0; i < 3; i++)
        if (equals(l, plain[i])) {
            *n = strlen(plain[i]) - 1;
            return plain[i] + 1;
        }
    if (!starts(l, "\t.section\t") && !starts(l, "\t.section "))
        return NULL;
    size_t b = 10;
    while (b < l.n && (l.s[b] == ' ' || l.s[b] == '\t'))
        b++;
    size_t e = b;
    while (e < l.n && l.s[e] != ',' && l.s[e] != ' ' && l.s[e] != '\t')
        e++;
    *n = e - b;
    return l.s + b;
}

static void split_lines(const char *text, size_t len, vec<line> *lines)
{
    for (size_t i = 0; i < len;) {
        size_t e = i;
        while (e < len && text[e] != '\n')
            e++;
        lines->safe_push(line{text + i, e - i});
        i = e + 1;
    }
}

/* A line made several: a tail call or a return block copied in place of
 * a line (tail_calls, thread_jumps), which ends in a jump or a ret
 * whatever directive it opens with. */
static bool made_line(const line &l) { return memchr(l.s, '\n', l.n) != NULL; }

/* A line that emits no code and is no label: a comment (`#APP` and its
 * kin too), `.loc`, `.p2align`, and with CFI `.cfi_*`; not a made line. */
static bool no_code_line(const line &l, bool cfi)
{
    if (made_line(l))
        return false;
    return (l.n && l.s[0] == '#') || starts(l, "\t.loc ") || starts(l, "\t.p2align ") ||
           (cfi && starts(l, "\t.cfi_"));
}

/* The line after lines[i] that is not a label, a directive that emits no
 * code (.loc, .p2align, .cfi_*), a comment or dropped; LAST if none or if
 * a section switch comes first. */
static unsigned next_code(const vec<line> &lines, unsigned i, unsigned first, unsigned last, const vec<char> &drop)
{
    char buf[256];
    for (unsigned j = i + 1; j < last; j++) {
        const line &l = lines[j];
        bool other = false;
        if (drop[j - first] || no_code_line(l, true) || label_def(l, buf, sizeof buf, &other))
            continue;
        size_t n;
        if (other || section_switch(l, &n))
            return last;
        return j;
    }
    return last;
}

/* `\tjCC\t.LN` (a direct jump to a local label): its label, into buf */
static const char *jump_target(const line &l, char *buf, size_t bufsize)
{
    if (l.n < 5 || l.s[0] != '\t' || l.s[1] != 'j')
        return NULL;
    size_t i = 2;
    while (i < l.n && ISALPHA(l.s[i]))
        i++;
    if (i + 3 > l.n || l.s[i] != '\t' || l.s[i + 1] != '.' || l.s[i + 2] != 'L' || l.n - i - 1 >= bufsize)
        return NULL;
    for (size_t k = i + 1; k < l.n; k++)
        if (!ident_char(l.s[k]))
            return NULL;
    memcpy(buf, l.s + i + 1, l.n - i - 1);
    buf[l.n - i - 1] = 0;
    return buf;
}

/* The code at lines[i]'s label up to its `ret`, as lines to put in place
 * of a `jmp` to it (a return block: the copy's counters kept blocks
 * before it apart, which -O2 would have given a return of their own):
 * at most four instructions, none a jump or a call, with their .cfi_*
 * and .loc lines, between .cfi_remember_state and .cfi_restore_state
 * (the jump's frame is the target's; the code after the jump has its
 * own).  Or, with JUMPS, one or two such instructions and a `jmp .LY`
 * (a small block that ends in a jump: an interpreter's latch, `pOp++`
 * and back to the dispatch, which -O2's bb-reorder copied into each
 * case and the copy's did not, its counters making the blocks bigger).
 * NULL if the code is not so. */
static char *return_block(const vec<line> &lines, unsigned i, unsigned first, unsigned last, const vec<char> &drop,
                          bool jumps = false)
{
    char buf[256];
    outbuf t = {NULL, 0, 0};
    puts_(&t, "\t.cfi_remember_state");
    unsigned insns = 0;
    bool cfi = false;
    for (unsigned j = i + 1; j < last; j++) {
        const line &l = lines[j];
        bool other = false;
        if (made_line(l))
            break;
        if (drop[j - first] || (l.n && l.s[0] == '#') || label_def(l, buf, sizeof buf, &other) ||
            starts(l, "\t.p2align "))
            continue;
        if (starts(l, "\t.cfi_remember_state"))
            continue; /* (the block's own state for the code after its ret: the copy has its own) */
        if (other || starts(l, "\t.cfi_restore_state"))
            break;
        bool insn = insn_line(l);
        if (!insn && !starts(l, "\t.cfi_") && !starts(l, "\t.loc "))
            break;
        bool jump = jumps && insns >= 1 && starts(l, "\tjmp\t") && jump_target(l, buf, sizeof buf);
        if (insn && !jump && (l.s[1] == 'j' || starts(l, "\tcall") || ++insns > (jumps ? 2 : 4)))
            break;
        puts_(&t, "\n");
        put(&t, l.s, copy_len(l));
        cfi = cfi || starts(l, "\t.cfi_");
        if (jumps ? jump : equals(l, "\tret")) {
            if (!cfi) { /* (no state to keep) */
                size_t k = strlen("\t.cfi_remember_state\n");
                memmove(t.p, t.p + k, t.n - k + 1);
                return t.p;
            }
            puts_(&t, "\n\t.cfi_restore_state");
            return t.p;
        }
    }
    free(t.p);
    return NULL;
}

/* The condition code of `\tjCC\t...` inverted ("ne" for "e"), NULL if it
 * is not one of GCC's. */
static const char *inverse_cc(const line &l)
{
    static const char *const pairs[][2] = {
        {"e", "ne"}, {"z", "nz"}, {"l", "ge"}, {"le", "g"}, {"b", "ae"}, {"be", "a"},
        {"s", "ns"}, {"o", "no"}, {"p", "np"}, {"c", "nc"},
    };
    size_t n = 0;
    while (2 + n < l.n && ISALPHA(l.s[2 + n]))
        n++;
    for (unsigned k = 0; k < sizeof pairs / sizeof pairs[0]; k++)
        for (unsigned w = 0; w < 2; w++)
            if (strlen(pairs[k][w]) == n && memcmp(l.s + 2, pairs[k][w], n) == 0)
                return pairs[k][1 - w];
    return NULL;
}

/* Label NAME (defined at line DEF) is named by a line of [first, last)
 * other than its definition: a jump's target, a jump table's entry. */
static bool label_named(const vec<line> &lines, unsigned first, unsigned last, const vec<char> &drop,
                        const char *name, unsigned def)
{
    size_t n = strlen(name);
    for (unsigned k = first; k < last; k++) {
        const line &l = lines[k];
        if (k == def || drop[k - first])
            continue;
        for (size_t i = 0; i + n <= l.n; i++)
            if (memcmp(l.s + i, name, n) == 0 && (i + n == l.n || !ident_char(l.s[i + n])) &&
                (i == 0 || !ident_char(l.s[i - 1])))
                return true;
    }
    return false;
}

/* `\tjCC\t.LA` whose next code line is `\tjmp\t.LB`, .LB above (a loop's
 * back edge) and .LA below, no label between them that a line names: made `\tjNCC\t.LB` and
 * `\tjmp\t.LA`, so that the loop is tested at its bottom as -O2 has it (a
 * byte compare's loop, whose counter's flag set had stood between its
 * test and its back edge: nginx's ngx_hash_find).  Rewritten lines point
 * into REWRITTEN. */
static void bottom_test(vec<line> *lines, unsigned i, unsigned first, unsigned last, const vec<char> &drop,
                        hash_map<nofree_string_hash, unsigned> &at, vec<char *> *rewritten)
{
    char a[256], b[256], buf[256];
    line &l = (*lines)[i];
    const char *inv = starts(l, "\tjmp\t") ? NULL : inverse_cc(l);
    if (!inv || !jump_target(l, a, sizeof a))
        return;
    unsigned j = next_code(*lines, i, first, last, drop);
    if (j >= last || !starts((*lines)[j], "\tjmp\t") || !jump_target((*lines)[j], b, sizeof b))
        return;
    for (unsigned k = i + 1; k < j; k++) {
        bool other = false;
        if (drop[k - first] || dead_mark((*lines)[k]))
            continue;
        const char *d = label_def((*lines)[k], buf, sizeof buf, &other);
        if (other || (d && label_named(*lines, first, last, drop, d, k)))
            return;
    }
    const unsigned *la = at.get(a), *lb = at.get(b);
    if (!la || !lb || *lb >= i || *la <= j)
        return;
    char *r = (char *)xmalloc(strlen(inv) + strlen(b) + 4), *q = (char *)xmalloc(strlen(a) + 6);
    sprintf(r, "\tj%s\t%s", inv, b);
    sprintf(q, "\tjmp\t%s", a);
    rewritten->safe_push(r);
    rewritten->safe_push(q);
    l.s = r;
    l.n = strlen(r);
    (*lines)[j].s = q;
    (*lines)[j].n = strlen(q);
}

/* In lines[first, last): a jump to a label whose code is `jmp .LB` made a
 * jump to .LB (chains followed), a `jmp` to a return block made a copy of
 * it (ENDS), a conditional jump over a loop's back edge made the back
 * edge (bottom_test), and a `jmp` to the label its next code line carries
 * dropped (DROP).  Rewritten lines point into REWRITTEN. */
static void thread_jumps(vec<line> *lines, unsigned first, unsigned last, vec<char> &drop, vec<char> &ends,
                         vec<char *> *rewritten)
{
    char buf[256], buf2[256];
    hash_map<nofree_string_hash, const char *> to; /* label -> the label its jmp goes to */
    hash_map<nofree_string_hash, unsigned> at;     /* label -> its line */
    auto_vec<char *> keys;
    for (unsigned i = first; i < last; i++) {
        bool other = false;
        const char *d = drop[i - first] ? NULL : label_def((*lines)[i], buf, sizeof buf, &other);
        if (!d)
            continue;
        char *name = xstrdup(d);
        keys.safe_push(name);
        at.put(name, i);
        unsigned j = next_code(*lines, i, first, last, drop);
        const char *t = j < last && starts((*lines)[j], "\tjmp\t") ? jump_target((*lines)[j], buf2, sizeof buf2) : NULL;
        if (t && strcmp(t, d) != 0) {
            char *k = xstrdup(d), *v = xstrdup(t);
            keys.safe_push(k);
            keys.safe_push(v);
            to.put(k, v);
        }
    }
    for (unsigned i = first; i < last; i++) {
        line &l = (*lines)[i];
        const char *t = drop[i - first] ? NULL : jump_target(l, buf, sizeof buf);
        if (!t)
            continue;
        const char *end = t;
        for (unsigned k = 0; k < 8; k++) {
            const char *const *n = to.get(end);
            if (!n)
                break;
            end = *n;
        }
        if (end != t) {
            size_t m = l.n - strlen(t);
            char *r = (char *)xmalloc(m + strlen(end) + 1);
            memcpy(r, l.s, m);
            strcpy(r + m, end);
            rewritten->safe_push(r);
            l.s = r;
            l.n = strlen(r);
            t = jump_target(l, buf, sizeof buf);
        }
        bottom_test(lines, i, first, last, drop, at, rewritten);
        t = jump_target(l, buf, sizeof buf);
        /* `jmp .LX` where .LX is a return block, or a small block that
           ends in a jump elsewhere: the block */
        const unsigned *j = starts(l, "\tjmp\t") ? at.get(t) : NULL;
        char *r = j ? return_block(*lines, *j, first, last, drop) : NULL;
        if (j && !r && *j != i)
            r = return_block(*lines, *j, first, last, drop, true);
        if (r) {
            rewritten->safe_push(r);
            l.s = r;
            l.n = strlen(r);
            ends[i - first] = 1;
        }
        /* `jmp .LX` with .LX on the next code line */
        if (!ends[i - first] && starts(l, "\tjmp\t")) {
            for (unsigned j = i + 1; j < last; j++) {
                const line &n = (*lines)[j];
                bool other = false;
                const char *d = drop[j - first] ? NULL : label_def(n, buf2, sizeof buf2, &other);
                if (d && strcmp(d, t) == 0) {
                    drop[i - first] = 1;
                    break;
                }
                if (!drop[j - first] && !d && !no_code_line(n, true))
                    break;
            }
        }
    }
    for (unsigned i = 0; i < keys.length(); i++)
        free(keys[i]);
}

/* the registers that an epilogue leaves as they were at the call (the
   call's target may be in one): the ABI's caller-saved, and %rip; an
   epilogue's pop into one of them only frees the stack */
static bool kept_by_epilogue(const char *r, size_t n)
{
    static const char *const ok[] = {"rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "rip"};
    for (unsigned i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (n == strlen(ok[i]) && memcmp(r, ok[i], n) == 0)
            return true;
    return false;
}

/* an epilogue's instruction: `popq %REG`, `addq $N, %rsp`, `leave`,
   `leaq N(%rbp), %rsp` */
static bool epilogue_line(const line &l)
{
    if (starts(l, "\tpopq\t%") || equals(l, "\tleave"))
        return true;
    size_t k = strlen(", %rsp");
    if (l.n <= k || memcmp(l.s + l.n - k, ", %rsp", k) != 0)
        return false;
    if (starts(l, "\taddq\t$")) {
        for (size_t i = 7; i < l.n - k; i++)
            if (!ISDIGIT(l.s[i]))
                return false;
        return true;
    }
    return starts(l, "\tleaq\t") && contains(l, "(%rbp), %rsp");
}

/* a label of the debugging information (`.LVL3:`, `.LBB7:`, `.LBE7:`), which
   no jump names: not `.L<digits>:` */
static bool debug_label(const line &l)
{
    char buf[256];
    bool other = false;
    const char *d = label_def(l, buf, sizeof buf, &other);
    return d && !ISDIGIT(d[2]);
}

/* f's tail calls (pi_final_mark_tail_calls): each `call X` right before a
 * counter update that ends in PI_TAIL_TAG, when the code it returns to is,
 * up to a `ret` and through direct jumps, only an epilogue (with its
 * .cfi_* and .loc lines), becomes that epilogue and `jmp X` (ENDS: the
 * line does not fall through), between .cfi_remember_state and
 * .cfi_restore_state when the epilogue has CFI directives: the jump's
 * frame is the epilogue's, the code after it has its own.  X must not be
 * in a register or memory the epilogue changes.  Lines [first, last);
 * rewritten lines point into REWRITTEN.  Returns how many calls. */
static unsigned tail_calls(vec<line> *lines, unsigned first, unsigned last, const vec<char> &drop, vec<char> &ends,
                           vec<char *> *rewritten)
{
    char buf[256];
    unsigned made = 0;
    hash_map<nofree_string_hash, unsigned> at; /* label -> its line */
    auto_vec<char *> keys;
    for (unsigned i = first; i < last; i++) {
        bool other = false;
        if (const char *d = label_def((*lines)[i], buf, sizeof buf, &other)) {
            char *k = xstrdup(d);
            keys.safe_push(k);
            at.put(k, i);
        }
    }
    for (unsigned t = first; t < last; t++) {
        if (!drop[t - first] || !tail_tagged((*lines)[t]))
            continue;
        /* the call: the code line before the update, no code label
           between (debugging information's .LVL, .LBB, .LBE may be) */
        unsigned c = t;
        while (c > first && (drop[c - 1 - first] || no_code_line((*lines)[c - 1], true) ||
                             debug_label((*lines)[c - 1])))
            c--;
        if (c == first || !starts((*lines)[c - 1], "\tcall\t"))
            continue;
        c--;
        const line &cl = (*lines)[c];
        const char *op = cl.s + 6;
        size_t opn = cl.n - 6;
        bool ok = opn > 0;
        for (size_t i = 0; ok && i < opn; i++)
            if (op[i] == '%') {
                size_t e = i + 1;
                while (e < opn && ISALNUM(op[e]))
                    e++;
                ok = kept_by_epilogue(op + i + 1, e - i - 1);
            }
        if (!ok)
            continue;
        /* what the call returns to */
        outbuf ep = {NULL, 0, 0};
        bool cfi = false, done = false;
        unsigned j = c + 1, steps = 0;
        while (ok && !done && j < last && steps++ < 200) {
            const line &l = (*lines)[j];
            bool other = false;
            size_t n;
            if (made_line(l)) { /* (another call's, made a tail call) */
                ok = false;
                continue;
            }
            if (drop[j - first] || (l.n && l.s[0] == '#') || label_def(l, buf, sizeof buf, &other) ||
                starts(l, "\t.p2align ") || starts(l, "\t.cfi_remember_state") || starts(l, "\t.cfi_restore_state")) {
                ok = !other;
                j++;
                continue;
            }
            if (starts(l, "\t.cfi_") || starts(l, "\t.loc ")) {
                put(&ep, l.s, copy_len(l));
                puts_(&ep, "\n");
                cfi = cfi || starts(l, "\t.cfi_");
                j++;
                continue;
            }
            const char *jt = starts(l, "\tjmp\t") ? jump_target(l, buf, sizeof buf) : NULL;
            if (jt) {
                const unsigned *to = at.get(jt);
                ok = to != NULL;
                if (ok)
                    j = *to;
                continue;
            }
            if (equals(l, "\tret")) {
                done = true;
                continue;
            }
            ok = epilogue_line(l) && !section_switch(l, &n);
            /* a pop into a register the ABI does not keep only frees the
               stack (the copy's arguments pushed for an earlier call, freed
               late): free after the call, that register may hold one of
               X's arguments before the jump (Lua's luaK_code: `popq %rsi`
               before `jmp savelineinfo`), so it becomes an add */
            bool pop = ok && starts(l, "\tpopq\t%");
            bool scratch = pop && kept_by_epilogue(l.s + 7, l.n - 7);
            if (pop && !scratch)
                for (size_t i = 0; i < opn; i++) /* (not a register the epilogue restores) */
                    if (op[i] == '%' && l.n - 7 <= opn - i - 1 && memcmp(op + i + 1, l.s + 7, l.n - 7) == 0)
                        ok = false;
            if (ok && scratch)
                puts_(&ep, "\taddq\t$8, %rsp\n");
            else if (ok) {
                put(&ep, l.s, l.n);
                puts_(&ep, "\n");
            }
            j++;
        }
        if (!ok || !done) {
            free(ep.p);
            continue;
        }
        outbuf r = {NULL, 0, 0};
        if (cfi)
            puts_(&r, "\t.cfi_remember_state\n");
        if (ep.p)
            put(&r, ep.p, ep.n);
        puts_(&r, "\tjmp\t");
        put(&r, op, opn);
        if (cfi)
            puts_(&r, "\n\t.cfi_restore_state");
        free(ep.p);
        rewritten->safe_push(r.p);
        (*lines)[c].s = r.p;
        (*lines)[c].n = r.n;
        ends[c - first] = 1;
        made++;
    }
    for (unsigned i = 0; i < keys.length(); i++)
        free(keys[i]);
    return made;
}

/* F's body once its calls are tail calls: where it calls nothing and
 * touches the stack only with one `subq $N, %rsp` (its first instruction,
 * or the first of the block after an early exit's test where GCC
 * shrink-wrapped the copy) and `addq $N, %rsp` before its jumps out and
 * returns (the copy's frame kept the stack aligned for its calls), every
 * path is balanced without them, and the frame goes: those lines and
 * their .cfi_def_cfa_offset lines (CFA %rsp+8 throughout, as -O2's leaf
 * has it).  Nothing else may name the stack pointer, push, pop or be a
 * program's asm; the CFI may only be those offsets and remember/restore.
 * BODY edited in place; true if so. */
static bool drop_leaf_frame(char *body)
{
    auto_vec<line> ls;
    split_lines(body, strlen(body), &ls);
    char sub[64] = "", add[64], o1[64], o2[64];
    for (unsigned i = 0; i < ls.length(); i++) {
        const line &l = ls[i];
        long long nb = 0;
        /* (the first such line: any other use of the stack before or
           after it is refused below) */
        if (insn_line(l) && sscanf(l.s, "\tsubq\t$%lld, ", &nb) == 1 && nb > 0 && nb < 4096) {
            snprintf(sub, sizeof sub, "\tsubq\t$%lld, %%rsp", nb);
            snprintf(add, sizeof add, "\taddq\t$%lld, %%rsp", nb);
            snprintf(o1, sizeof o1, "\t.cfi_def_cfa_offset %lld", nb + 8);
            snprintf(o2, sizeof o2, "\t.cfi_def_cfa_offset 8");
            if (!equals(l, sub))
                sub[0] = 0;
            break;
        }
    }
    if (!sub[0])
        return false;
    bool seen_sub = false;
    for (unsigned i = 0; i < ls.length(); i++) {
        const line &l = ls[i];
        if (equals(l, "#APP") || (starts(l, "\t.cfi_") && !equals(l, o1) && !equals(l, o2) &&
                                  !equals(l, "\t.cfi_remember_state") && !equals(l, "\t.cfi_restore_state")))
            return false;
        if (!insn_line(l))
            continue;
        if (equals(l, sub) && !seen_sub) {
            seen_sub = true;
            continue;
        }
        if (equals(l, add))
            continue;
        if (contains(l, "%rsp") || contains(l, "%esp") || contains(l, "%sp") || starts(l, "\tcall") ||
            starts(l, "\tpush") || starts(l, "\tpop") || starts(l, "\tleave") || starts(l, "\tenter"))
            return false;
    }
    /* drop them */
    size_t o = 0;
    for (unsigned i = 0; i < ls.length(); i++) {
        const line &l = ls[i];
        if (equals(l, sub) || equals(l, add) || equals(l, o1) || equals(l, o2))
            continue;
        memmove(body + o, l.s, l.n);
        o += l.n;
        body[o++] = '\n';
    }
    if (o && body[o - 1] == '\n')
        o--;
    body[o] = 0;
    return true;
}

/* From TEXT (all GCC wrote while it compiled COPY_NAME, f.count.N), the
 * clean copy F_NAME's body (*body) and its ranges (*chunks, the CODE chunks
 * of f.count.N with f's labels, into .perfinst.clean; UNIQUE gives each a
 * section id); NULL and *why when the text does not fit.  CTR: the
 * counters' symbol. */
bool pi_final_derive(const char *text, size_t len, const char *copy_name, const char *f_name, const char *ctr,
                     const char *icall, unsigned (*unique)(void), char **body, char **chunks, char **cold,
                     const char **why)
{
    *body = *chunks = *cold = NULL;
    /* (f with the offset's asm kept whole and the loads that read through
       it ran zstd's -5 compression in 1.165x -O2's instructions in the off
       mode, late's clean copy 1.070x: bench/RESULTS.md 2026-12-06 14:20) */
    if (pic_offset_read) {
        *why = "-fPIC: code that stays reads the counters through their offset";
        return false;
    }
    auto_vec<line> lines;
    split_lines(text, len, &lines);
    /* the copy's label, the section it is in, its body */
    size_t nl = strlen(copy_name);
    unsigned at = 0;
    const char *sec = NULL;
    size_t secn = 0;
    for (; at < lines.length(); at++) {
        size_t n;
        if (const char *s = section_switch(lines[at], &n)) {
            sec = s;
            secn = n;
        }
        if (lines[at].n == nl + 1 && memcmp(lines[at].s, copy_name, nl) == 0 && lines[at].s[nl] == ':')
            break;
    }
    if (at == lines.length() || !sec) {
        *why = "the copy's label or section not found";
        return false;
    }
    unsigned first = at, last = lines.length();
    while (first < lines.length() && !equals(lines[first], "\t.cfi_startproc"))
        first++;
    while (last > first && !equals(lines[last - 1], "\t.cfi_endproc"))
        last--;
    if (first == lines.length() || last <= first + 1) {
        *why = "no .cfi_startproc/.cfi_endproc around the copy";
        return false;
    }
    first++;
    last--; /* the body: lines[first, last) */
    /* a hot/cold split: the hot part's FDE ends at its .cfi_endproc
       (hot_last), the cold part's, in the cold section, runs from the
       .cfi_startproc after it (cold_first - 1) to `last`; the lines
       between are neither's */
    unsigned hot_last = first, cold_first = 0;
    const line *cold_sec = NULL;
    while (hot_last < last && !equals(lines[hot_last], "\t.cfi_endproc"))
        hot_last++;
    if (hot_last < last) {
        unsigned k = hot_last + 1;
        while (k < last && !equals(lines[k], "\t.cfi_startproc"))
            k++;
        for (unsigned j = hot_last + 1; j < k; j++) {
            size_t n;
            if (section_switch(lines[j], &n))
                cold_sec = &lines[j];
        }
        cold_first = k + 1;
        if (k >= last || !cold_sec) {
            *why = "a second frame description not as made";
            return false;
        }
    } else
        hot_last = last;

    hash_set<nofree_string_hash> labels;
    auto_vec<char *> names;
    char buf[256];
    *why = NULL;
    /* what f leaves out of the body: the counter updates, the inline
       caches' asms (drop), the #APP groups nothing else is left in, and
       the code that is unreachable once jumps are gone (dead) */
    unsigned nb = last - first;
    auto_vec<char> drop, dead;
    drop.safe_grow_cleared(nb);
    dead.safe_grow_cleared(nb);
    bool marked = false; /* after a finaldead marker */
    char lsda_buf[256], lsda_cold_buf[256];
    const char *lsda = NULL, *lsda_cold = NULL; /* the exception tables' labels (.cfi_lsda) */
    char *on = xasprintf(".Lpi_on.%s:", copy_name); /* the copy's own test ends so */
    char *cold_label = xasprintf("%s.cold:", copy_name), *cold_type = xasprintf("\t.type\t%s.cold, @function", copy_name);
    for (unsigned i = first; i < last && !*why; i++) {
        const line &l = lines[i];
        /* (between the parts, and the cold part's symbol: f's are made) */
        if ((i >= hot_last && i < cold_first) || equals(l, cold_label) || equals(l, cold_type)) {
            drop[i - first] = 1;
            continue;
        }
        if (equals(l, "#APP")) {
            /* the copy's own test (copy-calls=direct: pass-tailjump.cc
               add_copy_test), which f, entered by its own, leaves out */
            unsigned j = i + 1;
            bool own = false;
            for (; j < last && !equals(lines[j], "#NO_APP"); j++)
                own = own || equals(lines[j], on);
            if (own && j < last) {
                for (unsigned k = i; k <= j; k++)
                    drop[k - first] = 1;
                i = j;
                continue;
            }
        }
        if (dead_mark(l)) {
            drop[i - first] = 1;
            marked = true;
            continue;
        }
        if (marked && insn_line(l)) {
            marked = false;
            if (dead_insn_line(l, ctr)) {
                drop[i - first] = 1;
                continue;
            }
        }
        bool other = false;
        const char *d = label_def(l, buf, sizeof buf, &other);
        if (!d)
            d = view_def(l, buf, sizeof buf);
        if (d && !labels.contains(d)) {
            char *c = xstrdup(d);
            names.safe_push(c);
            labels.add(c);
        }
        if (other)
            *why = "a symbol defined in the body (a hot/cold split)";
        else if (counter_line(l, ctr) || (icall && counter_line(l, icall)) || based_counter_line(l) ||
                 equals(l, "\t" PI_TAIL_TAG))
            drop[i - first] = 1;
        else if (ctr_use u = counter_use(l, ctr)) {
            /* GCC's own (a call-free loop's): the stores go, the loads
               stay (the program's values may be computed from them: an
               induction variable IVOPTs shares with the counter) */
            if (u == CTR_OTHER)
                *why = "a counter exchanged or updated with a lock";
            else if (u != CTR_READ) {
                drop[i - first] = 1;
                unsigned j = next_code(lines, i, first, last, drop);
                if (u == CTR_WRITE_FLAGS && j < last && reads_flags(lines[j]))
                    *why = "the flags of a counter's update read";
            }
        }
        else if (icall_cmp_line(l, icall) || pi_ctr_base_asm_line(l.s, l.n)) {
            /* the whole asm, up to its last line (pi_icall_asm_template;
               under -fPIC the counters' offset, pi_ctr_base_asm_template,
               which only the updates f leaves out read) */
            unsigned j = i + 1;
            while (j + 1 < last && !(equals(lines[j], "\t.subsection 0") && equals(lines[j + 1], PI_OOL_ASM_END)))
                j++;
            bool icall_asm = icall_cmp_line(l, icall);
            if (j + 1 < last && (icall_asm ? equals(lines[i + 1], "\tjne 1f") || ends(l, PI_ICALL_BASED_TAG)
                                           : starts(lines[i + 1], "\ttestq %"))) {
                for (unsigned k = i; k <= j + 1; k++)
                    drop[k - first] = 1;
                i = j + 1;
            } else
                *why = icall_asm ? "an inline cache's asm not as made" : "the counters' offset's asm not as made";
        } else if (starts(l, "\t.cfi_startproc") || starts(l, "\t.cfi_endproc"))
            *why = "more than two frame descriptions";
        else if (starts(l, "\t.cfi_lsda ")) {
            /* `.cfi_lsda ENC,.LLSDAn`: the exception table after the body */
            const char *c = (const char *)memchr(l.s, ',', l.n);
            size_t k = c ? l.s + l.n - (c + 1) : 0;
            char *b = i < hot_last ? lsda_buf : lsda_cold_buf;
            if ((i < hot_last ? lsda : lsda_cold) || !k || k >= sizeof lsda_buf)
                *why = "an exception table not as made";
            else {
                memcpy(b, c + 1, k);
                b[k] = 0;
                if (i < hot_last)
                    lsda = b;
                else
                    lsda_cold = b;
            }
        }
        else if (starts(l, "\t.pushsection") || starts(l, "\t.popsection") || starts(l, "\t.previous") ||
                 starts(l, "\t.subsection") || starts(l, "\t.cfi_sections"))
            *why = "a section stack directive in the body";
    }
    free(on);
    free(cold_label);
    free(cold_type);
    /* the exception table of a body with `.cfi_lsda`: after the body's
       .cfi_endproc, in a .gcc_except_table section of its own, up to the
       next switch; f's is a copy of it, its labels renamed as the body's,
       its base (`.uleb128 .LEHB0-.LFBn`: the copy's start) f's name */
    unsigned eh_sec = 0, eh_last = 0;
    char fb_buf[64];
    const char *fb = NULL;
    /* (with a hot/cold split, the hot part's table comes before its
       .cfi_endproc, in the body, and the cold part's after `last`; its
       base `.LCOLDBn`, the cold section's start, is f's cold symbol) */
    char coldb_buf[64];
    const char *coldb = NULL;
    if ((lsda || lsda_cold) && !*why) {
        const char *after = lsda && !labels.contains(lsda) ? lsda : lsda_cold;
        if (after == lsda && lsda_cold)
            *why = "an exception table not as made";
        size_t k = after ? strlen(after) : 0;
        for (unsigned i = last + 1; after && i + 1 < lines.length() && !eh_sec && !starts(lines[i], "\t.cfi_startproc"); i++) {
            size_t n;
            const char *s = section_switch(lines[i], &n);
            if (s && n >= 17 && memcmp(s, ".gcc_except_table", 17) == 0 && lines[i + 1].n == k + 1 &&
                memcmp(lines[i + 1].s, after, k) == 0 && lines[i + 1].s[k] == ':')
                eh_sec = i;
        }
        for (eh_last = eh_sec + 1; eh_sec && eh_last < lines.length(); eh_last++) {
            size_t n;
            const line &l = lines[eh_last];
            if (section_switch(l, &n))
                break;
            bool other = false;
            if (starts(l, "\t.cfi_") || starts(l, "\t.pushsection") || starts(l, "\t.popsection") || starts(l, "#APP"))
                *why = "an exception table not as made";
            else if (const char *d = label_def(l, buf, sizeof buf, &other))
                if (!labels.contains(d)) {
                    char *c = xstrdup(d);
                    names.safe_push(c);
                    labels.add(c);
                }
        }
        for (unsigned i = first - 1; i > at && !fb; i--) {
            bool other = false;
            const char *d = label_def(lines[i - 1], fb_buf, sizeof fb_buf, &other);
            if (d && strncmp(d, ".LFB", 4) == 0)
                fb = d;
        }
        for (unsigned i = at; lsda_cold && i > 0 && !coldb; i--) {
            bool other = false;
            const char *d = label_def(lines[i - 1], coldb_buf, sizeof coldb_buf, &other);
            if (d && strncmp(d, ".LCOLDB", 7) == 0)
                coldb = d;
        }
        if ((after && !eh_sec) || !fb || (lsda_cold && !coldb) || (lsda && !labels.contains(lsda) && after != lsda))
            *why = "the exception table or the copy's start label not found";
    }
    /* #APP groups with nothing left but line markers, labels, .loc and
       alignment: their #APP, #NO_APP and markers go too */
    for (unsigned i = first; i < last && !*why; i++) {
        if (!equals(lines[i], "#APP"))
            continue;
        unsigned j = i + 1;
        while (j < last && !equals(lines[j], "#NO_APP"))
            j++;
        if (j == last)
            break;
        bool empty = true;
        for (unsigned k = i + 1; k < j && empty; k++) {
            const line &l = lines[k];
            bool other = false;
            empty = drop[k - first] || no_code_line(l, false) || label_def(l, buf, sizeof buf, &other);
        }
        if (empty)
            for (unsigned k = i; k <= j; k++)
                if (k == i || k == j || (lines[k].n && lines[k].s[0] == '#'))
                    drop[k - first] = 1;
        i = j;
    }
    /* jumps to a jump (a block that held only counter updates, or an
       inline cache's way) go to its target, and a jump to the next
       line's label goes: the off mode runs neither */
    auto_vec<char *> rewritten;
    auto_vec<char> ends; /* a jump made its target's return block */
    ends.safe_grow_cleared(nb);
    if (!*why) {
        tail_calls(&lines, first, last, drop, ends, &rewritten);
        thread_jumps(&lines, first, last, drop, ends, &rewritten);
    }
    /* unreachable code: after a jump, a return or ud2, up to a label that
       a kept line names (any other label, or a kept #APP group, which may
       hold labels of its own, ends it too); until nothing changes */
    for (bool changed = true; changed && !*why;) {
        changed = false;
        hash_set<nofree_string_hash> refs;
        auto_vec<char *> refnames;
        /* (the body's kept lines, and the exception table: its landing
           pads) */
        for (unsigned x = first; x < (eh_sec ? last + (eh_last - eh_sec - 1) : last); x++) {
            unsigned i = x < last ? x : eh_sec + 1 + (x - last);
            const line &l = lines[i];
            bool other = false;
            if ((x < last && (drop[i - first] || dead[i - first])) || label_def(l, buf, sizeof buf, &other) ||
                starts(l, "\t.loc "))
                continue;
            for (size_t a = 0; a + 2 < l.n; a++) {
                if (l.s[a] != '.' || l.s[a + 1] != 'L' || (a > 0 && ident_char(l.s[a - 1])))
                    continue;
                size_t e = a;
                while (e < l.n && ident_char(l.s[e]))
                    e++;
                if (e - a < sizeof buf) {
                    memcpy(buf, l.s + a, e - a);
                    buf[e - a] = 0;
                    if (!refs.contains(buf)) {
                        char *c = xstrdup(buf);
                        refnames.safe_push(c);
                        refs.add(c);
                    }
                }
                a = e;
            }
        }
        bool reach = true;
        for (unsigned i = first; i < last; i++) {
            const line &l = lines[i];
            if (drop[i - first])
                continue;
            bool other = false;
            size_t c = 0;
            while (c < l.n && l.s[c] != ':' && !ISSPACE(l.s[c]))
                c++;
            if (const char *d = label_def(l, buf, sizeof buf, &other))
                reach = reach || refs.contains(d);
            else if ((c < l.n && l.s[c] == ':' && c > 0) || equals(l, "#APP"))
                reach = true; /* a label of another kind, an asm of the program */
            else if (insn_line(l) || ends[i - first]) {
                if (!reach && !dead[i - first]) {
                    dead[i - first] = 1;
                    changed = true;
                }
                if (reach && (uncond_line(l) || ends[i - first]))
                    reach = false;
            }
        }
        for (unsigned i = 0; i < refnames.length(); i++)
            free(refnames[i]);
    }
    /* -fPIC, the offset's asm left out: no code f keeps reaches %fs
       (a counter's store finaldead marked and the text did not take) */
    for (unsigned i = first; i < last && !*why && pi_counter_offset_decl(); i++)
        if (!drop[i - first] && !dead[i - first] && insn_line(lines[i]) && contains(lines[i], "%fs:"))
            *why = "-fPIC: a reference to %fs that stays";
    for (unsigned i = first; i < last && !*why; i++)
        if (!drop[i - first] && !dead[i - first] && contains(lines[i], "__perfinst") && !only_counter_reads(lines[i], ctr))
            *why = "another reference to perfinst's symbols";

    outbuf out = {NULL, 0, 0}, cold_out = {NULL, 0, 0};
    renamer r = {&labels, copy_name, f_name, false, fb, coldb};
    bool pushed = false;
    for (unsigned i = first; i < last && !*why; i++) {
        const line &l = lines[i];
        if (i >= cold_first && cold_first) {
            /* the cold part: its own FDE, written apart (*cold) */
            size_t n;
            if (drop[i - first] || dead[i - first] || starts(l, "\t.file "))
                continue;
            if (section_switch(l, &n))
                *why = "a section switch in the cold part";
            put_renamed(&cold_out, l, &r);
            puts_(&cold_out, "\n");
            continue;
        }
        /* a .file line: the copy's text, written before f, numbered that
           file (as refused the same `.file 2 "weird.h"` again: under DWARF 5
           it holds the first joined with the directory) */
        if (drop[i - first] || dead[i - first] || starts(l, "\t.file "))
            continue;
        size_t n;
        if (const char *s = section_switch(l, &n)) {
            /* back to f's section, or into another (pushed) */
            if (pushed)
                puts_(&out, "\t.popsection\n");
            pushed = !(n == secn && memcmp(s, sec, n) == 0);
            if (pushed) {
                puts_(&out, "\t.pushsection ");
                put(&out, s, l.s + l.n - s);
                puts_(&out, "\n");
            }
            continue;
        }
        put_renamed(&out, l, &r);
        puts_(&out, "\n");
    }
    if (!*why && pushed)
        *why = "the body ends in another section";
    if (*why) {
        for (unsigned i = 0; i < rewritten.length(); i++)
            free(rewritten[i]);
        free(out.p);
        free(cold_out.p);
        for (unsigned i = 0; i < names.length(); i++)
            free(names[i]);
        return false;
    }
    if (out.n && out.p[out.n - 1] == '\n')
        out.p[--out.n] = 0;
    *body = out.p ? out.p : xstrdup("");
    if (!cold_first)
        drop_leaf_frame(*body);
    else {
        /* f's cold part: in the copy's cold section, an FDE of its own */
        size_t n;
        const char *s = section_switch(*cold_sec, &n);
        outbuf c = {NULL, 0, 0};
        puts_(&c, "\t.pushsection ");
        put(&c, s, cold_sec->s + cold_sec->n - s);
        puts_(&c, "\n\t.cfi_startproc\n\t.type\t");
        puts_(&c, f_name);
        puts_(&c, ".cold, @function\n");
        puts_(&c, f_name);
        puts_(&c, ".cold:\n");
        if (cold_out.p)
            put(&c, cold_out.p, cold_out.n);
        puts_(&c, "\t.cfi_endproc\n\t.size\t");
        puts_(&c, f_name);
        puts_(&c, ".cold, .-");
        puts_(&c, f_name);
        puts_(&c, ".cold\n\t.popsection\n");
        free(cold_out.p);
        *cold = c.p;
    }
    if (eh_sec) {
        /* f's exception table, in the copy's section (its group) */
        size_t n;
        const char *s = section_switch(lines[eh_sec], &n);
        outbuf eh = {NULL, 0, 0};
        puts_(&eh, *body);
        puts_(&eh, "\n\t.pushsection ");
        put(&eh, s, lines[eh_sec].s + lines[eh_sec].n - s);
        puts_(&eh, "\n");
        for (unsigned i = eh_sec + 1; i < eh_last; i++) {
            put_renamed(&eh, lines[i], &r);
            puts_(&eh, "\n");
        }
        puts_(&eh, "\t.popsection");
        free(*body);
        *body = eh.p;
    }

    /* f.count.N's CODE chunks: .perfinst sections, "o" (linked to a label)
       or "oG" (in a COMDAT group too) */
    outbuf ch = {NULL, 0, 0};
    static const char meta[] = "\t.pushsection " PI_SECTION_META ",\"o";
    for (unsigned i = 0; i < lines.length(); i++) {
        if (!starts(lines[i], meta))
            continue;
        unsigned j = i + 1;
        while (j < lines.length() && !equals(lines[j], "\t.popsection"))
            j++;
        if (j == lines.length())
            break;
        /* the group: .pushsection .perfinst,"oG",@progbits,LABEL,GROUP,comdat,unique,N */
        const line &h = lines[i];
        const char *group = NULL;
        size_t groupn = 0;
        if (h.s[strlen(meta)] == 'G') {
            unsigned comma = 0;
            for (size_t k = 0; k < h.n; k++)
                if (h.s[k] == ',' && ++comma == 4) {
                    size_t e = k + 1;
                    while (e < h.n && h.s[e] != ',')
                        e++;
                    group = h.s + k + 1;
                    groupn = e - k - 1;
                    break;
                }
            if (!group) {
                i = j;
                continue;
            }
        }
        outbuf one = {NULL, 0, 0};
        r.missing = false;
        char hdr[64];
        if (group) {
            puts_(&one, "\t.pushsection " PI_SECTION_CLEAN ",\"eG\",@progbits,");
            put(&one, group, groupn);
            snprintf(hdr, sizeof hdr, ",comdat,unique,%u\n", unique());
        } else
            snprintf(hdr, sizeof hdr, "\t.pushsection " PI_SECTION_CLEAN ",\"e\",@progbits,unique,%u\n", unique());
        puts_(&one, hdr);
        for (unsigned k = i + 1; k <= j; k++) {
            put_renamed(&one, lines[k], &r);
            puts_(&one, "\n");
        }
        if (!r.missing)
            put(&ch, one.p, one.n);
        free(one.p);
        i = j;
    }
    *chunks = ch.p;
    for (unsigned i = 0; i < rewritten.length(); i++)
        free(rewritten[i]); /* (the lines the chunks were read from point into them) */
    for (unsigned i = 0; i < names.length(); i++)
        free(names[i]);
    return true;
}

/* ---- tail calls ----------------------------------------------------------
 *
 * -O2 makes `return g (...)` a jump to g where GCC's tail-call analysis
 * (tree-tailcall.cc) marks the call and expansion (calls.cc) can make it a
 * sibling call.  The counting copy counts the block after the call (g may
 * not return), so its call stays a call, and f, made of its code, called
 * g, then jumped to the copy's epilogue and returned (SQLite's getCellInfo:
 * `call *%rcx; jmp .L; .L: addq $8, %rsp; ret` where -O2 has `jmp *%rcx`).
 * Here the copy's calls that GCC would make tail calls but for the counter
 * updates after them are found on its GIMPLE (pi_final_mark_tail_calls,
 * right before its expansion: tree-tailcall.cc's conditions with the
 * counter updates and site markers seen through, then calls.cc's that can
 * be told before expansion), and the counter update that follows such a
 * call in its block ends in PI_TAIL_TAG; after register allocation the
 * tag goes where the call passes arguments on the stack (finaltails: the
 * call's stack size, RTL's `(call MEM (const_int N))`, is not 0: f's
 * epilogue would free them).  pi_final_derive then makes each tagged
 * call, when the code after it up to a `ret` is only an epilogue (pops,
 * stack pointer adjustments), that epilogue and `jmp` to the callee, as
 * -O2's sibling call is. */

/* what the tail-call analysis walks over: tree-tailcall.cc's, and the
   counting copy's counter updates and site markers */
static bool tail_transparent(gimple *g)
{
    return gimple_code(g) == GIMPLE_LABEL || gimple_code(g) == GIMPLE_NOP || gimple_code(g) == GIMPLE_PREDICT ||
           gimple_clobber_p(g) || is_gimple_debug(g) || pi_counter_or_marker_asm(g);
}

struct tail_scan {
    live_vars_map *live;
    vec<bitmap_head> live_vec;
    bitmap seen;
    unsigned tagged;
};

/* the CALL_EXPR expansion makes of CALL (cfgexpand.cc, expand_call_stmt) */
static tree call_expr_of(gcall *call)
{
    tree exp = build_vl_exp(CALL_EXPR, gimple_call_num_args(call) + 3);
    CALL_EXPR_FN(exp) = gimple_call_fn(call);
    TREE_TYPE(exp) = gimple_call_return_type(call);
    CALL_EXPR_STATIC_CHAIN(exp) = gimple_call_chain(call);
    for (unsigned i = 0; i < gimple_call_num_args(call); i++)
        CALL_EXPR_ARG(exp, i) = gimple_call_arg(call, i);
    SET_EXPR_LOCATION(exp, gimple_location(call));
    return exp;
}

/* CALL (in cfun, the counting copy) as tree-tailcall.cc's find_tail_calls
 * checks a call it found in tail position, and as calls.cc's
 * can_implement_as_sibling_call_p checks it before the arguments (the
 * stack's part: finaltails) */
static bool sibcall_ok(gcall *call, tail_scan *s)
{
    if (gimple_call_internal_p(call) || gimple_call_tail_p(call) || !gimple_call_fn(call))
        return false;
    if (gimple_call_flags(call) & (ECF_NORETURN | ECF_RETURNS_TWICE))
        return false;
    tree lhs = gimple_call_lhs(call);
    if (lhs && !is_gimple_reg(lhs) && !auto_var_in_fn_p(lhs, cfun->decl))
        return false;
    if (stmt_could_throw_p(cfun, call) && !stmt_can_throw_external(cfun, call))
        return false;
    tree res = DECL_RESULT(cfun->decl);
    if (res && may_be_aliased(res) && ref_maybe_used_by_stmt_p(call, res, false))
        return false;
    /* no local the call may see is live after it */
    unsigned idx;
    tree var;
    if (!s->live) {
        s->live = new live_vars_map;
        unsigned n = 0;
        FOR_EACH_LOCAL_DECL(cfun, idx, var)
        if (VAR_P(var) && auto_var_in_fn_p(var, cfun->decl) && may_be_aliased(var))
            s->live->put(DECL_UID(var), n++);
        if (n)
            s->live_vec = compute_live_vars(cfun, s->live);
    }
    bitmap live = s->live->elements() ? live_vars_at_stmt(s->live_vec, s->live, call) : NULL;
    bool ok = true;
    FOR_EACH_LOCAL_DECL(cfun, idx, var)
    if (TREE_CODE(var) != PARM_DECL && auto_var_in_fn_p(var, cfun->decl) && may_be_aliased(var) &&
        (ref_maybe_used_by_stmt_p(call, var, false) || call_may_clobber_ref_p(call, var, false))) {
        unsigned *v = VAR_P(var) ? s->live->get(DECL_UID(var)) : NULL;
        if (!v || !live || bitmap_bit_p(live, *v)) {
            ok = false;
            break;
        }
    }
    if (live)
        BITMAP_FREE(live);
    if (!ok)
        return false;
    /* expansion's */
    tree exp = call_expr_of(call), fndecl = gimple_call_fndecl(call), fn = CALL_EXPR_FN(exp);
    if (aggregate_value_p(exp, gimple_call_fntype(call)))
        return false; /* (a structure's address) */
    if (!POINTER_TYPE_P(TREE_TYPE(fn)) || TYPE_VOLATILE(TREE_TYPE(TREE_TYPE(fn))))
        return false;
    tree origin = pi_countfn_origin(cfun->decl);
    if (fndecl && (decl_function_context(fndecl) == cfun->decl || (origin && decl_function_context(fndecl) == origin)))
        return false;
    return targetm.function_ok_for_sibcall(fndecl, exp);
}

/* find_tail_calls: the calls in tail position that reach BB's return */
static void find_tails(basic_block bb, tail_scan *s)
{
    if (!single_succ_p(bb) || !bitmap_set_bit(s->seen, bb->index))
        return;
    gimple_stmt_iterator gsi;
    gcall *call = NULL;
    for (gsi = gsi_last_bb(bb); !gsi_end_p(gsi); gsi_prev(&gsi)) {
        gimple *g = gsi_stmt(gsi);
        if (gimple_code(g) == GIMPLE_RETURN || tail_transparent(g))
            continue;
        if (is_gimple_call(g)) {
            call = as_a<gcall *>(g);
            break;
        }
        if (is_gimple_assign(g) && auto_var_in_fn_p(gimple_assign_lhs(g), cfun->decl) &&
            auto_var_in_fn_p(gimple_assign_rhs1(g), cfun->decl))
            continue;
        if (gimple_references_memory_p(g) || gimple_has_volatile_ops(g))
            return;
    }
    if (!call) {
        edge e;
        edge_iterator ei;
        FOR_EACH_EDGE(e, ei, bb->preds)
        if (e->src != ENTRY_BLOCK_PTR_FOR_FN(cfun))
            find_tails(e->src, s);
        return;
    }
    /* after the call: its value copied (no code) up to the return, which
       returns it; the first counter update in its block gets the tag */
    tree var = gimple_call_lhs(call);
    gimple *tag = NULL;
    basic_block abb = bb;
    gimple_stmt_iterator agsi = gsi;
    gimple *g;
    for (;;) {
        gsi_next(&agsi);
        while (gsi_end_p(agsi)) {
            if (!single_succ_p(abb))
                return;
            edge e = single_succ_edge(abb);
            for (gphi_iterator p = gsi_start_phis(e->dest); !gsi_end_p(p); gsi_next(&p))
                if (PHI_ARG_DEF_FROM_EDGE(p.phi(), e) == var) {
                    var = PHI_RESULT(p.phi());
                    break;
                }
            abb = e->dest;
            if (abb == EXIT_BLOCK_PTR_FOR_FN(cfun))
                return;
            agsi = gsi_start_bb(abb);
        }
        g = gsi_stmt(agsi);
        if (gimple_code(g) == GIMPLE_RETURN)
            break;
        if (tail_transparent(g)) {
            if (!tag && abb == bb && pi_counter_update_asm(g))
                tag = g;
            continue;
        }
        /* process_assignment: a copy, or a conversion that makes no code */
        if (!is_gimple_assign(g) || !var || gimple_assign_rhs1(g) != var)
            return;
        tree dest = gimple_assign_lhs(g);
        if (gimple_assign_cast_p(g)) {
            if (TYPE_MODE(TREE_TYPE(dest)) != TYPE_MODE(TREE_TYPE(var)) ||
                (INTEGRAL_TYPE_P(TREE_TYPE(dest)) && !type_has_mode_precision_p(TREE_TYPE(dest))))
                return;
        } else if (get_gimple_rhs_class(gimple_assign_rhs_code(g)) != GIMPLE_SINGLE_RHS)
            return;
        var = dest;
    }
    tree ret = gimple_return_retval(as_a<greturn *>(g));
    if ((ret && ret != var) || gimple_call_ctrl_altering_p(call) || !sibcall_ok(call, s))
        return;
    s->tagged++;
    if (tag) {
        gasm *a = as_a<gasm *>(tag);
        char *t = concat(gimple_asm_string(a), PI_TAIL_TAG, NULL);
        a->string = ggc_strdup(t);
        free(t);
        return;
    }
    /* no update after the call in its block (the block after it counts
       with others): the tag alone, an asm that makes no code */
    gasm *a = gimple_build_asm_vec(PI_TAIL_TAG, NULL, NULL, NULL, NULL);
    gimple_asm_set_volatile(a, true);
    gimple_set_location(a, gimple_location(call));
    gsi_insert_after(&gsi, a, GSI_SAME_STMT);
}

void pi_final_mark_tail_calls(function *fun)
{
    /* tree-tailcall.cc: suitable_for_tail_opt_p, suitable_for_tail_call_opt_p
       (but for SJLJ exceptions: f has no exception regions) */
    if (!flag_optimize_sibling_calls || fun->stdarg || fun->calls_alloca || fun->calls_setjmp || fun->calls_eh_return)
        return;
    for (tree p = DECL_ARGUMENTS(fun->decl); p; p = DECL_CHAIN(p))
        if (TREE_ADDRESSABLE(p))
            return;
    tail_scan s = {NULL, vNULL, BITMAP_ALLOC(NULL), 0};
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, EXIT_BLOCK_PTR_FOR_FN(fun)->preds)
    {
        gimple *last = last_stmt(e->src);
        if (last && gimple_code(last) == GIMPLE_RETURN)
            find_tails(e->src, &s);
    }
    BITMAP_FREE(s.seen);
    if (s.live) {
        if (s.live->elements())
            destroy_live_vars(s.live_vec);
        delete s.live;
    }
}

/* After register allocation, in a counting copy made for f: the tag off
 * the update after a call that passes arguments on the stack (f's
 * epilogue would free them before the jump), or that is no longer right
 * before it. */
static unsigned int finaltails_execute(function *)
{
    size_t k = strlen(PI_TAIL_TAG);
    for (rtx_insn *insn = get_insns(); insn; insn = NEXT_INSN(insn)) {
        const char *t = pi_rtl_asm_template(insn);
        size_t n = t ? strlen(t) : 0;
        if (n < k || strcmp(t + n - k, PI_TAIL_TAG) != 0)
            continue;
        bool alone = n == k;
        rtx_insn *c = PREV_INSN(insn);
        while (c && !CALL_P(c) && !LABEL_P(c) && !BARRIER_P(c) && !JUMP_P(c))
            c = PREV_INSN(c);
        rtx call = c && CALL_P(c) && !SIBLING_CALL_P(c) ? get_call_rtx_from(c) : NULL_RTX;
        if (call && CONST_INT_P(XEXP(call, 1)) && INTVAL(XEXP(call, 1)) == 0)
            continue;
        if (alone) {
            delete_insn(insn);
            continue;
        }
        char *u = xstrndup(t, n - k);
        pi_rtl_set_asm_template(insn, u);
        free(u);
    }
    return 0;
}

static bool finaltails_gate(function *fun)
{
    return pi_opt.clean_copies == PI_CLEAN_FINAL && pi_countfn_origin(fun->decl);
}
PI_RTL_PASS(finaltails)

/* ---- the counters' dead loads and adds in f --------------------------------
 *
 * f leaves out every store into the counters (counter_use); what computed
 * the stored values — a call-free loop's load of its counter before the
 * loop, its register adds, a copy between registers — is then dead in f.
 * After register allocation, in the counting copy being captured, each
 * instruction whose every result is used only by such stores or by other
 * such instructions (GCC's def-use chains over the hard registers; a
 * greatest fixed point, as a loop's add uses itself) gets a marker before
 * it: a NOTE_INSN_DELETED_DEBUG_LABEL, which final writes as a label line
 * `.LDLn:` (no byte; the counting copy keeps it), and pi_final_derive
 * leaves out the instruction after each marker of dead_marks. */

/* X is a memory reference to the counters CTR (under -fPIC: through the
 * offset's register, pass-tls.cc, in %fs's address space, which the
 * counting copy's own code does not use otherwise; a function with an
 * indirect call's cache of GIMPLE's form there is not made so:
 * final_refusal) */
static bool counter_mem(const_rtx x, tree ctr)
{
    if (!MEM_P(x))
        return false;
    if (pi_counter_offset_decl() && MEM_ADDR_SPACE(x) == DEFAULT_TLS_SEG_REG)
        return true;
    subrtx_iterator::array_type array;
    FOR_EACH_SUBRTX(it, array, XEXP(x, 0), ALL)
    if (GET_CODE(*it) == SYMBOL_REF &&
        (SYMBOL_REF_DECL(*it) == ctr || strcmp(XSTR(*it, 0), pi_asm_name(ctr)) == 0))
        return true;
    return false;
}

enum dead_kind { DEAD_NO, DEAD_STORE, DEAD_MAYBE };

/* PAT computes the counters' offset under -fPIC (unit.cc
 * pi_ctr_base_asm_template: one asm, one output) */
static bool ctr_base_asm(rtx pat)
{
    if (GET_CODE(pat) == PARALLEL)
        pat = XVECEXP(pat, 0, 0);
    if (GET_CODE(pat) == SET)
        pat = SET_SRC(pat);
    return GET_CODE(pat) == ASM_OPERANDS && pi_ctr_base_asm_template_p(ASM_OPERANDS_TEMPLATE(pat));
}

/* PAT is a counter update through that offset (copies.cc
 * pi_counter_asm_rebase: one input, its template tagged) */
static bool based_update_asm(rtx pat)
{
    if (GET_CODE(pat) == PARALLEL)
        pat = XVECEXP(pat, 0, 0);
    return GET_CODE(pat) == ASM_OPERANDS && ASM_OPERANDS_INPUT_LENGTH(pat) == 1 &&
           pi_based_update_template(ASM_OPERANDS_TEMPLATE(pat));
}

/* -fPIC: PAT is an inline cache's asm through the counters' offset
 * (pass-tls.cc: tagged PI_ICALL_BASED_TAG; no output) */
static bool icall_based_asm(rtx pat)
{
    if (GET_CODE(pat) == PARALLEL)
        pat = XVECEXP(pat, 0, 0);
    return GET_CODE(pat) == ASM_OPERANDS && strstr(ASM_OPERANDS_TEMPLATE(pat), PI_ICALL_BASED_TAG);
}

/* PAT is a loop counter's write-back, `ctr[K] += REG` (copies.cc
 * write_back: an asm whose one input is the register) */
static bool write_back_asm(rtx pat, tree ctr)
{
    if (GET_CODE(pat) == PARALLEL)
        pat = XVECEXP(pat, 0, 0);
    return GET_CODE(pat) == ASM_OPERANDS && ASM_OPERANDS_INPUT_LENGTH(pat) == 1 && REG_P(ASM_OPERANDS_INPUT(pat, 0)) &&
           pi_write_back_template(ASM_OPERANDS_TEMPLATE(pat), pi_asm_name(ctr));
}

/* INSN as finaldead sees it: a store into the counters (f leaves it out),
 * a set of a general register from registers, constants and the counters
 * and nothing else (but clobbers: the flags of an add), or neither */
static dead_kind dead_kind_of(rtx_insn *insn, tree ctr)
{
    if (!NONJUMP_INSN_P(insn) || RTX_FRAME_RELATED_P(insn))
        return DEAD_NO;
    rtx pat = PATTERN(insn), set = NULL_RTX;
    if (write_back_asm(pat, ctr))
        return DEAD_STORE;
    if (GET_CODE(pat) == SET)
        set = pat;
    else if (GET_CODE(pat) == PARALLEL)
        for (int i = 0; i < XVECLEN(pat, 0); i++) {
            rtx e = XVECEXP(pat, 0, i);
            if (GET_CODE(e) == SET && !set)
                set = e;
            else if (GET_CODE(e) != CLOBBER)
                return DEAD_NO;
        }
    if (!set || side_effects_p(SET_SRC(set)) || volatile_insn_p(pat))
        return DEAD_NO;
    subrtx_iterator::array_type array;
    FOR_EACH_SUBRTX(it, array, SET_SRC(set), ALL)
    if ((MEM_P(*it) && !counter_mem(*it, ctr)) || GET_CODE(*it) == UNSPEC_VOLATILE || GET_CODE(*it) == ASM_OPERANDS)
        return DEAD_NO;
    rtx d = SET_DEST(set);
    if (counter_mem(d, ctr))
        return DEAD_STORE;
    if (REG_P(d) && HARD_REGISTER_P(d) &&
        ((GENERAL_REGNO_P(REGNO(d)) && SCALAR_INT_MODE_P(GET_MODE(d))) ||
         (CC_REGNO_P(REGNO(d)) && GET_CODE(SET_SRC(set)) == COMPARE)))
        return DEAD_MAYBE;
    return DEAD_NO;
}

/* Where B leads when it is a forwarder: a block of no instruction but a
 * simple jump (or none), which bb-reorder leaves between a counter's
 * stores and where they go on (nginx's ngx_hash_find: `jne .L27` to the
 * stores, else `jmp .L19`, the stores falling through to .L19); at most a
 * few such steps. */
static basic_block through_forwarders(basic_block b)
{
    for (int steps = 0; steps < 4 && b != EXIT_BLOCK_PTR_FOR_FN(cfun) && single_succ_p(b); steps++) {
        rtx_insn *insn;
        FOR_BB_INSNS(b, insn)
        if (NONDEBUG_INSN_P(insn) && !(JUMP_P(insn) && simplejump_p(insn)))
            return b;
        b = single_succ(b);
    }
    return b;
}

/* JUMP (a conditional jump, its block's end) chooses between nothing and
 * nothing once f has left out the counters' stores: one of its two
 * successors holds only such stores (STORES, by uid; and a jump) and goes
 * on to the other, or to where the other leads through forwarders (store
 * motion's flag that a loop's counter changed: `test %r8b, %r8b; je .L5;
 * movq %rcx, %fs:CTR@tpoff+8; .L5:`) */
static bool dead_jump(rtx_insn *jump, const_sbitmap stores)
{
    basic_block b = BLOCK_FOR_INSN(jump);
    if (!b || BB_END(b) != jump || !any_condjump_p(jump) || !onlyjump_p(jump) || EDGE_COUNT(b->succs) != 2)
        return false;
    for (int k = 0; k < 2; k++) {
        basic_block s = EDGE_SUCC(b, k)->dest, t = EDGE_SUCC(b, 1 - k)->dest;
        if (s == t || !single_succ_p(s) || s == EXIT_BLOCK_PTR_FOR_FN(cfun) ||
            (single_succ(s) != t && through_forwarders(single_succ(s)) != through_forwarders(t)))
            continue;
        bool any = false, other = false;
        rtx_insn *insn;
        FOR_BB_INSNS(s, insn)
        if (NONDEBUG_INSN_P(insn) && !(JUMP_P(insn) && simplejump_p(insn))) {
            if (bitmap_bit_p(stores, INSN_UID(insn)))
                any = true;
            else
                other = true;
        }
        if (any && !other)
            return true;
    }
    return false;
}

/* A result of INSN is read outside the set IN (by an instruction not in
 * it, or an artificial use: the function's return value at its exit);
 * COPIES_OK: not counting plain register copies (a spill and its reload)
 * as outside.  Needs the def-use chains. */
static bool read_outside(rtx_insn *insn, const_sbitmap in, bool copies_ok)
{
    df_ref def;
    FOR_EACH_INSN_DEF(def, insn)
    {
        if (DF_REF_FLAGS_IS_SET(def, DF_REF_MUST_CLOBBER | DF_REF_MAY_CLOBBER))
            continue;
        for (df_link *l = DF_REF_CHAIN(def); l; l = l->next) {
            df_ref use = l->ref;
            if (DF_REF_IS_ARTIFICIAL(use))
                return true;
            rtx_insn *u = DF_REF_INSN(use);
            if (DEBUG_INSN_P(u) || bitmap_bit_p(in, INSN_UID(u)))
                continue;
            rtx set = copies_ok ? single_set(u) : NULL_RTX;
            if (!(set && REG_P(SET_SRC(set))))
                return true;
        }
    }
    return false;
}

static unsigned int finaldead_execute(function *fun)
{
    tree ctr = pi_counter_decl();
    if (!ctr)
        return 0;
    auto_sbitmap in(get_max_uid() + 1), stores(get_max_uid() + 1);
    bitmap_clear(in);
    bitmap_clear(stores);
    auto_vec<rtx_insn *> maybe, store_insns;
    basic_block bb;
    rtx_insn *insn;
    FOR_EACH_BB_FN(bb, fun)
    FOR_BB_INSNS(bb, insn)
    if (NONJUMP_INSN_P(insn) && (based_update_asm(PATTERN(insn)) || icall_based_asm(PATTERN(insn))))
        bitmap_set_bit(in, INSN_UID(insn)); /* (left out by the text: a copy of the offset only they read is dead) */
    else if (dead_kind k = dead_kind_of(insn, ctr)) {
        bitmap_set_bit(in, INSN_UID(insn));
        if (k == DEAD_MAYBE)
            maybe.safe_push(insn);
        else {
            bitmap_set_bit(stores, INSN_UID(insn));
            store_insns.safe_push(insn);
        }
    }
    /* (most copies have no store of GCC's: their counters are asms; under
       -fPIC the offset's uses are checked whatever) */
    bool pic = pi_counter_offset_decl() != NULL_TREE;
    if (bitmap_empty_p(stores) && !pic)
        return 0;
    /* the jumps that choose between stores and nothing (no result: they
       stay in the set) */
    FOR_EACH_BB_FN(bb, fun)
    if (JUMP_P(BB_END(bb)) && dead_jump(BB_END(bb), stores)) {
        bitmap_set_bit(in, INSN_UID(BB_END(bb)));
        maybe.safe_push(BB_END(bb));
    }
    df_chain_add_problem(DF_DU_CHAIN);
    df_analyze();
    /* out of the set: an instruction a result of which is used outside it
       (a use by an instruction not in it, an artificial use: the
       function's return value at its exit ...) */
    for (bool changed = true; changed;) {
        changed = false;
        for (unsigned i = 0; i < maybe.length(); i++) {
            insn = maybe[i];
            if (!bitmap_bit_p(in, INSN_UID(insn)))
                continue;
            if (read_outside(insn, in, false)) {
                bitmap_clear_bit(in, INSN_UID(insn));
                changed = true;
            }
        }
    }
    /* -fPIC: f leaves out the asm that computes the counters' offset
       (pi_ctr_base_asm_template), so f cannot be made where code it keeps
       reaches the counters through it (pic_offset_read): a reference to
       the counters (in %fs's address space) not left out here (a loop's
       counter load whose value is spilled, an induction variable IVOPTs
       shares), or a read of the offset's register by anything but what
       is left out here (the update asms and the caches' are in the set)
       and plain copies (a spill: f then stores and reloads a register's
       stale value, which only what is left out reads).  The stores, which
       the text cannot tell from the program's `%fs:` ones, are marked
       too. */
    if (pic) {
        FOR_EACH_BB_FN(bb, fun)
        FOR_BB_INSNS(bb, insn)
        {
            if (!NONDEBUG_INSN_P(insn) || pic_offset_read)
                continue;
            if (!bitmap_bit_p(in, INSN_UID(insn))) {
                subrtx_iterator::array_type array;
                FOR_EACH_SUBRTX(it, array, PATTERN(insn), ALL)
                if (MEM_P(*it) && counter_mem(*it, ctr))
                    pic_offset_read = true;
            }
            if (ctr_base_asm(PATTERN(insn)) && read_outside(insn, in, true))
                pic_offset_read = true;
        }
        for (rtx_insn *st : store_insns)
            maybe.safe_push(st);
    }
    for (unsigned i = 0; i < maybe.length(); i++) {
        insn = maybe[i];
        if (!bitmap_bit_p(in, INSN_UID(insn)))
            continue;
        /* (emit_note makes no label note: as delete_insn does with a
           label, a note made one) */
        rtx_note *n = emit_note_before(NOTE_INSN_DELETED, insn);
        NOTE_KIND(n) = NOTE_INSN_DELETED_DEBUG_LABEL;
        gcc_assert(mark_count < INT_MAX - MARK_BASE);
        CODE_LABEL_NUMBER(n) = MARK_BASE + ++mark_count;
        if (!dead_marks)
            dead_marks = new hash_set<int_hash<int, -1, -2>>;
        dead_marks->add(CODE_LABEL_NUMBER(n));
    }
    df_finish_pass(false);
    return 0;
}

/* the counting copy being captured (pass-countfn.cc latecopy) */
static bool finaldead_gate(function *fun)
{
    return pi_opt.clean_copies == PI_CLEAN_FINAL && pi_countfn_origin(fun->decl) && real_out &&
           asm_out_file != real_out;
}
PI_RTL_PASS(finaldead)
