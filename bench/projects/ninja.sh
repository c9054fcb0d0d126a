# bench/projects/ninja.sh — Ninja 1.11.1 (C++, CMake) for bench/projects.sh:
# CMake with the flags in the environment (no build type, as Debian's: its
# CMakeLists turns on -flto for Release only), BUILD_TESTING: ninja_test
# (ninja's own test framework, about 400 tests in one program) and the
# perf tests.  The references (cov, pgogen, pgouse, bolt) build the target
# ninja alone.  Tests: ninja_test, each test that printed a failure counted
# failed.  Workloads: ninja on a manifest bench/projects/ninja/gen.py
# generates in the work tree (train: a C project — compile edges with
# depfiles, headers as implicit inputs, libraries, programs, one file; dry
# run, `-t commands`, `-t targets all`, `-t query`; test: generated code —
# generators with restat and implicit outputs, order-only inputs, a pool,
# response files, per-edge variables, `subninja` and `include`, paths to
# canonicalise, escapes; dry run, `-t graph`, `-t compdb`, `-t targets
# depth`, `-t inputs`, `-t rules`), each run's name, line count and cksum
# on stdout.
P_PKG=ninja-build=1.11.1-2~deb12u1
P_TREE=debian
P_LANG="c++"
P_EXES=build/ninja
P_TESTEXES="build/ninja_test build/*_perftest build/hash_collision_bench"   # relinked too
# ManifestParser::ParseEdge: once per `build` statement the run parses (the
# training manifest's edges, each of its 12 runs parsing it again), called
# from ManifestParser::Parse alone, no inline function at -O2 (nm: a symbol
# of its own in every variant)
P_SPOT=_ZN14ManifestParser9ParseEdgeEPNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE
P_VGSCALE=0.1

p_build() {
    local target=()
    case ${P_VARIANT:-} in cov|pgogen|pgouse|bolt) target=(--target ninja) ;; esac
    {
        cmake -S . -B build -DBUILD_TESTING=ON &&
            cmake --build build -j2 "${target[@]}"
    } > build.log 2>&1
}

# "PASSED TOTAL": ninja_test's tests, a test failed when a "*** Failure"
# line follows its "[K/N] NAME" line (the printer writes one line a test
# when stdout is no terminal)
p_test() {
    build/ninja_test > test-ninja.out 2>&1
    awk '/^\[[0-9]+\/[0-9]+\] / { split(substr($1, 2), a, "/"); n = a[2]; cur = a[1] }
         /^\*\*\* Failure/ { if (!(cur in f)) { f[cur] = 1; nf++ } }
         END { print n - nf, n + 0 }' test-ninja.out
}

# ninja on the generated manifests (train: 6000 edges, 4 rounds of its
# three runs; test: 6000 edges), scaled by P_SCALE; the manifests are made
# in the tree once per size
p_workload() {
    local mix=$1 n d r; shift
    n=$(awk -v s="${P_SCALE:-1}" 'BEGIN { n = int(6000 * s); if (n < 200) n = 200; printf "%d", n }')
    d=.ninja-$mix-$n
    [ -s "$d/build.ninja" ] || python3 "$P_DIR/ninja/gen.py" "$mix" "$n" "$d"
    run() {
        local name=$1; shift
        rm -f "$d/.ninja_log" "$d/.ninja_deps"
        # compdb's "directory" is the absolute working directory: made "."
        "$@" 2>&1 | sed "s|$PWD/|./|g" > "$d/.out"
        [ "$name" = graph ] || printf '%s %s %s\n' "$name" "$(wc -l < "$d/.out")" "$(cksum < "$d/.out")"
    }
    case $mix in
    train)
        for r in 1 2 3 4; do
            run dry-run "$@" build/ninja -C "$d" -n all
            run commands "$@" build/ninja -C "$d" -t commands all
            run targets "$@" build/ninja -C "$d" -t targets all
        done
        run query "$@" build/ninja -C "$d" -t query bin/p0 lib/libd0.a ;;
    test)
        run dry-run "$@" build/ninja -C "$d" -n
        run graph "$@" build/ninja -C "$d" -t graph
        # the graph names its nodes by their addresses: numbered instead
        awk '{ while (match($0, /0x[0-9a-f]+/)) { a = substr($0, RSTART, RLENGTH); if (!(a in id)) id[a] = ++k
               $0 = substr($0, 1, RSTART - 1) "n" id[a] substr($0, RSTART + RLENGTH) } print }' "$d/.out" > "$d/.graph"
        printf 'graph-numbered %s %s\n' "$(wc -l < "$d/.graph")" "$(cksum < "$d/.graph")"
        run compdb "$@" build/ninja -C "$d" -t compdb cxx
        run targets-depth "$@" build/ninja -C "$d" -t targets depth 3
        run inputs "$@" build/ninja -C "$d" -t inputs out/stamp
        run rules "$@" build/ninja -C "$d" -t rules ;;
    esac
}
