/* pass-ranges.cc — where each site's code ended up: labels and CODE chunks.
 * The last step of every directive that makes sites (pass-count.cc).
 *
 *     before (RTL, just before "shorten")      after
 *     (insn (asm "# perfinst site U 3"))       .L12:            (deleted-label note)
 *     (insn (set (reg ax) (mem ...)))          movl (%rdi), %eax
 *     (jump_insn (set pc ...))                 jne .L4
 *                                              .L13:            + the CODE chunk below
 *
 * Runs late, just before branch shortening, when no pass will copy or move
 * instructions any more.  Each `# perfinst site UNIT N` asm that survived
 * optimisation (there may be several copies of one site after unrolling,
 * duplication or inlining, or none if its code was deleted) starts a range;
 * the range runs over the following instructions up to the next marker, a
 * label, a jump (included) or a switch of text section.  The pass
 *
 *   - replaces the marker by a label (a deleted-label note: final prints it,
 *     it has no length and no alignment, so code is laid out as without it;
 *     a marker that its block's counter update follows in the same asm,
 *     `# perfinst site U 3\n\taddq $1, ...` (pi_counters_as_asm), keeps
 *     the update: the label goes before it),
 *   - puts a second label after the range's last instruction,
 *   - counts the range's machine instructions by type (branch, call, ret,
 *     load, store, string, fp) from the final RTL,
 *   - writes a CODE chunk for the function into .perfinst (one per text
 *     section it occupies, linked to it so that --gc-sections keeps or
 *     drops it with the code, and in the function's COMDAT group when it
 *     has one, so that a linker that discards the group's copy in this
 *     object discards its ranges too):
 *
 *         .pushsection .perfinst,"o",@progbits,.L12,unique,7
 *         (a COMDAT function: .pushsection .perfinst,"oG",@progbits,.L12,_Z5twicei,comdat,unique,7)
 *         .balign 8
 *         <pi_chunk_hdr> <pi_code>
 *         .quad .L12, 0x5c1f...     # addr: resolved by the linker (R_X86_64_64); unit_id
 *         .long 3, .L13-.L12        # site; length, computed by the assembler
 *         .quad 0x10004, 0x10001    # 4 instructions, 1 branch; 1 load, 1 store (uint16_t each)
 *         .popsection
 *
 * The clean copy f of a counted function (counting=function: f dispatches
 * to f.count.N, pass-countfn.cc) has no markers: its code is -O2's.  Its
 * ranges come from the source positions instead.  While f.count.N's ranges
 * are made, each instruction's position (INSN_LOCATION without its block)
 * is noted as its site's (the first site seen keeps a position); f.count.N
 * is expanded before f, its caller.  In f, a range starts at each
 * instruction whose position names another site than the open range's,
 * and code of positions no site noted stays in the open range.  Those
 * ranges go into CODE chunks of their own section, .perfinst.clean
 * (SHF_EXCLUDE: read by `pmopt plan` from the objects, never linked), so
 * that the plan models f's lines as the user's options laid f out,
 * whatever options f.count.N was compiled with (counting-opt=).  The
 * labels are deleted-label notes, as above: f's code is unchanged.
 */
#include "plugin.h"
#include "tm_p.h"

struct range {
    unsigned group;            /* text section part: 0 hot, 1 after a section switch */
    uint64_t unit_id;
    unsigned site;
    int start_label, end_label;
    unsigned short ninsns;
    unsigned short ntype[PI_NTYPES];
};

/* INSN's asm (its ASM_INPUT or ASM_OPERANDS), or NULL_RTX */
static rtx asm_body(rtx_insn *insn)
{
    if (!NONJUMP_INSN_P(insn))
        return NULL_RTX;
    rtx body = PATTERN(insn);
    if (GET_CODE(body) == PARALLEL)
        body = XVECEXP(body, 0, 0);
    return GET_CODE(body) == ASM_INPUT || GET_CODE(body) == ASM_OPERANDS ? body : NULL_RTX;
}

const char *pi_rtl_asm_template(rtx_insn *insn)
{
    rtx body = asm_body(insn);
    if (!body)
        return NULL;
    return GET_CODE(body) == ASM_INPUT ? XSTR(body, 0) : ASM_OPERANDS_TEMPLATE(body);
}

