#!/bin/bash
# unit-cost.sh — what a short process pays per counted translation unit at
# its start and exit: programs of N generated units (each of four small
# functions with a loop and a few branches: 20 counters, where BusyBox's
# units have 77 on average) of which main runs one function, and main over
# a shared library of the N units (-fPIC); callgrind's instruction total
# of one run, the trace to /dev/null, in the off mode, and written to a
# file.
# See bench/README.md.
#
#   [PERFINST_BUILD=DIR] bench/unit-cost.sh [--units "1 50 500"] [--lib DIR] [--record]
#
# The programs are built with PERFINST_BUILD's plugin and link stage (this
# tree's build by default); --lib DIR runs them with DIR's libperfinst.so
# (LD_LIBRARY_PATH), so that two runtimes are compared on the same
# binaries.
set -e
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
B=${PERFINST_BUILD:-$top/build}
units="1 50 500" lib= record=0
while [ $# -gt 0 ]; do
    case $1 in
    --units) units=$2; shift 2 ;;
    --lib) lib=$2; shift 2 ;;
    --record) record=1; shift ;;
    -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "unit-cost: unknown argument $1" >&2; exit 2 ;;
    esac
done
bench_work unit-cost
unit() { # I: unit I's source
    local i=$1
    for f in a b c d; do
        cat <<EOF
int u${i}_$f(int x)
{
    int s = 0;
    for (int k = 0; k < x; k++) {
        if (k & 1)
            s += k * $i;
        else if (k % 3 == 0)
            s -= k;
        else
            s ^= k + $i;
    }
    return s > 100 ? s / 3 : s + 1;
}
EOF
    done
}
build() { # N: prog-N (executable) and libprog-N (main over a -fPIC library)
    local n=$1 d=src-$1
    mkdir -p "$d"
    for i in $(seq 0 $((n - 1))); do unit "$i" > "$d/u$i.c"; done
    printf 'int u0_a(int);\nint main(int argc, char **argv)\n{\n    (void)argv;\n    return u0_a(argc + 4) == 0;\n}\n' > "$d/main.c"
    (cd "$d" && for f in u*.c main.c; do
         gcc -O2 -fplugin="$B/perfinst.so" -I"$top/include" -fplugin-arg-perfinst-all=count -c "$f" -o "${f%.c}.o"
         [ "$f" = main.c ] || gcc -O2 -fPIC -fplugin="$B/perfinst.so" -I"$top/include" -fplugin-arg-perfinst-all=count -c "$f" -o "${f%.c}.pic.o"
     done)
    "$B/perfinst-ld" -O2 -o "prog-$n" "$d"/u*[0-9].o "$d/main.o"
    "$B/perfinst-ld" -O2 -shared -o "libu$n.so" "$d"/u*.pic.o
    "$B/perfinst-ld" -O2 -o "libprog-$n" "$d/main.o" -L. -lu$n -Wl,-rpath,"$PWD"
}
ir() { # PROG [ENV...]: callgrind's total of one run
    local p=$1; shift
    env ${lib:+LD_LIBRARY_PATH=$lib} "$@" valgrind --tool=callgrind --callgrind-out-file=/dev/null "./$p" 2>&1 > /dev/null |
        sed -n 's/.*Collected : //p'
}
out=$work/report.md
{
    echo "## $(date -u '+%Y-%m-%d %H:%M') UTC — a process of N counted units: start and exit (\`PERFINST_BUILD=$B bench/unit-cost.sh --units \"$units\"${lib:+ --lib $lib}\`)"
    echo
    echo "| program | \`PERFINST_OUT=/dev/null\` | \`PERFINST_MODE=off\` | a trace written |"
    echo "| --- | ---: | ---: | ---: |"
    for n in $units; do
        build "$n"
        for p in prog-$n libprog-$n; do
            rm -f t.pit
            echo "| $p | $(ir "$p" PERFINST_OUT=/dev/null) | $(ir "$p" PERFINST_OUT=/dev/null PERFINST_MODE=off) | $(ir "$p" PERFINST_OUT=$PWD/t.pit) |"
        done
    done
} > "$out"
bench_record "$out"
