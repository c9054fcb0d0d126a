# bench/projects/mawk.sh — mawk 1.3.4-20200120 (C, autoconf; a bytecode
# interpreter with its own regular-expression machine, rexp*.c) for
# bench/projects.sh: Debian's tree (mawk 1.3.4.20200120-3.1), configured
# with the tarball's configure (debian/rules regenerates it with
# autoreconf-dickey first: the same script's options) and the variant's
# flags, `make mawk` as debian/rules builds.  Tests: `make mawk_test
# fpe_test` (debian/rules' dh_auto_test): mawktest's 25 checks (each a
# `|| Fail` or `&& Fail` line; field splitting, regexps, write errors,
# arrays, nextfile, the decl.awk stress test), "?? fail" naming a failed
# one, and fpe_test as one more.  Workloads: mawk programs
# bench/projects/mawk/train.awk (field splitting: the default FS and
# split() on "-", ":", "/", "=", substr, index, numeric sums) and test.awk
# (match with RSTART/RLENGTH, sub, gsub, dynamic regexps from an array,
# split on a regexp; associative arrays with SUBSEP keys, in, delete, an
# insertion sort) over the log corpus of bench/projects/logs.py (train:
# seed 1; test: seed 7; 200,000 lines).
P_PKG=mawk=1.3.4.20200120-3.1
P_TREE=debian
P_LANG=c
P_EXES=mawk
P_SPOT=bi_split             # split() is a builtin called through a table: 4 calls a training line
P_VGSCALE=0.05

p_build() {
    { ./configure --prefix=/usr && make mawk; } > build.log 2>&1
}

p_test() {
    local n
    n=$(grep -cE '(\|\||&&) *Fail' test/mawktest)
    make mawk_test > test-mawk.out 2>&1; echo "mawk_test exit $?" >> test-mawk.out
    make fpe_test > test-fpe.out 2>&1 && echo "fpe ok" >> test-fpe.out
    awk -v n="$n" 'FILENAME ~ /mawk/ && /^\?\? fail/ { f++ } FILENAME ~ /mawk/ && /^tested .* OK$/ { ok = 1 }
        FILENAME ~ /fpe/ && /^fpe ok$/ { fpe = 1 }
        END { if (!ok && !f) f = n; print n - f + fpe, n + 1 }' test-mawk.out test-fpe.out
}

p_workload() {
    local mix=$1 n data; shift
    read -r n data <<< "$(log_corpus "$mix" 200000)"
    LC_ALL=C "$@" ./mawk -f "$P_DIR/mawk/$mix.awk" "$data"
}