/* INSN, an asm, prints TEXT instead */
void pi_rtl_set_asm_template(rtx_insn *insn, const char *text)
{
    rtx body = asm_body(insn);
    if (GET_CODE(body) == ASM_INPUT)
        XSTR(body, 0) = ggc_strdup(text);
    else
        ASM_OPERANDS_TEMPLATE(body) = ggc_strdup(text);
}

static bool is_marker(rtx_insn *insn, uint64_t *unit, unsigned *site)
{
    const char *t = pi_rtl_asm_template(insn);
    unsigned long long u;
    if (!t || strncmp(t, PI_MARKER_PREFIX, sizeof PI_MARKER_PREFIX - 1) != 0)
        return false;
    if (sscanf(t + sizeof PI_MARKER_PREFIX - 1, "%llx %u", &u, site) != 2)
        return false;
    *unit = u;
    return true;
}

/* A label with no length: a CODE_LABEL turned into a deleted-label note. */
static int label_before(rtx_insn *insn)
{
    rtx_code_label *lab = gen_label_rtx();
    LABEL_PRESERVE_P(lab) = 1; /* so delete_insn keeps it as a note */
    emit_label_before(lab, insn);
    int num = CODE_LABEL_NUMBER(lab);
    delete_insn(lab);
    return num;
}

static int label_after(rtx_insn *insn)
{
    rtx_code_label *lab = gen_label_rtx();
    LABEL_PRESERVE_P(lab) = 1;
    emit_label_after(lab, insn);
    int num = CODE_LABEL_NUMBER(lab);
    delete_insn(lab);
    return num;
}

static bool has_mem(const_rtx x)
{
    subrtx_iterator::array_type array;
    FOR_EACH_SUBRTX(iter, array, x, ALL)
    if (MEM_P(*iter))
        return true;
    return false;
}

static bool has_float_mode(const_rtx x)
{
    subrtx_iterator::array_type array;
    FOR_EACH_SUBRTX(iter, array, x, ALL)
    if (FLOAT_MODE_P(GET_MODE(*iter)) || DECIMAL_FLOAT_MODE_P(GET_MODE(*iter)))
        return true;
    return false;
}

static void note_store_mem(rtx dest, const_rtx, void *data)
{
    if (MEM_P(dest))
        *(bool *)data = true;
}

/* perfinst's own instructions: counter updates and probe calls (anything
 * naming a __perfinst_ symbol).  They are left out of the static counts,
 * which describe the program. */
static bool is_perfinst_decl(tree t)
{
    while (t && (handled_component_p(t) || TREE_CODE(t) == MEM_REF))
        t = TREE_OPERAND(t, 0);
    if (t && TREE_CODE(t) == ADDR_EXPR)
        t = TREE_OPERAND(t, 0);
    return t && DECL_P(t) && DECL_NAME(t) &&
           strncmp(IDENTIFIER_POINTER(DECL_NAME(t)), "__perfinst_", 11) == 0;
}

static bool is_instrumentation(rtx_insn *insn)
{
    subrtx_iterator::array_type array;
    FOR_EACH_SUBRTX(iter, array, PATTERN(insn), ALL) {
        if (GET_CODE(*iter) == SYMBOL_REF && strncmp(XSTR(*iter, 0), "__perfinst_", 11) == 0)
            return true;
        /* a counter update whose address GCC computed into a register
         * (addq $1, %fs:8(%rbx)): the memory's expression still names
         * the counter array */
        if (MEM_P(*iter) && MEM_EXPR(*iter) && is_perfinst_decl(MEM_EXPR(*iter)))
            return true;
        /* one through the function's counter base (pass-tls.cc): the
         * %fs address space, which only perfinst's code uses */
        if (MEM_P(*iter) && MEM_ADDR_SPACE(*iter) == DEFAULT_TLS_SEG_REG)
            return true;
    }
    return false;
}

