/* perfinst-format.h — every on-disk format that perfinst's stages share.
 *
 * This is the one definition of the bytes that pass between the stages:
 *
 *   gcc -fplugin=perfinst.so  writes  .perfinst   (UNIT and CODE chunks, in objects)
 *   perfinst-ld               writes  .perfinst.xlat (XLAT chunk) and
 *                                     .perfinst.link (LINK chunk) into the program
 *   libperfinst               writes  the trace (*.pit)
 *   pmopt                     reads all of them, writes merged traces,
 *                                     overlays (PERFINST_OVERLAY, text) and,
 *                                     in a relinked program, .perfinst.reserve
 *
 * common/piformat.c is the one decoder of the chunks, the reserve table
 * and the overlay's lines (libc only: the runtime links it too).
 *
 * docs/formats.md explains each field and the rules around them; keep the two
 * in step.  All integers are little-endian and naturally aligned; every
 * structure below has an explicit size checked by _Static_assert.  Each format
 * carries a version: a reader refuses a version it does not know, naming the
 * file and both versions.
 *
 * Usable from C11 (runtime, linker, optimizer) and C++ (the plugin).
 */
#ifndef PERFINST_FORMAT_H
#define PERFINST_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
#define PI_STATIC_ASSERT(c, m) static_assert(c, m)
#else
#define PI_STATIC_ASSERT(c, m) _Static_assert(c, m)
#endif

#define PI_FORMAT_VERSION 2u   /* .perfinst and .perfinst.xlat chunks (2: arcs and lines in UNIT) */
#define PI_LINK_VERSION 2u     /* .perfinst.link chunks (version 1: see pi_link) */
#define PI_TRACE_VERSION 1u    /* *.pit */
#define PI_ABI_VERSION 1u      /* plugin-generated code <-> libperfinst */
#define PI_NONE 0xffffffffu    /* "no index" in any uint32_t index field */

/* ------------------------------------------------------------------------ */
/* Sections                                                                  */
/* ------------------------------------------------------------------------ */

/* All three are SHT_PROGBITS without SHF_ALLOC: like DWARF they are metadata
 * that the linker resolves (R_X86_64_64 against code labels gives link-time
 * addresses, never dynamic relocations) and that nothing maps at run time
 * except what the runtime's loader stage reads from the module's file. */
#define PI_SECTION_META ".perfinst"
#define PI_SECTION_XLAT ".perfinst.xlat"
#define PI_SECTION_LINK ".perfinst.link"
/* CODE chunks of the clean copies of counted functions (counting=function:
 * f beside f.count.N), for `pmopt plan`'s models only: each range is code
 * of f that GCC made from the same source positions as the site's code in
 * f.count.N.  SHF_EXCLUDE: in relocatable objects only, never linked. */
#define PI_SECTION_CLEAN ".perfinst.clean"

/* A section is a sequence of chunks.  The linker concatenates the .perfinst
 * sections of all inputs, so a reader walks chunk by chunk; between chunks
 * there may be zero padding up to the next 8-byte boundary (a zero magic
 * word means padding: skip 8 bytes). */
#define PI_CHUNK_MAGIC 0x31544950u /* "PIT1" read as bytes: 'P' 'I' 'T' '1' */

enum pi_chunk_kind {
    PI_CHUNK_UNIT = 1, /* one per translation unit: sites, functions, strings */
    PI_CHUNK_CODE = 2, /* one per emitted function: where the sites' code ended up */
    PI_CHUNK_XLAT = 3, /* translation table + shadow-segment template (program) */
    PI_CHUNK_LINK = 4, /* the recorded link recipe (program) */
};

struct pi_chunk_hdr {
    uint32_t magic;   /* PI_CHUNK_MAGIC */
    uint16_t version; /* PI_FORMAT_VERSION; PI_LINK_VERSION for a LINK chunk */
    uint16_t kind;    /* enum pi_chunk_kind */
    uint32_t size;    /* bytes of the whole chunk, this header included; multiple of 8 */
    uint32_t hdr_crc; /* CRC-32 (pi_crc32) of the 12 bytes above; guards against junk */
};
PI_STATIC_ASSERT(sizeof(struct pi_chunk_hdr) == 16, "chunk header is 16 bytes");

/* ---- UNIT chunk ---------------------------------------------------------
 * Layout: pi_chunk_hdr, pi_unit, pi_func[nfuncs], pi_site[nsites],
 * uint32_t succ[nsuccs], pi_arc arc[narcs], pi_line line[nlines],
 * char strtab[strtab_size], zero padding to 8.
 * Written by the plugin at the end of the translation unit (as top-level
 * assembly, so that -flto carries it to the final object unchanged). */
struct pi_unit {
    uint64_t unit_id;     /* identity of the unit: counters in traces are keyed by it */
    uint32_t nfuncs;
    uint32_t nsites;
    uint32_t nsuccs;      /* entries of succ[] */
    uint32_t ncounters;   /* length of the unit's counter array */
    uint32_t strtab_size; /* bytes, includes the leading "" at offset 0 */
    uint32_t source;      /* strtab: the main source file's key (relative to the build directory) */
    uint32_t producer;    /* strtab: e.g. "perfinst 0.1 gcc 12.2.0 -O2" */
    uint32_t line_size;   /* cache-line size the plugin assumed (64) */
    uint32_t narcs;       /* entries of arc[] */
    uint32_t nlines;      /* entries of line[] */
};
PI_STATIC_ASSERT(sizeof(struct pi_unit) == 48, "pi_unit is 48 bytes");

/* Directive bits: which directives apply to a site or function. */
enum pi_directive {
    PI_D_COUNT = 1u << 0,
    PI_D_TYPES = 1u << 1,
    PI_D_TRAP = 1u << 2,
    PI_D_THRESHOLD = 1u << 3,
    PI_D_CYCLES = 1u << 4,
    PI_D_TRACE_START = 1u << 5,
    PI_D_TRACE_STOP = 1u << 6,
    PI_D_REGION_BEGIN = 1u << 7,
    PI_D_REGION_END = 1u << 8,
    PI_D_CALLRET = 1u << 9,
    PI_D_WATCH = 1u << 10,
    PI_D_SHARING = 1u << 11,
    PI_D_SAMPLE = 1u << 12,
    PI_D_EMIT = 1u << 13,
    PI_D_DORMANT = 1u << 14,
    PI_D_BLOCKING = 1u << 15,
};

struct pi_func {
    uint32_t name;       /* strtab: the function's assembler name */
    uint32_t file;       /* strtab */
    uint32_t line;       /* line of the definition */
    uint32_t first_site; /* its sites are sites[first_site .. first_site+nsites) */
    uint32_t nsites;     /* sites[first_site] is the entry block */
    uint32_t directives; /* enum pi_directive bits given on the function, and PI_FUNC_LATE */
    uint64_t cfg_checksum; /* hash of the CFG shape (blocks, successors, lines) */
    uint32_t first_arc;  /* its flow graph: arc[first_arc .. first_arc+narcs); */
    uint32_t narcs;      /*   none (0): each block site has its own counter */
};
PI_STATIC_ASSERT(sizeof(struct pi_func) == 40, "pi_func is 40 bytes");
/* In pi_func.directives, not a directive: the function's sites were taken
 * after GCC's early inliner and early optimisations (count-at=late), so its
 * blocks, and the CFG its cfg_checksum hashes, are those of that point; clear:
 * right after `cfg`, as in every file written before the bit existed.  A
 * profile keyed on it is applied by the rebuild at the same point. */
#define PI_FUNC_LATE (1u << 31)
/* Also not a directive: the function is a part GCC's early ipa-split cut
 * off another (F.part.N, count-at=late): its blocks are F's, its entry
 * block runs once per call of F that goes on past F's first test, not once
 * per call of F (F's entries are counted on F and its inlined copies). */
#define PI_FUNC_PART (1u << 30)

enum pi_site_kind {
    PI_SITE_BLOCK = 1, /* a basic block of a marked function or statement region */
    PI_SITE_DATA = 2,  /* an access to watched data: region names the object ("var",
                          "struct s.field"), arg = PI_ACCESS_* bits; no counter */
    PI_SITE_CALL = 7,  /* a call in a counted block: region names the callee's assembler
                          name ("" for an indirect call), arg = the site index of the
                          block that makes the call (its count is the call's); no counter */
    PI_SITE_INLINE = 8, /* count-at=late: a body the early inliner put into this function:
                          region names the inlined function's assembler name, file and
                          line its definition, arg = the site index of the block where
                          the body is entered (its count is the inlined call's entries);
                          no counter */
};
enum pi_access { PI_ACCESS_READ = 1, PI_ACCESS_WRITE = 2 };
#define PI_SITE_TYPES(arg) ((arg) & 0xffu)
#define PI_SITE_CYCLES_CODE(arg) (((arg) >> 8) & 7u)
#define PI_SITE_DORMANT_TYPES(arg) (((arg) >> 16) & 0xffu) /* entry site of a dormant(types=...) function */
#define PI_SITE_COUNTER_BITS(arg) (((arg) >> 24) & 0xffu)  /* a narrow counter's width (8, 16, 32); 0: 64 */
/* the block's own counter is updated at its end, not its start: it counts
   the executions that got there (a block that calls nothing; a thread
   stopped inside had not: readers add the STOPPED count back) */
#define PI_SITE_COUNTER_AT_END (1u << 11)

