/* inputs.c — the link's inputs, before the link.
 *
 * For each input of the command line (file operands, -l libraries, -T
 * scripts, the runtime):
 *   - resolve it to an absolute path, -l the way ld searches: the -L
 *     directories in order, each tried for libNAME.so then libNAME.a (only
 *     .a under -static or -Bstatic), -l:FILE for FILE exactly; for the link
 *     driver also gcc's own directories and `gcc -print-file-name`;
 *   - record its size, mtime and pi_hash64 for the recipe;
 *   - read each relocatable object, and each ELF member of an archive, for
 *     what the link stage needs to know before linking:
 *       its .perfinst (pi_meta_read_elf, pi_meta_validate), so that corrupt
 *       or foreign metadata is refused naming the input, not the output; a
 *       unit id defined with different contents by two objects of the
 *       command line is refused too (when an archive member is involved
 *       the member may not be linked at all, so that conflict is only
 *       remembered, to explain a refusal of the output later);
 *       whether it refers to libperfinst (units, or an undefined __perfinst_*
 *       or perfinst_* symbol): only then is the runtime linked; an input
 *       that refers only to __perfinst_line_* (a repaired build's
 *       allocators) gets libperfinst-line.a, those alone;
 *       whether it refers to libstdc++ or the C++ ABI (undefined _Z*,
 *       __cxa_*, __gxx_*): the link driver then links with g++;
 *       whether it is an -flto object compiled with the plugin (its
 *       .gnu.lto_.opts, gcc's options as a string, load it): lto1 must
 *       load the plugin too, and the code it makes may refer to the runtime
 *       (an undefined __perfinst_* in its LTO symbol table says it does);
 *       whether it has perfinst units and executable-only TLS relocations
 *       (R_X86_64_TPOFF32/64: compiled without -fPIC), which no shared
 *       library can hold.
 * An input that cannot be found is left to the linker, which says so.
 */
#define _GNU_SOURCE /* memmem */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pild.h"
#include "piout.h"

/* ---- resolving -l ------------------------------------------------------- */

struct dirlist {
    char **v;
    size_t n;
};

/* The "libraries: =" line of `gcc -print-search-dirs`: what gcc passes to ld
 * as -L after the user's own. */
