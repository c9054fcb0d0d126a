# tests/export/setup.sh — sourced by the tests of `pmopt export` after
# tests/lib.sh: the fixture, and the readers of the exported files.
#
# build_work [COUNT-AT]: compile work.c (copied here: its file is ./work.c)
# with the plugin (every function counted, right after cfg unless COUNT-AT
# is late: the known counts below are of the source's blocks, which the
# early optimisations change) and link it (a PIE);
# run_work OUT ROUNDS N [ENV...]: run it into trace OUT.
# The known counts of `./work 200 2000000` (work.c says why):
#   entries: spinner 200, middle 200, outer 1, main 1
#   the loop test, work.c:21: (2000000+1)*100 + (1000000+1)*100 = 300000200
#   the loop body, work.c:22: 300000000
#   calls: middle -> spinner 100 at line 29 and 100 at line 30;
#          outer -> middle 200 at line 36; main -> outer 1 at line 43
#
# The readers that are not Debian programs are put into a cache by the
# install step (scripts/readers.sh, run by scripts/deps.sh), never by a test:
#   EXPORT_CACHE  ${PERFINST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/perfinst}
#   need_npm PKG  the npm registry's package under $EXPORT_CACHE/npm (NODE_PATH
#                 is set to find it)
#   need_pprof    pprof built from Debian's golang-github-google-pprof-dev
#                 source, $EXPORT_CACHE/pprof; sets PPROF
# Each skips the test (exit 77, SKIP) when its reader is not there.
EXPORT_CACHE=${PERFINST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/perfinst}

build_work() {
    for f in "$PLUGIN" "$PILD" "$B/libperfinst.so"; do
        [ -e "$f" ] || skip "$f is not built"
    done
    cp "$T/export/work.c" .
    pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at="${1:-cfg}" -c work.c -o work.o
    pi_ld -g -O2 -o work work.o
    readelf -hW work | grep -q 'DYN' || fail "work is not a PIE"
}

run_work() {
    local out=$1 rounds=$2 n=$3
    shift 3
    env "$@" PERFINST_OUT="$out" ./work "$rounds" "$n" > /dev/null
}

need_npm() {
    local name=$1
    command -v node > /dev/null || skip "node is not installed (scripts/deps.sh installs nodejs)"
    export NODE_PATH=$EXPORT_CACHE/npm/node_modules
    [ -e "$NODE_PATH/$name/package.json" ] ||
        skip "$name is not in $EXPORT_CACHE/npm (scripts/readers.sh puts it there)"
}

need_pprof() {
    PPROF=$EXPORT_CACHE/pprof
    [ -x "$PPROF" ] || skip "no $PPROF (scripts/readers.sh builds it from golang-github-google-pprof-dev)"
}
