/* piout.c — an output written whole or not at all; a device or a FIFO
 * written in place.  See piout.h. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "piout.h"

/* ---- inputs ----------------------------------------------------------------- */

static struct input {
    dev_t dev;
    ino_t ino;
    char *path;
} *inputs;
static size_t ninputs, cap_inputs;

void pi_input_note(const char *path)
{
    struct stat st;
    if (!path || stat(path, &st) || !S_ISREG(st.st_mode))
        return;
    for (size_t i = 0; i < ninputs; i++)
        if (inputs[i].dev == st.st_dev && inputs[i].ino == st.st_ino)
            return;
    if (ninputs == cap_inputs) {
        size_t cap = cap_inputs ? 2 * cap_inputs : 16;
        struct input *n = realloc(inputs, cap * sizeof *n);
        if (!n)
            return;
        inputs = n;
        cap_inputs = cap;
    }
    char *copy = strdup(path);
    if (!copy)
        return;
    inputs[ninputs++] = (struct input){st.st_dev, st.st_ino, copy};
}

void pi_input_forget(const char *path)
{
    struct stat st;
    if (stat(path, &st))
        return;
    for (size_t i = 0; i < ninputs; i++)
        if (inputs[i].dev == st.st_dev && inputs[i].ino == st.st_ino) {
            free(inputs[i].path);
            inputs[i] = inputs[--ninputs];
            return;
        }
}

int pi_out_check(const char *path, struct pi_err *err)
{
    struct stat st;
    if (stat(path, &st) || !S_ISREG(st.st_mode))
        return 0;
    for (size_t i = 0; i < ninputs; i++)
        if (inputs[i].dev == st.st_dev && inputs[i].ino == st.st_ino)
            return pi_err_set(err, "%s: is the input %s (the same file): refusing to overwrite an "
                              "input", path, inputs[i].path);
    return 0;
}

/* ---- leftovers of killed runs ----------------------------------------------- */

/* Remove dir (an fd for it) and everything under it, never following a
 * symbolic link. */
static void remove_tree_at(int parent, const char *name)
{
    int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) {
        DIR *d = fdopendir(fd);
        if (!d) {
            close(fd);
            return;
        }
        struct dirent *e;
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
                unlinkat(dirfd(d), e->d_name, 0) && errno == EISDIR)
                remove_tree_at(dirfd(d), e->d_name);
        closedir(d);
    }
    unlinkat(parent, name, AT_REMOVEDIR);
}

/* The temporary directories <tag><pid>.XXXXXX in dir whose process is gone
 * (a run killed with SIGKILL leaves its directory behind): removed, when
 * they are ours (same owner), directories (not links), and the pid is no
 * process any more.  A name without a pid (made before this rule) or a
 * pid that is alive is left alone. */
static void remove_stale(const char *dir, const char *tag)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    size_t tl = strlen(tag);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, tag, tl))
            continue;
        char *end;
        errno = 0;
        long pid = strtol(e->d_name + tl, &end, 10);
        if (errno || end == e->d_name + tl || *end != '.' || strlen(end + 1) != 6 || pid <= 0 ||
            pid == (long)getpid())
            continue;
        struct stat st;
        if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISDIR(st.st_mode) ||
            st.st_uid != geteuid())
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue; /* alive (or not ours to signal: alive) */
        remove_tree_at(dirfd(d), e->d_name);
    }
    closedir(d);
}

/* ---- outputs ------------------------------------------------------------------ */

int pi_out_in_place(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode);
}

int pi_out_begin(struct pi_out *o, const char *path, const char *tag, struct pi_err *err)
{
    memset(o, 0, sizeof *o);
    if (pi_out_check(path, err))
        return -1;
    o->in_place = pi_out_in_place(path);
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    char *dir = NULL, *cwd = NULL;
    int n;
    if (o->in_place) {
        const char *t = getenv("TMPDIR");
        n = asprintf(&dir, "%s", t && *t ? t : "/tmp");
    } else if (slash) {
        n = asprintf(&dir, "%.*s", (int)(slash - path + (slash == path)), path);
    } else {
        n = asprintf(&dir, ".");
    }
    if (n < 0)
        dir = NULL;
    if (dir && dir[0] != '/' && !(cwd = getcwd(NULL, 0))) {
        pi_err_set(err, "%s: cannot name the working directory: %s", path, strerror(errno));
        free(dir);
        return -1;
    }
    o->path = strdup(path);
    if (dir)
        remove_stale(dir, tag);
    if (!dir || !o->path || !*base ||
        asprintf(&o->dir, "%s%s%s%s%s%ld.XXXXXX", cwd ? cwd : "", cwd ? "/" : "", dir,
                 dir[strlen(dir) - 1] == '/' ? "" : "/", tag, (long)getpid()) < 0) {
        o->dir = NULL;
        pi_err_set(err, "%s: %s", path, *base ? "out of memory" : "names a directory");
        free(dir), free(cwd);
        pi_out_end(o);
        return -1;
    }
    free(cwd);
    if (!mkdtemp(o->dir)) {
        pi_err_set(err, "%s: cannot make a temporary directory in %s: %s", path, dir,
                   strerror(errno));
        free(dir);
        free(o->dir);
        o->dir = NULL;
        pi_out_end(o);
        return -1;
    }
    free(dir);
    if (asprintf(&o->tmp, "%s/%s", o->dir, base) < 0) {
        o->tmp = NULL;
        pi_err_set(err, "%s: out of memory", path);
        pi_out_end(o);
        return -1;
    }
    return 0;
}

/* o->tmp's bytes into o->path, opened for writing as it is. */
static int copy_in_place(const struct pi_out *o, struct pi_err *err)
{
    int in = open(o->tmp, O_RDONLY | O_CLOEXEC);
    if (in < 0)
        return pi_err_set(err, "%s: cannot read %s: %s", o->path, o->tmp, strerror(errno));
    int out = open(o->path, O_WRONLY | O_CLOEXEC);
    int rc = out < 0 ? -1 : 0, e = errno;
    char buf[65536];
    ssize_t n = 0;
    while (rc == 0 && (n = read(in, buf, sizeof buf)) != 0) {
        if (n < 0) {
            if (errno == EINTR)
                continue;
            rc = -1, e = errno;
            break;
        }
        for (ssize_t done = 0, w; rc == 0 && done < n; done += w)
            if ((w = write(out, buf + done, (size_t)(n - done))) < 0) {
                if (errno == EINTR)
                    w = 0;
                else
                    rc = -1, e = errno;
            }
    }
    close(in);
    if (out >= 0 && close(out) && !rc)
        rc = -1, e = errno;
    if (rc)
        pi_err_set(err, "%s: cannot write the output: %s", o->path, strerror(e));
    return rc;
}

int pi_out_commit(struct pi_out *o, struct pi_err *err)
{
    if (o->in_place)
        return copy_in_place(o, err);
    if (rename(o->tmp, o->path))
        return pi_err_set(err, "%s: cannot rename %s to it: %s", o->path, o->tmp,
                          strerror(errno));
    return 0;
}

void pi_out_remove_tmp(const struct pi_out *o)
{
    if (o->tmp)
        unlink(o->tmp);
    if (o->dir)
        rmdir(o->dir);
}

void pi_out_end(struct pi_out *o)
{
    int e = errno; /* a failed pi_out_begin's errno survives */
    pi_out_remove_tmp(o);
    free(o->path);
    free(o->dir);
    free(o->tmp);
    memset(o, 0, sizeof *o);
    errno = e;
}
