# bench/projects/gawk.sh — GNU awk 5.2.1 (C, autotools) for
# bench/projects.sh: upstream's tarball as Debian has it (without the
# manual's sources: doc/ and awklib/, which are built from them, are left
# out of SUBDIRS), ./configure --disable-rpath as Debian's, with the flags
# in the environment, make -j2: gawk, its byte-code interpreter
# (r_interpret), and the extensions' shared objects the tests load.
# Tests: make check, every test of test/ (basic, Unicode, extensions,
# MPFR, ...; a failing one leaves test/_NAME; the locale tests fail here
# for want of locales, in every variant).  Workloads: gawk programs
# bench/projects/gawk/train.awk (fields, associative arrays, printf) and
# test.awk (match with captures, gsub, split on a regexp, string functions,
# a recursive function, asort/asorti, arithmetic) over the log corpus of
# bench/projects/logs.py (train: seed 1; test: seed 7).
P_PKG=gawk=1:5.2.1-2
P_TREE=orig
P_LANG=c
P_EXES=gawk
P_SPOT=format_tree                   # once per printf: the training report's lines
P_VGSCALE=0.02                       # the test mix runs some 25,000 instructions a line

p_build() {
    {
        ./configure --disable-rpath &&
            sed -i 's/^\(SUBDIRS = .*\) extras doc awklib /\1 extras /' Makefile &&
            make -j2
    } > build.log 2>&1
}

# the tests make check lists between "Starting" and "Done", one name a
# line; the failed ones leave test/_NAME
p_test() {
    rm -f test/_*
    make check > test-check.out 2>&1
    local n f
    n=$(awk '/^======== Starting/ { on = 1; next } /^======== Done/ { on = 0 }
             on && /^[A-Za-z0-9_.+-]+$/ { n++ } END { print n + 0 }' test-check.out)
    f=$(find test -maxdepth 1 -name '_*' | wc -l)
    echo "$((n - f)) $n"
}

p_workload() {
    local mix=$1; shift
    local n data
    read -r n data <<< "$(log_corpus "$mix" 200000)"
    LC_ALL=C.UTF-8 "$@" ./gawk -v loops="$n" -f "$P_DIR/gawk/$mix.awk" "$data"
}
