#define _GNU_SOURCE /* (realpath, strdup) */
/* keep.c — the objects of a compile-and-link command, kept.
 *
 *   gcc -O2 $(pkg-config --cflags --libs perfinst) a.c b.c -o prog
 *
 * compiles each source to a temporary object (TMPDIR/ccXXXXXX.o, gcc's
 * make_temp_file) that gcc deletes once the link is done.  pmopt reads the
 * objects a program was linked from — the plan's function order its call
 * graph, the relink its sections — so such a program could be reported on
 * but not planned or relinked.  After a successful link, the stage copies
 * each input that is a gcc temporary to
 *
 *     DIR/.perfinst-objs/BASE.N.o      (DIR/BASE: the output; N from 0)
 *
 * and records the copy in the link recipe instead: `pmopt relink` gives
 * the copy to the linker where the recorded command line named the
 * temporary.  Copies left by an earlier link of the same output with more
 * temporaries are removed.  An output directory that cannot take them
 * (read-only) gets a note and the temporaries stay recorded as they were.
 * An output that is not a regular file (-o /dev/null, a FIFO: piout.h)
 * keeps none: nothing will plan or relink it, and its directory (/dev)
 * is no place for them. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pild.h"
#include "piout.h"

/* Is PATH (absolute, resolved) one of gcc's temporary objects: ccXXXXXX.o
 * in the directory gcc takes them from (TMPDIR, TMP, TEMP, else /tmp or
 * /var/tmp)? */
static int gcc_temporary(const char *path)
{
    const char *base = strrchr(path, '/');
    if (!base)
        return 0;
    base++;
    if (strlen(base) != 10 || strncmp(base, "cc", 2) || strcmp(base + 8, ".o"))
        return 0;
    for (int i = 2; i < 8; i++) {
        char c = base[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
            return 0;
    }
    static const char *const vars[] = {"TMPDIR", "TMP", "TEMP"};
    const char *dirs[5];
    size_t n = 0;
    for (size_t i = 0; i < 3; i++)
        if (getenv(vars[i]) && *getenv(vars[i]))
            dirs[n++] = getenv(vars[i]);
    dirs[n++] = "/tmp";
    dirs[n++] = "/var/tmp";
    size_t dl = (size_t)(base - 1 - path);
    for (size_t i = 0; i < n; i++) {
        char *r = realpath(dirs[i], NULL);
        int same = r && strlen(r) == dl && !strncmp(r, path, dl);
        free(r);
        if (same)
            return 1;
    }
    return 0;
}

/* SRC copied to DST (replaced); 0, or -1 with errno */
static int copy_file(const char *src, const char *dst)
{
    int in = open(src, O_RDONLY | O_CLOEXEC);
    if (in < 0)
        return -1;
    char *tmp = pild_xasprintf("%s.tmp%ld", dst, (long)getpid());
    int out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    int rc = out < 0 ? -1 : 0;
    char buf[65536];
    ssize_t r = 0;
    while (!rc && (r = read(in, buf, sizeof buf)) > 0)
        for (ssize_t w = 0, k; !rc && w < r; w += k)
            if ((k = write(out, buf + w, (size_t)(r - w))) < 0)
                rc = -1;
    if (r < 0)
        rc = -1;
    int e = errno;
    close(in);
    if (out >= 0 && close(out) != 0)
        rc = -1, e = errno;
    if (!rc && rename(tmp, dst) != 0)
        rc = -1, e = errno;
    if (rc)
        unlink(tmp);
    free(tmp);
    errno = e;
    return rc;
}

void pild_keep_temporaries(struct pild_link *l)
{
    /* An output that is a device or a FIFO (`gcc ... x.c -o /dev/null`, the
       link tests of BusyBox's Makefile.flags) leaves nothing to plan or
       relink, and the directory beside it (/dev) is no place for copies */
    if (pi_out_in_place(l->output))
        return;
    const char *slash = strrchr(l->output, '/');
    char *dir = slash ? pild_xasprintf("%.*s/.perfinst-objs", (int)(slash - l->output), l->output)
                      : pild_xstrdup(".perfinst-objs");
    const char *base = slash ? slash + 1 : l->output;
    size_t k = 0;
    for (size_t i = 0; i < l->ninputs; i++) {
        struct pild_input *in = &l->inputs[i];
        if (in->kind != PILD_IN_FILE || !in->path || !gcc_temporary(in->path))
            continue;
        if (!k && mkdir(dir, 0755) != 0 && errno != EEXIST) {
            pild_note("%s: cannot keep the objects gcc compiled for this link in %s (%s): pmopt "
                      "can report on %s but not plan its function order or relink it",
                      l->output, dir, strerror(errno), l->output);
            free(dir);
            return;
        }
        char *dst = pild_xasprintf("%s/%s.%zu.o", dir, base, k++);
        char *abs = NULL;
        if (copy_file(in->path, dst) != 0 || !(abs = realpath(dst, NULL))) {
            pild_note("%s: cannot keep %s as %s (%s): pmopt can report on %s but not plan its "
                      "function order or relink it", l->output, in->path, dst, strerror(errno),
                      l->output);
            free(dst);
            continue;
        }
        if (pild_verbose)
            pild_note("%s: gcc's temporary %s kept as %s", l->output, in->path, abs);
        free(in->path);
        in->path = abs;
        free(dst);
        /* the recipe records the copy's size, mtime and hash (a failure
           says why; the relink then finds the copy stale) */
        (void)pild_stat_and_hash(in);
    }
    /* what an earlier link of this output with more of them left */
    for (;; k++) {
        char *old = pild_xasprintf("%s/%s.%zu.o", dir, base, k);
        int gone = unlink(old) != 0;
        free(old);
        if (gone)
            break;
    }
    rmdir(dir); /* (only when empty) */
    free(dir);
}
