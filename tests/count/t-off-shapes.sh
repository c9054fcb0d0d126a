# The off mode covers every function (issue 15: "off mode covers every
# function, computed goto included"), not only those pass-countfn.cc makes
# a counting function of their own: offshapes.c's variadic vsum, mkbig
# (returns an aggregate in memory) and outer's nested inner are copied
# within the function by pass-split.cc, threaded (computed goto through a
# static table) gets a table of its own (copy_label_tables), vla has a
# variable-length array, jumpy calls setjmp (split as any function, its
# copy calling setjmp too).  At -O2, -O2 -fPIC, -O1 and -O0: every line
# count is exact (the expect-count comments, worked out by hand) and, with
# PERFINST_MODE=off, the program prints the same and no line of
# offshapes.c counts — but at -O1 and -O0 threaded's and jumpy's: where
# GCC makes no sibling calls (-O1, -O0, -fno-optimize-sibling-calls) and
# with -flto, pass-countfn.cc splits nothing, and pass-split.cc cannot
# copy a computed-goto or setjmp function, which then keeps one body that
# counts whatever the mode, as a function with nonlocal labels does
# (docs/indicators.md "Overlays").
. "$PERFINST_TOP/tests/lib.sh"
src=$T/count/offshapes.c
# threaded's lines and jumpy's (one body at -O1 and -O0)
t0=$(grep -n 'static long threaded' "$src" | cut -d: -f1)
t1=$(awk -v a="$t0" 'NR > a && /^}/ { print NR; exit }' "$src")
j0=$(grep -n 'static long jumpy' "$src" | cut -d: -f1)
j1=$(awk -v a="$j0" 'NR > a && /^}/ { print NR; exit }' "$src")
i=0
for opt in "-O2" "-O2 -fPIC" "-O1" "-O0"; do
    i=$((i + 1))
    # shellcheck disable=SC2086  # $opt is one or two flags
    pi_cc $opt -g -std=gnu11 -fplugin-arg-perfinst-all=count -c "$src" -o s$i.o
    # shellcheck disable=SC2086
    pi_ld $opt -o s$i s$i.o
    rm -f s$i.off.pit
    run_exact s$i "$src" 43785 "$opt" 100
    PERFINST_MODE=off PERFINST_OUT=s$i.off.pit ./s$i 100 > s$i.off.out || fail "$opt: offshapes failed with PERFINST_MODE=off"
    assert_eq "$opt, off: the program's result" 43785 "$(cat s$i.off.out)"
    "$PMOPT" report ./s$i s$i.off.pit --by=line --format=csv > s$i.off.csv 2> s$i.off.err ||
        { cat s$i.off.err; fail "$opt, off: pmopt report"; }
    awk -F, -v o="$opt" -v t0="$t0" -v t1="$t1" -v j0="$j0" -v j1="$j1" 'NR > 1 && $2 ~ /offshapes\.c$/ && $1 > 0 &&
                         !(o ~ /^-O[01]$/ && ($3 >= t0 && $3 <= t1 || $3 >= j0 && $3 <= j1))' s$i.off.csv > s$i.off.lines
    [ ! -s s$i.off.lines ] || { cat s$i.off.lines; fail "$opt, off: lines of offshapes.c counted with the mode off"; }
    ok "$opt, off: no line counted"
done