struct pi_site {
    uint32_t func;       /* index into funcs[] */
    uint32_t counter;    /* index into the unit's counters, or PI_NONE: a block of a
                            function with arcs counted from them, a trap-only site */
    uint32_t file;       /* strtab: source file of the block's first statement */
    uint32_t line;       /* its line (0 if unknown) */
    uint16_t column;
    uint16_t kind;       /* enum pi_site_kind */
    uint32_t directives; /* enum pi_directive bits that apply to this site */
    uint32_t bb;         /* basic-block number in GCC's CFG when instrumented */
    uint32_t succ_first; /* successors: succ[succ_first .. +nsucc), site indices */
    uint32_t nsucc;
    uint32_t region;     /* strtab: name of the region the site is in ("" if none) */
    uint64_t threshold;  /* count/cycle threshold given by the directive, 0 if none */
    uint32_t arg;        /* directive arguments: bits 0..7 types mask (1 << PI_T_*),
                            bits 8..10 the cycles code (PI_SITE_CYCLES_CODE); bit 11
                            PI_SITE_COUNTER_AT_END; bits 16..31 PI_SITE_DORMANT_TYPES
                            and PI_SITE_COUNTER_BITS */
    uint32_t handler;    /* strtab: handler= function named by the directive ("" if none) */
    uint32_t line_first; /* the source lines of the block's statements, as gcov */
    uint32_t nlines;     /*   records them: line[line_first .. +nlines) */
};
PI_STATIC_ASSERT(sizeof(struct pi_site) == 64, "pi_site is 64 bytes");

/* The flow graph of a function counted whole (pi_func.narcs > 0): every
 * edge between its block sites, from the caller into its entry site, and
 * out to the caller; counters sit on the arcs and blocks off a spanning
 * tree (a block's in pi_site.counter; a block whose count the runtime
 * reads while running always has one), and a
 * reader solves every block's and arc's count from the flow equations
 * (common/piflow.c): a block's count is the sum of its incoming arcs and
 * the sum of its outgoing ones.  A fake arc stands for what no edge
 * shows: from a block that may be left without taking an edge (a call
 * that may not return: exit, longjmp, an exception; a block with no
 * successor) to the exit, from the entry to a block entered abnormally
 * (a computed goto's or setjmp's target, an exception handler).  A block
 * with an arc to the exit has no fake arc: that arc counts every way out
 * of it (their split is never needed).  Arcs are
 * grouped by source (the entry's first), real arcs in the order of GCC's
 * edges, a block's fake arc after them. */
enum pi_arc_flags {
    PI_ARC_FAKE = 1u << 0,  /* not an edge: a way in or out that the graph cannot show */
    PI_ARC_BLOCK = 1u << 1, /* gcov has a block on this edge, on line `line` (0: none) */
    PI_ARC_LAST = 1u << 2,  /* with PI_ARC_BLOCK: that block is the function's last, which gcov lists under no line */
    PI_ARC_PHI = 1u << 3,   /* with PI_ARC_BLOCK: not gcov's block: the edge only carries a line folded into
                               a PHI argument, which gcov -O2 does not know (counted by the edge, as -O0 does);
                               for every other line the arc goes straight to its destination */
};
struct pi_arc {
    uint32_t src;        /* site (in the function), or PI_NONE: the function's entry */
    uint32_t dst;        /* site (in the function), or PI_NONE: the function's exit */
    uint32_t counter;    /* its own counter, or PI_NONE: solved from the flow */
    uint32_t flags;      /* enum pi_arc_flags */
    uint32_t file;       /* strtab, with line: the line of gcov's block on this edge (an */
    uint32_t line;       /*   edge whose goto has a line of its own, profile.cc); 0 if none */
};
PI_STATIC_ASSERT(sizeof(struct pi_arc) == 24, "pi_arc is 24 bytes");

/* A block's source lines, as GCC's coverage notes record them for gcov
 * (profile.cc output_location): the function's line on its first block,
 * then each statement's line, a repeat of the line before left out, and
 * the line of a goto the CFG dropped.  line 0 ends a gcov block inside
 * the site: GCC splits a block after each call that may not return, and
 * gcov counts the pieces as blocks of their own (file is then 0). */
struct pi_line {
    uint32_t file;       /* strtab; 0: a mark, by `line`: */
    uint32_t line;
};
enum {
    PI_LINE_END = 0,     /* the gcov block ends here (a call that may not return) */
    PI_LINE_LAST = 1,    /* the gcov block ending here is the function's last, which gcov lists under no line */
    PI_LINE_RUN = 2,     /* a new run of lines of the same gcov block starts here */
    PI_LINE_VIA = 3,     /* the next entry is the line of a call whose inlined body the gcov
                            block is part of: that line counts the block as its own for
                            entries, as -O0's call does, but does not list it */
};
PI_STATIC_ASSERT(sizeof(struct pi_line) == 8, "pi_line is 8 bytes");

/* ---- CODE chunk ---------------------------------------------------------
 * Layout: pi_chunk_hdr, pi_code, pi_range[nranges].
 * Written by the plugin's late RTL pass for each function that contains
 * instrumented code, after every pass that could move or copy it.  A site
 * can own several ranges (unrolled, duplicated or inlined copies) or none
 * (its code was deleted).  With -flto the ranges come from the link-time
 * compilation and may name sites of several units. */
struct pi_code {
    uint32_t nranges;
    uint32_t reserved;
};
PI_STATIC_ASSERT(sizeof(struct pi_code) == 8, "pi_code is 8 bytes");

/* Instruction types counted statically per range (seed 002). */
enum pi_itype {
    PI_T_BRANCH = 0, /* conditional and unconditional jumps (not calls/returns) */
    PI_T_CALL,
    PI_T_RET,
    PI_T_LOAD,   /* instructions that read memory */
    PI_T_STORE,  /* instructions that write memory */
    PI_T_STRING, /* rep-prefixed/string instructions (movs, stos, cmps, scas, lods) */
    PI_T_FP,     /* floating-point and vector-FP instructions */
    PI_NTYPES
};

struct pi_range {
    uint64_t addr;     /* link-time address of the range's first byte; 0 = discarded */
    uint64_t unit_id;  /* unit of the site */
    uint32_t site;     /* index into that unit's sites[] */
    uint32_t length;   /* bytes */
    uint16_t ninsns;   /* machine instructions in the range */
    uint16_t ntype[PI_NTYPES]; /* of which, per enum pi_itype */
};
PI_STATIC_ASSERT(sizeof(struct pi_range) == 40, "pi_range is 40 bytes");

/* ---- XLAT chunk (section .perfinst.xlat, written by perfinst-ld) ---------
 * The translation table and the shadow-segment template (seed 004 M12/M13).
 * Layout: pi_chunk_hdr, pi_xlat, pi_shadow_item[nitems] (sorted by addr),
 * pi_xlat_block[nblocks] (sorted by block), uint32_t refs[nrefs], zero pad.
 * A primary block is one cache line: block = addr / line_size (link-time
 * addresses).  A block's shadow items are refs[first_ref .. +nrefs), the
 * items overlapping that line, so an item that spans lines is listed under
 * each of them.  The runtime maps a shadow segment initialised from the
 * items and rebuilds the blocks when its line size differs. */
struct pi_xlat {
    uint32_t line_size; /* cache-line size the table was built for */
    uint32_t nitems;
    uint32_t nblocks;
    uint32_t nrefs;
    uint32_t nunits;    /* units linked into this module */
    uint32_t reserved;
    uint64_t lo, hi;    /* address span covered by items: [lo, hi) */
};
PI_STATIC_ASSERT(sizeof(struct pi_xlat) == 40, "pi_xlat is 40 bytes");

struct pi_shadow_item {
    uint64_t addr;       /* link-time address */
    uint64_t unit_id;
    uint32_t length;     /* bytes */
    uint32_t site;       /* index into the unit's sites[] */
    uint32_t counter;    /* index into the unit's counters, or PI_NONE */
    uint32_t directives; /* enum pi_directive bits (the indicator) */
    uint64_t threshold;
};
PI_STATIC_ASSERT(sizeof(struct pi_shadow_item) == 40, "pi_shadow_item is 40 bytes");

struct pi_xlat_block {
    uint64_t block;      /* addr / line_size */
    uint32_t first_ref;
    uint32_t nrefs;
    uint32_t flags;      /* OR of the items' directive bits: the block-wide flag */
    uint32_t reserved;
};
PI_STATIC_ASSERT(sizeof(struct pi_xlat_block) == 24, "pi_xlat_block is 24 bytes");

/* ---- LINK chunk (section .perfinst.link, written by the link stage) -----
 * Everything `pmopt relink` needs to replay the link.
 * Layout: pi_chunk_hdr (version PI_LINK_VERSION), pi_link,
 * pi_link_input[ninputs], char strtab[], zero pad.  argv is the command
 * line the link stage received (argc strings, consecutive NUL-terminated,
 * starting at strtab offset argv): argv[0] the real collect2, then its
 * arguments as gcc's driver gave them, the output as given and any
 * --pi- option kept.  env: nenv "NAME=VALUE" strings likewise, the
 * environment collect2 needs (COLLECT_GCC, COLLECT_GCC_OPTIONS,
 * COLLECT_LTO_WRAPPER, COMPILER_PATH, LIBRARY_PATH, GCC_EXEC_PREFIX,
 * PERFINST_LIB_DIR, those that were set).
 *
 * Version 1 (perfinst-ld before the link stage) had only the first 24
 * bytes of pi_link, and argv was a gcc command line with perfinst-ld's own
 * additions at its end; readers take it as level PI_LINK_DRIVER, no
 * environment, and pmopt relink refuses it (link the program again). */
enum pi_link_level {
    PI_LINK_DRIVER = 1,   /* argv is a gcc command line (version 1 only) */
    PI_LINK_COLLECT2 = 2, /* argv is a collect2 command line */
};

enum pi_link_flags {
    PI_LF_RUNTIME = 1u << 0,        /* the link stage added libperfinst */
    PI_LF_STATIC_RUNTIME = 1u << 1, /* ... as libperfinst.a */
};

struct pi_link {
    uint32_t argc;
    uint32_t argv;        /* strtab offset of the first argument */
    uint32_t cwd;         /* strtab: working directory of the link */
    uint32_t output;      /* strtab: the -o argument as given */
    uint32_t ninputs;
    uint32_t strtab_size;
    /* version 2 */
    uint32_t level;       /* enum pi_link_level */
    uint32_t flags;       /* enum pi_link_flags */
    uint32_t nenv;
    uint32_t env;         /* strtab offset of the first "NAME=VALUE" */
};
PI_STATIC_ASSERT(sizeof(struct pi_link) == 40, "pi_link is 40 bytes");
#define PI_LINK_V1_SIZE 24u /* bytes of pi_link in a version 1 chunk */

