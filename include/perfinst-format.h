/* perfinst-format.h — every on-disk format that perfinst's stages share.
 *
 * This is the one definition of the bytes that pass between the stages:
 *
 *   gcc -fplugin=perfinst.so  writes  .perfinst   (UNIT and CODE chunks, in objects)
 *   perfinst-ld               writes  .perfinst.xlat (XLAT chunk) and
 *                                     .perfinst.link (LINK chunk) into the program
 *   libperfinst               writes  the trace (*.pit)
 *   pmopt                     reads all of them, writes merged traces
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

#define PI_FORMAT_VERSION 1u   /* .perfinst, .perfinst.xlat, .perfinst.link */
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
    uint16_t version; /* PI_FORMAT_VERSION */
    uint16_t kind;    /* enum pi_chunk_kind */
    uint32_t size;    /* bytes of the whole chunk, this header included; multiple of 8 */
    uint32_t hdr_crc; /* CRC-32 (pi_crc32) of the 12 bytes above; guards against junk */
};
PI_STATIC_ASSERT(sizeof(struct pi_chunk_hdr) == 16, "chunk header is 16 bytes");

/* ---- UNIT chunk ---------------------------------------------------------
 * Layout: pi_chunk_hdr, pi_unit, pi_func[nfuncs], pi_site[nsites],
 * uint32_t succ[nsuccs], char strtab[strtab_size], zero padding to 8.
 * Written by the plugin at the end of the translation unit (as top-level
 * assembly, so that -flto carries it to the final object unchanged). */
struct pi_unit {
    uint64_t unit_id;     /* identity of the unit: counters in traces are keyed by it */
    uint32_t nfuncs;
    uint32_t nsites;
    uint32_t nsuccs;      /* entries of succ[] */
    uint32_t ncounters;   /* length of the unit's counter array */
    uint32_t strtab_size; /* bytes, includes the leading "" at offset 0 */
    uint32_t source;      /* strtab: the main source file as given to gcc */
    uint32_t producer;    /* strtab: e.g. "perfinst 0.1 gcc 12.2.0 -O2" */
    uint32_t line_size;   /* cache-line size the plugin assumed (64) */
};
PI_STATIC_ASSERT(sizeof(struct pi_unit) == 40, "pi_unit is 40 bytes");

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
    uint32_t directives; /* enum pi_directive bits given on the function */
    uint64_t cfg_checksum; /* hash of the CFG shape (blocks, successors, lines) */
};
PI_STATIC_ASSERT(sizeof(struct pi_func) == 32, "pi_func is 32 bytes");

enum pi_site_kind {
    PI_SITE_BLOCK = 1, /* a basic block of a marked function or statement region */
    PI_SITE_DATA = 2,  /* an access to watched data: region names the object ("var",
                          "struct s.field"), arg = PI_ACCESS_* bits; no counter */
};
enum pi_access { PI_ACCESS_READ = 1, PI_ACCESS_WRITE = 2 };
#define PI_SITE_TYPES(arg) ((arg) & 0xffu)
#define PI_SITE_CYCLES_CODE(arg) (((arg) >> 8) & 7u)

struct pi_site {
    uint32_t func;       /* index into funcs[] */
    uint32_t counter;    /* index into the unit's counters, or PI_NONE */
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
                            bits 8..10 the cycles code (PI_SITE_CYCLES_CODE) */
    uint32_t handler;    /* strtab: handler= function named by the directive ("" if none) */
};
PI_STATIC_ASSERT(sizeof(struct pi_site) == 56, "pi_site is 56 bytes");

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

/* ---- LINK chunk (section .perfinst.link, written by perfinst-ld) ---------
 * Everything `pmopt relink` needs to replay the link.
 * Layout: pi_chunk_hdr, pi_link, pi_link_input[ninputs], char strtab[],
 * zero pad.  argv is the driver command line exactly as run (argc strings,
 * consecutive NUL-terminated, starting at strtab offset argv). */
struct pi_link {
    uint32_t argc;
    uint32_t argv;        /* strtab offset of the first argument */
    uint32_t cwd;         /* strtab: working directory of the link */
    uint32_t output;      /* strtab: the -o argument as given */
    uint32_t ninputs;
    uint32_t strtab_size;
};
PI_STATIC_ASSERT(sizeof(struct pi_link) == 24, "pi_link is 24 bytes");

struct pi_link_input {
    uint32_t path;        /* strtab: path as resolved at link time (absolute) */
    uint32_t argi;        /* index of its argument in argv, or PI_NONE */
    uint64_t size;        /* file size at link time */
    int64_t mtime_ns;     /* modification time at link time */
    uint64_t hash;        /* pi_hash64 of the file's contents */
};
PI_STATIC_ASSERT(sizeof(struct pi_link_input) == 32, "pi_link_input is 32 bytes");

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
};

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
    PI_STAT_WATCH = 5,     /* count: bytes-weighted words touched; execs: accesses at the site */
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

struct pi_rec_end {
    uint32_t nrecords;   /* records before this one */
    uint32_t reserved;
};
PI_STATIC_ASSERT(sizeof(struct pi_rec_end) == 8, "pi_rec_end is 8 bytes");

/* ------------------------------------------------------------------------ */
/* Checksums and hashes used by the formats                                   */
/* ------------------------------------------------------------------------ */

/* CRC-32 (IEEE 802.3, reflected, as zlib's crc32()): pi_crc32(0, p, n).
 * Bitwise and table-free on purpose: it is only run over headers and over
 * records when they are written or read, never on a hot path, and it must
 * be usable from the async-signal-safe trace writer. */
static inline uint32_t pi_crc32(uint32_t crc, const void *data, size_t n)
{
    const unsigned char *p = (const unsigned char *)data;
    crc = ~crc;
    while (n--) {
        crc ^= *p++;
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

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

#endif /* PERFINST_FORMAT_H */
