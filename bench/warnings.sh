#!/bin/bash
# bench/warnings.sh [--record] [--only NAME[,NAME...]] [--opt "FLAGS"] —
# instrumentation adds no warning of its own (issue 14): each of
# bench/projects.sh's real projects (bench/projects/NAME.sh: lua, zstd,
# leveldb, jq, fribidi), built by its own build system twice from fresh
# copies of its Debian source package,
#   plain   CFLAGS=CXXFLAGS="FLAGS -g -Wall -Wextra"
#   count   the same + `pkg-config --cflags perfinst` (the build tree's
#           perfinst-uninstalled.pc), -fplugin-arg-perfinst-all=count and
#           -fplugin-arg-perfinst-sections; LDFLAGS=`pkg-config --libs perfinst`
# and the warnings GCC printed (lines "FILE:LINE:COL: warning: ..."; the
# tree's path taken out) are compared: their number, and each warning one
# build gave and the other did not.  FLAGS is -O2 unless --opt says
# otherwise.  A -Werror build of the project builds with the flags exactly
# when the count build gives no warning the plain build does not.
#
#   --record   append the table to bench/RESULTS.md
#   --only     these projects (default: all five)
#   --opt      the optimisation flags (e.g. "-O3", "-O2 -fPIC")
#   --table    no builds: the table of the builds last made
#
# Work files: bench/.work/warnings/NAME/{plain,count} (never committed), the
# warnings of each in NAME/VARIANT.warnings; sources from $CACHE/debsrc
# (bench/fetch-debsrc.sh).  Exit status 1 when some project's count build
# gave a warning its plain build did not, or a build failed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
W=${W:-$here/.work/warnings}
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
ALL="lua zstd leveldb jq fribidi"
record=0 only=$ALL opt=-O2 table_only=0
while [ $# -gt 0 ]; do
    case $1 in
    --record) record=1; shift ;;
    --only) only=${2//,/ }; shift 2 ;;
    --opt) opt=$2; shift 2 ;;
    --table) table_only=1; shift ;;
    -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "warnings.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
[ -f "$top/build/perfinst-uninstalled.pc" ] || { echo "warnings.sh: build perfinst first (make)" >&2; exit 1; }
export PKG_CONFIG_PATH=$top/build
PI_CFLAGS=$(pkg-config --cflags perfinst)
PI_LDFLAGS=$(pkg-config --libs perfinst)
say() { echo "warnings.sh: $(date -u +%T) $*" >&2; }

# build NAME V: the project built in $PW/V; its warnings in $PW/V.warnings
build() {
    local v=$1 t=$PW/$1 f=() l=()
    project_tree "$SRC" "$P_PKG" "$P_TREE" "$t"
    [ "$v" = count ] && f=($PI_CFLAGS -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-sections) l=($PI_LDFLAGS)
    say "$NAME: building $v"
    (
        cd "$t"
        export CC=gcc CXX=g++ CFLAGS="$opt -g -Wall -Wextra ${f[*]}" CXXFLAGS="$opt -g -Wall -Wextra ${f[*]}" LDFLAGS="${l[*]}"
        p_build || { echo "warnings.sh: $NAME: the $v build failed (see $t/build.log)" >&2; exit 1; }
    ) || return 1
    # every log the build wrote, its tree's paths taken out
    cat "$t/build.log" | grep -E '^[^ ]+:[0-9]+:[0-9]+: warning: ' | sed "s|$t/||g; s|^\(\.\./\)*||" > "$PW/$v.warnings" || true
}

mkdir -p "$W"
rows=() status=0
for NAME in $only; do
    PW=$W/$NAME
    mkdir -p "$PW"
    # shellcheck source=/dev/null
    . "$here/projects/$NAME.sh"
    P_DIR=$here/projects
    if [ "$table_only" = 0 ]; then
        rm -f "$PW"/*.warnings "$PW/opt"
        SRC=$(project_source "$PW/apt.log") && build plain && build count && echo "$opt" > "$PW/opt" || true
    fi
    if [ ! -f "$PW/opt" ]; then
        rows+=("| $NAME | ${P_PKG#*=} | | build failed | | | |"); status=1; continue
    fi
    sort "$PW/plain.warnings" > "$PW/plain.sorted"; sort "$PW/count.warnings" > "$PW/count.sorted"
    comm -13 "$PW/plain.sorted" "$PW/count.sorted" > "$PW/added"
    comm -23 "$PW/plain.sorted" "$PW/count.sorted" > "$PW/lost"
    np=$(wc -l < "$PW/plain.warnings") nc=$(wc -l < "$PW/count.warnings")
    na=$(wc -l < "$PW/added") nl=$(wc -l < "$PW/lost")
    [ "$na" = 0 ] || status=1
    say "$NAME: plain $np warnings, count $nc; $na only with perfinst, $nl only without"
    sed 's/^/  only with perfinst: /' "$PW/added" | head -20 >&2
    sed 's/^/  only without: /' "$PW/lost" | head -20 >&2
    rows+=("| $NAME | ${P_PKG#*=} | $(cat "$PW/opt") | $np | $nc | $na | $nl |")
done

table=$(
    echo "| project | Debian version | flags | warnings plain | warnings with perfinst | only with perfinst | only without |"
    echo "| --- | --- | --- | --- | --- | --- | --- |"
    printf '%s\n' "${rows[@]}"
)
echo "$table"
if [ "$record" = 1 ]; then
    {
        echo
        echo "## Warnings with and without perfinst's flags ($(date -u +'%Y-%m-%d %H:%M') UTC)"
        echo
        echo "\`bench/warnings.sh --only ${only// /,} --opt \"$opt\" --record\` (gcc $(gcc -dumpfullversion)):"
        echo "each project built by its own build system with CFLAGS/CXXFLAGS=\"FLAGS -g -Wall -Wextra\","
        echo "then again with perfinst's flags, -fplugin-arg-perfinst-all=count and"
        echo "-fplugin-arg-perfinst-sections added (LDFLAGS from pkg-config --libs perfinst);"
        echo "the warnings are GCC's lines \`FILE:LINE:COL: warning:\`, compared as text."
        echo
        echo "$table"
    } >> "$here/RESULTS.md"
fi
exit $status