struct pi_link_input {
    uint32_t path;        /* strtab: path as resolved at link time (absolute) */
    uint32_t argi;        /* index of its argument in argv, or PI_NONE (the runtime) */
    uint64_t size;        /* file size at link time */
    int64_t mtime_ns;     /* modification time at link time */
    uint64_t hash;        /* pi_hash64 of the file's contents */
};
PI_STATIC_ASSERT(sizeof(struct pi_link_input) == 32, "pi_link_input is 32 bytes");

/* ---- .perfinst.reserve (written by `pmopt relink`, docs/formats.md) -----
 * The chase-tail reserved region of a relinked program: the window
 * [window, window + size) of every page-byte page that the overflow
 * functions were placed in, and where each of them went.  A non-allocated
 * section made by the relink's linker script (BYTE/LONG/QUAD lines, so
 * the addresses are the linker's); layout: pi_reserve_hdr, then
 * pi_reserve_entry[n].  No chunk header: the section holds nothing else. */
#define PI_SECTION_RESERVE ".perfinst.reserve"
#define PI_RESERVE_MAGIC "PIRS" /* 4 bytes, no NUL */
#define PI_RESERVE_VERSION 1u
struct pi_reserve_hdr {
    char magic[4];       /* PI_RESERVE_MAGIC */
    uint32_t version;    /* PI_RESERVE_VERSION */
    uint32_t page;       /* bytes, a power of two */
    uint32_t window;     /* the window's offset in its page */
    uint32_t size;       /* the window's bytes: window + size <= page */
    uint32_t n;          /* entries that follow */
};
PI_STATIC_ASSERT(sizeof(struct pi_reserve_hdr) == 24, "pi_reserve_hdr is 24 bytes");
struct pi_reserve_entry {
    uint64_t addr;       /* link-time address of an overflow function */
    uint64_t len;        /* its bytes */
};
PI_STATIC_ASSERT(sizeof(struct pi_reserve_entry) == 16, "pi_reserve_entry is 16 bytes");

/* ---- the overlay (PERFINST_OVERLAY; written by `pmopt plan --hot` and
 * `--expand-callers`, read by runtime/overlay.c) ---------------------------
 * Text, at most PI_OVERLAY_MAX_BYTES bytes and PI_OVERLAY_MAX_RULES rules.
 * The first line that is not blank is PI_OVERLAY_HEADER; then one rule a
 * line, `on|off UNIT_ID FUNCTION|*` (UNIT_ID in hex, 0x optional; FUNCTION
 * the index into the unit's funcs[], `*` every function); `#` starts a
 * comment; later rules win. */
#define PI_OVERLAY_HEADER "perfinst-overlay 1"
#define PI_OVERLAY_MAX_BYTES (64 * 1024 - 1)
#define PI_OVERLAY_MAX_RULES 4096
#define PI_OVERLAY_ALL 0xffffffffu /* FUNCTION `*` */

/* ------------------------------------------------------------------------ */
/* The trace (*.pit), written by libperfinst                                  */
/* ------------------------------------------------------------------------ */

/* A file header, then records.  Each record is self-checking (length and
 * CRC), so a reader keeps every complete record of a trace that a crash or
 * a full disk cut short, and says where it stopped.  A cleanly finished
 * trace ends with PI_REC_END. */
#define PI_TRACE_MAGIC "PERFINST" /* 8 bytes, no NUL */

struct pi_trace_hdr {
    char magic[8];       /* PI_TRACE_MAGIC */
    uint16_t version;    /* PI_TRACE_VERSION */
    uint16_t hdr_size;   /* sizeof(struct pi_trace_hdr) */
    uint32_t flags;      /* enum pi_trace_flags */
    uint64_t pid;
    uint64_t ppid;
    uint64_t start_ns;   /* CLOCK_REALTIME at process start */
    uint32_t line_size;  /* cache-line size the runtime used */
    uint32_t hdr_crc;    /* pi_crc32 of the bytes above */
};
PI_STATIC_ASSERT(sizeof(struct pi_trace_hdr) == 48, "pi_trace_hdr is 48 bytes");

enum pi_trace_flags {
    PI_TF_MERGED = 1u << 0,   /* written by `pmopt merge`, not by a process */
    PI_TF_MODE_OFF = 1u << 1, /* the process ran with PERFINST_MODE=off */
    PI_TF_OVERLAY = 1u << 2,  /* a PERFINST_OVERLAY turned some functions off */
    PI_TF_PARTIAL = 1u << 3,  /* written while the process went on counting (PERFINST_FLUSH,
                                 perfinst_write_trace, a failed exec): a snapshot, not the
                                 final counts; in a merged trace, some input was partial */
};

struct pi_rec_hdr {
    uint32_t type;  /* enum pi_rec_type */
    uint32_t size;  /* payload bytes that follow (multiple of 8) */
    uint32_t crc;   /* pi_crc32 of the payload */
    uint32_t hcrc;  /* pi_crc32 of the 12 bytes above */
};
PI_STATIC_ASSERT(sizeof(struct pi_rec_hdr) == 16, "pi_rec_hdr is 16 bytes");

enum pi_rec_type {
    PI_REC_PROCESS = 1, /* pi_rec_process + strings */
    PI_REC_MODULE = 2,  /* pi_rec_module + path */
    PI_REC_COUNTS = 3,  /* pi_rec_counts + uint64_t counts[ncounters] */
    PI_REC_SIGNAL = 4,  /* pi_rec_signal: the process died of a signal */
    PI_REC_END = 5,     /* pi_rec_end: the trace was finished cleanly */
    PI_REC_SITESTAT = 6, /* pi_rec_sitestat: what an indicator's probe saw at one site */
    PI_REC_EVENT = 7,   /* pi_rec_event + uint64_t frames[nframes]: a threshold event */
    PI_REC_TRACEREG = 8, /* pi_rec_tracereg + uint64_t counts[ncounters]: trace_start/stop */
    PI_REC_WATCH = 9,   /* pi_rec_watch + pi_watch_word[nwords]: watched data per word */
    /* 30..39: stack sampling (docs/sampling-stacks.md) */
    PI_REC_SAMPLE_MAP = 30,  /* pi_rec_sample_map + path: an object the sampled stacks run in */
    PI_REC_SAMPLES = 31,     /* pi_rec_samples + uint64_t words[nwords]: stack samples */
    PI_REC_SAMPLE_STATS = 32, /* pi_rec_sample_stats: the timer sampler's header */
    PI_REC_IDLE_STATS = 33,  /* pi_rec_idle_stats: the idle-transition sampler's header */
    PI_REC_HOTSPOT = 50, /* pi_rec_hotspot + name: a hot-spot detection (pmopt report --hot --record) */
    PI_REC_PAGES = 15,  /* pi_rec_pages + ranges + pages + per-epoch touches: the page table */
    PI_REC_PERF = 16,   /* pi_rec_perf + pi_perf_value[nevents]: perf_event counts in a trace region */
    PI_REC_ICALL = 58,  /* pi_rec_icall: the targets of an indirect call site (layout) */
    PI_REC_RANGE = 55,  /* pi_rec_range + name: a range added at run time (perfinst_range_add) */
    PI_REC_LOST = 60,   /* pi_rec_lost: what a runtime table could not hold */
    PI_REC_STOPPED = 59, /* pi_rec_stopped: where a thread was stopped when the trace was written */
};

/* What one of the runtime's fixed-size tables could not hold (one record
 * per table that lost something), so that a report says that, and how
 * much, its numbers leave out.  The tables' sizes are fixed at start-up
 * (PERFINST_WATCH_WORDS, PERFINST_SITESTATS, PERFINST_EVENTS) and their
 * lookups take a bounded number of probes whatever their fill; what finds
 * no entry is counted here.  docs/runtime.md "Bounded tables". */
enum pi_lost_table {
    PI_LOST_WATCH = 1,       /* watched words: lost = accesses to words without an entry;
                                items = those words (an estimate: PI_LOST_ESTIMATE) */
    PI_LOST_SITESTAT = 2,    /* (unit, site, kind) statistics: lost = probe executions not counted */
    PI_LOST_EVENTS = 3,      /* threshold events kept with their stacks: lost = events not kept
                                (SITESTAT still counts them) */
    PI_LOST_TRACE_DEPTH = 4, /* trace_start nested deeper than capacity: lost = intervals not measured */
    PI_LOST_PERF = 5,        /* PERFINST_PERF's per-site sums: lost = intervals not recorded */
    PI_LOST_FUNCTIONS = 6,   /* functions with function probes (combinations, dormant classes):
                                lost = entries into functions beyond the table, not measured */
};
#define PI_LOST_NTABLES 7u       /* table ids are below this (readers keep unknown ones apart) */
#define PI_LOST_ESTIMATE 1u      /* items is an estimate (linear counting of the lost items) */
struct pi_rec_lost {
    uint32_t table;      /* enum pi_lost_table */
    uint32_t flags;      /* PI_LOST_ESTIMATE */
    uint64_t capacity;   /* entries the table had */
    uint64_t lost;       /* what was not counted (per table, above) */
    uint64_t items;      /* distinct items that found no entry; 0: not known */
};
PI_STATIC_ASSERT(sizeof(struct pi_rec_lost) == 32, "pi_rec_lost is 32 bytes");

/* Where the thread that took the fatal signal was interrupted (the
 * instruction's link-time address in its module): a block there was
 * entered and never left.  The reader counts it as one execution that
 * left the function there, so that the counts of a function whose arcs
 * carry the counters stay exact (common/piflow.h).  `count` is 1 in a
 * process's trace, the sum over the inputs in a merged one. */
struct pi_rec_stopped {
    uint32_t module;     /* pi_rec_module.index */
    uint32_t count;
    uint64_t pc;         /* link-time address: run-time address minus the module's load bias */
};
PI_STATIC_ASSERT(sizeof(struct pi_rec_stopped) == 16, "pi_rec_stopped is 16 bytes");

/* A code range named at run time by perfinst_range_add: [lo, hi) as
 * link-time addresses of the module whose MODULE record has index `module`
 * (run-time address minus its load bias).  name_len bytes of name follow,
 * NUL included, padded to 8.  docs/indicators.md "Ranges added at run
 * time". */
