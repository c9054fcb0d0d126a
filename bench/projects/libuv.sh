# bench/projects/libuv.sh — libuv 1.44.2 (C, CMake; Debian's libuv1: an
# event-loop library with a thread pool, threads, signals, child processes
# and fork) for bench/projects.sh: Debian's build (dh's CMake,
# CMAKE_BUILD_TYPE=None: the environment's CFLAGS alone; hardening left
# out), which builds libuv.so.1.0.0, libuv_a.a and, BUILD_TESTING on, the
# test runners uv_run_tests (linked to libuv.so) and uv_run_tests_a (to
# libuv_a.a) and uv_run_benchmarks_a; and the workload's program,
# bench/projects/libuv/drive.c, compiled and linked to build/libuv.so with
# the same flags.  The references (cov, pgogen, pgouse, bolt) build the
# library and the driver only.  Tests: both runners, all of their tests
# (each run by the runner in a child process: the runner spawns itself
# with the test's name, and many tests spawn it again as a helper), from
# the tree's top (their fixtures, test/fixtures), with debian/rules's
# environment (RES_OPTIONS=attempts:0: no DNS request leaves the machine;
# UV_TEST_TIMEOUT_MULTIPLIER=2) and UV_RUN_AS_ROOT=1 (the runner refuses
# root otherwise; LIBUV_SKIP below lists the tests that fail as root or
# need a network beyond loopback, left out of both counts): "ok" lines
# passed ("# SKIP" ones too: the test skips itself here, in every
# variant), "ok" plus "not ok" the total.  The tests listen on one fixed
# port (TEST_PORT, 9123) and pipe name: two suites at once (another
# variant's, another run's) fail each other's tests, and a stranger's
# connection to the port crashes tcp_write_queue_order (SIGSEGV, plain too).
# Workloads: uvdrive (drive.c) — train: timers, idle/prepare/check
# handles, the thread pool (uv_queue_work), file-system requests through
# the pool, a TCP echo over loopback, signals, uv_async_send from a thread,
# child processes; test: another mix and other sizes, with a pipe echo
# over a socketpair and UDP over loopback.  Each prints counts, byte totals
# and checksums, never how the events were batched.
P_PKG=libuv1=1.44.2-1+deb12u1
P_TREE=debian
P_LANG=c
P_EXES="build/libuv.so.1.0.0 build/uvdrive"
P_TESTEXES="build/uv_run_tests build/uv_run_tests_a"
P_SPOT=uv_queue_work      # once per job the training queues (uvdrive calls it through the PLT)
P_VGSCALE=0.5
# the tests left out: fail as root or need
# a network (none here): fs_copyfile (a file of mode 0444 is written to by
# root), tcp_close_while_connecting and tcp_connect_timeout (connect to
# 1.2.3.4: no route here, ENETUNREACH at once for the ECANCELED they expect)
LIBUV_SKIP="fs_copyfile tcp_close_while_connecting tcp_connect_timeout"

# shellcheck disable=SC2086   # CFLAGS and LDFLAGS are lists of words
p_build() {
    local tests=ON
    case ${P_VARIANT:-} in cov|pgogen|pgouse|bolt) tests=OFF ;; esac
    {
        cmake -S . -B build -DCMAKE_BUILD_TYPE=None -DBUILD_TESTING=$tests &&
            cmake --build build -j2 &&
            $CC $CFLAGS -Iinclude -c "$P_DIR/libuv/drive.c" -o build/drive.o &&
            $CC $CFLAGS -o build/uvdrive build/drive.o -Lbuild -luv -Wl,-rpath,"$PWD/build" $LDFLAGS
    } > build.log 2>&1
}

p_test() {
    local r
    for r in uv_run_tests_a uv_run_tests; do
        UV_RUN_AS_ROOT=1 RES_OPTIONS=attempts:0 UV_TEST_TIMEOUT_MULTIPLIER=2 build/$r > test-$r.out 2>&1 || true
    done
    cat test-uv_run_tests_a.out test-uv_run_tests.out |
        awk -v skip=" $LIBUV_SKIP " '/^(not )?ok [0-9]+ - / {
                n = $0; sub(/^(not )?ok [0-9]+ - /, "", n); sub(/ .*/, "", n)
                if (index(skip, " " n " ")) next
                t++; if ($1 == "ok") p++ }
            END { print p + 0, t + 0 }'
}

p_workload() {
    local mix=$1; shift
    local s
    s=$(awk -v s="${P_SCALE:-1}" 'BEGIN { s = int(4 * s + 0.5); print s < 1 ? 1 : s }')
    "$@" build/uvdrive "$mix" "$s"
}
