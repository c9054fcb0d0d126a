/* piout.h — an output file written whole or not at all, and never a
 * device or a FIFO replaced by one.
 *
 * Every tool that writes a file (perfinst-ld's program, pmopt's overlays,
 * feedback files, merged traces, relinked programs, hot-spot records) writes
 * it here:
 *
 *     struct pi_out o;
 *     if (pi_out_begin(&o, path, ".pmopt-plan.", &err)) ...   // o.tmp to write
 *     ... write o.tmp (fopen(o.tmp, "wx"), or a linker's -o o.tmp) ...
 *     ... check it ...
 *     rc = pi_out_commit(&o, &err);                           // now path
 *     pi_out_end(&o);                                         // always
 *
 * o.tmp is <dir>/<base name of path> in a fresh directory (mode 0700) that
 * lies beside the output, so that the commit is a rename(2) on one file
 * system: a reader of path sees the old file or the new one, and a failure
 * before the commit leaves the old one as it was.
 *
 * An output that exists and is not a regular file (-o /dev/null, a FIFO, a
 * terminal) is written to instead: a rename would replace the device (one
 * made /dev/null an executable for every process on the machine), and
 * beside it (/dev) is no place for a temporary directory.  The directory
 * is then made in $TMPDIR (else /tmp) and the commit copies o.tmp's bytes
 * into the output, opened for writing (a FIFO's open waits for a reader).
 *
 * The runtime's trace writer (runtime/trace.c) is not a user: it runs in
 * signal handlers (no malloc), never clobbers an existing file (its first
 * write creates a new name with O_EXCL, a character device at
 * PERFINST_OUT excepted, written in place), and renames only over the
 * trace it created itself.
 */
#ifndef PERFINST_PIOUT_H
#define PERFINST_PIOUT_H

#include "piutil.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pi_out {
    char *path;   /* the output, as named */
    char *dir;    /* the temporary directory, an absolute name */
    char *tmp;    /* dir/<base name of path>: what the caller writes */
    int in_place; /* path exists and is not a regular file */
};

/* Inputs.  Every reader of a file a tool takes (traces, programs and their
 * debug information, feedback files, a link's inputs) notes it here, and
 * an output that is one of them — the same file by device and inode: the
 * same name, a second name, a hard or symbolic link — is refused, naming
 * both, as gcc does ("pmopt plan -o prog prog t.pit" replaced the program
 * with a text file).  pi_out_begin checks; writers that do not go through
 * it call pi_out_check before they open their output. */
void pi_input_note(const char *path);
/* An output that updates an input on purpose (pmopt report --record
 * appends to the trace it read): no longer an input for the check. */
void pi_input_forget(const char *path);
/* 0, or -1 with "OUT: is the input IN (the same file): refusing to
 * overwrite an input" when path is a regular file noted as an input. */
int pi_out_check(const char *path, struct pi_err *err);

/* 1 when path exists (following symbolic links) and is not a regular file:
 * such an output is written in place. */
int pi_out_in_place(const char *path);

/* Make o's temporary directory, named <tag><pid>.XXXXXX (tag: the tool's,
 * such as ".perfinst-ld."), beside path or, when pi_out_in_place(path), in
 * $TMPDIR.  The directories of that tag there whose process is gone (a run
 * killed with SIGKILL) and that belong to this user are removed first.  0, or -1 with a message naming path (also when path is an
 * input: pi_out_check). */
int pi_out_begin(struct pi_out *o, const char *path, const char *tag, struct pi_err *err);

/* o.tmp, written and closed by the caller, becomes the output: renamed over
 * it, or its bytes written into it when o.in_place.  0, or -1 with a
 * message naming path (the output is then as it was, for a regular file). */
int pi_out_commit(struct pi_out *o, struct pi_err *err);

/* Remove what is left of the temporary directory (o.tmp unless committed
 * by a rename; the directory itself when empty) and free o.  Idempotent;
 * o may be all zeros. */
void pi_out_end(struct pi_out *o);

/* For a signal handler: unlink o.tmp and rmdir o.dir, nothing else
 * (async-signal-safe; o is left for pi_out_end). */
void pi_out_remove_tmp(const struct pi_out *o);

#ifdef __cplusplus
}
#endif

#endif /* PERFINST_PIOUT_H */
