/* inputs.c — the link's inputs, before the link.
 *
 * For each input of the command line (file operands, -l libraries, -T
 * scripts and the runtime perfinst-ld adds):
 *   - resolve it to an absolute path, -l the way ld searches: the -L
 *     directories in order, then gcc's own library directories, each
 *     directory tried for libNAME.so then libNAME.a (only .a under -static or
 *     -Wl,-Bstatic), -l:FILE for FILE exactly; last `gcc -print-file-name`;
 *   - record its size, mtime and pi_hash64 for the recipe;
 *   - read and validate the .perfinst of a relocatable object or of each
 *     ELF member of an archive (pi_meta_read_elf, pi_meta_validate), so
 *     that corrupt or foreign metadata is refused naming the input, not the
 *     output.  A unit id defined with different contents by two objects of
 *     the command line is refused too; when an archive member is involved
 *     the member may not be linked at all, so that conflict is only
 *     remembered, to explain a refusal of the output later.
 * An input that cannot be found is left to gcc, which says so.
 */
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
#include <sys/wait.h>
#include <unistd.h>

#include "pild.h"
#include "piout.h"

/* ---- resolving -l ------------------------------------------------------- */

/* stdout of argv (NULL if it could not run or failed), at most 64 KiB. */
static char *run_capture(char *const argv[])
{
    int p[2];
    if (pipe(p) != 0)
        return NULL;
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]), close(p[1]);
        return NULL;
    }
    if (pid == 0) {
        dup2(p[1], 1);
        close(p[0]), close(p[1]);
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0)
            dup2(devnull, 2);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(p[1]);
    size_t cap = 65536, len = 0;
    char *out = pild_xmalloc(cap + 1);
    ssize_t r;
    while ((r = read(p[0], out + len, cap - len)) > 0 || (r < 0 && errno == EINTR))
        if (r > 0)
            len += (size_t)r;
    close(p[0]);
    out[len] = '\0';
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        free(out);
        return NULL;
    }
    return out;
}

struct dirlist {
    char **v;
    size_t n;
    int loaded;
};

/* The "libraries: =" line of `gcc -print-search-dirs`: what gcc passes to ld
 * as -L after the user's own. */
static void load_gcc_dirs(struct dirlist *d, const char *cc)
{
    if (d->loaded)
        return;
    d->loaded = 1;
    char *argv[] = {(char *)cc, "-print-search-dirs", NULL};
    char *out = run_capture(argv);
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

static char *resolve_lib(const struct pild_cmd *c, const struct pild_input *in, const char *cc,
                         struct dirlist *gccdirs)
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
    char *found = find_in(c->libdirs, c->nlibdirs, names, nnames);
    if (!found) {
        load_gcc_dirs(gccdirs, cc);
        found = find_in(gccdirs->v, gccdirs->n, names, nnames);
    }
    for (size_t k = 0; !found && k < nnames; k++) {
        char *arg = pild_xasprintf("-print-file-name=%s", names[k]);
        char *argv[] = {(char *)cc, arg, NULL};
        char *out = run_capture(argv);
        if (out) {
            out[strcspn(out, "\n")] = '\0';
            if (out[0] == '/' && is_regular(out))
                found = pild_xstrdup(out);
            free(out);
        }
        free(arg);
    }
    free(so), free(a);
    char *real = found ? realpath(found, NULL) : NULL;
    free(found);
    return real;
}

/* ---- size, mtime, hash --------------------------------------------------- */

static int stat_and_hash(struct pild_input *in)
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

/* ---- the metadata of objects and archive members -------------------------- */

static uint64_t unit_content_hash(const struct pi_unit_view *u)
{
    uint64_t h = pi_hash64(PI_HASH64_INIT, &u->hdr, sizeof u->hdr);
    h = pi_hash64(h, u->funcs, u->hdr.nfuncs * sizeof *u->funcs);
    h = pi_hash64(h, u->sites, u->hdr.nsites * sizeof *u->sites);
    h = pi_hash64(h, u->succs, u->hdr.nsuccs * sizeof *u->succs);
    return pi_hash64(h, u->strtab, u->hdr.strtab_size);
}