struct pi_rec_range {
    uint32_t module;     /* pi_rec_module.index */
    uint32_t name_len;   /* 2 .. PI_RANGE_NAME_MAX, NUL included */
    uint64_t lo, hi;     /* lo < hi */
};
PI_STATIC_ASSERT(sizeof(struct pi_rec_range) == 24, "pi_rec_range is 24 bytes");
#define PI_RANGE_NAME_MAX 64u /* = PERFINST_RANGE_NAME_MAX */

/* One (indirect call site, target) pair of a training run: the call site is
 * a PI_SITE_CALL site with an empty callee (an indirect call in a function
 * counted whole); `target` the function pointer it called: a run-time
 * address in a process's trace, the link-time address in the module of the
 * site's unit in a merged trace (pmopt merge; a target outside that module
 * is dropped there).  docs/layout.md "Indirect calls". */
struct pi_rec_icall {
    uint64_t unit_id;
    uint32_t site;       /* the PI_SITE_CALL site */
    uint32_t flags;      /* PI_ICALL_SAMPLED */
    uint64_t target;
    uint64_t count;      /* calls to target from this site */
};
PI_STATIC_ASSERT(sizeof(struct pi_rec_icall) == 32, "pi_rec_icall is 32 bytes");
/* pi_rec_icall.flags: the site called so many targets in turn that its
   calls past the inline cache were sampled; count is an estimate */
#define PI_ICALL_SAMPLED 1u

struct pi_rec_process {
    uint64_t end_ns;     /* CLOCK_REALTIME when the trace was written */
    uint32_t nthreads;   /* threads whose counters were collected */
    uint32_t argc;       /* then argc NUL-terminated strings (exe path first) */
};
PI_STATIC_ASSERT(sizeof(struct pi_rec_process) == 16, "pi_rec_process is 16 bytes");

#define PI_BUILD_ID_MAX 32
struct pi_rec_module {
    uint32_t index;      /* referenced by pi_rec_counts.module */
    uint32_t build_id_len;
    uint8_t build_id[PI_BUILD_ID_MAX]; /* NT_GNU_BUILD_ID, zero padded */
    uint64_t load_bias;  /* run-time address minus link-time address */
    uint32_t path_len;   /* bytes of path that follow, NUL included */
    uint32_t reserved;
};
PI_STATIC_ASSERT(sizeof(struct pi_rec_module) == 56, "pi_rec_module is 56 bytes");

struct pi_rec_counts {
    uint64_t unit_id;
    uint32_t module;     /* pi_rec_module.index */
    uint32_t ncounters;
};
PI_STATIC_ASSERT(sizeof(struct pi_rec_counts) == 16, "pi_rec_counts is 16 bytes");

struct pi_rec_signal {
    int32_t signo;
    int32_t code;        /* si_code */
    uint64_t addr;       /* si_addr */
};
PI_STATIC_ASSERT(sizeof(struct pi_rec_signal) == 16, "pi_rec_signal is 16 bytes");

/* Per site with a trap, threshold, cycles or trace probe (runtime totals
 * over all threads). */
enum pi_stat_kind {
    PI_STAT_TRAP = 1,      /* count: handler calls */
    PI_STAT_THRESHOLD = 2, /* count: times the threshold was reached (events) */
    PI_STAT_CYCLES = 3,    /* count: executions over the threshold; sum/min/max: cycles of all executions measured */
    PI_STAT_TRACE = 4,     /* count: start..stop intervals; sum/min/max: their cycles */
    PI_STAT_WATCH = 5,     /* count: words touched, summed over the accesses; execs: accesses at the site */
    /* counter combinations and dormant classes (runtime/armed.c), at a function's entry site: */
    PI_STAT_COMBINE = 10,  /* count: combinations that fired here; execs: evaluations here;
                              sum: the fired values (int64, two's complement) */
    PI_STAT_HOT = 11,      /* count: times the function was flagged hot (a primary threshold or a
                              combination fired in it); max: the level it reached (1, 2, 3) */
    PI_STAT_SECONDARY = 12, /* count: instructions of its dormant class (PI_SITE_DORMANT_TYPES)
                              executed since level 2; execs: invocations counted at level 2 or 3 */
    PI_STAT_TERTIARY = 13, /* count: invocations at level 3; sum/min/max: their cycles */
    PI_STAT_SPILL = 14,    /* narrow counters: count: spills into the 64-bit total of this site's
                              counter; max: the counter's width in bits */
};
struct pi_rec_sitestat {
    uint64_t unit_id;
    uint32_t site;
    uint32_t kind;       /* enum pi_stat_kind */
    uint64_t count;
    uint64_t execs;      /* executions the probe saw */
    uint64_t sum, min, max;
};
PI_STATIC_ASSERT(sizeof(struct pi_rec_sitestat) == 56, "pi_rec_sitestat is 56 bytes");

/* One threshold event: the call stack when the N-th execution happened.
 * frames[0] is the probe's return address (inside the marked code),
 * frames[1] its caller, and so on (run-time addresses; pmopt maps them
 * through the MODULE records). */
struct pi_rec_event {
    uint64_t unit_id;
    uint32_t site;
    uint32_t kind;       /* enum pi_stat_kind */
    uint64_t value;      /* the count reached, or the cycles measured */
    uint32_t tid;
    uint32_t nframes;
};
PI_STATIC_ASSERT(sizeof(struct pi_rec_event) == 32, "pi_rec_event is 32 bytes");

/* What happened between trace_start and trace_stop (seed 004 M6): the
 * executions of every counter of one unit, summed over the intervals that
 * the start site opened. */
struct pi_rec_tracereg {
    uint64_t start_unit;  /* the trace_start site */
    uint32_t start_site;
    uint32_t ncounters;
    uint64_t unit_id;     /* the unit whose counters follow */
};
PI_STATIC_ASSERT(sizeof(struct pi_rec_tracereg) == 24, "pi_rec_tracereg is 24 bytes");

/* Reads and writes of watched data, per word of PI granularity (seed 004
 * M13's counter work area).  Addresses are run-time addresses; pmopt maps
 * those inside a module through its MODULE record's load bias. */
struct pi_rec_watch {
    uint32_t gran;       /* bytes per word (PERFINST_WATCH_GRAN) */
    uint32_t nwords;
};
PI_STATIC_ASSERT(sizeof(struct pi_rec_watch) == 8, "pi_rec_watch is 8 bytes");
struct pi_watch_word {
    uint64_t addr;       /* first byte of the word */
    uint64_t reads, writes;
};
PI_STATIC_ASSERT(sizeof(struct pi_watch_word) == 24, "pi_watch_word is 24 bytes");
/* gran is a power of two from 1 to PI_WATCH_GRAN_MAX.  In a merged trace
 * (PI_TF_MERGED, load biases 0) a word's addr is module-relative: bits
 * 56..63 hold 1 + the index of the MODULE record of the module that holds
 * the word and bits 0..55 its link-time address; 0 in bits 56..63 means
 * outside every module (heap, stack: a run-time address, kept as it was).
 * User-space addresses stay below 2^56, so the two never meet. */
#define PI_WATCH_GRAN_MAX 4096u
#define PI_WATCH_MODULE_SHIFT 56
#define PI_WATCH_MODULE(addr) ((uint32_t)((uint64_t)(addr) >> PI_WATCH_MODULE_SHIFT))
#define PI_WATCH_OFFSET(addr) ((uint64_t)(addr) & ((1ull << PI_WATCH_MODULE_SHIFT) - 1))

/* ---- stack sampling (records 30..39; docs/sampling-stacks.md) ---------- */

/* An object (program, library, vdso) mapped when sampling started or later;
 * sampled frames are run-time addresses, [lo, hi) is its executable
 * segment, bias = run-time minus link-time address. */
struct pi_rec_sample_map {
    uint64_t lo, hi;
    uint64_t bias;
    uint32_t build_id_len;
    uint32_t path_len;   /* bytes of path that follow, NUL included */
    uint8_t build_id[PI_BUILD_ID_MAX];
};
PI_STATIC_ASSERT(sizeof(struct pi_rec_sample_map) == 64, "pi_rec_sample_map is 64 bytes");

/* Stack samples of one buffer (a thread's timer samples, or a CPU's idle
 * samples): nsamples samples in nwords words.  Each sample is
 *   word 0: CLOCK_MONOTONIC ns when it was taken
 *   word 1: bits 0..15 nframes, 16..23 flags (PI_SF_*), 24..31 kind
 *           (PI_SK_*), 32..47 cpu, 48..63 blocking point (PI_BLK_*, idle)
 *   word 2: bits 0..31 the sampled thread's id, 32..63 weight - 1: timer
 *           expirations the kernel folded into this one signal (si_overrun;
 *           CPU-time timers are checked at the scheduler tick, so a 1 ms
 *           timer under HZ=250 fires every 4 ms with 3 overruns)
 *   nframes words: frames, innermost first; frames[0] is the interrupted
 *           pc, the others return addresses. */
struct pi_rec_samples {
    uint32_t nsamples;
    uint32_t nwords;
    uint64_t reserved;
};
PI_STATIC_ASSERT(sizeof(struct pi_rec_samples) == 16, "pi_rec_samples is 16 bytes");
#define PI_SAMPLE_HDR_WORDS 3
#define PI_SAMPLE_MAX_FRAMES 256
enum pi_sample_kind { PI_SK_CPU = 1, PI_SK_WALL = 2, PI_SK_IDLE_TO = 3, PI_SK_IDLE_FROM = 4 };
enum pi_sample_flags {
    PI_SF_TRUNCATED = 1, /* the unwinder stopped before the outermost frame */
};
/* Where a thread blocked (idle samples): the interposed call or the
 * `blocking`-marked function. */
enum pi_block_kind {
    PI_BLK_NONE = 0, PI_BLK_MUTEX = 1, PI_BLK_COND = 2, PI_BLK_SEM = 3, PI_BLK_JOIN = 4,
    PI_BLK_SLEEP = 5, PI_BLK_READ = 6, PI_BLK_POLL = 7, PI_BLK_MARKED = 8,
};