/* Classify one machine instruction (seed 002's types). */
static void classify(rtx_insn *insn, struct range *r)
{
    if (is_instrumentation(insn))
        return;
    r->ninsns++;
    if (JUMP_P(insn)) {
        r->ntype[returnjump_p(insn) ? PI_T_RET : PI_T_BRANCH]++;
        return;
    }
    if (CALL_P(insn)) {
        r->ntype[SIBLING_CALL_P(insn) ? PI_T_BRANCH : PI_T_CALL]++;
        return;
    }
    rtx body = PATTERN(insn);
    if (recog_memoized(insn) >= 0 && get_attr_type(insn) == TYPE_STR)
        r->ntype[PI_T_STRING]++;
    bool store = false;
    note_stores(insn, note_store_mem, &store);
    if (store)
        r->ntype[PI_T_STORE]++;
    /* a load: memory read anywhere but as the plain destination of a set */
    bool load = false;
    if (GET_CODE(body) == SET)
        load = has_mem(SET_SRC(body)) || (MEM_P(SET_DEST(body)) && has_mem(XEXP(SET_DEST(body), 0)));
    else if (GET_CODE(body) == PARALLEL) {
        for (int i = 0; i < XVECLEN(body, 0); i++) {
            rtx e = XVECEXP(body, 0, i);
            if (GET_CODE(e) == SET && has_mem(SET_SRC(e)))
                load = true;
            else if (GET_CODE(e) != SET && GET_CODE(e) != CLOBBER && has_mem(e))
                load = true;
        }
    } else
        load = has_mem(body);
    if (load)
        r->ntype[PI_T_LOAD]++;
    if (has_float_mode(body))
        r->ntype[PI_T_FP]++;
}

static const char *label_name(char *buf, int num)
{
    ASM_GENERATE_INTERNAL_LABEL(buf, "L", num);
    return buf + (buf[0] == '*');
}

/* The COMDAT group of the function being compiled, or NULL. */
static const char *comdat_group(void)
{
    tree g = current_function_decl ? DECL_COMDAT_GROUP(current_function_decl) : NULL_TREE;
    return g ? IDENTIFIER_POINTER(g) : NULL;
}

/* One CODE chunk per text section a function's ranges are in.  The chunk's
 * section is SHF_LINK_ORDER-linked to that text section ("o"), so
 * --gc-sections keeps the ranges exactly when it keeps the code.  A chunk
 * of a function in a COMDAT group (an inline or template function of C++,
 * its .cold part, its counting copy) is a member of that group ("G"): GNU
 * ld drops a link-order section whose text was discarded, but gold refuses
 * the relocation into the discarded text and lld the link to it.  A clean
 * copy's chunk (clean) goes to .perfinst.clean, excluded from the link. */
static unsigned unique_id; /* each chunk's section (`unique,N`) */

/* a section id of its own for a chunk written elsewhere (finalcopy.cc) */
unsigned pi_ranges_unique_id(void) { return ++unique_id; }

static void emit_chunk(const range *ranges, unsigned n, bool clean)
{
    char lab1[64], lab2[64];
    struct pi_chunk_hdr h;
    memset(&h, 0, sizeof h);
    h.magic = PI_CHUNK_MAGIC;
    h.version = PI_FORMAT_VERSION;
    h.kind = PI_CHUNK_CODE;
    h.size = sizeof h + sizeof(pi_code) + n * sizeof(pi_range);
    h.hdr_crc = pi_crc32(0, &h, 12);
    FILE *f = asm_out_file;
    const char *group = comdat_group();
    if (clean && group)
        fprintf(f, "\t.pushsection " PI_SECTION_CLEAN ",\"eG\",@progbits,%s,comdat,unique,%u\n\t.balign 8\n",
                group, ++unique_id);
    else if (clean)
        fprintf(f, "\t.pushsection " PI_SECTION_CLEAN ",\"e\",@progbits,unique,%u\n\t.balign 8\n",
                ++unique_id);
    else if (group)
        fprintf(f, "\t.pushsection " PI_SECTION_META ",\"oG\",@progbits,%s,%s,comdat,unique,%u\n\t.balign 8\n",
                label_name(lab1, ranges[0].start_label), group, ++unique_id);
    else
        fprintf(f, "\t.pushsection " PI_SECTION_META ",\"o\",@progbits,%s,unique,%u\n\t.balign 8\n",
                label_name(lab1, ranges[0].start_label), ++unique_id);
    fprintf(f, "\t.long 0x%x\n\t.short %u, %u\n\t.long %u, 0x%x\n", h.magic, h.version, h.kind,
            h.size, h.hdr_crc);
    fprintf(f, "\t.long %u, 0\n", n);
    /* a pi_range in three lines, its eight uint16_t counts as two
       little-endian .quad words: GNU as takes about a thousand
       instructions a value and more a line, and an all=count unit has a
       range per site twice over (sqlite3.c: 488,608 lines in four) */
    PI_STATIC_ASSERT(PI_NTYPES == 7, "ninsns and the types fill two quads");
    for (unsigned i = 0; i < n; i++) {
        const range &r = ranges[i];
        const char *a = label_name(lab1, r.start_label), *b = label_name(lab2, r.end_label);
        unsigned long long q[2] = { 0, 0 };
        for (int k = 0; k <= PI_NTYPES; k++)
            q[k / 4] |= (unsigned long long)(k ? r.ntype[k - 1] : r.ninsns) << (16 * (k % 4));
        fprintf(f, "\t.quad %s, 0x%llx\n\t.long %u, %s-%s\n\t.quad 0x%llx, 0x%llx\n", a,
                (unsigned long long)r.unit_id, r.site, b, a, q[0], q[1]);
    }
    fprintf(f, "\t.popsection\n");
}