static void load_gcc_dirs(struct dirlist *d, const char *cc)
{
    char *argv[] = {(char *)cc, "-print-search-dirs", NULL};
    char *out = pild_run_capture(argv);
    if (!out)
        return;
    char *line = strstr(out, "libraries: =");
    if (line) {
        line += strlen("libraries: =");
        line[strcspn(line, "\n")] = '\0';
        char *save = NULL;
        for (char *dir = strtok_r(line, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
            d->v = pild_xrealloc(d->v, (d->n + 1) * sizeof *d->v);
            d->v[d->n++] = pild_xstrdup(dir);
        }
    }
    free(out);
}

static int is_regular(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static char *find_in(char **dirs, size_t n, const char *const *names, size_t nnames)
{
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < nnames; k++) {
            char *p = pild_xasprintf("%s/%s", dirs[i], names[k]);
            if (is_regular(p))
                return p;
            free(p);
        }
    return NULL;
}

char *pild_resolve_lib(const struct pild_input *in, char **dirs, size_t ndirs, const char *cc)
{
    char *so = pild_xasprintf("lib%s.so", in->name), *a = pild_xasprintf("lib%s.a", in->name);
    const char *names[2];
    size_t nnames = 0;
    if (in->name[0] == ':')
        names[nnames++] = in->name + 1;
    else {
        if (!in->want_static)
            names[nnames++] = so;
        names[nnames++] = a;
    }
    char *found = find_in(dirs, ndirs, names, nnames);
    if (!found && cc) {
        struct dirlist gccdirs = {0};
        load_gcc_dirs(&gccdirs, cc);
        found = find_in(gccdirs.v, gccdirs.n, names, nnames);
        for (size_t i = 0; i < gccdirs.n; i++)
            free(gccdirs.v[i]);
        free(gccdirs.v);
    }
    for (size_t k = 0; !found && cc && k < nnames; k++) {
        char *arg = pild_xasprintf("-print-file-name=%s", names[k]);
        char *out = pild_gcc_print(cc, arg);
        if (out && out[0] == '/' && is_regular(out))
            found = out;
        else
            free(out);
        free(arg);
    }
    free(so), free(a);
    char *real = found ? realpath(found, NULL) : NULL;
    free(found);
    return real;
}

/* ---- size, mtime, hash --------------------------------------------------- */

int pild_stat_and_hash(struct pild_input *in)
{
    int fd = open(in->path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        pild_err("%s: %s", in->path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    pi_input_note(in->path);
    in->size = (uint64_t)st.st_size;
    in->mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
    in->hash = PI_HASH64_INIT;
    if (st.st_size > 0) {
        void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            pild_err("%s: mmap: %s", in->path, strerror(errno));
            close(fd);
            return -1;
        }
        in->hash = pi_hash64(PI_HASH64_INIT, p, (size_t)st.st_size);
        munmap(p, (size_t)st.st_size);
    }
    close(fd);
    return 0;
}

/* ---- what an object says ------------------------------------------------------ */

static uint64_t unit_content_hash(const struct pi_unit_view *u)
{
    uint64_t h = pi_hash64(PI_HASH64_INIT, &u->hdr, sizeof u->hdr);
    h = pi_hash64(h, u->funcs, u->hdr.nfuncs * sizeof *u->funcs);
    h = pi_hash64(h, u->sites, u->hdr.nsites * sizeof *u->sites);
    h = pi_hash64(h, u->succs, u->hdr.nsuccs * sizeof *u->succs);
    h = pi_hash64(h, u->arcs, u->hdr.narcs * sizeof *u->arcs);
    h = pi_hash64(h, u->lines, u->hdr.nlines * sizeof *u->lines);
    return pi_hash64(h, u->strtab, u->hdr.strtab_size);
}

static void first(char **slot, const char *where)
{
    if (!*slot)
        *slot = pild_xstrdup(where);
}

static int refers_to_runtime(const char *name)
{
    return !strncmp(name, "__perfinst_", 11) || !strncmp(name, "perfinst_", 9);
}

/* The allocators of a repaired build (align-alloc), which libperfinst-line.a
 * has without the rest of the runtime. */
static int refers_to_line_alloc(const char *name)
{
    return !strncmp(name, "__perfinst_line_", 16);
}

static int refers_to_cplusplus(const char *name)
{
    return !strncmp(name, "_Z", 2) || !strncmp(name, "__cxa_", 6) || !strncmp(name, "__gxx_", 6);
}

int pild_options_load_plugin(const char *opts, size_t len)
{
    static const char key[] = "'-fplugin=";
    const char *p = opts, *end = opts + len;
    while (p && (p = memmem(p, (size_t)(end - p), key, sizeof key - 1)) != NULL) {
        const char *v = p + sizeof key - 1, *q = memchr(v, '\'', (size_t)(end - v));
        const char *base = v;
        for (const char *c = v; q && c < q; c++)
            if (*c == '/')
                base = c + 1;
        if (q && (size_t)(q - base) >= 8 && !strncmp(base, "perfinst", 8))
            return 1;
        p = v;
    }
    return 0;
}

/* An LTO symbol table (strings among binary fields): the names we look for. */
static void scan_lto_symtab(const Elf_Data *d, const char *where, struct pild_facts *f)
{
    static const char *const cxx[] = {"__gxx_personality", "__cxa_", "_ZSt", "_ZNSt", "_ZNKSt",
                                      "_Znwm", "_Znam", "_ZdlPv", "_ZdaPv"};
    if (!d || !d->d_buf)
        return;
    if (memmem(d->d_buf, d->d_size, "__perfinst_", 11))
        first(&f->uses_runtime, where);
    for (size_t i = 0; i < sizeof cxx / sizeof cxx[0]; i++)
        if (memmem(d->d_buf, d->d_size, cxx[i], strlen(cxx[i])))
            first(&f->cplusplus, where);
}

/* Relocations only the executable itself can have (local-exec TLS). */
static int has_exec_tls(Elf *e, size_t shnum)
{
    for (size_t i = 1; i < shnum; i++) {
        Elf_Scn *scn = elf_getscn(e, i);
        GElf_Shdr sh;
        if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || !sh.sh_entsize)
            continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        size_t n = d ? d->d_size / sh.sh_entsize : 0;
        for (size_t k = 0; k < n; k++) {
            GElf_Rela r;
            if (gelf_getrela(d, (int)k, &r) && (GELF_R_TYPE(r.r_info) == R_X86_64_TPOFF32 ||
                                                GELF_R_TYPE(r.r_info) == R_X86_64_TPOFF64))
                return 1;
        }
    }
    return 0;
}

/* One relocatable object (elf is an open object or archive member). */
static int scan_object(Elf *e, const char *where, int member, int check, struct pild_facts *f)
{
    size_t nunits = 0;
    if (check) {
        struct pi_meta m;
        struct pi_err err;
        if (pi_meta_read_elf(where, e, &m, &err) != 0 || pi_meta_validate(&m, &err) != 0) {
            pild_err("refusing input %s", err.msg); /* err.msg starts with where */
            pi_meta_free(&m);
            return -1;
        }
        nunits = m.nunits;
        for (size_t i = 0; i < m.nunits; i++) {
            if (f->nunits == f->cap) {
                f->cap = f->cap ? 2 * f->cap : 16;
                f->units = pild_xrealloc(f->units, f->cap * sizeof *f->units);
            }
            f->units[f->nunits++] = (struct pild_unit_seen){
                .unit_id = m.units[i].hdr.unit_id,
                .content = unit_content_hash(&m.units[i]),
                .where = pild_xstrdup(where),
                .always_linked = !member,
            };
        }
        pi_meta_free(&m);
        if (nunits)
            first(&f->uses_runtime, where);
    }

    size_t shnum, shstr;
    if (elf_getshdrnum(e, &shnum) != 0 || elf_getshdrstrndx(e, &shstr) != 0) {
        pild_err("%s: %s", where, elf_errmsg(-1));
        return -1;
    }
    for (size_t i = 1; i < shnum; i++) {
        Elf_Scn *scn = elf_getscn(e, i);
        GElf_Shdr sh;
        if (!scn || !gelf_getshdr(scn, &sh))
            continue;
        if (sh.sh_type == SHT_SYMTAB && sh.sh_entsize) {
            Elf_Data *d = elf_getdata(scn, NULL);
            size_t n = d ? d->d_size / sh.sh_entsize : 0;
            for (size_t k = 1; k < n; k++) {
                GElf_Sym sym;
                if (!gelf_getsym(d, (int)k, &sym) || sym.st_shndx != SHN_UNDEF)
                    continue;
                const char *name = elf_strptr(e, sh.sh_link, sym.st_name);
                if (!name)
                    continue;
                if (refers_to_line_alloc(name))
                    first(&f->uses_line_alloc, where);
                else if (refers_to_runtime(name))
                    first(&f->uses_runtime, where);
                else if (refers_to_cplusplus(name))
                    first(&f->cplusplus, where);
            }
        } else if (sh.sh_type == SHT_PROGBITS) {
            const char *name = elf_strptr(e, shstr, sh.sh_name);
            Elf_Data *d;
            if (name && !strncmp(name, ".gnu.lto_.symtab", 16))
                scan_lto_symtab(elf_getdata(scn, NULL), where, f);
            else if (name && !strcmp(name, ".gnu.lto_.opts") && (d = elf_getdata(scn, NULL)) &&
                     d->d_buf && pild_options_load_plugin(d->d_buf, d->d_size)) {
                first(&f->lto_perfinst, where); /* compiled with the plugin */
                if (!memmem(d->d_buf, d->d_size, "'-fplugin-arg-perfinst-feedback=", 32) ||
                    memmem(d->d_buf, d->d_size, "'-fplugin-arg-perfinst-all=", 27) ||
                    memmem(d->d_buf, d->d_size, "'-fplugin-arg-perfinst-sharing", 30))
                    first(&f->lto_instrumented, where);
            }
            else if (name && !strncmp(name, ".text.sorted.", 13))
                pild_sorted_sec_add(f, name, sh.sh_addralign);
            else if (name && !strcmp(name, ".perfinst.falign") && (d = elf_getdata(scn, NULL)) && d->d_buf) {
                /* order-align=bolt: "TO:MAX" (gcc-plugin/pass-feedback.cc) */
                char buf[32];
                unsigned to = 0, max = 0;
                size_t n = d->d_size < sizeof buf - 1 ? d->d_size : sizeof buf - 1;
                memcpy(buf, d->d_buf, n);
                buf[n] = '\0';
                if (sscanf(buf, "%u:%u", &to, &max) != 2 || to < 2 || to > 4096 || (to & (to - 1)) ||
                    max >= to) {
                    pild_err("%s: section .perfinst.falign holds '%s', not TO:MAX (a power of two "
                             "and the most padding before a function)", where, buf);
                    return -1;
                }
                if (f->falign && (to != f->falign_to || max != f->falign_max)) {
                    pild_err("%s: its ordered functions ask for alignment %u:%u, %s's for %u:%u",
                             where, to, max, f->falign, f->falign_to, f->falign_max);
                    return -1;
                }
                first(&f->falign, where);
                f->falign_to = to, f->falign_max = max;
            }
        }
    }
    if (nunits && f->want_tls && has_exec_tls(e, shnum))
        first(member ? &f->tls_exec_member : &f->tls_exec, where);
    return 0;
}

static int is_object(Elf *e, const char *where, int *yes)
{
    GElf_Ehdr eh;
    if (!gelf_getehdr(e, &eh)) {
        pild_err("%s: gelf_getehdr: %s", where, elf_errmsg(-1));
        return -1;
    }
    *yes = eh.e_type == ET_REL; /* shared libraries' .perfinst is not linked in */
    return 0;
}

/* A shared library with perfinst units (.perfinst) but no link recipe
 * (.perfinst.link): its link did not run the link stage, which always adds
 * the recipe (libtool before 2.4.7 keeps -specs= out of a shared library's
 * link: its units count, but pmopt plan --order and relink cannot use it,
 * and a program linked without perfinst finds its counters' symbols
 * undefined). */
static int unstaged_shlib(Elf *e)
{
    GElf_Ehdr eh;
    size_t shstrndx;
    if (!gelf_getehdr(e, &eh) || eh.e_type != ET_DYN || elf_getshdrstrndx(e, &shstrndx) != 0)
        return 0;
    int meta = 0, link = 0;
    for (Elf_Scn *scn = elf_nextscn(e, NULL); scn; scn = elf_nextscn(e, scn)) {
        GElf_Shdr sh;
        const char *name;
        if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(e, shstrndx, sh.sh_name)))
            continue;
        meta |= !strcmp(name, PI_SECTION_META);
        link |= !strcmp(name, PI_SECTION_LINK);
    }
    return meta && !link;
}

