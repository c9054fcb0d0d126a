/* bench/projects/jsonc/drive.c — the workload of bench/projects/jsonc.sh:
 * json-c's parser, objects and serialiser on a document bench/projects/
 * jsonc/gen.py makes.  Prints only what the input decides (counts and
 * checksums).  String keys are hashed by json-c's perl-like hash, which has
 * no random seed (the default one takes a random seed at its first use:
 * the hash tables' collisions, and so the counts, would differ from run
 * to run).
 *
 *   jdrive FILE ROUNDS   parse FILE in 4 KiB pieces, then per round: walk
 *                        it, serialise it three ways, copy and compare it,
 *                        sort its arrays, look paths up, edit it */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long fnv(const char *s, size_t n, unsigned long long h)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    return h;
}

static long counts[8];
static void walk(struct json_object *o, int depth)
{
    enum json_type t = json_object_get_type(o);
    counts[t]++;
    if (t == json_type_object) {
        json_object_object_foreach(o, k, v) { (void)k; walk(v, depth + 1); }
    } else if (t == json_type_array) {
        size_t n = json_object_array_length(o);
        for (size_t i = 0; i < n; i++)
            walk(json_object_array_get_idx(o, i), depth + 1);
    }
}

static int cmp(const void *a, const void *b)
{
    struct json_object *x = *(struct json_object *const *)a, *y = *(struct json_object *const *)b;
    const char *p = json_object_to_json_string_ext(x, JSON_C_TO_STRING_PLAIN);
    const char *q = json_object_to_json_string_ext(y, JSON_C_TO_STRING_PLAIN);
    return strcmp(p, q);
}

static void sort_arrays(struct json_object *o)
{
    if (json_object_is_type(o, json_type_object)) {
        json_object_object_foreach(o, k, v) { (void)k; sort_arrays(v); }
    } else if (json_object_is_type(o, json_type_array)) {
        size_t n = json_object_array_length(o);
        for (size_t i = 0; i < n; i++)
            sort_arrays(json_object_array_get_idx(o, i));
        if (n < 64)
            json_object_array_sort(o, cmp);
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) { fprintf(stderr, "usage: jdrive FILE ROUNDS\n"); return 2; }
    json_global_set_string_hash(JSON_C_STR_HASH_PERLLIKE);
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 1; }
    static char buf[4096];
    size_t n;
    struct json_tokener *tok = json_tokener_new();
    struct json_object *doc = NULL;
    enum json_tokener_error err = json_tokener_continue;
    while (!doc && (n = fread(buf, 1, sizeof buf, f)) > 0) {
        doc = json_tokener_parse_ex(tok, buf, (int)n);
        err = json_tokener_get_error(tok);
        if (!doc && err != json_tokener_continue) break;
    }
    fclose(f);
    json_tokener_free(tok);
    if (!doc) { fprintf(stderr, "parse error: %s\n", json_tokener_error_desc(err)); return 1; }
    int rounds = atoi(argv[2]);
    static const int flags[] = { JSON_C_TO_STRING_PLAIN, JSON_C_TO_STRING_SPACED,
                                 JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_PRETTY_TAB };
    for (int r = 0; r < rounds; r++) {
        memset(counts, 0, sizeof counts);
        walk(doc, 0);
        printf("round %d: %ld objects, %ld arrays, %ld strings, %ld ints, %ld doubles, %ld booleans, %ld nulls\n", r,
               counts[json_type_object], counts[json_type_array], counts[json_type_string], counts[json_type_int],
               counts[json_type_double], counts[json_type_boolean], counts[json_type_null]);
        for (int k = 0; k < 3; k++) {
            size_t len;
            const char *s = json_object_to_json_string_length(doc, flags[k], &len);
            printf("  serialised %d: %zu bytes, %016llx\n", k, len, fnv(s, len, 14695981039346656037ULL));
        }
        struct json_object *copy = NULL;
        if (json_object_deep_copy(doc, &copy, NULL) != 0) { fprintf(stderr, "deep copy failed\n"); return 1; }
        printf("  copy equal: %d\n", json_object_equal(doc, copy));
        sort_arrays(copy);
        printf("  sorted copy equal: %d\n", json_object_equal(doc, copy));
        struct json_object *recs = NULL, *v = NULL;
        json_object_object_get_ex(copy, "records", &recs);
        size_t nrec = json_object_array_length(recs), found = 0;
        char path[64];
        for (size_t i = 0; i < nrec; i += 3) {
            snprintf(path, sizeof path, "/records/%zu/label", i);
            found += json_pointer_get(copy, path, &v) == 0;
        }
        printf("  pointers: %zu found\n", found);
        /* edit: drop every fifth record's data, add a field to every other */
        for (size_t i = 0; i < nrec; i++) {
            struct json_object *rec = json_object_array_get_idx(recs, i);
            if (i % 5 == 0) json_object_object_del(rec, "data");
            if (i % 2 == 0) json_object_object_add(rec, "round", json_object_new_int(r));
        }
        size_t len;
        const char *s = json_object_to_json_string_length(copy, JSON_C_TO_STRING_PLAIN, &len);
        printf("  edited: %zu bytes, %016llx\n", len, fnv(s, len, 14695981039346656037ULL));
        json_object_put(copy);
    }
    json_object_put(doc);
    return 0;
}
