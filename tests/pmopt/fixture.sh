# fixture.sh — sourced by the pmopt tests after lib.sh.  Builds the fixture
# program from prog.c/lib.c and their metadata specs (prog.json, lib.json)
# in the current directory, as the plugin would: gcc -S, the UNIT and CODE
# chunks appended as assembly, gcc -c, gcc to link.
F=$T/pmopt
UA=0xa0a0a0a000000001   # unit of prog.c
UB=0xb0b0b0b000000002   # unit of lib.c
# Counts of `prog 10` (prog.c: classify 0-2, main 3-7; lib.c: work 0-2).
CA=10,4,10,1,10,1,11,1
CB=1,10,1

pigen() { python3 "$F/pigen.py" "$@"; }

# build_obj NAME [CORRUPTION]: NAME.c + NAME.json -> NAME.o (with its .s)
build_obj() {
    local name=$1 corrupt=${2:-}
    cp "$F/$name.c" "$F/markers.h" .
    gcc -S -g -O0 "$name.c" -o "$name.s"
    pigen meta ${corrupt:+--corrupt=$corrupt} "$F/$name.json" "$name.c" >> "$name.s"
    gcc -c "$name.s" -o "$name.o"
}

# build_prog [OUT]: prog.o + lib.o -> OUT (prog)
build_prog() {
    build_obj prog
    build_obj lib
    gcc prog.o lib.o -o "${1:-prog}"
}

# line_of FILE N: the line of marker PI_S(N)
line_of() {
    [ -s ".lines-$1" ] || pigen lines "$1" > ".lines-$1"
    awk -v n="$2" '$1 == n { print $2 }' ".lines-$1"
}

# run_pmopt ARGS...: pmopt with stdout in ./out and stderr in ./err; the
# status in $rc (does not stop the script).
run_pmopt() { rc=0; "$PMOPT" "$@" > out 2> err || rc=$?; }

# refused PROG FILE REGEX: pmopt dump, merge and report (of PROG) refuse
# the trace FILE (exit status 1); dump's message matches REGEX.
refused() {
    local prog=$1
    shift
    run_pmopt dump "$1"
    assert_eq "$1: dump exit status" 1 "$rc"
    assert_contains "$1: message" err "$2"
    run_pmopt merge -o m.pit "$1"
    assert_eq "$1: merge exit status" 1 "$rc"
    run_pmopt report "$prog" "$1"
    assert_eq "$1: report exit status" 1 "$rc"
}