/* The timer sampler: what it took and lost. */
struct pi_rec_sample_stats {
    uint32_t kind;       /* PI_SK_CPU or PI_SK_WALL */
    uint32_t period_ns;
    uint64_t taken;      /* samples recorded */
    uint64_t dropped;    /* samples lost: buffer limit reached */
    uint64_t truncated;  /* recorded with PI_SF_TRUNCATED */
    uint64_t threads;    /* threads that had a timer */
    uint64_t periods;    /* the samples' weights summed: timer periods covered */
    uint64_t handler_cycles; /* rdtsc ticks spent in the handler (walk and store), all samples */
};
PI_STATIC_ASSERT(sizeof(struct pi_rec_sample_stats) == 56, "pi_rec_sample_stats is 56 bytes");

/* The idle-transition sampler (seed 003): the report header. */
struct pi_rec_idle_stats {
    uint32_t period_ns;
    uint32_t mode;       /* 1 to-idle, 2 from-idle, 3 both */
    uint32_t ncpus;      /* sampler threads */
    uint32_t fifo;       /* 1: samplers ran SCHED_FIFO, 0: SCHED_OTHER */
    uint64_t ticks;      /* sampler ticks, all CPUs */
    uint64_t idle;       /* ticks that found their CPU idle of monitored threads */
    uint64_t busy;
    uint64_t skipped;    /* idle ticks with a sample still outstanding on the CPU */
    uint64_t lost;       /* samples started but not recorded (exit, walk failure, timeout) */
    uint64_t dup;        /* targets already claimed by another CPU's sampler (de-duplicated) */
    uint64_t to_samples, from_samples; /* recorded */
    uint64_t eintr;      /* interrupted blocking calls the runtime restarted */
};
PI_STATIC_ASSERT(sizeof(struct pi_rec_idle_stats) == 88, "pi_rec_idle_stats is 88 bytes");
/* ---- sharing (cache-line sharing detection, docs/sharing.md) ------------
 * Written when instrumented code called __perfinst_share.  Addresses are
 * run-time addresses (pmopt maps PCs and globals through the MODULE records);
 * lines are PI_SHARE_LINE bytes, byte i of a line is bit i of a mask. */
#define PI_SHARE_LINE 64u
#define PI_SHARE_AREAS 8u       /* areas (words) per line for per-area counts */
/* Not on disk: the byte shadow's value for a shared line whose accesses are
 * sampled (PERFINST_SHARING_PERIOD > 1), shared by the plugin's inlined
 * check (pass-sharing.cc) and the runtime (runtime/sharing.c). */
#define PI_SHARE_SAMPLED_BYTE 0xfdu
/* ... and of a shared line no thread wrote since it became shared: the
 * inlined check of a read skips it (a write calls, and the line becomes
 * sampled) */
#define PI_SHARE_RO_BYTE 0xfau
/* Not on disk either: what the inlined check's footprint path reads below
 * the byte shadow (bytes below __perfinst_share_shadow; runtime/sharing.c,
 * struct sh_head): the index shadow (uint32_t *, a record number per line),
 * the records (a pointer to record 0), the fork/join clock (uint32_t) ... */
#define PI_SHARE_HEAD_INDEX 8u
#define PI_SHARE_HEAD_RECS 16u
#define PI_SHARE_HEAD_EPOCH 20u
/* ... and where a line's record (64 bytes; struct sh_line) keeps the
 * owner's read and write byte masks (uint64_t), its reads and writes
 * (uint32_t), the owner's id while the path is open (uint8_t, 0: closed),
 * the accesses left to it (uint16_t), the clock's value it is open at
 * (uint32_t). */
#define PI_SHARE_REC_OR 16u
#define PI_SHARE_REC_OW 24u
#define PI_SHARE_REC_READS 32u
#define PI_SHARE_REC_WRITES 36u
#define PI_SHARE_REC_FP_ID 57u
#define PI_SHARE_REC_FP_LEFT 58u
#define PI_SHARE_REC_FP_EPOCH 60u
/* Not on disk: where the thread's state (__perfinst_share_tls) keeps its
 * known lines (int64_t: the distance from __perfinst_share_shadow to a map
 * of a byte per line, bit 0 of line ln's set once the runtime has seen the
 * thread read it, bit 1 once it saw it write it): the inlined check of an
 * access to a sampled shared line calls unless the line's bit for its kind
 * is set, so that a thread's first read and first write of each shared line
 * are seen in every run (docs/sharing.md, "Sampling shared lines"). */
#define PI_SHARE_TLS_KNOWN 24u
enum {
    PI_REC_SHARE_LINE = 40,   /* pi_rec_share_line + pi_share_thr[nthreads] */
    PI_REC_SHARE_SITE = 41,   /* pi_rec_share_site + char what[what_len]: one access site, line, thread */
    PI_REC_SHARE_THREAD = 42, /* pi_rec_share_thread: a thread's small id and OS id */
    PI_REC_SHARE_ALLOC = 43,  /* pi_rec_share_alloc + uint64_t frames[nframes]: a heap object */
};
#define PI_TF_SHARING (1u << 7) /* the trace has sharing records */
struct pi_rec_share_line {
    uint64_t addr;            /* first byte of the line */
    uint32_t nthreads;        /* threads that touched the line: entries that follow */
    uint32_t flags;           /* PI_SHARE_LINE_EPOCHS, else 0 */
    uint64_t reloads_true, reloads_false;
    uint64_t area_true[PI_SHARE_AREAS], area_false[PI_SHARE_AREAS]; /* by the area the reloading access started in */
};
PI_STATIC_ASSERT(sizeof(struct pi_rec_share_line) == 160, "pi_rec_share_line is 160 bytes");
/* The threads' fork/join epochs (below) follow each entry: entries are 64
 * bytes.  Without the flag (traces before it) they are 56 bytes, the epochs
 * unknown. */
#define PI_SHARE_LINE_EPOCHS 1u
#define PI_SHARE_THR_OLD_SIZE 56u
/* A fork/join epoch: a count of the pthread_create and pthread_join calls
 * made so far (the runtime's clock of which threads may run at once);
 * PI_SHARE_EPOCH_NONE: unknown, or (a death) never joined. */
#define PI_SHARE_EPOCH_NONE 0xffffffffu
struct pi_share_thr {
    uint32_t thread;          /* thread number (PI_REC_SHARE_THREAD) */
    uint32_t cpu;             /* CPU of its last access seen in the shared state, ~0u unknown */
    uint64_t rmask, wmask;    /* bytes of the line it read, wrote */
    uint64_t reads, writes;   /* its accesses to the line */
    uint64_t reloads_true, reloads_false;
    uint32_t epoch_first, epoch_last; /* epochs of its first and last access seen (PI_SHARE_EPOCH_NONE: unknown) */
};
PI_STATIC_ASSERT(sizeof(struct pi_share_thr) == 64, "pi_share_thr is 64 bytes");
struct pi_rec_share_site {
    uint64_t pc;              /* return address of the probe call: the access site */
    uint64_t line;            /* the line's address */
    uint32_t thread;
    uint32_t flags;           /* PI_ACCESS_READ / PI_ACCESS_WRITE seen at this site */
    uint64_t accesses, reloads_true, reloads_false;
    uint64_t mask;            /* bytes of the line the site touched */
    uint32_t what_len;        /* bytes of `what` that follow, NUL included; 0: none */
    uint32_t reserved;
};
PI_STATIC_ASSERT(sizeof(struct pi_rec_share_site) == 64, "pi_rec_share_site is 64 bytes");
/* `what` names the accessed field as the plugin saw it:
 * "STRUCT FIELD OFFSET SIZE FILE LINE" (the struct's tag or typedef name,
 * the field, its byte offset, the struct's size, where the field is
 * declared), e.g. "acc sx 0 40 prog.c 12". */
struct pi_rec_share_thread {
    uint32_t thread;          /* thread number, 1.. in the order of their first access */
    uint32_t tid;             /* the OS thread id */
    uint32_t cpu;             /* CPU when it was first seen */
    uint32_t period;          /* PERFINST_SHARING_PERIOD: 1 in `period` accesses to shared lines checked */
    /* (traces before these fields have 16-byte THREAD records: epochs unknown) */
    uint32_t birth, death;    /* epochs: of the pthread_create that made it (0: the first thread, or
                                 unknown) and of the pthread_join that ended it (PI_SHARE_EPOCH_NONE: none) */
    uint32_t flags;           /* PI_SHARE_THREAD_* */
    uint32_t reserved;
};
PI_STATIC_ASSERT(sizeof(struct pi_rec_share_thread) == 32, "pi_rec_share_thread is 32 bytes");
#define PI_SHARE_THREAD_OLD_SIZE 16u
#define PI_SHARE_THREAD_FORKS 1u     /* it created or joined threads: its accesses' own epochs say when it ran */
#define PI_SHARE_THREAD_EPOCHS 2u    /* birth and death are known (the runtime saw its pthread_create) */
struct pi_rec_share_alloc {
    uint64_t addr, size;      /* the object */
    uint64_t seq;             /* allocation order (a later object at the same place wins) */
    uint32_t thread;          /* the allocating thread */
    uint32_t kind;            /* 1 malloc, 2 calloc, 3 realloc, 4 aligned_alloc, 5 posix_memalign, 6 operator new,
                               * 7 PI_SHARE_ALLOC_UNRECORDED */
    uint32_t freed;           /* 1: freed before the trace was written */
    uint32_t nframes;         /* frames[0]: the allocation call's return address */
};
PI_STATIC_ASSERT(sizeof(struct pi_rec_share_alloc) == 40, "pi_rec_share_alloc is 40 bytes");
/* An allocation outside instrumented code (libc's strdup, a library's
 * malloc) over bytes an earlier object's accesses left on the lines: those
 * were forgotten, and the block is no recorded object -- its bytes are
 * named by the mapping they lie in (nframes 0). */