/* A range of site (unit, site) in text group `group`, starting before
 * insn, pushed on ranges; returns it (open: no end yet).  OPEN, the range
 * still open, ends where this one starts, at the same label (one label
 * less to print and assemble: an all=count unit has a range per site). */
static range *open_range(vec<range> &ranges, range *open, unsigned group, uint64_t unit, unsigned site,
                         rtx_insn *insn)
{
    range r;
    memset(&r, 0, sizeof r);
    r.group = group;
    r.unit_id = unit;
    r.site = site;
    r.start_label = label_before(insn);
    r.end_label = -1;
    if (open)
        open->end_label = r.start_label;
    ranges.safe_push(r); /* (may move the vector: OPEN is not used after) */
    return &ranges.last();
}

/* One CODE chunk per text group (hot, cold) of ranges. */
static void emit_chunks(const vec<range> &ranges, bool clean)
{
    for (unsigned i = 0, j; i < ranges.length(); i = j) {
        for (j = i; j < ranges.length() && ranges[j].group == ranges[i].group; j++)
            ;
        emit_chunk(&ranges[i], j - i, clean);
    }
}

/* ---- the clean copies' ranges ------------------------------------------ */

struct site_ref {
    uint64_t unit_id;
    unsigned site;
};
/* (DECL_UID of f) << 32 | source position -> the site of f.count.N's code there */
typedef hash_map<int_hash<uint64_t, UINT64_MAX, UINT64_MAX - 1>, site_ref> position_map;
static position_map *positions;

static uint64_t position_key(tree f, rtx_insn *insn)
{
    return (uint64_t)DECL_UID(f) << 32 | (uint32_t)LOCATION_LOCUS(INSN_LOCATION(insn));
}

/* Whether insn is an instruction of the program or an asm statement (not a
 * note, use or clobber); a range counts only the instructions (classify). */
static bool is_insn_or_asm(rtx_insn *insn)
{
    return NONDEBUG_INSN_P(insn) && GET_CODE(PATTERN(insn)) != USE &&
           GET_CODE(PATTERN(insn)) != CLOBBER;
}

/* f.count.N's instruction or asm statement insn, in the range of site r:
 * its position is r's. */
static void note_position(tree f, rtx_insn *insn, const range *r)
{
    if (LOCATION_LOCUS(INSN_LOCATION(insn)) == UNKNOWN_LOCATION)
        return;
    if (!positions)
        positions = new position_map;
    bool existed;
    site_ref &v = positions->get_or_insert(position_key(f, insn), &existed);
    if (!existed)
        v = site_ref{ r->unit_id, r->site };
}

