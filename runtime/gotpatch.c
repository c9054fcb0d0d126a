/* gotpatch.c — the runtime's interposed functions, for a program that finds
 * libc's first.
 *
 * The runtime must start every thread that runs counted code (thread.c:
 * the thread's counters are flushed as it ends), write the trace before an
 * exec replaces the image (exec.c) or _exit ends it (exit-wrap.c) and keep
 * its handler of fatal signals where the program leaves the default, out
 * of the program's sight (signal.c), so it interposes pthread_create, the
 * exec family, _exit, sigaction and signal.  Interposition works when the runtime comes before libc
 * in the lookup scope: the program is linked through the link stage, or the
 * runtime is preloaded.  A plain program that uses a counted shared
 * library, or dlopen's one (python3 importing a counted extension module),
 * finds libc's first: the threads it starts would not be the runtime's,
 * what they count would be lost when they end, and so would everything
 * counted since the start at an exec or an _exit; the program would see the runtime's
 * signal handlers, and remove them setting SIG_DFL.  (And the runtime,
 * after libc, finds no next definition with dlsym(RTLD_NEXT): the
 * functions the lookup gives are its own calls' too, pi_imports_next.)
 *
 * So at start-up, when this module's GOT (filled by the lookup at load)
 * does not hold the runtime's pthread_create and the runtime comes after
 * libc in the load order, the runtime rewrites the slots through which the
 * loaded modules call those functions: every relocation against one of the
 * undefined names — the PLT's jump slot, a GOT entry (GLOB_DAT: -fno-plt,
 * the address taken in PIC code) or a pointer in data (R_X86_64_64) — now
 * holds the runtime's function, which calls what the slot held before (the
 * lookup's result: libc's, or a sanitizer's interceptor in front of it;
 * pi_imports_next).  Only after libc: a function before libc that passes
 * the call on (a sanitizer's interceptor, dlsym(RTLD_NEXT)) stops at libc's
 * and never reaches ours, where one before the runtime would call ours, and
 * ours it, for ever.  A slot in the RELRO part (-z relro, -z now) is made
 * writable for the store and read-only again, as glibc leaves it.  Modules
 * loaded later are scanned when a module registers its first unit
 * (dlpi_adds says whether anything was loaded since the last scan; the
 * modules scanned before are passed over).  The
 * module holding the runtime is skipped (its own calls stay as they are),
 * and so is one that defines the name (libc).  docs/runtime.md, "Threads".
 */
#include "runtime.h"

#include <dlfcn.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

static struct redirect {
    const char *name;
    void *to;   /* the runtime's */
    void *from; /* what the lookup gives, once redirecting */
} redirects[] = {
    {"pthread_create", (void *)pi_own_pthread_create, NULL},
    {"execve", (void *)pi_own_execve, NULL},
    {"execv", (void *)pi_own_execv, NULL},
    {"execvp", (void *)pi_own_execvp, NULL},
    {"execvpe", (void *)pi_own_execvpe, NULL},
    {"fexecve", (void *)pi_own_fexecve, NULL},
    {"execl", (void *)pi_own_execl, NULL},
    {"execlp", (void *)pi_own_execlp, NULL},
    {"execle", (void *)pi_own_execle, NULL},
    {"sigaction", (void *)pi_own_sigaction, NULL},
    {"signal", (void *)pi_own_signal, NULL},
    {"bsd_signal", (void *)pi_own_bsd_signal, NULL},
    {"sysv_signal", (void *)pi_own_sysv_signal, NULL},
    {"__sysv_signal", (void *)pi_own_sysv_signal, NULL},
    {"_exit", (void *)pi_own__exit, NULL}, /* (shared runtime only: NULL in libperfinst.a) */
    {"_Exit", (void *)pi_own__Exit, NULL},
};
#define NREDIRECTS (sizeof redirects / sizeof *redirects)

static int redirecting;

/* The modules scanned, by their program headers' address (unique among
 * the loaded), forgotten when one is unloaded (another may come at its
 * place): a module's first unit rescans only the modules loaded since
 * (python3 importing ten counted extension modules scanned every loaded
 * module's relocations ten times: 120,000 instructions an import). */
static struct {
    unsigned long long adds, subs; /* dlpi_adds, dlpi_subs at the last scan */
    size_t n;
    const void *phdr[512];         /* full: every module scanned each time */
} scanned;