#define PI_SHARE_ALLOC_UNRECORDED 7u
/* A writable mapping of the process when the trace was written (from
 * /proc/self/maps), so that pmopt can say what memory a line lies in when
 * no global and no recorded allocation holds it: heap allocated by
 * uninstrumented code, a thread's stack, a library's data.  Then path_len
 * bytes: the mapping's path or [name], NUL included (1: anonymous). */
#define PI_REC_SHARE_REGION 47u
enum {
    PI_SHARE_REGION_HEAP = 1,  /* [heap]: the brk heap (malloc's main arena) */
    PI_SHARE_REGION_STACK = 2, /* [stack]: the main thread's stack */
    PI_SHARE_REGION_ANON = 3,  /* anonymous: other malloc arenas, large blocks, thread stacks */
    PI_SHARE_REGION_FILE = 4,  /* a file's mapping: a module's .data/.bss */
    PI_SHARE_REGION_OTHER = 5, /* any other [name] */
};
struct pi_rec_share_region {
    uint64_t lo, hi;          /* [lo, hi) */
    uint32_t kind;            /* PI_SHARE_REGION_* */
    uint32_t path_len;
};
PI_STATIC_ASSERT(sizeof(struct pi_rec_share_region) == 24, "pi_rec_share_region is 24 bytes");
/* The sharing tables' sizes and what did not fit (runtime/sharing.c,
 * docs/sharing.md "Limits"): every loss is counted and printed by pmopt
 * report --sharing. */
#define PI_REC_SHARE_STATS 48u
struct pi_rec_share_stats {
    uint64_t lines_max, lines_lost;     /* PERFINST_SHARING_LINES: line records; accesses to lines beyond */
    uint64_t sites_max, sites_lost;     /* PERFINST_SHARING_SITES: (site, line, thread) records; beyond */
    uint64_t allocs_max, allocs_lost;   /* PERFINST_SHARING_ALLOCS: allocation records; allocations beyond */
    uint64_t threads_max, threads_lost; /* PERFINST_SHARING_THREADS: thread numbers; threads folded into the last */
    uint64_t private_max, private_dropped; /* PERFINST_SHARING_PRIVATE: private lines written; not written */
    uint64_t ids_recycled;              /* fast-path ids of ended threads given to new ones */
    uint64_t nofast_threads;            /* threads that ran without a fast-path id (every access called) */
    uint64_t blocks;                    /* block operations (memset, memcpy, ...) checked */
    uint64_t reserved[3];
};
PI_STATIC_ASSERT(sizeof(struct pi_rec_share_stats) == 128, "pi_rec_share_stats is 128 bytes");
/* One hot-spot detection (seed 004 M21): a function whose block executions
 * reached the threshold share, with a copy of what identifies its metadata.
 * Appended to a trace by `pmopt report --hot --record`; a function detected
 * again gets a record with the next version (the older ones stay, as
 * history).  Then name_len bytes: the function's name, NUL included. */
struct pi_rec_hotspot {
    uint64_t unit_id;
    uint64_t cfg_checksum; /* pi_func.cfg_checksum */
    uint32_t func;         /* index into the unit's funcs[] */
    uint32_t version;      /* 1 at the first detection, then 2, 3, ... */
    uint32_t first_site;   /* its sites: sites[first_site .. +nsites) */
    uint32_t nsites;
    uint64_t blocks;       /* its block executions */
    uint64_t total;        /* all block executions of the program */
    uint32_t threshold;    /* the share asked for, thousandths of a percent */
    uint32_t name_len;
};
PI_STATIC_ASSERT(sizeof(struct pi_rec_hotspot) == 56, "pi_rec_hotspot is 56 bytes");
/* The performance page table (seed 004 M31, runtime/pagetable.c): ranges
 * marked with perfinst_page_range_add, counted per 4 KiB page as "touches"
 * (a page's first access in an epoch), through a look-aside buffer.  The
 * payload is the header, nranges pi_page_range, npages pi_page_entry, then
 * nepochs uint64_t: the page touches of epochs 1..nepochs.  Addresses are
 * run-time addresses. */
struct pi_rec_pages {
    uint64_t epochs;           /* epochs begun (the first starts at the first range) */
    uint64_t lookaside_hits;   /* fault-time page-table lookups the look-aside buffer served */
    uint64_t lookaside_misses; /* ... and those that walked the page table */
    uint32_t page_size;        /* bytes per page entry (4096) */
    uint32_t nranges;
    uint32_t npages;
    uint32_t nepochs;          /* per-epoch touches kept (at most PI_PAGE_EPOCH_HIST) */
};
PI_STATIC_ASSERT(sizeof(struct pi_rec_pages) == 40, "pi_rec_pages is 40 bytes");
struct pi_page_range {
    uint64_t addr;             /* first byte */
    uint64_t len;              /* bytes */
    uint64_t threshold;        /* the handler runs when touches reach N, 2N, ...; 0: never */
    uint64_t touches;          /* page touches whose address fell in the range */
    uint64_t fired;            /* threshold handler calls */
    uint32_t id;               /* what perfinst_page_range_add returned */
    uint32_t live;             /* 0: removed (perfinst_page_range_remove) */
};
PI_STATIC_ASSERT(sizeof(struct pi_page_range) == 48, "pi_page_range is 48 bytes");
struct pi_page_entry {
    uint64_t addr;             /* the page's first byte */
    uint64_t touches;          /* epochs in which the page was touched */
    uint64_t outside;          /* of those, first touches outside every range of the page */
};
PI_STATIC_ASSERT(sizeof(struct pi_page_entry) == 24, "pi_page_entry is 24 bytes");
#define PI_PAGE_EPOCH_HIST 4096u

/* perf_event counters read at trace_start and trace_stop (PERFINST_PERF,
 * runtime/perfev.c): per trace_start site, the intervals measured and the
 * sum of each event's differences over them. */
struct pi_rec_perf {
    uint64_t unit_id;          /* the trace_start site */
    uint32_t site;
    uint32_t nevents;
    uint64_t intervals;        /* start..stop intervals measured */
};
PI_STATIC_ASSERT(sizeof(struct pi_rec_perf) == 24, "pi_rec_perf is 24 bytes");
struct pi_perf_value {
    uint32_t event;            /* enum pi_perf_event */
    uint32_t reserved;
    uint64_t value;            /* summed over the intervals (task-clock, cpu-clock: ns) */
};
PI_STATIC_ASSERT(sizeof(struct pi_perf_value) == 16, "pi_perf_value is 16 bytes");
enum pi_perf_event {
    PI_PERF_CYCLES = 1, PI_PERF_INSTRUCTIONS = 2, PI_PERF_CACHE_MISSES = 3,
    PI_PERF_CACHE_REFERENCES = 4, PI_PERF_BRANCHES = 5, PI_PERF_BRANCH_MISSES = 6,
    PI_PERF_TASK_CLOCK = 7, PI_PERF_CPU_CLOCK = 8, PI_PERF_PAGE_FAULTS = 9,
    PI_PERF_CONTEXT_SWITCHES = 10, PI_PERF_CPU_MIGRATIONS = 11,
};
#define PI_PERF_MAX_EVENTS 8
#define PI_PERF_NEVENT_KINDS 11
/* The name PERFINST_PERF and the readers use for an event, or NULL. */
static inline const char *pi_perf_event_name(uint32_t id)
{
    static const char *const names[PI_PERF_NEVENT_KINDS + 1] = {
        NULL, "cycles", "instructions", "cache-misses", "cache-references", "branches",
        "branch-misses", "task-clock", "cpu-clock", "page-faults", "context-switches",
        "cpu-migrations",
    };
    return id <= PI_PERF_NEVENT_KINDS ? names[id] : NULL;
}

struct pi_rec_end {
    uint32_t nrecords;   /* records before this one */
    uint32_t reserved;
};
PI_STATIC_ASSERT(sizeof(struct pi_rec_end) == 8, "pi_rec_end is 8 bytes");

/* ---- runtime instrumentation: report groups (seed 001; docs/sampling.md) --
 * A thread's program buffer holds report groups of 2^(rgs+1) records of 16
 * bytes (rgs 1..7): a header (BEGIN for the first group of the buffer,
 * TIMESTAMP for the others), the body (collection-buffer records, newest
 * first, then FILLER), the extra section (one SYSINFO record: where the
 * group was taken) and the INSTRUCTION record last.  The runtime copies
 * the filled part of a buffer into PI_REC_RI records: when it drains a full
 * buffer, when a thread ends, and when the trace is written. */
enum pi_ri_rec_type {
    PI_RI_FILLER = 0,
    PI_RI_EXTRA = 1,       /* u.sys when flags == PI_RI_EXTRA_SYSINFO */
    PI_RI_BEGIN = 2,       /* u.hdr: nrg = report groups stored in this buffer */
    PI_RI_TIMESTAMP = 3,   /* u.hdr: nrg = this group's index in the buffer */
    PI_RI_INSTRUCTION = 4, /* u.ev: the sample point; val = units counted so far */
    PI_RI_EMIT = 10,       /* u.ev: the emit site; val = the value */
    PI_RI_CALL = 12,       /* u.ev: addr = the call's return address; val = the callee's entry */
    PI_RI_RETURN = 13,     /* u.ev: addr = the returning function's entry; val = return address */
    PI_RI_TRANSFER = 14,   /* addr = just before the branch; val = on the taken edge */
};
/* flags of BEGIN and TIMESTAMP records */
#define PI_RI_HF_STOPPED 0x01u   /* S: the buffer filled up (BEGIN) */
#define PI_RI_HF_HALTED 0x02u    /* H: instrumentation halted (BEGIN) */
#define PI_RI_HF_SECONDARY 0x04u /* T: taken on a secondary-capability CPU */
/* flags of INSTRUCTION records: why this was a sample point */
#define PI_RI_IF_COUNT 0x01u     /* the unit count ran out */
#define PI_RI_IF_CYCLES 0x02u    /* the cycle deadline passed */
#define PI_RI_IF_DIRECTED 0x04u  /* a directed sample point (sample(directed), perfinst_ri_next) */
/* flags of event records (u.ev) */
#define PI_RI_EF_MAE 0x80u       /* the address did not fit 48 bits (kept: its low 48 bits) */
#define PI_RI_EXTRA_SYSINFO 1u   /* PI_RI_EXTRA with this in flags: u.sys */