/* The clean copy f's ranges, by the positions f.count.N noted. */
static void clean_ranges(tree f)
{
    auto_vec<range> ranges;
    range *open = NULL;
    unsigned group = 0;
    for (rtx_insn *insn = get_insns(); insn; insn = NEXT_INSN(insn)) {
        if (NOTE_P(insn) && NOTE_KIND(insn) == NOTE_INSN_SWITCH_TEXT_SECTIONS) {
            if (open)
                open->end_label = label_before(insn);
            open = NULL;
            group++;
            continue;
        }
        if (!is_insn_or_asm(insn))
            continue;
        site_ref *s = LOCATION_LOCUS(INSN_LOCATION(insn)) == UNKNOWN_LOCATION ? NULL
                      : positions->get(position_key(f, insn));
        if (s && (!open || open->unit_id != s->unit_id || open->site != s->site))
            open = open_range(ranges, open, group, s->unit_id, s->site, insn);
        if (open && !pi_rtl_asm_template(insn))
            classify(insn, open);
    }
    if (open)
        open->end_label = label_after(get_last_insn());
    emit_chunks(ranges, true);
}

static unsigned int ranges_execute(function *)
{
    tree decl = current_function_decl;
    /* clean-copies=final: f is f.count.N's code, its ranges f.count.N's
       (finalcopy.cc) */
    if (pi_countfn_final_body(decl)) {
        /* no locations of its parameters (var-tracking's notes of f's
           entry): the incoming registers are theirs only at f's entry,
           and f's body is the copy's (the DWARF says "optimized out"
           rather than a wrong value) */
        for (tree p = DECL_ARGUMENTS(decl); p; p = DECL_CHAIN(p)) {
            SET_DECL_RTL(p, NULL_RTX);
            set_decl_incoming_rtl(p, NULL_RTX, false);
        }
        for (rtx_insn *insn = get_insns(); insn; insn = NEXT_INSN(insn))
            if (NOTE_P(insn) && NOTE_KIND(insn) == NOTE_INSN_VAR_LOCATION)
                SET_INSN_DELETED(insn);
        /* the stack alignment its callers must keep (-fipa-stack-alignment
           records the function's own at its end): the ABI's, which the
           copy's code assumes (its movaps), not that of the one asm
           (sqlite3.c's callers of a naked f left the stack 8 off) */
        crtl->preferred_stack_boundary = MAX(crtl->preferred_stack_boundary, PREFERRED_STACK_BOUNDARY);
        return 0;
    }
    if (positions && pi_countfn_has_copy(decl)) {
        clean_ranges(decl);
        return 0;
    }
    tree counted = pi_countfn_origin(decl); /* f of f.count.N, or NULL */
    auto_vec<range> ranges;
    range *open = NULL;
    unsigned group = 0;
    rtx_insn *next;
    for (rtx_insn *insn = get_insns(); insn; insn = next) {
        next = NEXT_INSN(insn);
        uint64_t unit;
        unsigned site;
        if (is_marker(insn, &unit, &site)) {
            open = open_range(ranges, open, group, unit, site, insn);
            const char *t = pi_rtl_asm_template(insn), *update = pi_asm_after_marker(t);
            if (update == t) {
                delete_insn(insn);
                continue;
            }
            /* the marker and its block's counter update in one asm
               (pi_counters_as_asm): the update stays, the first in the
               range, as it came after the marker */
            pi_rtl_set_asm_template(insn, update);
        }
        if (NOTE_P(insn) && NOTE_KIND(insn) == NOTE_INSN_SWITCH_TEXT_SECTIONS)
            group++;
        if (!open)
            continue;
        if (LABEL_P(insn) || BARRIER_P(insn) ||
            (NOTE_P(insn) && NOTE_KIND(insn) == NOTE_INSN_SWITCH_TEXT_SECTIONS)) {
            open->end_label = label_before(insn);
            open = NULL;
            continue;
        }
        if (!is_insn_or_asm(insn))
            continue;
        /* an asm statement's position too (sets.c's `.skip 4040`) */
        if (counted)
            note_position(counted, insn, open);
        if (pi_rtl_asm_template(insn))
            continue;
        classify(insn, open);
        if (JUMP_P(insn)) {
            open->end_label = label_after(insn);
            open = NULL;
        }
    }
    if (open)
        open->end_label = label_after(get_last_insn());
    emit_chunks(ranges, false);
    return 0;
}

/* only where site markers can be (pi_unit_instrumented) */
static bool ranges_gate(function *fun) { return pi_unit_instrumented(); }
PI_RTL_PASS(ranges)
