# timeout: 300
# The clean copies keep gcc -O2's inlining under all=count
# (gcc-plugin/pass-inlsize.cc, body_entry; tests/count/clean-inline.c):
# find(), a hash-chain loop gcc -O2 inlines into get_str and get_any, is
# inlined there with -O2's inline limits too: the counters come out of the
# entries of its summary that run inlined, and the overhead GCC charges a
# call that stays a call is left whole (scaled with the rest, it made find
# look bigger inlined than -O2 sees it, and the clean copies called it, as
# Lua's luaH_getshortstr: bench/RESULTS.md 2026-11-29 23:45).
# With the default (all, its doubled limits), with -O2's limits, and with
# clean-copies=late + counting-opt=lean (-O2's limits, its own); the counts exact,
# the off mode counting nothing.
. "$PERFINST_TOP/tests/lib.sh"
src=$T/count/clean-inline.c
LIM="--param max-inline-insns-auto=15 --param max-inline-insns-single=70"
# calls ASM: calls (or sibling calls) of find in the clean get_str and get_any
calls() { awk '/^get_(str|any):/ { p = 1; next } /^\t\.size/ { p = 0 } p' "$1" | grep -cE '(call|jmp)[[:space:]]+find' || true; }
gcc -O2 -S "$src" -o o2.s
assert_eq "gcc -O2 inlines find into get_str and get_any (the fixture is valid)" 0 "$(calls o2.s)"
want=$(gcc -O2 -o plain "$src" && ./plain)
for v in default o2lim late; do
    case $v in
    default) extra= ;;
    o2lim) extra=$LIM ;;
    late) extra="-fplugin-arg-perfinst-clean-copies=late -fplugin-arg-perfinst-counting-opt=lean" ;;
    esac
    # shellcheck disable=SC2086
    pi_cc -O2 -g -fplugin-arg-perfinst-all=count $extra -S "$src" -o "$v.s"
    assert_eq "$v: the clean get_str and get_any call no find" 0 "$(calls "$v.s")"
    # shellcheck disable=SC2086
    pi_cc -O2 -g -fplugin-arg-perfinst-all=count $extra -c "$src" -o "$v.o"
    pi_ld -O2 -o "$v" "$v.o"
    assert_eq "$v: output" "$want" "$(PERFINST_OUT="$v.pit" ./"$v")"
    python3 "$T/count/check-counts.py" --all "$PMOPT" "./$v" "$src" "$v.pit" > "$v.check" ||
        { cat "$v.check" >&2; fail "$v: counts"; }
    ok "$v: $(tail -1 "$v.check")"
    off_counts_nothing "$v" "$want"
done
