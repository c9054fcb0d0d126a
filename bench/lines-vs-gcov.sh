#!/bin/bash
# lines-vs-gcov.sh — pmopt report's line counts against gcov's, on a real
# program (tests/count/t-cgoto.sh does the same on a small fixture).
#
#   bench/lines-vs-gcov.sh [--cov-opt LEVEL] [--work DIR]
#                          [PROG [WORKLOAD [FILE [FLAG...]]]]   (default: lua all lvm.c)
#
# FLAGs go to the all=count build (e.g. -fplugin-arg-perfinst-count-at=cfg).
# --cov-opt: the gcov build's optimisation (default -O0; -O2 is the level
# of the all=count build, whose CFG count-at=late counts as GCC's own
# profile pass does).  --work: where the builds go (default
# bench/.work/lines/PROG).
#
# Builds PROG (bench/workloads.sh) twice: with all=count and -g (linked by
# perfinst-ld), and with -O0 --coverage (gcov's blocks are then the
# source's, as the count pass at cfg sees them); runs WORKLOAD
# at the small scale in both; compares, for every line of FILE that
# `pmopt report --by=line` lists, its count with gcov's.  Prints the number
# of lines compared, equal and different (the differences listed), and the
# lines gcov counts that pmopt does not list (a block's second and later
# lines, label lines: pmopt gives a block its first line only).  Lua is
# built with a fixed string-hash seed (both runs take the same paths).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
. "$here/workloads.sh"
covopt=-O0 W=
while [ $# -gt 0 ]; do
    case $1 in
    --cov-opt) covopt=$2; shift 2 ;;
    --work) W=$2; shift 2 ;;
    *) break ;;
    esac
done
prog=${1:-lua} wl=${2:-all} file=${3:-lvm.c}
shift $(($# < 3 ? $# : 3))
extra=("$@")
B=${PERFINST_BUILD:-$top/build}
W=${W:-$here/.work/lines/$prog}
wl_fetch "$prog" || exit 1
# the two runs must take the same paths: Lua seeds its string hashes from
# the time and from addresses (lstate.c luai_makeseed), which differ
# between the two builds; a fixed seed makes them the same
det=()
[ "$prog" = lua ] && det=('-Dluai_makeseed(L)=0u')
wl_build "$prog" "$W/count" pild -O2 -g -fplugin="$B/perfinst.so" -fplugin-arg-perfinst-all=count "${extra[@]}" "${det[@]}" || exit 1
wl_build "$prog" "$W/cov" gcc "$covopt" --coverage "${det[@]}" || exit 1
scale=$(wl_scale "$prog" small)
rm -f "$W"/count/*.pit "$W"/cov/obj/*.gcda
wl_run "$prog" "$wl" "$W/count" "$scale" env PERFINST_OUT="$W/count/t.pit" > /dev/null || exit 1
wl_run "$prog" "$wl" "$W/cov" "$scale" > /dev/null || exit 1
base=${file%.c}
(cd "$W/cov/obj" && gcov -t "$base.gcda" 2> /dev/null) |
    awk -F: -v f="$file" '/^ *-: *0:Source:/ { src = $4 } src ~ ("(^|/)" f "$") && $1 !~ /-/ && $2 + 0 > 0 { c = $1; gsub(/[ *]/, "", c); if (c ~ /^(#####|=====)$/) c = 0; print $2 + 0, c }' |
    sort -n > "$W/gcov.lines"
"$B/pmopt" report --by=line --format=csv "$W/count/prog" "$W/count/t.pit" |
    awk -F, -v f="$file" 'NR > 1 && $2 ~ ("(^|/)" f "$") { print $3, $1 }' | sort -n > "$W/pi.lines"
awk 'NR == FNR { g[$1] = $2; next }
     { n++; if (($1 in g) && g[$1] == $2) eq++; else d[++nd] = "line " $1 ": pmopt " $2 ", gcov " (($1 in g) ? g[$1] : "none") }
     END { printf "'"$file"': %d lines listed by pmopt report, %d equal to gcov'"'"'s, %d different\n", n, eq, nd
           for (i = 1; i <= nd; i++) print "  " d[i] }' "$W/gcov.lines" "$W/pi.lines"
echo "gcov counts $(wc -l < "$W/gcov.lines") lines of $file, executed or not (pmopt lists a block's first line only)"
