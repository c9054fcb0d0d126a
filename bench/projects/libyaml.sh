# bench/projects/libyaml.sh — LibYAML 0.2.5 (autotools, libtool) for
# bench/projects.sh: upstream's tree has no configure, so autoreconf (needs
# libtool), then ./configure out of the source tree (obj/) with the flags in
# the environment: the shared library (-fPIC, libtool's .libs/) and its test
# programs linked to it.  Tests: make check (test-version, test-reader)
# plus the scanner, parser, loader and the emitter's and dumper's round
# trips on each of examples/*.yaml.  Workloads: the programs
# (run through .libs/ with LD_LIBRARY_PATH, not libtool's wrapper scripts,
# so that valgrind sees them) over a YAML stream bench/projects/libyaml/gen.py
# makes (train: run-parser, run-loader, example-deconstructor; test:
# run-scanner, example-reformatter, the -alt deconstructor and reformatter),
# their summary lines and output checksums on stdout.
P_PKG=libyaml=0.2.5-1
P_TREE=debian
P_LANG=c
P_EXES="obj/src/.libs/libyaml-0.so.2.0.9"
P_TESTEXES="obj/tests/.libs/*"          # relinked too (the library's plan, --force)
P_SPOT=yaml_parser_parse                # once per event
P_DEBDEPS="libtool"   # autoreconf needs libtool
P_VGSCALE=0.2

p_build() {
    {
        autoreconf -fi && mkdir -p obj &&
            (cd obj && ../configure --disable-static && make -j2)
    } > build.log 2>&1
}

p_test() {
    local ok n p f
    (cd obj && make check > ../test-check.out 2>&1)
    ok=$(sed -n 's/^# PASS: *//p' test-check.out) n=$(sed -n 's/^# TOTAL: *//p' test-check.out)
    ok=${ok:-0} n=${n:-0}
    for p in run-scanner run-parser run-loader run-emitter run-dumper; do
        for f in examples/*.yaml; do
            n=$((n + 1))
            LD_LIBRARY_PATH=obj/src/.libs obj/tests/.libs/$p "$f" 2>&1 | grep -qE "': (SUCCESS|PASSED) " && ok=$((ok + 1))
        done
    done
    echo "$ok $n"
}

p_workload() {
    local mix=$1; shift
    local n seed p data
    n=$(awk -v s="${P_SCALE:-1}" 'BEGIN { printf "%d", 6000 * s }')
    case $mix in train) seed=1 ;; test) seed=7 ;; esac
    data=.data-$mix-$n.yaml
    [ -s "$data" ] || python3 "$P_DIR/libyaml/gen.py" "$n" "$seed" > "$data"
    export LD_LIBRARY_PATH=obj/src/.libs
    if [ "$mix" = train ]; then
        for p in run-parser run-loader; do "$@" obj/tests/.libs/$p "$data" | sed 's/^\[1\] [A-Za-z]* .[^ ]*.: //'; done
        "$@" obj/tests/.libs/example-deconstructor < "$data" | cksum
    else
        "$@" obj/tests/.libs/run-scanner "$data" | sed 's/^\[1\] [A-Za-z]* .[^ ]*.: //'
        for p in example-reformatter example-reformatter-alt example-deconstructor-alt; do
            "$@" obj/tests/.libs/$p < "$data" | cksum
        done
    fi
}