static int scanned_before(const struct dl_phdr_info *info)
{
    for (size_t i = 0; i < scanned.n; i++)
        if (scanned.phdr[i] == info->dlpi_phdr)
            return 1;
    if (scanned.n < sizeof scanned.phdr / sizeof *scanned.phdr)
        scanned.phdr[scanned.n++] = info->dlpi_phdr;
    return 0;
}

/* The mapped address of a dynamic entry's pointer: glibc has added the
 * load bias to it in place, except in a read-only .dynamic (the vDSO's). */
static uintptr_t dyn_addr(const struct dl_phdr_info *info, ElfW(Addr) ptr)
{
    return ptr < info->dlpi_addr ? info->dlpi_addr + ptr : ptr;
}

/* Whether one of the module's PT_LOAD segments holds address A. */
static int holds(const struct dl_phdr_info *info, uintptr_t a)
{
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t s = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && a >= s && a < s + ph->p_memsz)
            return 1;
    }
    return 0;
}

/* Store R's function into SLOT, unprotecting the page when it lies in the
 * part glibc made read-only after relocation.  A read-only slot that does
 * not hold the lookup's result yet belongs to a module being relocated
 * (its page is not protected yet, and must not be by us) or was bound
 * elsewhere: left alone.  (Scans run from constructors, with glibc's
 * loader lock held, so no other thread is relocating then.) */
static void patch_slot(const struct dl_phdr_info *info, uintptr_t slot, const struct redirect *r)
{
    void *cur = __atomic_load_n((void **)slot, __ATOMIC_RELAXED);
    if (cur == r->to)
        return;
    long pg = sysconf(_SC_PAGESIZE);
    uintptr_t page = slot & ~(uintptr_t)(pg - 1);
    int relro = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_GNU_RELRO)
            continue;
        /* (glibc protects the pages the segment covers in whole) */
        uintptr_t s = (info->dlpi_addr + ph->p_vaddr) & ~(uintptr_t)(pg - 1);
        uintptr_t e = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz) & ~(uintptr_t)(pg - 1);
        relro |= slot >= s && slot < e;
    }
    if (relro && (cur != r->from || mprotect((void *)page, (size_t)pg, PROT_READ | PROT_WRITE)))
        return;
    __atomic_store_n((void **)slot, r->to, __ATOMIC_RELAXED);
    if (relro)
        mprotect((void *)page, (size_t)pg, PROT_READ);
}

static const struct redirect *redirect_of(const char *name)
{
    for (size_t i = 0; i < NREDIRECTS; i++) /* (the first two letters first: most names differ there) */
        if (redirects[i].from && redirects[i].name[0] == name[0] && redirects[i].name[1] == name[1] &&
            !strcmp(redirects[i].name, name))
            return &redirects[i];
    return NULL;
}

/* The relocations rel[0..size) against an undefined name redirected. */
static void scan_relocs(const struct dl_phdr_info *info, const ElfW(Rela) *rel, size_t size,
                        const ElfW(Sym) *symtab, const char *strtab, size_t strsz)
{
    for (size_t i = 0; i < size / sizeof *rel; i++) {
        unsigned type = ELF64_R_TYPE(rel[i].r_info);
        if (type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT &&
            !(type == R_X86_64_64 && rel[i].r_addend == 0))
            continue;
        const ElfW(Sym) *sym = &symtab[ELF64_R_SYM(rel[i].r_info)];
        const struct redirect *r;
        if (!ELF64_R_SYM(rel[i].r_info) || sym->st_shndx != SHN_UNDEF || sym->st_name >= strsz ||
            !(r = redirect_of(strtab + sym->st_name)))
            continue;
        patch_slot(info, info->dlpi_addr + rel[i].r_offset, r);
    }
}

/* A module's dynamic tables, read from its mapped .dynamic. */
struct dyn_tables {
    const ElfW(Sym) *symtab;
    const char *strtab;
    size_t strsz, relasz, pltsz;
    const ElfW(Rela) *rela, *jmprel;
    int plt_rela;
    const uint32_t *gnu_hash;
};

