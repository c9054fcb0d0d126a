# bench/suite-link.sh — how bench/suite.sh links a variant at a layout
# P+N@M (sourced by it and by tests/layout/t-suite-layouts.sh): the
# padding objects, the redraw's place in the object list and, in a program
# of one big object, among its cold sections (docs/layout.md "The layouts").
# The caller sets W (where the padding objects are made), REDRAW_AT and
# REDRAW_SPLIT (associative arrays by program) and objs P D (the objects of
# program P made in directory D, in link order).
# shellcheck shell=bash
# int3_obj OUT SECTION BYTES: OUT, an object whose one code section SECTION
# holds BYTES of int3 (none for 0)
int3_obj() {
    { echo ".section $2,\"ax\",@progbits"; [ "$3" = 0 ] || echo ".skip $3, 0xcc"
      echo '.section .note.GNU-stack,"",@progbits'; } | as -o "$1" -
}
# at_share S [N]: of the lines on stdin, the one at the share S (the
# int(n × S)-th of n, the first at least) and the N-1 after it (N: 1);
# nothing for none
at_share() { awk -v s="$1" -v n="${2:-1}" '{ l[NR] = $0 } END { k = int(NR * s); if (k < 1) k = 1; for (i = k; i <= NR && i < k + n; i++) print l[i] }'; }
# padding NAME BYTES: an object whose one section, .text.unlikely.NAME, is
# BYTES (none for 0: a shift 0+N links an empty pad_obj)
padding() {
    local o=$W/$1-$2.o
    [ -f "$o" ] || int3_obj "$o" ".text.unlikely.$1" "$2"
    echo "$o"
}
# pad_obj PAD: PAD bytes in .text.unlikely.zz_pad; linked first it precedes
# every other .text input in ld's default script
pad_obj() { padding zz_pad "$1"; }
# ipad_obj N: N bytes in .text.unlikely.zzzz_ipad; linked last it follows
# every cold input (the cold tier, the cold parts) and precedes the hot
# code, which it moves N bytes against them
ipad_obj() { padding zzzz_ipad "$1"; }
# hot_ipad_obj N M: the padding after the cold inputs of a build with
# ordered hot code (a rebuild) at P+N@M.  The redraw's padding @M lies
# among the cold inputs, which ld puts before the hot code, so it moves
# the hot code M bytes against libc as well; with REDRAW_HOT=stays (the
# suite's default) this padding is (N - M) mod 4096 bytes instead of N, so
# that the hot code keeps P+N's offset in the I1's sets, as BOLT's hot text
# does at every redraw (only the cold code after the redraw's place, and
# the ordered code after the cut, move); with moves it is N
hot_ipad_obj() {
    if [ "${REDRAW_HOT:-stays}" = stays ] && [ "$2" != 0 ]; then
        ipad_obj $(((4096 + $1 % 4096 - $2 % 4096) % 4096))
    elif [ "$1" != 0 ]; then
        ipad_obj "$1"
    fi
}
# mid_obj M: M bytes in .text.unlikely.zz_mid, the redraw's padding among
# the cold inputs; tmid_obj M: M bytes of .text, its place in BOLT's input
# link (where llvm-bolt leaves the code the profile does not name)
mid_obj() { padding zz_mid "$1"; }
tmid_obj() {
    local o=$W/zz_midt-$1.o
    [ -f "$o" ] || int3_obj "$o" .text "$1"
    echo "$o"
}
# hot_obj D M SHARE: a redraw inside the ordered hot code of the rebuild
# in D (its functions in .text.sorted.RANK.NAME: docs/layout.md, "Function
# order in the rebuild"): D/hotpad-SHARE-M.o, whose one section
# .text.sorted.RANK~hotpad holds M bytes of int3, RANK the rank at SHARE of
# the ranks of D's objects (at_share, in order); ld's
# SORT(.text.sorted.*) puts it right after the functions of that rank
# (`.` sorts before `~`), so the ordered code after it moves M bytes
# against the ordered code before it.  Nothing for M = 0, no SHARE, or
# fewer than two ranks
hot_obj() {
    local d=$1 m=$2 s=$3 ranks f
    [ "$m" != 0 ] && [ -n "$s" ] || return 0
    ranks=$(for f in "$d"/obj/*.o; do readelf -SW "$f"; done |
        sed -n 's/^ *\[ *[0-9]*\] \.text\.sorted\.\([0-9][0-9]*\)\.[^ ]* .*/\1/p' | sort -u)
    [ "$(echo "$ranks" | grep -c . || true)" -ge 2 ] || return 0
    int3_obj "$d/hotpad-$s-$m.o" ".text.sorted.$(echo "$ranks" | at_share "$s")~hotpad" "$m" || return 1
    echo "$d/hotpad-$s-$m.o"
}
# redraw_script P D M: for a program of one big object (REDRAW_SPLIT[P]),
# the redraw's padding among that object's cold inputs: -Wl,-T,D/redraw.ld,
# a script inserted before ld's default .text that lists the first half of
# the object's .text.unlikely* input sections (in their order), then
# .text.unlikely.zz_mid, then .text's default inputs — the second half of
# the object's cold sections, and everything after them, move M bytes.
# Nothing for M = 0, another program, or an object with fewer than two
# such sections (-O2's one .text.unlikely, BOLT's input: the padding then
# lies after the object, as objs_at puts it)
redraw_script() {
    local p=$1 d=$2 m=$3 o n
    [ "$m" != 0 ] && [ -n "${REDRAW_SPLIT[$p]:-}" ] || return 0
    o=$d/obj/${REDRAW_SPLIT[$p]}.o
    if [ ! -s "$d/redraw.ld" ] || [ "$d/redraw.ld" -ot "$o" ]; then
        readelf -SW "$o" | sed -n 's/^ *\[ *[0-9]*\] \(\.text\.unlikely[^ ]*\) .*/\1/p' > "$d/redraw.list"
        n=$(wc -l < "$d/redraw.list")
        if [ "$n" -lt 2 ]; then : > "$d/redraw.ld"; else
            { echo "/* bench/suite.sh: the redraw's padding after $((n / 2)) of the $n cold input sections of $(basename "$o") */"
              echo 'SECTIONS {'
              echo '  .text : {'
              echo '    *(.text.unlikely.zz_pad)'
              echo "    *$(basename "$o")("
              head -n $((n / 2)) "$d/redraw.list" | sed 's/^/      /'
              echo '    )'
              echo '    *(.text.unlikely.zz_mid)'
              echo '    *(.text.unlikely .text.*_unlikely .text.unlikely.*)'
              echo '    *(.text.exit .text.exit.*)'
              echo '    *(.text.startup .text.startup.*)'
              echo '    *(.text.hot .text.hot.*)'
              echo '    *(SORT(.text.sorted.*))'
              echo '    *(.text .stub .text.* .gnu.linkonce.t.*)'
              echo '    *(.gnu.warning)'
              echo '  }'
              echo '} INSERT BEFORE .text;'; } > "$d/redraw.ld"
        fi
    fi
    [ ! -s "$d/redraw.ld" ] || echo "-Wl,-T,$d/redraw.ld"
}
# shift_parts SHIFT: "P N M" of a shift P, P+N, P@M or P+N@M
shift_parts() {
    local s=${1%%@*} m=0
    [ "$s" = "$1" ] || m=${1#*@}
    case $s in *+*) echo "${s%%+*} ${s#*+} $m" ;; *) echo "$s 0 $m" ;; esac
}
# objs_at P D M [MIDOBJ]: objs P D with the redraw's padding MIDOBJ (default
# mid_obj M) after the object REDRAW_AT[P] (none for M = 0)
objs_at() {
    local o m=${4:-}
    [ "$3" = 0 ] || [ -n "$m" ] || m=$(mid_obj "$3")
    for o in $(objs "$1" "$2"); do
        echo "$o"
        [ "$3" = 0 ] || [ "$(basename "$o" .o)" != "${REDRAW_AT[$1]}" ] || echo "$m"
    done
}
