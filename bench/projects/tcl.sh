# bench/projects/tcl.sh — Tcl 8.6.13 (C, autoconf in unix/, no libtool; a
# bytecode compiler and interpreter, threads enabled) for
# bench/projects.sh: Debian's tree (tcl8.6 8.6.13+dfsg-2, its one patch;
# the +dfsg tarball has no bundled packages in pkgs/) configured as
# debian/rules does (unix/configure --enable-shared --enable-threads
# --enable-dll-unloading --disable-rpath --without-tzdata) but with the
# variant's flags and without Debian's -fno-unit-at-a-time, then `make
# -j2 binaries tcltest` in unix/ (the references: binaries): libtcl8.6.so (linked by the Makefile's
# own `$(CC) -shared` rule with CFLAGS and LDFLAGS), tclsh and tcltest (the
# test suite's shell, with the test commands).  Tests: `make test-tcl` with
# TESTFLAGS naming 63 of tests/'s 131 files, 22,353 tests, 40 s at -O2
# (TCL_TESTS below: strings, lists, dicts, regexps, expr,
# bytecode compilation and execution, procs, namespaces, coroutines, TclOO,
# traces, encodings, zlib, clock); passed of those not skipped.
# Workloads: tclsh (TCL_LIBRARY=library, LD_LIBRARY_PATH=unix) running
# bench/projects/tcl/train.tcl (string manipulation and list sorting:
# split, trim, map, first/last/range, reverse, format, lsort -dictionary,
# -unique, -integer, -index, -command) or test.tcl (dicts, arrays, regexp
# with captures and -all -inline, regsub, arithmetic loops: a sieve with
# lset, floating point, 64-bit wraparound, a recursive proc) over the log
# corpus of bench/projects/logs.py (train: seed 1; test: seed 7; 20,000
# lines).  The exact-count check: Tcl copies the environment into ::env,
# and its thread allocator's GetBlocks, PutBlocks, LockBucket and
# Tcl_MutexLock/Unlock run as often as the sizes allocated say, so they
# follow the environment's size (PERFINST_OUT, the tree's path), which
# differs between the count and cov runs: 5 of 2,780 functions differ by
# 8-38 here, and all are gcov's when both run with one environment.
P_PKG=tcl8.6=8.6.13+dfsg-2
P_TREE=debian
P_LANG=c
P_EXES="unix/libtcl8.6.so unix/tclsh"
P_TESTEXES=unix/tcltest
P_SPOT=Tcl_LsortObjCmd      # lsort is not compiled to bytecode: 5 calls a block of 200 lines
P_VGSCALE=0.1

TCL_TESTS="string*.test list*.test dict.test regexp*.test reg.test expr.test expr-old.test compExpr*.test
 lsearch.test cmdIL.test incr*.test foreach.test for.test while.test if.test switch.test proc.test
 namespace.test format.test scan.test split.test join.test lrange.test lreplace.test lindex.test
 lset*.test linsert.test llength.test lrepeat.test lmap.test binary.test var.test set.test append*.test
 upvar.test uplevel.test coroutine.test tailcall.test nre.test apply.test oo.test info.test basic.test
 compile.test execute.test mathop.test utf.test encoding.test subst.test trace.test rename.test
 eval.test error.test zlib.test clock.test"

p_build() {
    local target=tcltest
    # the references (cov, pgogen, pgouse, bolt) only run the workloads;
    # tcltest's tclTestInit.o is tclAppInit.c compiled again with
    # -DTCL_TEST, whose .gcno replaces tclsh's (gcov then reads main 0)
    case ${P_VARIANT:-} in cov|pgogen|pgouse|bolt) target= ;; esac
    # (a subshell: bench/projects.sh's build reads its files in the tree's top)
    (
        cd unix &&
            ./configure --enable-shared --enable-threads --enable-dll-unloading --disable-rpath \
                --without-tzdata &&
            make -j2 binaries $target
    ) > build.log 2>&1
}

# all.tcl's summary: "all.tcl: Total N Passed P Skipped S Failed F"; a
# test file that fails to load counts as one failure
p_test() {
    (cd unix && make test-tcl TESTFLAGS="-file \"$(echo $TCL_TESTS)\"" > ../test-tcl.out 2>&1) || true
    awk '/^all.tcl:/ { t = $3; p = $5; s = $7 } /^Test files exiting with errors:/ { e = 1; next }
         e && NF { x += NF } END { print p + 0, t - s + x }' test-tcl.out
}

p_workload() {
    local mix=$1 n data; shift
    read -r n data <<< "$(log_corpus "$mix" 20000)"
    TCL_LIBRARY=$PWD/library LD_LIBRARY_PATH=$PWD/unix "$@" unix/tclsh "$P_DIR/tcl/$mix.tcl" "$data"
}
