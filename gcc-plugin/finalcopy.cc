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
 *   - every local label the body defines (`.L12:`, `.LVL3:`, `.LBB7:`) and
 *     every `.loc` view symbol (`view .LVU4`) renamed `.L12_f` ...: f's
 *     own labels, one definition each in the unit,
 *   - f.count.N's name made f's (a recursive call runs the clean f),
 *   - its switches to another section (a jump table in .rodata) made
 *     `.pushsection` / `.popsection`, so that the body returns to f's
 *     section, whatever it is named,
 *   - each indirect call's inline cache deleted: one asm, from its
 *     `cmpq %REG, %fs:ICALL@tpoff+K` / `jne 1f` to its `.subsection 0` /
 *     `2:` (pass-count.cc add_icall_asm; its out-of-line part, the older
 *     way and the miss's call of the runtime's stub, is in between),
 *   - the jumps the counters' blocks left threaded (a jump to `jmp .LB`
 *     goes to .LB; a jmp to the next instruction goes; a jmp to a return
 *     block of at most four instructions becomes a copy of it).
 *
 * (With clean-copies=final a loop without calls counts in memory too, one
 * asm an update: copies.cc, pi_counters_as_asm.)
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
 * A function the text does not fit (a hot/cold split, exception tables,
 * a non-local label, any other reference to perfinst's symbols in code
 * that stays, an unbalanced section switch) gets late's clean copy
 * instead: pi_final_derive says why. */
#include "plugin.h"

/* ---- capturing what GCC writes ------------------------------------------ */

static FILE *real_out;
static char *cap_buf;
static size_t cap_len;