/* One record: byte 0 the type, byte 1 flags, bytes 2..7 and 8..15 by type:
 *   BEGIN, TIMESTAMP  [2] rgs, [3] mode (PERFINST_RI_M_*), [4..7] u32 nrg,
 *                     [8..15] u64 tod_ns (start_ns + CLOCK_MONOTONIC since)
 *   events, INSTRUCTION  [2..7] 48-bit address, [8..15] u64 val
 *   EXTRA SYSINFO     [2..3] u16 cpu (0xffff unknown), [4..7] u32 CPUID
 *                     signature (leaf 1 EAX), [8..11] u32 microcode,
 *                     [12] capability (0 primary, 1 secondary), [13..15] 0
 *   FILLER            all zero
 * Multi-byte fields are little-endian and naturally aligned within the
 * record: read them with the accessors below. */
struct pi_ri_rec {
    uint8_t type;  /* enum pi_ri_rec_type */
    uint8_t flags;
    uint8_t a[6];
    uint8_t b[8];
};
PI_STATIC_ASSERT(sizeof(struct pi_ri_rec) == 16, "pi_ri_rec is 16 bytes");
static inline uint64_t pi_ri_le(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}
static inline void pi_ri_put_le(uint8_t *p, int n, uint64_t v)
{
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static inline uint64_t pi_ri_addr(const struct pi_ri_rec *r) { return pi_ri_le(r->a, 6); }
static inline uint64_t pi_ri_val(const struct pi_ri_rec *r) { return pi_ri_le(r->b, 8); }
static inline uint32_t pi_ri_nrg(const struct pi_ri_rec *r) { return (uint32_t)pi_ri_le(r->a + 2, 4); }
#define PI_RI_RGS_MIN 1u
#define PI_RI_RGS_MAX 7u
#define PI_RI_GROUP_RECORDS(rgs) (2u << (rgs))         /* 2^(rgs+1) */
#define PI_RI_GROUP_BYTES(rgs) (32u << (rgs))          /* records of 16 bytes */
#define PI_RI_NC 3u /* records of a group not from the collection buffer */


/* PI_REC_RI (trace record type 20): report groups of one thread's program
 * buffer, ngroups * PI_RI_GROUP_BYTES(rgs) bytes after this header.  A
 * thread's records come in seq order; each starts with a BEGIN group. */
#define PI_REC_RI 20u
#define PI_RIB_DRAINED 0x1u  /* written because the buffer was full (full=drain) */
#define PI_RIB_HALTED 0x2u   /* instrumentation was halted when written */
#define PI_RIB_STOPPED 0x4u  /* the buffer was full and nothing drained it */
struct pi_rec_ri {
    uint32_t tid;
    uint32_t seq;        /* 0, 1, ...: this thread's buffers in order */
    uint32_t rgs;
    uint32_t ngroups;
    uint32_t flags;      /* PI_RIB_* */
    uint32_t reserved;
    uint64_t suppressed; /* sample points suppressed by the capability controls so far */
    uint64_t lost;       /* sample points not stored (halted, or the buffer full) so far */
};
PI_STATIC_ASSERT(sizeof(struct pi_rec_ri) == 40, "pi_rec_ri is 40 bytes");

/* ------------------------------------------------------------------------ */
/* Checksums and hashes used by the formats                                   */
/* ------------------------------------------------------------------------ */

/* CRC-32 (IEEE 802.3, reflected, as zlib's crc32()): pi_crc32(0, p, n).
 * Byte-wise with a constant table: no state to initialise, so it is usable
 * from the async-signal-safe trace writer, and fast enough for traces of
 * hundreds of thousands of counters (the bitwise loop cost ~60 instructions
 * a byte, 17 million for SQLite's counters at every exit). */
static const uint32_t pi_crc32_table[256] = {
    0x00000000u, 0x77073096u, 0xee0e612cu, 0x990951bau, 0x076dc419u, 0x706af48fu,
    0xe963a535u, 0x9e6495a3u, 0x0edb8832u, 0x79dcb8a4u, 0xe0d5e91eu, 0x97d2d988u,
    0x09b64c2bu, 0x7eb17cbdu, 0xe7b82d07u, 0x90bf1d91u, 0x1db71064u, 0x6ab020f2u,
    0xf3b97148u, 0x84be41deu, 0x1adad47du, 0x6ddde4ebu, 0xf4d4b551u, 0x83d385c7u,
    0x136c9856u, 0x646ba8c0u, 0xfd62f97au, 0x8a65c9ecu, 0x14015c4fu, 0x63066cd9u,
    0xfa0f3d63u, 0x8d080df5u, 0x3b6e20c8u, 0x4c69105eu, 0xd56041e4u, 0xa2677172u,
    0x3c03e4d1u, 0x4b04d447u, 0xd20d85fdu, 0xa50ab56bu, 0x35b5a8fau, 0x42b2986cu,
    0xdbbbc9d6u, 0xacbcf940u, 0x32d86ce3u, 0x45df5c75u, 0xdcd60dcfu, 0xabd13d59u,
    0x26d930acu, 0x51de003au, 0xc8d75180u, 0xbfd06116u, 0x21b4f4b5u, 0x56b3c423u,
    0xcfba9599u, 0xb8bda50fu, 0x2802b89eu, 0x5f058808u, 0xc60cd9b2u, 0xb10be924u,
    0x2f6f7c87u, 0x58684c11u, 0xc1611dabu, 0xb6662d3du, 0x76dc4190u, 0x01db7106u,
    0x98d220bcu, 0xefd5102au, 0x71b18589u, 0x06b6b51fu, 0x9fbfe4a5u, 0xe8b8d433u,
    0x7807c9a2u, 0x0f00f934u, 0x9609a88eu, 0xe10e9818u, 0x7f6a0dbbu, 0x086d3d2du,
    0x91646c97u, 0xe6635c01u, 0x6b6b51f4u, 0x1c6c6162u, 0x856530d8u, 0xf262004eu,
    0x6c0695edu, 0x1b01a57bu, 0x8208f4c1u, 0xf50fc457u, 0x65b0d9c6u, 0x12b7e950u,
    0x8bbeb8eau, 0xfcb9887cu, 0x62dd1ddfu, 0x15da2d49u, 0x8cd37cf3u, 0xfbd44c65u,
    0x4db26158u, 0x3ab551ceu, 0xa3bc0074u, 0xd4bb30e2u, 0x4adfa541u, 0x3dd895d7u,
    0xa4d1c46du, 0xd3d6f4fbu, 0x4369e96au, 0x346ed9fcu, 0xad678846u, 0xda60b8d0u,
    0x44042d73u, 0x33031de5u, 0xaa0a4c5fu, 0xdd0d7cc9u, 0x5005713cu, 0x270241aau,
    0xbe0b1010u, 0xc90c2086u, 0x5768b525u, 0x206f85b3u, 0xb966d409u, 0xce61e49fu,
    0x5edef90eu, 0x29d9c998u, 0xb0d09822u, 0xc7d7a8b4u, 0x59b33d17u, 0x2eb40d81u,
    0xb7bd5c3bu, 0xc0ba6cadu, 0xedb88320u, 0x9abfb3b6u, 0x03b6e20cu, 0x74b1d29au,
    0xead54739u, 0x9dd277afu, 0x04db2615u, 0x73dc1683u, 0xe3630b12u, 0x94643b84u,
    0x0d6d6a3eu, 0x7a6a5aa8u, 0xe40ecf0bu, 0x9309ff9du, 0x0a00ae27u, 0x7d079eb1u,
    0xf00f9344u, 0x8708a3d2u, 0x1e01f268u, 0x6906c2feu, 0xf762575du, 0x806567cbu,
    0x196c3671u, 0x6e6b06e7u, 0xfed41b76u, 0x89d32be0u, 0x10da7a5au, 0x67dd4accu,
    0xf9b9df6fu, 0x8ebeeff9u, 0x17b7be43u, 0x60b08ed5u, 0xd6d6a3e8u, 0xa1d1937eu,
    0x38d8c2c4u, 0x4fdff252u, 0xd1bb67f1u, 0xa6bc5767u, 0x3fb506ddu, 0x48b2364bu,
    0xd80d2bdau, 0xaf0a1b4cu, 0x36034af6u, 0x41047a60u, 0xdf60efc3u, 0xa867df55u,
    0x316e8eefu, 0x4669be79u, 0xcb61b38cu, 0xbc66831au, 0x256fd2a0u, 0x5268e236u,
    0xcc0c7795u, 0xbb0b4703u, 0x220216b9u, 0x5505262fu, 0xc5ba3bbeu, 0xb2bd0b28u,
    0x2bb45a92u, 0x5cb36a04u, 0xc2d7ffa7u, 0xb5d0cf31u, 0x2cd99e8bu, 0x5bdeae1du,
    0x9b64c2b0u, 0xec63f226u, 0x756aa39cu, 0x026d930au, 0x9c0906a9u, 0xeb0e363fu,
    0x72076785u, 0x05005713u, 0x95bf4a82u, 0xe2b87a14u, 0x7bb12baeu, 0x0cb61b38u,
    0x92d28e9bu, 0xe5d5be0du, 0x7cdcefb7u, 0x0bdbdf21u, 0x86d3d2d4u, 0xf1d4e242u,
    0x68ddb3f8u, 0x1fda836eu, 0x81be16cdu, 0xf6b9265bu, 0x6fb077e1u, 0x18b74777u,
    0x88085ae6u, 0xff0f6a70u, 0x66063bcau, 0x11010b5cu, 0x8f659effu, 0xf862ae69u,
    0x616bffd3u, 0x166ccf45u, 0xa00ae278u, 0xd70dd2eeu, 0x4e048354u, 0x3903b3c2u,
    0xa7672661u, 0xd06016f7u, 0x4969474du, 0x3e6e77dbu, 0xaed16a4au, 0xd9d65adcu,
    0x40df0b66u, 0x37d83bf0u, 0xa9bcae53u, 0xdebb9ec5u, 0x47b2cf7fu, 0x30b5ffe9u,
    0xbdbdf21cu, 0xcabac28au, 0x53b39330u, 0x24b4a3a6u, 0xbad03605u, 0xcdd70693u,
    0x54de5729u, 0x23d967bfu, 0xb3667a2eu, 0xc4614ab8u, 0x5d681b02u, 0x2a6f2b94u,
    0xb40bbe37u, 0xc30c8ea1u, 0x5a05df1bu, 0x2d02ef8du,
};

static inline uint32_t pi_crc32(uint32_t crc, const void *data, size_t n)
{
    const unsigned char *p = (const unsigned char *)data;
    crc = ~crc;
    while (n--)
        crc = pi_crc32_table[(crc ^ *p++) & 0xffu] ^ (crc >> 8);
    return ~crc;
}

/* The same CRC eight bytes a step (slicing-by-8), for writers of large
 * records (the runtime's COUNTS records run to megabytes).  The tables are
 * made once with pi_crc32_tables8 (no allocation, so a signal handler may
 * make them); pi_crc32_8 then gives exactly pi_crc32's result. */
static inline void pi_crc32_tables8(uint32_t t[8][256])
{
    for (unsigned i = 0; i < 256; i++)
        t[0][i] = pi_crc32_table[i];
    for (unsigned k = 1; k < 8; k++)
        for (unsigned i = 0; i < 256; i++)
            t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xffu];
}

