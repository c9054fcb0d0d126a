# A dispatch loop kept whole keeps a dispatch tail per opcode
# (gcc-plugin/pass-coldsplit.cc, the perfinst_tails passes around "jump2";
# docs/layout.md "Dispatch loops"), on dispatch-tails.c, a threaded
# interpreter whose 15 opcodes end in the same tail (a hook test, the fetch,
# `goto *tab[op]`), trained with opcodes 0-3:
# - with dispatch=split run's 4 trained opcodes and its entry
#   have their own indirect jump (5 in run), the 11 never-run ones share
#   one in run.cold (GCC's compgotos copies no jump across the partitions);
# - with dispatch=small (the default; run is small) and dispatch=whole, run is one piece
#   and each of its 15 opcodes and its entry ends in its own indirect jump:
#   16 (before, GCC's cross-jumping merged the opcodes' tails into one and
#   compgotos had 2);
# - every build prints what -O2 prints on the training input and on all
#   15 opcodes, at -O2 and -O3 with GCC's checking.
. "$PERFINST_TOP/tests/lib.sh"
. "$T/layout/layout-lib.sh"
src=$T/layout/dispatch-tails.c

# ijumps OBJ FUNC: the indirect jumps in FUNC
ijumps() { in_func "$1" "$2" 'on && $2 == "jmp" && $3 ~ /^\*/ { n++ } END { print n + 0 }'; }

dispatch_trained "$src"

for d in split small whole; do
    pi_cc -O2 -fplugin-arg-perfinst-feedback=plan.fb -fplugin-arg-perfinst-dispatch=$d \
        -fplugin-arg-perfinst-verbose -c "$src" -o $d.o 2> $d.err || { cat $d.err; fail "dispatch=$d"; }
done

assert_eq "split: run's indirect jumps" 5 "$(ijumps split.o run)"
assert_eq "split: run.cold's indirect jumps" 1 "$(ijumps split.o run.cold)"
assert_not_contains "split: no dispatch tails kept" split.err "dispatch tails"
ok "dispatch=split: run's 4 trained opcodes and its entry dispatch on their own, the cold ones share one"

assert_contains "small: run kept whole" small.err "split of .run.: a dispatch loop .*: kept whole \(dispatch=small\)"
assert_eq "small: run's indirect jumps, one per opcode and the entry's" 16 "$(ijumps small.o run)"
case " $(syms small.o) " in *" run.cold "*) fail "dispatch=small: run should have no cold part" ;; esac
assert_contains "small: its dispatch kept from cross-jumping" small.err \
    "dispatch tails of .run.: 1 computed jumps kept from cross-jumping"
same_code small.o whole.o "dispatch=small should compile run as dispatch=whole does"
ok "dispatch=small and whole: each of run's 15 opcodes and its entry end in their own indirect jump"

checked_builds "$src" plan.fb dispatch "split small" 2 o2.out o2-2.out