/* 0 when the module has no .dynamic or no symbols (the vDSO has some). */
static int read_dyn(const struct dl_phdr_info *info, struct dyn_tables *t)
{
    const ElfW(Dyn) *dyn = NULL;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
            dyn = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
    memset(t, 0, sizeof *t);
    t->plt_rela = 1;
    for (; dyn && dyn->d_tag != DT_NULL; dyn++)
        switch (dyn->d_tag) {
        case DT_SYMTAB: t->symtab = (const ElfW(Sym) *)dyn_addr(info, dyn->d_un.d_ptr); break;
        case DT_STRTAB: t->strtab = (const char *)dyn_addr(info, dyn->d_un.d_ptr); break;
        case DT_STRSZ: t->strsz = dyn->d_un.d_val; break;
        case DT_RELA: t->rela = (const ElfW(Rela) *)dyn_addr(info, dyn->d_un.d_ptr); break;
        case DT_RELASZ: t->relasz = dyn->d_un.d_val; break;
        case DT_JMPREL: t->jmprel = (const ElfW(Rela) *)dyn_addr(info, dyn->d_un.d_ptr); break;
        case DT_PLTRELSZ: t->pltsz = dyn->d_un.d_val; break;
        case DT_PLTREL: t->plt_rela = dyn->d_un.d_val == DT_RELA; break;
        case DT_GNU_HASH: t->gnu_hash = (const uint32_t *)dyn_addr(info, dyn->d_un.d_ptr); break;
        }
    return t->symtab && t->strtab;
}

static int scan_module(struct dl_phdr_info *info, size_t size, void *data)
{
    int *first = data;
    if (*first && size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs) {
        *first = 0;
        if (info->dlpi_adds == scanned.adds)
            return 1; /* nothing loaded since the last scan */
        if (info->dlpi_subs != scanned.subs)
            scanned.n = 0;
        scanned.adds = info->dlpi_adds;
        scanned.subs = info->dlpi_subs;
    }
    if (scanned_before(info) || holds(info, (uintptr_t)pi_own_pthread_create))
        return 0; /* the runtime's own */
    struct dyn_tables t;
    if (!read_dyn(info, &t))
        return 0;
    if (t.rela)
        scan_relocs(info, t.rela, t.relasz, t.symtab, t.strtab, t.strsz);
    if (t.jmprel && t.plt_rela)
        scan_relocs(info, t.jmprel, t.pltsz, t.symtab, t.strtab, t.strsz);
    return 0;
}

/* NAME's address where the module defines it (a function, any version),
 * by its GNU hash table; NULL if it does not, or has no such table. */
static void *defined_in(const struct dl_phdr_info *info, const char *name)
{
    struct dyn_tables t;
    if (!read_dyn(info, &t) || !t.gnu_hash)
        return NULL;
    uint32_t nbuckets = t.gnu_hash[0], symoffset = t.gnu_hash[1], bloom_size = t.gnu_hash[2];
    if (!nbuckets)
        return NULL;
    const uint32_t *buckets = t.gnu_hash + 4 + bloom_size * (sizeof(ElfW(Addr)) / 4);
    const uint32_t *chain = buckets + nbuckets;
    uint32_t h = 5381;
    for (const unsigned char *c = (const unsigned char *)name; *c; c++)
        h = h * 33 + *c;
    for (uint32_t k = buckets[h % nbuckets]; k >= symoffset; k++) {
        uint32_t h2 = chain[k - symoffset];
        const ElfW(Sym) *sym = &t.symtab[k];
        if ((h | 1) == (h2 | 1) && sym->st_name < t.strsz && !strcmp(t.strtab + sym->st_name, name) &&
            sym->st_shndx != SHN_UNDEF && sym->st_value && ELF64_ST_TYPE(sym->st_info) == STT_FUNC)
            return (void *)(info->dlpi_addr + sym->st_value);
        if (h2 & 1)
            break;
    }
    return NULL;
}

struct def_probe {
    const char *name;
    void *found;
};

static int def_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct def_probe *d = data;
    d->found = defined_in(info, d->name);
    return d->found != NULL;
}

struct order_probe {
    uintptr_t addr;
    int index, at, libc;
};

static int order_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct order_probe *o = data;
    const char *name = info->dlpi_name ? info->dlpi_name : "";
    size_t n = 0;
    while (name[n])
        n++; /* (no strlen, strrchr: a first call through the PLT costs more than the walk) */
    if (o->libc < 0 && n >= 9 && !memcmp(name + n - 9, "libc.so.6", 9) && (n == 9 || name[n - 10] == '/'))
        o->libc = o->index;
    if (o->at < 0 && holds(info, o->addr))
        o->at = o->index;
    o->index++;
    return o->at >= 0 && o->libc >= 0;
}

