# clean-copies=all|loops|none (gcc-plugin/copies.cc, pi_single_body): which
# counting functions are compiled twice, a clean copy for the off mode and
# a counting copy, and which keep one body that counts whatever the mode.
# clean-copies.c: flat has no loop, loopy and main have one.  For each
# value, with the counting copies as functions of their own (the default)
# or in the function (counting=inline: pass-split), counted late (the
# default) or at cfg, with counting-opt=fast (asm updates in a single body
# too) or full: the exact counts, the counting copies made (nm), and what
# PERFINST_MODE=off counts — nothing with all, flat's lines with loops,
# everything with none.  A function with a probe keeps its copies.
. "$PERFINST_TOP/tests/lib.sh"
src=$T/count/clean-copies.c
lines() { "$PMOPT" report "$1" "$2" --by=line --format=csv 2> /dev/null |
    awk -F, 'NR > 1 && $1 > 0 { print $3 "=" $1 }' | sort -n | tr '\n' ' '; }
copies() { nm "$1" | awk '$3 ~ /\.count\.[0-9]+$/ { sub(/\.count\.[0-9]+$/, "", $3); print $3 }' | sort | tr '\n' ' '; }
variants=(
  "all|all||flat loopy main "
  "loops|loops||loopy main "
  "none|none||"
  "loops-inline|loops|-fplugin-arg-perfinst-counting=inline|"
  "none-inline|none|-fplugin-arg-perfinst-counting=inline|"
  "loops-cfg|loops|-fplugin-arg-perfinst-count-at=cfg|loopy main "
  "none-full|none|-fplugin-arg-perfinst-counting-opt=full|"
  "loops-O3|loops|-O3|loopy main "
)
for v in "${variants[@]}"; do
    IFS='|' read -r name mode extra want_copies <<< "$v"
    # shellcheck disable=SC2086
    pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-clean-copies=$mode $extra \
        -c "$src" -o "$name.o"
    pi_ld -O2 -o "$name" "$name.o"
    assert_eq "$name: program output" 195 "$(PERFINST_OUT="$name.pit" ./"$name")"
    case $extra in
    *count-at=cfg*) # lines counted as gcov at -O0 (line 18: 45): as with clean-copies=all at cfg
        pi_cc -O2 -g -fplugin-arg-perfinst-all=count $extra -c "$src" -o "$name-ref.o"
        pi_ld -O2 -o "$name-ref" "$name-ref.o"
        PERFINST_OUT="$name-ref.pit" ./"$name-ref" > /dev/null
        assert_eq "$name: lines counted, as with clean-copies=all" "$(lines "./$name-ref" "$name-ref.pit")" \
            "$(lines "./$name" "$name.pit")" ;;
    *)
        python3 "$T/count/check-counts.py" --all "$PMOPT" "./$name" "$src" "$name.pit" > "$name.check" ||
            { cat "$name.check" >&2; fail "$name: counts differ"; }
        ok "$name: $(tail -1 "$name.check")" ;;
    esac
    case $extra in
    *counting=inline*) ;;
    *) assert_eq "$name: the functions with a counting copy" "$want_copies" "$(copies "$name")" ;;
    esac
    assert_eq "$name: PERFINST_MODE=off output" 195 "$(PERFINST_MODE=off PERFINST_OUT="$name-off.pit" ./"$name")"
    on=$(lines "./$name" "$name.pit")
    off=$(lines "./$name" "$name-off.pit")
    case $mode in
    all) assert_eq "$name: lines counted with PERFINST_MODE=off" "" "$off" ;;
    none) assert_eq "$name: lines counted with PERFINST_MODE=off (all, as when on)" "$on" "$off" ;;
    loops) assert_eq "$name: lines counted with PERFINST_MODE=off (flat's, as when on)" "7=10 9=10 10=6 11=4 " "$off" ;;
    esac
done
# loops.c's exact counts (t-variants.sh's fixture: statement regions,
# marked functions and all=count together) with one body everywhere or
# where there is no loop
for mode in loops none; do
    pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-clean-copies=$mode \
        -c "$T/count/loops.c" -o "fix-$mode.o"
    pi_ld -O2 -o "fix-$mode" "fix-$mode.o"
    assert_eq "loops.c, $mode: program output" 822 "$(PERFINST_OUT="fix-$mode.pit" ./"fix-$mode")"
    python3 "$T/count/check-counts.py" --all "$PMOPT" "./fix-$mode" "$T/count/loops.c" "fix-$mode.pit" \
        > "fix-$mode.check" || { cat "fix-$mode.check" >&2; fail "loops.c, $mode: counts differ"; }
    ok "loops.c, $mode: $(tail -1 "fix-$mode.check")"
done
# one body's counter updates are asm (counting-opt=fast, the default) or GCC's (full)
asm_updates() { pi_cc -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-clean-copies=none "$@" \
    -S "$src" -o - | awk '/^#APP/ { a = 1 } /^#NO_APP/ { a = 0 } a && /addq \$[0-9]+, /' | wc -l; }
[ "$(asm_updates)" -gt 0 ] || fail "clean-copies=none: no counter update as an asm"
assert_eq "clean-copies=none, counting-opt=full: counter updates as asm" 0 \
    "$(asm_updates -fplugin-arg-perfinst-counting-opt=full)"
# a function with a probe (combine=all: entry and exit probes in every
# counted function) keeps both copies, and the off mode stops it
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-clean-copies=none \
    -fplugin-arg-perfinst-combine=all -c "$src" -o probes.o
pi_ld -O2 -o probes probes.o
assert_eq "none with probes: the functions with a counting copy" "flat loopy main " "$(copies probes)"
assert_eq "none with probes: PERFINST_MODE=off output" 195 "$(PERFINST_MODE=off PERFINST_OUT=probes-off.pit ./probes)"
assert_eq "none with probes: lines counted with PERFINST_MODE=off" "" "$(lines ./probes probes-off.pit)"
# a bad value is an error naming the values
if pi_cc -fplugin-arg-perfinst-clean-copies=some -c "$src" -o bad.o 2> bad.err; then
    fail "clean-copies=some was accepted"
fi
assert_contains "clean-copies=some: the error" bad.err "clean-copies=some.*expected .all., .loops., .none., .late. or .final."