static int scan_archive(int fd, Elf *ar, const char *shown, int check, struct pild_facts *f)
{
    Elf_Cmd cmd = ELF_C_READ_MMAP;
    Elf *e;
    int rc = 0;
    while (rc == 0 && (e = elf_begin(fd, cmd, ar)) != NULL) {
        Elf_Arhdr *ah = elf_getarhdr(e);
        if (!ah) {
            pild_err("%s: elf_getarhdr: %s", shown, elf_errmsg(-1));
            rc = -1;
        } else if (ah->ar_name[0] != '/' && elf_kind(e) == ELF_K_ELF) {
            char *where = pild_xasprintf("%s(%s)", shown, ah->ar_name);
            int obj = 0;
            rc = is_object(e, where, &obj);
            if (rc == 0 && obj)
                rc = scan_object(e, where, 1, check, f);
            free(where);
        }
        cmd = elf_next(e);
        elf_end(e);
    }
    return rc;
}

int pild_scan_file(const char *path, const char *shown, int check, struct pild_facts *f)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        pild_err("%s: %s", shown, strerror(errno));
        return -1;
    }
    int rc = 0;
    Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    if (!e) {
        pild_err("%s: elf_begin: %s", shown, elf_errmsg(-1));
        rc = -1;
    } else if (elf_kind(e) == ELF_K_AR) {
        rc = scan_archive(fd, e, shown, check, f);
    } else if (elf_kind(e) == ELF_K_ELF) {
        int obj = 0;
        rc = is_object(e, shown, &obj);
        if (rc == 0 && obj)
            rc = scan_object(e, shown, 0, check, f);
        else if (rc == 0 && check && unstaged_shlib(e)) {
            first(&f->unstaged, shown);
            /* it needs the runtime but does not name it (no DT_NEEDED): the
               program links it for the library */
            first(&f->uses_runtime, shown);
        }
    } /* linker scripts, sources and other files: nothing to read */
    if (e)
        elf_end(e);
    close(fd);
    return rc;
}