/* Whether the module holding ADDR comes after libc.so.6 in the load order
 * (the global lookup's, for the modules loaded at start-up; dlopen'ed ones
 * come after them). */
static int loaded_after_libc(uintptr_t addr)
{
    struct order_probe o = {.addr = addr, .at = -1, .libc = -1};
    dl_iterate_phdr(order_cb, &o);
    return o.at >= 0 && o.libc >= 0 && o.at > o.libc;
}

/* Whether the program (the first module) holds the address at data. */
static int program_holds(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    *(uintptr_t *)data = holds(info, *(uintptr_t *)data);
    return 1;
}

/* What the lookup gives a PLT slot of NAME: dlsym's answer F, unless F is
 * the program's own canonical PLT entry (a program not built as PIE that
 * takes the function's address: its dynamic symbol is undefined with a
 * value, which dlsym and GOT entries take, PLT slots not), which would
 * call the runtime again once its slot is redirected.  Then the first
 * module that defines NAME, as a PLT slot's lookup finds it: the program's
 * own definition (a wrapper of its own, exported), else the next module's
 * (no dlopen: the modules' constructors may not have run). */
static void *definition_of(const char *name, void *f)
{
    uintptr_t in_program = (uintptr_t)f;
    if (!f || (dl_iterate_phdr(program_holds, &in_program), !in_program))
        return f;
    struct def_probe d = {.name = name};
    dl_iterate_phdr(def_cb, &d);
    return d.found;
}

/* This module's own dynamic section (the program's, for libperfinst.a
 * linked into it; none in a static program). */
extern ElfW(Dyn) _DYNAMIC[] __attribute__((weak, visibility("hidden")));

static int never_unloaded(void)
{
    for (const ElfW(Dyn) *d = _DYNAMIC; d && d->d_tag != DT_NULL; d++)
        if (d->d_tag == DT_FLAGS_1 && (d->d_un.d_val & DF_1_NODELETE))
            return 1;
    return 0;
}

/* At start-up (pi_init): whether the loaded modules' imports must be
 * redirected, and if so the first scan.  The runtime's module (never the
 * program here: that comes before libc) must stay mapped while slots name
 * its functions: linked -z nodelete, as libperfinst.so is; a copy of
 * libperfinst.a inside another shared library is not redirected from. */
void pi_imports_setup(void)
{
    /* (the name: what the lookup gave this module's GOT at load) */
    void *dflt = (void *)pthread_create;
    if (!dflt || dflt == (void *)pi_own_pthread_create)
        return; /* ours comes first */
    if (!loaded_after_libc((uintptr_t)pi_own_pthread_create))
        return; /* ours is reached through what comes first */
    if (!never_unloaded())
        return;
    for (size_t i = 0; i < NREDIRECTS; i++) {
        void *f = redirects[i].to ? dlsym(RTLD_DEFAULT, redirects[i].name) : NULL;
        f = definition_of(redirects[i].name, f);
        if (f != redirects[i].to)
            __atomic_store_n(&redirects[i].from, f, __ATOMIC_RELEASE);
    }
    __atomic_store_n(&redirecting, 1, __ATOMIC_RELEASE);
    pi_imports_rescan_locked();
}

/* What a redirected import of NAME called before (the lookup's function),
 * or NULL when NAME is not redirected: the runtime's function calls it. */
void *pi_imports_next(const char *name)
{
    if (!__atomic_load_n(&redirecting, __ATOMIC_ACQUIRE))
        return NULL; /* (no strcmp: its first call through the PLT costs ~800 instructions) */
    for (size_t i = 0; i < NREDIRECTS; i++)
        if (!strcmp(redirects[i].name, name))
            return __atomic_load_n(&redirects[i].from, __ATOMIC_ACQUIRE);
    return NULL;
}

/* Modules loaded since the last scan: their imports redirected too (with
 * pi.lock held, from a unit's constructor, or at start-up). */
void pi_imports_rescan_locked(void)
{
    if (!redirecting)
        return;
    int first = 1;
    dl_iterate_phdr(scan_module, &first);
}
