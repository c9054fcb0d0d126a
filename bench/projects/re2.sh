# bench/projects/re2.sh — RE2 2022-06-01 (C++, CMake) for bench/projects.sh:
# the Unicode and Perl class tables made first from Debian's unicode-data
# (the +dfsg tarball leaves them out: upstream's `make REBUILD_TABLES=1`
# rules, which debian/rules uses too; Debian's patch reads
# /usr/share/unicode), then CMake with the flags in the environment (no
# build type), the static library, RE2_BUILD_TESTING: its own test
# framework's programs, plus the workload's program,
# bench/projects/re2/drive.cc, compiled and linked against build/libre2.a
# with the same flags.  The references (cov, pgogen, pgouse, bolt) build
# the library alone and the program.  Tests: ctest, one at a time, all but
# the exhaustive and random tests (exhaustive*_test, random_test: minutes
# each at -O2, they enumerate regexps and strings).  Workloads: re2-drive
# over the log corpus of bench/projects/logs.py (train: seed 1, counts by
# PartialMatch of literals, an alternation, case-blind and date patterns,
# integer captures; test: seed 7, FindAndConsume of e-mail addresses and
# Greek words, GlobalReplace, an RE2::Set, a nine-field FullMatch, a
# leftmost-longest alternation, Replace), each section's count and hash.
P_PKG=re2=20220601+dfsg-1
P_TREE=debian
P_LANG="c++"
P_EXES=build/re2-drive
P_TESTEXES="build/*_test"              # relinked too: the tests run them
# re2::RE2::Init(StringPiece, const Options&): once per RE2 object made —
# the training run makes train()'s 7 static patterns, once (RE2::Set
# compiles its patterns as regexps, not RE2s; the test run makes test()'s
# 6), called from RE2's constructors alone; no inline function (nm: a
# symbol of its own in every variant)
P_SPOT=_ZN3re23RE24InitERKNS_11StringPieceERKNS0_7OptionsE
P_DEBDEPS="unicode-data python3-six"   # the tables' scripts (re2/unicode.py imports six)
P_VGSCALE=0.05

# shellcheck disable=SC2086   # CXXFLAGS and LDFLAGS are lists of words
p_build() {
    local target=()
    case ${P_VARIANT:-} in cov|pgogen|pgouse|bolt) target=(--target re2) ;; esac
    {
        make REBUILD_TABLES=1 re2/perl_groups.cc re2/unicode_casefold.cc re2/unicode_groups.cc &&
            cmake -S . -B build -DRE2_BUILD_TESTING=ON &&
            cmake --build build -j2 "${target[@]}" &&
            $CXX $CXXFLAGS -I. -c "$P_DIR/re2/drive.cc" -o build/drive.o &&
            $CXX $CXXFLAGS -o build/re2-drive build/drive.o build/libre2.a -pthread $LDFLAGS
    } > build.log 2>&1
}

p_test() { ctest_counts -E '^(exhaustive[0-9]*_test|random_test)$'; }   # bench/lib.sh

# re2-drive MIX CORPUS ROUNDS (train: 200,000 lines, 3 rounds; test:
# 200,000 lines, 1 round), the lines scaled by P_SCALE
p_workload() {
    local mix=$1 n data r; shift
    read -r n data <<< "$(log_corpus "$mix" 200000)"
    case $mix in train) r=3 ;; test) r=1 ;; esac
    "$@" build/re2-drive "$mix" "$data" "$r"
}
