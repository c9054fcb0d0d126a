# bench/projects/pcre2.sh — PCRE2 10.42 (C, autotools, libtool) for
# bench/projects.sh: ./configure with the flags in the environment, the
# 8-bit library only (upstream's default), static (--disable-shared: the
# programs hold the library), no JIT (upstream's default: pcre2_match's
# interpreter and the DFA matcher run), make -j2.  Tests: make check
# (pcre2posix_test, RunGrepTest, and RunTest's numbered tests, each one).
# Workloads: pcre2grep over a log-like UTF-8 corpus
# bench/projects/logs.py makes (train: seed 1, literals, alternations,
# case-blind and inverted counts; test: seed 7, -o extraction, a
# back-reference, look-behind and look-ahead, Unicode properties with -u,
# -w words, nested quantifiers), the counts and checksums on stdout.
P_PKG=pcre2=10.42-1
P_TREE=debian
P_LANG=c
P_EXES=pcre2grep
P_TESTEXES="pcre2test pcre2posix_test"
P_SPOT=pcre2_match_8                 # once per line and pattern: -c never matches twice on a line
P_VGSCALE=0.1

p_build() {
    ./configure --disable-shared > build.log 2>&1 && make -j2 >> build.log 2>&1
}

# the automake tests but RunTest, one each, and RunTest's tests, one each
# (a test's header then "  OK"; one it skips, as the 16- and 32-bit
# libraries' here, is not counted); RunTest stops at its first failure
p_test() {
    make check > test-check.out 2>&1
    {
        grep -E '^(PASS|FAIL|ERROR): ' test-check.out | grep -v ': RunTest$' | awk '{ print ($1 == "PASS:"), 1 }'
        awk '/^Test [0-9]+:/ { n++ } /^  Skipped/ { n-- } /^  OK$/ { p++ } END { print p + 0, (n ? n : 1) }' RunTest.log 2> /dev/null
    } | awk '{ p += $1; t += $2 } END { print p + 0, t + 0 }'
}

p_workload() {
    local mix=$1; shift
    local n data
    read -r n data <<< "$(log_corpus "$mix" 200000)"
    if [ "$mix" = train ]; then
        "$@" ./pcre2grep -c 'ERROR' "$data"
        "$@" ./pcre2grep -ci 'warn(ing)?' "$data"
        "$@" ./pcre2grep -c '\d{4}-\d{2}-\d{2} \d\d:\d\d' "$data"
        "$@" ./pcre2grep -c 'user (alice|bob|carol) ' "$data"
        "$@" ./pcre2grep -cv 'INFO' "$data"
        "$@" ./pcre2grep -c 'path=/\w+/(read|write)/\d+\.txt' "$data"
        "$@" ./pcre2grep -n 'id=99\d{4} ' "$data" | cksum
    else
        "$@" ./pcre2grep -o '[\w.]+@[\w.]+\.\w+' "$data" | cksum
        "$@" ./pcre2grep -c '\b(\w+) \1\b' "$data"
        "$@" ./pcre2grep -o '(?<=id=)\d+(?!\d)' "$data" | cksum
        "$@" ./pcre2grep -cu '\p{Greek}+' "$data"
        "$@" ./pcre2grep -c '\[(WARN|ERROR)\] user \w+ (?:\S+ ){3,5}id=' "$data"
        "$@" ./pcre2grep -ciw 'the|an' "$data"
        "$@" ./pcre2grep -u -o '[\p{Cyrillic}\p{Greek}]+' "$data" | cksum
    fi
}
