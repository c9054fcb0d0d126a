/* bench/projects/libgit2/drive.c — the workload program of
 * bench/projects/libgit2.sh, linked to libgit2.so:
 *
 *   gitdrive train DIR COMMITS FILES   init DIR, COMMITS commits, each
 *       changing some of FILES files (blobs and the index written by
 *       libgit2, fixed signatures: the same ids every run), a branch and
 *       a tag every 50 commits; then the history walked (revwalk by time
 *       and topology), each commit's tree read entry by entry, merge bases
 *       of the branches, rev-parse of tags and ancestors
 *   gitdrive test DIR                  DIR, a repository with a work tree
 *       (made by git fast-import and checked out): status of the work
 *       tree, diffs of consecutive commits (patch text hashed, stats), the
 *       work tree against HEAD, and blame of the files with most history
 *
 * Prints counts and FNV hashes only: deterministic. */
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

static void check(int err, const char *what)
{
    if (err < 0) {
        const git_error *e = git_error_last();
        fprintf(stderr, "gitdrive: %s: %s\n", what, e && e->message ? e->message : "?");
        exit(1);
    }
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *c = p;
    while (n--) h = (h ^ *c++) * 1099511628211ULL;
    return h;
}

static uint32_t rng = 1;
static uint32_t rnd(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }

static const char *words[] = { "alpha", "beta", "gamma", "delta", "struct", "return", "while", "if",
    "buffer", "index", "commit", "tree", "blob", "object", "refs", "pack", "static", "int", "char", "void" };

/* the text of a file: LINES lines of words */
static size_t make_text(char *buf, size_t cap, int lines)
{
    size_t n = 0;
    for (int l = 0; l < lines && n + 200 < cap; l++) {
        int w = 3 + rnd() % 8;
        for (int i = 0; i < w; i++)
            n += snprintf(buf + n, cap - n, "%s%s", i ? " " : "", words[rnd() % 20]);
        buf[n++] = '\n';
    }
    return n;
}

static int train(const char *dir, int commits, int files)
{
    git_repository *repo;
    git_index *index;
    git_signature *sig;
    git_oid tree_id, commit_id, parent_id;
    size_t cap = 1 << 16;
    char *buf = malloc(cap), path[256], name[64];
    uint64_t h = 1469598103934665603ULL;
    int have_parent = 0;

    check(git_repository_init(&repo, dir, 0), "init");
    check(git_repository_index(&index, repo), "index");
    for (int c = 0; c < commits; c++) {
        int changes = c == 0 ? files : 1 + rnd() % 8;
        for (int k = 0; k < changes; k++) {
            int f = c == 0 ? k : (int)(rnd() % files);
            git_index_entry e;
            memset(&e, 0, sizeof e);
            snprintf(path, sizeof path, "src/d%02d/file%04d.c", f % 16, f);
            e.path = path;
            e.mode = GIT_FILEMODE_BLOB;
            size_t n = make_text(buf, cap, 20 + rnd() % 60);
            check(git_index_add_from_buffer(index, &e, buf, n), "add");
        }
        check(git_index_write_tree(&tree_id, index), "write tree");
        git_tree *tree;
        check(git_tree_lookup(&tree, repo, &tree_id), "tree");
        check(git_signature_new(&sig, "A U Thor", "author@example.com", 1600000000 + (git_time_t)c * 60, 0), "sig");
        snprintf(name, sizeof name, "commit %d: change %d files", c, changes);
        git_commit *parent = NULL;
        if (have_parent) check(git_commit_lookup(&parent, repo, &parent_id), "parent");
        const git_commit *parents[1] = { parent };
        check(git_commit_create(&commit_id, repo, "HEAD", sig, sig, NULL, name, tree, have_parent, parents), "commit");
        if (c % 50 == 49) {
            git_object *obj;
            git_reference *ref;
            git_oid tag_id;
            check(git_object_lookup(&obj, repo, &commit_id, GIT_OBJECT_COMMIT), "lookup");
            snprintf(name, sizeof name, "v%d", c / 50);
            check(git_tag_create(&tag_id, repo, name, obj, sig, "a release", 0), "tag");
            snprintf(name, sizeof name, "branch%d", c / 50);
            check(git_branch_create(&ref, repo, name, (git_commit *)obj, 0), "branch");
            git_reference_free(ref);
            git_object_free(obj);
        }
        git_commit_free(parent);
        git_tree_free(tree);
        git_signature_free(sig);
        parent_id = commit_id;
        have_parent = 1;
    }
    check(git_index_write(index), "index write");
    printf("head %s\n", git_oid_tostr_s(&commit_id));

    /* the history: by time, then topologically, each tree's entries read */
    for (int pass = 0; pass < 2; pass++) {
        git_revwalk *walk;
        git_oid id;
        int n = 0;
        size_t entries = 0;
        check(git_revwalk_new(&walk, repo), "revwalk");
        git_revwalk_sorting(walk, pass ? GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE : GIT_SORT_TIME);
        check(git_revwalk_push_head(walk), "push");
        while (git_revwalk_next(&id, walk) == 0) {
            git_commit *commit;
            git_tree *tree;
            check(git_commit_lookup(&commit, repo, &id), "commit");
            const char *msg = git_commit_message(commit);
            h = fnv(h, msg, strlen(msg));
            h = fnv(h, git_commit_author(commit)->name, 8);
            check(git_commit_tree(&tree, commit), "tree");
            for (size_t i = 0; i < git_tree_entrycount(tree); i++) {
                const git_tree_entry *te = git_tree_entry_byindex(tree, i);
                git_tree *sub;
                if (git_tree_entry_type(te) != GIT_OBJECT_TREE) continue;
                check(git_tree_lookup(&sub, repo, git_tree_entry_id(te)), "subtree");
                for (size_t j = 0; j < git_tree_entrycount(sub); j++) {
                    const git_tree_entry *se = git_tree_entry_byindex(sub, j);
                    git_tree *leaf;
                    if (git_tree_entry_type(se) != GIT_OBJECT_TREE) continue;
                    check(git_tree_lookup(&leaf, repo, git_tree_entry_id(se)), "leaf");
                    entries += git_tree_entrycount(leaf);
                    h = fnv(h, git_tree_entry_id(git_tree_entry_byindex(leaf, 0))->id, GIT_OID_RAWSZ);
                    git_tree_free(leaf);
                }
                git_tree_free(sub);
            }
            git_tree_free(tree);
            git_commit_free(commit);
            n++;
        }
        git_revwalk_free(walk);
        printf("walk %d: %d commits, %zu entries\n", pass, n, entries);
    }

    /* rev-parse and merge bases */
    for (int t = 0; t < commits / 50; t++) {
        git_object *obj;
        git_oid base;
        char spec[64];
        snprintf(spec, sizeof spec, "v%d^{commit}~%d", t, t % 7);
        check(git_revparse_single(&obj, repo, spec), "revparse");
        check(git_merge_base(&base, repo, git_object_id(obj), &commit_id), "merge base");
        h = fnv(h, base.id, GIT_OID_RAWSZ);
        git_object_free(obj);
    }
    git_strarray tags;
    check(git_tag_list(&tags, repo), "tags");
    printf("tags %zu\n", tags.count);
    git_strarray_dispose(&tags);
    printf("hash %016llx\n", (unsigned long long)h);
    git_index_free(index);
    git_repository_free(repo);
    free(buf);
    return 0;
}

