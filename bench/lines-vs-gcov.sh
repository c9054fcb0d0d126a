#!/bin/bash
# lines-vs-gcov.sh — pmopt report's line counts against gcov's, on a real
# program (tests/count/t-cgoto.sh does the same on a small fixture).
#
#   bench/lines-vs-gcov.sh [--cov-opt LEVEL] [--work DIR]
#                          [PROG [WORKLOAD [FILES [FLAG...]]]]   (default: lua all lvm.c)
#
# FILES: one source file's base name, several separated by commas, or
# `all` (every C and C++ source of PROG); a file that #line names (gawk's
# awkgram.y) is compared under its unit's base name; a header (`*.h`,
# gawk's interpret.h) by its lines in every unit, summed.  FLAGs go to the all=count build
# (e.g. -fplugin-arg-perfinst-count-at=cfg).  --cov-opt: the gcov build's
# optimisation (default -O0; -O2 is the level of the all=count build,
# whose CFG count-at=late counts as GCC's own profile pass does).
# --work: where the builds go (default bench/.work/lines/PROG).
#
# Builds PROG (bench/workloads.sh) twice: with all=count and -g (linked by
# perfinst-ld), and with --coverage at LEVEL; runs WORKLOAD at the small
# scale in both; compares, for every line of each file that `pmopt report
# --by=line` lists, its count with gcov's.  Prints per file the lines
# pmopt lists, those gcov lists no code on (with -O2: lines the early
# optimisations folded into PHI arguments, which pmopt counts on their
# edge, as gcov at -O0 does), the rest equal to gcov's or different (the
# differences listed), and the lines gcov counts that pmopt does not list;
# then the sums over the files.  Lua is built with a fixed string-hash
# seed (both runs take the same paths).
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
prog=${1:-lua} wl=${2:-all} files=${3:-lvm.c}
shift $(($# < 3 ? $# : 3))
extra=("$@")
B=${PERFINST_BUILD:-$top/build}
W=${W:-$here/.work/lines/$prog}
mkdir -p "$W" && W=$(cd "$W" && pwd)
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
# (the same environment: a program may read all of it, gawk's ENVIRON)
wl_run "$prog" "$wl" "$W/cov" "$scale" env PERFINST_OUT="$W/count/t.pit" > /dev/null || exit 1
if [ "$files" = all ]; then
    files=$(for f in $(wl_sources "$prog"); do case $f in *.c | *.cc) basename "$f" ;; esac; done)
else
    files=${files//,/ }
fi
"$B/pmopt" report --by=line --format=csv "$W/count/prog" "$W/count/t.pit" > "$W/pi.csv" || exit 1
: > "$W/summary"
for file in $files; do
    base=${file%.*}
    # from the source tree: a file named by a relative #line (a parser
    # bison made: gawk's awkgram.c, `#line 4574 "awkgram.c"`) is found there
    # a header (gawk's interpret.h): its lines in every unit, summed
    units=$base.gcda
    case $file in *.h) units=$(cd "$W/cov/obj" && ls -- *.gcda) ;; esac
    (cd "$WL_SRC" && for u in $units; do gcov -t -o "$W/cov/obj" "$u" 2> /dev/null; done) |
        awk -F: -v f="$file" '/^ *-: *0:Source:/ { src = $4 }
            /^-+$/ { sep = 1; next }    # a line of several functions (C++ templates, a constructor C1/C2): its
            sep { sep = 0; sub_ = $0 !~ /^ / }  # per-function listings follow it, "NAME:" each, already in its count
            sub_ { next }
            src ~ ("(^|/)" f "$") && $1 !~ /-/ && $2 + 0 > 0 { c = $1; gsub(/[ *]/, "", c); if (c ~ /^(#####|=====)$/) c = 0; s[$2 + 0] += c } END { for (l in s) print l, s[l] }' |
        sort -n > "$W/gcov.lines"
    awk -F, -v f="$file" 'NR > 1 && $2 ~ ("(^|/)" f "$") { s[$3] += $1 } END { for (l in s) print l, s[l] }' "$W/pi.csv" | sort -n > "$W/pi.lines"
    awk -v f="$file" -v gf="$W/gcov.lines" 'FILENAME == gf { g[$1] = $2; ng++; next }
         { n++; if (!($1 in g)) none++; else if (g[$1] == $2) eq++; else d[++nd] = "line " $1 ": pmopt " $2 ", gcov " g[$1]; seen[$1] = 1 }
         END { for (l in g) if (!(l in seen)) miss++
               printf "%s: %d lines listed by pmopt report, %d of them gcov lists no code on; of the rest %d equal to gcov'"'"'s, %d different; %d lines gcov counts that pmopt does not list\n", f, n, none, eq, nd, miss
               for (i = 1; i <= nd; i++) print "  " d[i]
               printf "%d %d %d %d %d\n", n, none, eq, nd, miss > "/dev/stderr" }' "$W/gcov.lines" "$W/pi.lines" 2>> "$W/summary"
done
set -- $(awk '{ for (i = 1; i <= 5; i++) t[i] += $i } END { print t[1] + 0, t[2] + 0, t[3] + 0, t[4] + 0, t[5] + 0 }' "$W/summary")
echo "all $(wc -l < "$W/summary") files: $1 lines listed by pmopt, $2 of them gcov lists no code on; of the rest $3 equal to gcov's, $4 different; $5 lines gcov counts that pmopt does not list"
