// bench/projects/re2/drive.cc — the workload of bench/projects/re2.sh: RE2
// over a log corpus (bench/projects/logs.py), as a program that filters,
// extracts and rewrites log lines would use it.
//
//   re2-drive train|test|extract|match FILE ROUNDS
//
// train: lines counted by PartialMatch of literals, an alternation, a
// case-blind match and dates; ids and durations parsed through integer
// captures.  test: e-mail addresses and Greek words extracted with
// FindAndConsume, digits rewritten by GlobalReplace, an RE2::Set of
// anchored patterns, a FullMatch that splits each line into nine fields,
// a leftmost-longest alternation (POSIX), and a Replace of the first
// path.  extract: test's unanchored searches and rewrites alone (mail,
// greek, digits, longest, replace); match: its anchored matches alone
// (set, fields) — bench/suite.sh's two held-out workloads.  Every section prints its count and an FNV-1a hash of what it
// extracted, so that builds can be compared output for output.
#include <re2/re2.h>
#include <re2/set.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

static uint64_t fnv(uint64_t h, const re2::StringPiece& s) {
    for (char c : s) {
        h ^= (unsigned char)c;
        h *= 1099511628211ull;
    }
    return h;
}

struct Section {
    const char* name;
    long count = 0;
    uint64_t hash = 14695981039346656037ull;
};

static void train(const std::vector<std::string>& lines, std::vector<Section>& out) {
    static const RE2 error("ERROR");
    static const RE2 warn("(?i)warn(ing)?");
    static const RE2 date("\\d{4}-\\d{2}-\\d{2} \\d\\d:\\d\\d");
    static const RE2 users("user (alice|bob|carol) ");
    static const RE2 path("path=/\\w+/(read|write)/\\d+\\.txt");
    static const RE2 id("id=(\\d+) ");
    static const RE2 took("took (\\d+)ms$");
    for (const std::string& l : lines) {
        int n;
        std::string w;
        if (RE2::PartialMatch(l, error)) out[0].count++;
        if (RE2::PartialMatch(l, warn)) out[1].count++;
        if (RE2::PartialMatch(l, date)) out[2].count++;
        if (RE2::PartialMatch(l, users)) out[3].count++;
        if (RE2::PartialMatch(l, path, &w)) { out[4].count++; out[4].hash = fnv(out[4].hash, w); }
        if (RE2::PartialMatch(l, id, &n)) { out[5].count += n % 1000; }
        if (RE2::PartialMatch(l, took, &n)) { out[6].count += n; }
    }
}

// test's sections: EXTRACT the unanchored searches and rewrites, MATCH the
// anchored matches
enum { EXTRACT = 1, MATCH = 2 };

static void test(const std::vector<std::string>& lines, std::vector<Section>& out, int parts) {
    static const RE2 mail("([\\w.]+@[\\w.]+\\.\\w+)");
    static const RE2 greek("(\\p{Greek}+)");
    static const RE2 digits("\\d+");
    static const RE2 fields("(\\d+)-(\\d+)-(\\d+) (\\d+):(\\d+):(\\d+) \\[(\\w+)\\] user (\\w+) (.*)");
    static const RE2 longest("(read|readwrite|write|rollback|roll)", RE2::POSIX);   // leftmost-longest
    static const RE2 firstpath("path=/(\\w+)/(\\w+)/");
    static RE2::Set* set = nullptr;
    if (!set) {
        set = new RE2::Set(RE2::DefaultOptions, RE2::ANCHOR_START);
        const char* pats[] = {"\\d{4}-01-", "\\d{4}-0[2-6]-", "\\d{4}-1\\d-\\d\\d 0",
                              "\\d{4}-\\d\\d-2\\d", "\\d{4}-\\d\\d-\\d\\d 1[0-2]:",
                              "\\d{4}-\\d\\d-\\d\\d \\d\\d:[0-2]", "\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:5"};
        for (const char* p : pats)
            if (set->Add(p, nullptr) < 0) abort();
        if (!set->Compile()) abort();
    }
    std::vector<int> hit;
    for (const std::string& l : lines) {
        re2::StringPiece in(l);
        std::string m, r;
        if (parts & EXTRACT) {
            while (RE2::FindAndConsume(&in, mail, &m)) { out[0].count++; out[0].hash = fnv(out[0].hash, m); }
            in = l;
            while (RE2::FindAndConsume(&in, greek, &m)) { out[1].count++; out[1].hash = fnv(out[1].hash, m); }
            r = l;
            out[2].count += RE2::GlobalReplace(&r, digits, "#");
            out[2].hash = fnv(out[2].hash, r);
        }
        if (parts & MATCH) {
            if (set->Match(l, &hit)) for (int h : hit) out[3].count += h + 1;
            int y, mo, d, hh, mi, s;
            std::string lvl, user, rest;
            if (RE2::FullMatch(l, fields, &y, &mo, &d, &hh, &mi, &s, &lvl, &user, &rest)) {
                out[4].count += y + mo + d + hh + mi + s;
                out[4].hash = fnv(fnv(out[4].hash, lvl), user);
            }
        }
        if (parts & EXTRACT) {
            in = l;
            while (RE2::FindAndConsume(&in, longest, &m)) { out[5].count++; out[5].hash = fnv(out[5].hash, m); }
            r = l;
            if (RE2::Replace(&r, firstpath, "dir=\\2/\\1/")) { out[6].count++; out[6].hash = fnv(out[6].hash, r); }
        }
    }
}

int main(int argc, char** argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: re2-drive train|test|extract|match FILE ROUNDS\n");
        return 2;
    }
    bool is_train = strcmp(argv[1], "train") == 0;
    int parts = strcmp(argv[1], "test") == 0 ? EXTRACT | MATCH
                : strcmp(argv[1], "extract") == 0 ? EXTRACT
                : strcmp(argv[1], "match") == 0 ? MATCH : 0;
    if (!is_train && !parts) {
        fprintf(stderr, "re2-drive: %s: not train, test, extract or match\n", argv[1]);
        return 2;
    }
    std::ifstream f(argv[2]);
    std::vector<std::string> lines;
    for (std::string l; std::getline(f, l);) lines.push_back(l);
    if (lines.empty()) {
        fprintf(stderr, "re2-drive: %s: no lines\n", argv[2]);
        return 1;
    }
    static const char* tn[] = {"error", "warn", "date", "users", "path", "id", "took"};
    static const char* sn[] = {"mail", "greek", "digits", "set", "fields", "longest", "replace"};
    std::vector<Section> out(7);
    for (int i = 0; i < 7; i++) out[i].name = is_train ? tn[i] : sn[i];
    for (long r = atol(argv[3]); r > 0; r--) {
        if (is_train) train(lines, out);
        else test(lines, out, parts);
    }
    for (const Section& s : out) printf("%s %ld %016llx\n", s.name, s.count, (unsigned long long)s.hash);
    return 0;
}