struct diffsum { uint64_t h; size_t lines; };

static int diff_line(const git_diff_delta *d, const git_diff_hunk *hk, const git_diff_line *l, void *p)
{
    struct diffsum *s = p;
    (void)d; (void)hk;
    s->h = fnv(s->h, &l->origin, 1);
    s->h = fnv(s->h, l->content, l->content_len);
    s->lines++;
    return 0;
}

struct hist { char path[256]; int n; };

static int test(const char *dir)
{
    git_repository *repo;
    git_revwalk *walk;
    git_oid id, prev;
    int have_prev = 0, ncommits = 0;
    struct diffsum ds = { 1469598103934665603ULL, 0 };
    struct hist *hist = NULL;
    size_t nhist = 0;

    check(git_repository_open(&repo, dir), "open");

    /* status of the work tree */
    git_status_options so = GIT_STATUS_OPTIONS_INIT;
    git_status_list *sl;
    so.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED | GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS | GIT_STATUS_OPT_RENAMES_HEAD_TO_INDEX;
    for (int r = 0; r < 2; r++) {
        check(git_status_list_new(&sl, repo, &so), "status");
        size_t n = git_status_list_entrycount(sl), mod = 0, newf = 0;
        for (size_t i = 0; i < n; i++) {
            const git_status_entry *e = git_status_byindex(sl, i);
            if (e->status & GIT_STATUS_WT_MODIFIED) mod++;
            if (e->status & GIT_STATUS_WT_NEW) newf++;
        }
        printf("status: %zu entries, %zu modified, %zu new\n", n, mod, newf);
        git_status_list_free(sl);
    }

    /* diffs of consecutive commits, oldest first */
    check(git_revwalk_new(&walk, repo), "revwalk");
    git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
    check(git_revwalk_push_head(walk), "push");
    size_t files = 0, ins = 0, del = 0;
    while (git_revwalk_next(&id, walk) == 0) {
        if (have_prev) {
            git_commit *a, *b;
            git_tree *ta, *tb;
            git_diff *diff;
            git_diff_stats *st;
            git_diff_options dopt = GIT_DIFF_OPTIONS_INIT;
            dopt.context_lines = 3;
            check(git_commit_lookup(&a, repo, &prev), "a");
            check(git_commit_lookup(&b, repo, &id), "b");
            check(git_commit_tree(&ta, a), "ta");
            check(git_commit_tree(&tb, b), "tb");
            check(git_diff_tree_to_tree(&diff, repo, ta, tb, &dopt), "diff");
            check(git_diff_print(diff, GIT_DIFF_FORMAT_PATCH, diff_line, &ds), "print");
            check(git_diff_get_stats(&st, diff), "stats");
            files += git_diff_stats_files_changed(st);
            ins += git_diff_stats_insertions(st);
            del += git_diff_stats_deletions(st);
            for (size_t i = 0; i < git_diff_num_deltas(diff); i++) {
                const char *p = git_diff_get_delta(diff, i)->new_file.path;
                size_t j;
                for (j = 0; j < nhist && strcmp(hist[j].path, p); j++)
                    ;
                if (j == nhist) {
                    hist = realloc(hist, ++nhist * sizeof *hist);
                    snprintf(hist[j].path, sizeof hist[j].path, "%s", p);
                    hist[j].n = 0;
                }
                hist[j].n++;
            }
            git_diff_stats_free(st);
            git_diff_free(diff);
            git_tree_free(ta); git_tree_free(tb);
            git_commit_free(a); git_commit_free(b);
        }
        prev = id;
        have_prev = 1;
        ncommits++;
    }
    git_revwalk_free(walk);
    printf("diffs: %d commits, %zu files, +%zu -%zu, %zu lines, hash %016llx\n", ncommits, files, ins, del,
           ds.lines, (unsigned long long)ds.h);

    /* the work tree against HEAD, with the index */
    {
        git_object *head;
        git_tree *ht;
        git_diff *diff;
        git_diff_options dopt = GIT_DIFF_OPTIONS_INIT;
        struct diffsum wd = { 1469598103934665603ULL, 0 };
        dopt.flags = GIT_DIFF_INCLUDE_UNTRACKED | GIT_DIFF_SHOW_UNTRACKED_CONTENT;
        check(git_revparse_single(&head, repo, "HEAD^{tree}"), "head");
        ht = (git_tree *)head;
        check(git_diff_tree_to_workdir_with_index(&diff, repo, ht, &dopt), "diff wd");
        git_diff_find_options fo = GIT_DIFF_FIND_OPTIONS_INIT;
        fo.flags = GIT_DIFF_FIND_RENAMES | GIT_DIFF_FIND_FOR_UNTRACKED;
        check(git_diff_find_similar(diff, &fo), "similar");
        check(git_diff_print(diff, GIT_DIFF_FORMAT_PATCH, diff_line, &wd), "print wd");
        printf("workdir diff: %zu deltas, %zu lines, hash %016llx\n", git_diff_num_deltas(diff), wd.lines,
               (unsigned long long)wd.h);
        git_diff_free(diff);
        git_object_free(head);
    }

    /* blame of the files changed most often (ties by path) */
    for (int b = 0; b < 4 && nhist; b++) {
        size_t best = 0;
        for (size_t j = 1; j < nhist; j++)
            if (hist[j].n > hist[best].n || (hist[j].n == hist[best].n && strcmp(hist[j].path, hist[best].path) < 0))
                best = j;
        git_blame *bl;
        git_blame_options bo = GIT_BLAME_OPTIONS_INIT;
        check(git_blame_file(&bl, repo, hist[best].path, &bo), "blame");
        uint64_t h = 1469598103934665603ULL;
        size_t lines = 0, hunks = git_blame_get_hunk_count(bl);
        for (size_t i = 0; i < hunks; i++) {
            const git_blame_hunk *hk = git_blame_get_hunk_byindex(bl, i);
            h = fnv(h, hk->final_commit_id.id, GIT_OID_RAWSZ);
            lines += hk->lines_in_hunk;
        }
        printf("blame %s (%d changes): %zu hunks, %zu lines, hash %016llx\n", hist[best].path, hist[best].n, hunks,
               lines, (unsigned long long)h);
        git_blame_free(bl);
        hist[best].n = -1;
    }
    free(hist);
    git_repository_free(repo);
    return 0;
}

int main(int argc, char **argv)
{
    int r;
    if (argc < 3) {
        fprintf(stderr, "usage: gitdrive train DIR COMMITS FILES | gitdrive test DIR\n");
        return 2;
    }
    git_libgit2_init();
    if (!strcmp(argv[1], "train") && argc == 5)
        r = train(argv[2], atoi(argv[3]), atoi(argv[4]));
    else if (!strcmp(argv[1], "test"))
        r = test(argv[2]);
    else {
        fprintf(stderr, "gitdrive: unknown mix %s\n", argv[1]);
        return 2;
    }
    git_libgit2_shutdown();
    return r;
}
