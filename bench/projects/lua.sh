# bench/projects/lua.sh — Lua 5.4 for bench/projects.sh (sourced; the
# interface is described in bench/projects.sh).  Upstream's tree (the
# .orig tarball of Debian's lua5.4: the Debian patches replace the makefile
# by a libtool build) built by its own makefile, `make linux`, the flags
# added the ordinary way: MYCFLAGS, MYLDFLAGS (its CFLAGS hold -O2).  The
# package ships no test suite: the tests are bench/projects/lua/check.lua
# (assertions over the language and the standard library) and the two
# workloads, whose output must not change.
P_PKG=lua5.4=5.4.4-3+deb12u1
P_TREE=orig
P_LANG=c
P_EXES=src/lua                     # the program measured and relinked
P_SPOT=str_format                  # the spot check: string.format, called 20000 times by train.lua's loop
P_VGSCALE=0.1                      # the workloads' scale under valgrind

p_build() {
    make -C src linux CC="$CC -std=gnu99" MYCFLAGS="$CFLAGS" MYLDFLAGS="$LDFLAGS" > build.log 2>&1
}

# p_test: the tests; prints "PASSED TOTAL"
p_test() {
    local n=0 ok=0 t
    for t in check train test; do
        n=$((n + 1))
        if [ "$t" = check ]; then
            src/lua "$P_DIR/lua/check.lua" > "test-$t.out" 2>&1 && ok=$((ok + 1))
        else
            p_workload "$t" > "test-$t.out" 2>&1 && ok=$((ok + 1))
        fi
    done
    echo "$ok $n"
}

# p_workload MIX [WRAPPER...]: the workload (train or test) on stdout, at
# the scale $P_SCALE (1; bench/projects.sh gives 0.1 under valgrind)
p_workload() {
    local mix=$1; shift
    "$@" src/lua "$P_DIR/lua/$mix.lua" "${P_SCALE:-1}"
}