/* Read and cross-check one relocatable object's metadata (elf is an open
 * object or archive member); remember its units. */
static int check_object(Elf *elf, const char *where, int always_linked, struct pild_seen *seen)
{
    struct pi_meta m;
    struct pi_err err;
    if (pi_meta_read_elf(where, elf, &m, &err) != 0 || pi_meta_validate(&m, &err) != 0) {
        pild_err("refusing input %s", err.msg); /* err.msg starts with where */
        pi_meta_free(&m);
        return -1;
    }
    for (size_t i = 0; i < m.nunits; i++) {
        if (seen->n == seen->cap) {
            seen->cap = seen->cap ? 2 * seen->cap : 16;
            seen->v = pild_xrealloc(seen->v, seen->cap * sizeof *seen->v);
        }
        seen->v[seen->n++] = (struct pild_unit_seen){
            .unit_id = m.units[i].hdr.unit_id,
            .content = unit_content_hash(&m.units[i]),
            .where = pild_xstrdup(where),
            .always_linked = always_linked,
        };
    }
    pi_meta_free(&m);
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

static int check_archive(int fd, Elf *ar, const char *shown, struct pild_seen *seen)
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
                rc = check_object(e, where, 0, seen);
            free(where);
        }
        cmd = elf_next(e);
        elf_end(e);
    }
    return rc;
}

static int check_input(const char *path, const char *shown, struct pild_seen *seen)
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
        rc = check_archive(fd, e, shown, seen);
    } else if (elf_kind(e) == ELF_K_ELF) {
        int obj = 0;
        rc = is_object(e, shown, &obj);
        if (rc == 0 && obj)
            rc = check_object(e, shown, 1, seen);
    } /* linker scripts and other files: nothing to check */
    if (e)
        elf_end(e);
    close(fd);
    return rc;
}

static int by_unit(const void *a, const void *b)
{
    const struct pild_unit_seen *x = a, *y = b;
    return x->unit_id < y->unit_id ? -1 : x->unit_id > y->unit_id;
}

/* Unit ids defined with different contents by two inputs. */
static int conflicts(const struct pild_seen *seen, int report_all)
{
    int bad = 0;
    for (size_t i = 0; i < seen->n; i++)
        for (size_t k = i + 1; k < seen->n && seen->v[k].unit_id == seen->v[i].unit_id; k++) {
            const struct pild_unit_seen *x = &seen->v[i], *y = &seen->v[k];
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

void pild_inputs_explain(const struct pild_seen *seen)
{
    conflicts(seen, 1);
}

int pild_inputs_scan(struct pild_cmd *c, const struct pild_opts *o, struct pild_seen *seen)
{
    struct dirlist gccdirs = {0};
    int rc = 0;
    for (size_t i = 0; i < c->ninputs && rc == 0; i++) {
        struct pild_input *in = &c->inputs[i];
        in->path = in->kind == PILD_IN_LIB ? resolve_lib(c, in, o->cc, &gccdirs)
                                           : realpath(in->name, NULL);
        if (!in->path) {
            if (pild_verbose)
                pild_note("input %s%s not found; leaving it to gcc",
                          in->kind == PILD_IN_LIB ? "-l" : "", in->name);
            continue;
        }
        if (pild_verbose)
            pild_note("input %s%s: %s", in->kind == PILD_IN_LIB ? "-l" : "", in->name,
                      in->path);
        rc = stat_and_hash(in);
        if (rc == 0 && in->kind != PILD_IN_SCRIPT)
            rc = check_input(in->path, in->kind == PILD_IN_LIB ? in->path : in->name, seen);
    }
    for (size_t i = 0; i < gccdirs.n; i++)
        free(gccdirs.v[i]);
    free(gccdirs.v);
    if (rc != 0)
        return rc;
    if (seen->n)
        qsort(seen->v, seen->n, sizeof *seen->v, by_unit);
    return conflicts(seen, 0);
}