/* ---- units defined twice ------------------------------------------------------ */

static int by_unit(const void *a, const void *b)
{
    const struct pild_unit_seen *x = a, *y = b;
    return x->unit_id < y->unit_id ? -1 : x->unit_id > y->unit_id;
}

/* Unit ids defined with different contents by two inputs. */
static int conflicts(const struct pild_facts *f, int report_all)
{
    int bad = 0;
    for (size_t i = 0; i < f->nunits; i++)
        for (size_t k = i + 1; k < f->nunits && f->units[k].unit_id == f->units[i].unit_id; k++) {
            const struct pild_unit_seen *x = &f->units[i], *y = &f->units[k];
            if (x->content == y->content)
                continue;
            if (report_all)
                pild_note("unit 0x%016llx is defined differently by %s and by %s",
                          (unsigned long long)x->unit_id, x->where, y->where);
            else if (x->always_linked && y->always_linked) {
                pild_err("refusing inputs %s and %s: both define unit 0x%016llx, "
                         "with different contents",
                         x->where, y->where, (unsigned long long)x->unit_id);
                bad = 1;
            }
        }
    return bad ? -1 : 0;
}

int pild_facts_conflicts(struct pild_facts *f)
{
    if (f->nunits)
        qsort(f->units, f->nunits, sizeof *f->units, by_unit);
    return conflicts(f, 0);
}

void pild_facts_explain(const struct pild_facts *f)
{
    conflicts(f, 1);
}

void pild_facts_free(struct pild_facts *f)
{
    for (size_t i = 0; i < f->nunits; i++)
        free(f->units[i].where);
    free(f->units);
    free(f->uses_runtime), free(f->uses_line_alloc), free(f->cplusplus), free(f->lto_perfinst), free(f->lto_instrumented);
    free(f->tls_exec), free(f->tls_exec_member), free(f->falign), free(f->unstaged);
    for (size_t i = 0; i < f->nsorted; i++)
        free(f->sorted[i].name);
    free(f->sorted);
    memset(f, 0, sizeof *f);
}