static inline uint32_t pi_crc32_8(const uint32_t t[8][256], uint32_t crc, const void *data, size_t n)
{
    const unsigned char *p = (const unsigned char *)data;
    crc = ~crc;
    for (; n >= 8; n -= 8, p += 8) {
        uint32_t lo = crc ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
        uint32_t hi = (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;
        crc = t[7][lo & 0xffu] ^ t[6][(lo >> 8) & 0xffu] ^ t[5][(lo >> 16) & 0xffu] ^ t[4][lo >> 24] ^
              t[3][hi & 0xffu] ^ t[2][(hi >> 8) & 0xffu] ^ t[1][(hi >> 16) & 0xffu] ^ t[0][hi >> 24];
    }
    while (n--)
        crc = t[0][(crc ^ *p++) & 0xffu] ^ (crc >> 8);
    return ~crc;
}

/* The same CRC by carry-less multiplication (PCLMULQDQ: Gopal et al., "Fast
 * CRC Computation for Generic Polynomials Using PCLMULQDQ Instruction",
 * Intel, 2009; the constants of its bit-reflected CRC-32), 64 bytes a step,
 * where the CPU has it: for the runtime's writer, whose sharing records run
 * to megabytes (a tenth of the instructions of a detection run went to the
 * CRC, bench/RESULTS.md).  pi_crc32_fast gives exactly pi_crc32's result
 * (tests/unit/crc.c). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__cplusplus)
#include <immintrin.h>
/* The register (not inverted) after n bytes at p; n >= 64, a multiple of 16. */
__attribute__((target("pclmul,sse2"))) static inline uint32_t pi_crc32_fold(uint32_t reg, const unsigned char *p,
                                                                            size_t n)
{
    const __m128i k1k2 = _mm_set_epi64x(0x01c6e41596, 0x0154442bd4);
    const __m128i k3k4 = _mm_set_epi64x(0x00ccaa009e, 0x01751997d0);
    const __m128i k5 = _mm_set_epi64x(0, 0x0163cd6124);
    const __m128i poly = _mm_set_epi64x(0x01f7011641, 0x01db710641);
    const __m128i low32 = _mm_setr_epi32(~0, 0, ~0, 0);
    __m128i x1 = _mm_loadu_si128((const __m128i *)p), x2 = _mm_loadu_si128((const __m128i *)(p + 16));
    __m128i x3 = _mm_loadu_si128((const __m128i *)(p + 32)), x4 = _mm_loadu_si128((const __m128i *)(p + 48));
    x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128((int)reg));
    for (p += 64, n -= 64; n >= 64; p += 64, n -= 64) { /* four lanes of 16 bytes, folded 64 bytes on */
        __m128i h1 = _mm_clmulepi64_si128(x1, k1k2, 0x11), h2 = _mm_clmulepi64_si128(x2, k1k2, 0x11);
        __m128i h3 = _mm_clmulepi64_si128(x3, k1k2, 0x11), h4 = _mm_clmulepi64_si128(x4, k1k2, 0x11);
        x1 = _mm_xor_si128(_mm_xor_si128(h1, _mm_clmulepi64_si128(x1, k1k2, 0x00)), _mm_loadu_si128((const __m128i *)p));
        x2 = _mm_xor_si128(_mm_xor_si128(h2, _mm_clmulepi64_si128(x2, k1k2, 0x00)),
                           _mm_loadu_si128((const __m128i *)(p + 16)));
        x3 = _mm_xor_si128(_mm_xor_si128(h3, _mm_clmulepi64_si128(x3, k1k2, 0x00)),
                           _mm_loadu_si128((const __m128i *)(p + 32)));
        x4 = _mm_xor_si128(_mm_xor_si128(h4, _mm_clmulepi64_si128(x4, k1k2, 0x00)),
                           _mm_loadu_si128((const __m128i *)(p + 48)));
    }
    /* the lanes into one, then the 16-byte blocks left */
    x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, k3k4, 0x11), _mm_clmulepi64_si128(x1, k3k4, 0x00)), x2);
    x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, k3k4, 0x11), _mm_clmulepi64_si128(x1, k3k4, 0x00)), x3);
    x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, k3k4, 0x11), _mm_clmulepi64_si128(x1, k3k4, 0x00)), x4);
    for (; n >= 16; p += 16, n -= 16)
        x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, k3k4, 0x11), _mm_clmulepi64_si128(x1, k3k4, 0x00)),
                           _mm_loadu_si128((const __m128i *)p));
    /* 128 bits to 64, then Barrett's reduction to 32 */
    x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), _mm_clmulepi64_si128(x1, k3k4, 0x10));
    x1 = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x1, low32), k5, 0x00), _mm_srli_si128(x1, 4));
    __m128i t = _mm_and_si128(_mm_clmulepi64_si128(_mm_and_si128(x1, low32), poly, 0x10), low32);
    x1 = _mm_xor_si128(x1, _mm_clmulepi64_si128(t, poly, 0x00));
    return (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(x1, 4));
}

/* The CRC after the longest multiple of 16 bytes at *p (n >= 64) where the
 * CPU has PCLMULQDQ, *p and *n advanced past them; else crc, nothing
 * advanced.  No tables: what a short trace's writer uses before it has
 * made any. */
static inline uint32_t pi_crc32_clmul_prefix(uint32_t crc, const unsigned char **p, size_t *n)
{
    static int pclmul = -1; /* (a race of two first calls writes the same value) */
    if (*n < 64)
        return crc;
    if (pclmul < 0) {
        __builtin_cpu_init();
        pclmul = __builtin_cpu_supports("pclmul") != 0;
    }
    if (pclmul) {
        size_t k = *n & ~(size_t)15;
        crc = ~pi_crc32_fold(~crc, *p, k);
        *p += k;
        *n -= k;
    }
    return crc;
}

static inline uint32_t pi_crc32_fast(const uint32_t t[8][256], uint32_t crc, const void *data, size_t n)
{
    const unsigned char *p = (const unsigned char *)data;
    crc = pi_crc32_clmul_prefix(crc, &p, &n);
    return pi_crc32_8(t, crc, p, n);
}
#else
static inline uint32_t pi_crc32_clmul_prefix(uint32_t crc, const unsigned char **p, size_t *n)
{
    (void)p;
    (void)n;
    return crc;
}
#define pi_crc32_fast pi_crc32_8
#endif

/* 64-bit FNV-1a: identities (unit ids, CFG checksums, input hashes). */
#define PI_HASH64_INIT 0xcbf29ce484222325ull
static inline uint64_t pi_hash64(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = (const unsigned char *)data;
    while (n--) {
        h ^= *p++;
        h *= 0x100000001b3ull;
    }
    return h;
}

/* ------------------------------------------------------------------------ */
/* Jump slots (in memory, not on disk): how a split function enters          */
/* ------------------------------------------------------------------------ */

/* A split function (gcc-plugin/pass-split.cc) starts with
 * `jmp *SLOT(%rip)`; SLOT is an 8-byte address in the module's writable
 * section __perfinst_jumps: the counting copy while the function's switch
 * byte is 1, the clean copy while it is 0 (runtime/jumps.c keeps it so,
 * with one atomic 8-byte store; it starts at the counting copy, as the
 * bytes start at 1).  Only the slots are touched at run time, so that the
 * hot functions' slots share few cache lines; what the runtime needs to
 * set them is a pi_jump_info per slot in the read-only section
 * __perfinst_jumpinfo, which the unit's constructor hands to libperfinst
 * (__perfinst_register_unit2): a unit's infos lie between two local labels
 * of its own (PI_JUMPINFO_LO, in subsection 0 of the section, and
 * PI_JUMPINFO_HI, in subsection 2; the infos in subsection 1).  Its four
 * offsets are relative to their own field (PC-relative: no dynamic
 * relocation; each slot has one, in a PIE).  An info whose `slot` is 0 is
 * empty (a unit of an earlier plugin added one, so that ld's
 * __start/__stop symbols, which it passed, always existed). */
#define PI_JUMPS_SECTION "__perfinst_jumps"
#define PI_JUMPINFO_SECTION "__perfinst_jumpinfo"
#define PI_JUMPINFO_LO ".Lpi_jinfo_lo"
#define PI_JUMPINFO_HI ".Lpi_jinfo_hi"
struct pi_jump_info {
    int32_t slot;     /* the 8-byte slot the entry's jmp reads */
    int32_t clean;    /* the clean copy's first block */
    int32_t counting; /* the counting copy: right after the jmp */
    int32_t sw;       /* the function's byte of __perfinst_fnon */
};
PI_STATIC_ASSERT(sizeof(struct pi_jump_info) == 16, "jump info size");

#endif /* PERFINST_FORMAT_H */
