# bench/projects/mimalloc.sh — mimalloc 2.0.9 (C, CMake) for
# bench/projects.sh: an allocator, the runtime's hard case (its malloc
# counted while the runtime runs beside it; threads made and ended by the
# hundred, LD_PRELOAD into another program).  CMake with the flags in the
# environment and Debian's options (debian/rules: RelWithDebInfo, the shared
# library only, MI_INSTALL_TOPLEVEL), but MI_BUILD_TESTS on: the three test
# programs, linked to libmimalloc.so (it overrides malloc, MI_OVERRIDE's
# default).  Tests: ctest (test-api, test-api-fill, test-stress: 32 threads,
# 50 rounds).  Workloads: mimalloc-test-stress (its settings on stdout; the
# statistics, on stderr, dropped) and libmimalloc.so LD_PRELOADed into
# Debian's python3 with PYTHONMALLOC=malloc (every object from malloc) on a
# dictionary-of-lists job of its own (bench/projects/mimalloc.py: a
# checksum on stdout).  Train: stress with one thread (each round a new
# thread, ended: the counts do not depend on timing, for the gcov check)
# and the job with seed 1; test: stress with 2 and 4 threads and the job
# with seed 7 at another size.  The training runs with mimalloc's delayed
# decommit pushed past the run (MIMALLOC_DECOMMIT_DELAY,
# MIMALLOC_SEGMENT_DECOMMIT_DELAY: 100 s): what it frees is otherwise
# decommitted after 25 ms of the clock, and the count build, slower, took
# that path more often than the coverage build (_mi_os_decommit 100 vs 1),
# which the exact-count check would blame on perfinst.
P_PKG=mimalloc=2.0.9+ds-2
P_TREE=debian
P_LANG=c
P_EXES="build/libmimalloc.so.2.0 build/mimalloc-test-stress"
P_TESTEXES="build/mimalloc-test-api build/mimalloc-test-api-fill"
P_SPOT=_mi_thread_done   # once per thread that allocated (the stress rounds' threads) and at exit
P_VGSCALE=0.2

p_build() {
    {
        cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMI_BUILD_STATIC=OFF -DMI_BUILD_OBJECT=OFF \
            -DMI_BUILD_TESTS=ON -DMI_INSTALL_TOPLEVEL=ON -DMI_USE_LIBATOMIC=OFF &&
            cmake --build build -j2
    } > build.log 2>&1
}

p_test() { ctest_counts; }   # bench/lib.sh (one at a time: test-stress's 32 threads on 2 CPUs)

# mi_py MIX N SEED [WRAPPER...]: the python job under libmimalloc.so
mi_py() {
    local n=$1 seed=$2; shift 2
    LD_PRELOAD=$PWD/build/libmimalloc.so PYTHONMALLOC=malloc PYTHONHASHSEED=0 \
        "$@" /usr/bin/python3 -S "$P_DIR/mimalloc.py" "$n" "$seed"
}

p_workload() {
    local mix=$1; shift
    local s=${P_SCALE:-1} n
    if [ "$mix" = train ]; then
        export MIMALLOC_DECOMMIT_DELAY=100000 MIMALLOC_SEGMENT_DECOMMIT_DELAY=100000
        "$@" build/mimalloc-test-stress 1 "$(awk -v s="$s" 'BEGIN { printf "%d", 200 * s + 1 }')" 10 2> /dev/null
        n=$(awk -v s="$s" 'BEGIN { printf "%d", 200000 * s }')
        mi_py "$n" 1 "$@"
    else
        "$@" build/mimalloc-test-stress 2 "$(awk -v s="$s" 'BEGIN { printf "%d", 100 * s + 1 }')" 10 2> /dev/null
        "$@" build/mimalloc-test-stress 4 "$(awk -v s="$s" 'BEGIN { printf "%d", 50 * s + 1 }')" 5 2> /dev/null
        n=$(awk -v s="$s" 'BEGIN { printf "%d", 300000 * s }')
        mi_py "$n" 7 "$@"
    fi
}