void pi_final_capture_start(void)
{
    real_out = asm_out_file;
    cap_buf = NULL;
    cap_len = 0;
    FILE *m = open_memstream(&cap_buf, &cap_len);
    if (m)
        asm_out_file = m;
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

/* `\taddq $N, %fs:CTR@tpoff+K` (pi_counters_as_asm's update, AT&T) */
static bool counter_line(const line &l, const char *ctr)
{
    const char *s = l.s, *e = l.s + l.n;
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

/* `\tcmpq %REG, %fs:ICALL@tpoff+K`: the first line of an indirect call's
   cache (unit.cc pi_icall_asm_template) */
static bool icall_cmp_line(const line &l, const char *icall)
{
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
    bool missing; /* a .L name not defined in the body (the constants' .LC0 ...) */
};

/* L with its labels and the copy's name renamed, onto OUT */
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
            } else
                r->missing = true;
        } else if (k == strlen(r->copy_name) && memcmp(l.s + i, r->copy_name, k) == 0) {
            put(out, l.s + from, i - from);
            puts_(out, r->f_name);
            from = e;
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

/* A line that emits no code and is no label: a comment (`#APP` and its
 * kin too), `.loc`, `.p2align`, and with CFI `.cfi_*`. */
static bool no_code_line(const line &l, bool cfi)
{
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
 * own).  NULL if the code is not so. */
static char *return_block(const vec<line> &lines, unsigned i, unsigned first, unsigned last, const vec<char> &drop)
{
    char buf[256];
    outbuf t = {NULL, 0, 0};
    puts_(&t, "\t.cfi_remember_state");
    unsigned insns = 0;
    bool cfi = false;
    for (unsigned j = i + 1; j < last; j++) {
        const line &l = lines[j];
        bool other = false;
        if (drop[j - first] || (l.n && l.s[0] == '#') || label_def(l, buf, sizeof buf, &other) ||
            starts(l, "\t.p2align "))
            continue;
        if (other || starts(l, "\t.cfi_remember_state") || starts(l, "\t.cfi_restore_state"))
            break;
        bool insn = insn_line(l);
        if (!insn && !starts(l, "\t.cfi_") && !starts(l, "\t.loc "))
            break;
        if (insn && (l.s[1] == 'j' || starts(l, "\tcall") || ++insns > 4))
            break;
        puts_(&t, "\n");
        size_t n = l.n;
        if (starts(l, "\t.loc "))
            for (size_t k = 0; k + 6 <= l.n; k++)
                if (memcmp(l.s + k, " view ", 6) == 0) {
                    n = k; /* (a view symbol is defined once) */
                    break;
                }
        put(&t, l.s, n);
        cfi = cfi || starts(l, "\t.cfi_");
        if (equals(l, "\tret")) {
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

/* In lines[first, last): a jump to a label whose code is `jmp .LB` made a
 * jump to .LB (chains followed), a `jmp` to a return block made a copy of
 * it (ENDS), and a `jmp` to the label its next code line carries dropped
 * (DROP).  Rewritten lines point into REWRITTEN. */
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
        /* `jmp .LX` where .LX is a return block: the block */
        const unsigned *j = starts(l, "\tjmp\t") ? at.get(t) : NULL;
        if (j)
            if (char *r = return_block(*lines, *j, first, last, drop)) {
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

/* From TEXT (all GCC wrote while it compiled COPY_NAME, f.count.N), the
 * clean copy F_NAME's body (*body) and its ranges (*chunks, the CODE chunks
 * of f.count.N with f's labels, into .perfinst.clean; UNIQUE gives each a
 * section id); NULL and *why when the text does not fit.  CTR: the
 * counters' symbol. */
bool pi_final_derive(const char *text, size_t len, const char *copy_name, const char *f_name, const char *ctr,
                     const char *icall, unsigned (*unique)(void), char **body, char **chunks, const char **why)
{
    auto_vec<line> lines;
    split_lines(text, len, &lines);
    *body = *chunks = NULL;
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
    for (unsigned i = first; i < last && !*why; i++) {
        const line &l = lines[i];
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
        else if (counter_line(l, ctr) || (icall && counter_line(l, icall)))
            drop[i - first] = 1;
        else if (icall_cmp_line(l, icall)) {
            /* the whole asm, up to its last line (pi_icall_asm_template) */
            unsigned j = i + 1;
            while (j + 1 < last && !(equals(lines[j], "\t.subsection 0") && equals(lines[j + 1], PI_ICALL_ASM_END)))
                j++;
            if (j + 1 < last && equals(lines[i + 1], "\tjne 1f")) {
                for (unsigned k = i; k <= j + 1; k++)
                    drop[k - first] = 1;
                i = j + 1;
            } else
                *why = "an inline cache's asm not as made";
        } else if (starts(l, "\t.cfi_startproc") || starts(l, "\t.cfi_endproc") ||
                   starts(l, "\t.cfi_personality") || starts(l, "\t.cfi_lsda"))
            *why = "more than one frame description (a hot/cold split or exception tables)";
        else if (starts(l, "\t.pushsection") || starts(l, "\t.popsection") || starts(l, "\t.previous") ||
                 starts(l, "\t.subsection") || starts(l, "\t.cfi_sections"))
            *why = "a section stack directive in the body";
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
    if (!*why)
        thread_jumps(&lines, first, last, drop, ends, &rewritten);
    /* unreachable code: after a jump, a return or ud2, up to a label that
       a kept line names (any other label, or a kept #APP group, which may
       hold labels of its own, ends it too); until nothing changes */
    for (bool changed = true; changed && !*why;) {
        changed = false;
        hash_set<nofree_string_hash> refs;
        auto_vec<char *> refnames;
        for (unsigned i = first; i < last; i++) {
            const line &l = lines[i];
            bool other = false;
            if (drop[i - first] || dead[i - first] || label_def(l, buf, sizeof buf, &other) ||
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
    for (unsigned i = first; i < last && !*why; i++)
        if (!drop[i - first] && !dead[i - first] && contains(lines[i], "__perfinst"))
            *why = "another reference to perfinst's symbols";

    outbuf out = {NULL, 0, 0};
    renamer r = {&labels, copy_name, f_name, false};
    bool pushed = false;
    for (unsigned i = first; i < last && !*why; i++) {
        const line &l = lines[i];
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
    for (unsigned i = 0; i < rewritten.length(); i++)
        free(rewritten[i]);
    if (*why) {
        free(out.p);
        for (unsigned i = 0; i < names.length(); i++)
            free(names[i]);
        return false;
    }
    if (out.n && out.p[out.n - 1] == '\n')
        out.p[--out.n] = 0;
    *body = out.p ? out.p : xstrdup("");

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
    for (unsigned i = 0; i < names.length(); i++)
        free(names[i]);
    return true;
}
