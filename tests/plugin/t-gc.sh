# timeout: 900
# GCC's garbage collector, made to collect at every chance (--param
# ggc-min-expand=0 --param ggc-min-heapsize=0: after every pass and after
# each function the front end finishes), frees nothing the plugin still
# uses.  A large unit collects so for real; a small one with these params.
# Two faults it found: the unit's registration functions were finalized
# with add_new_function, which collects while parsing, and freed the trees
# the next one was being made of (every all=count unit: "internal compiler
# error: in gimplify_expr"); and the plugin's decls and types cached in
# statics were no roots of the collector (plugin.h, pi_gc_root).  Checked:
# exact counts and the program's output, compiled so, in the modes whose
# code differs (clean copies final, late, none; -fPIC; -O0; C++ with
# exceptions; indirect calls), and sharing=all and the statement
# directives compile so.
. "$PERFINST_TOP/tests/lib.sh"
command -v g++ > /dev/null || skip "g++ is not installed (its C++ cases)"
GC="--param ggc-min-expand=0 --param ggc-min-heapsize=0"
# exact NAME SRC CC ARGS...: compiled with GC forced and without, linked,
# run: the same code, -O2's output, every line's count as without GC forced, and exact
# (check-counts.py) unless NAME is o0 (-O0's lines are gcov -O0's, whose
# runs differ from the comments': t-clean-copies.sh)
exact() {
    local name=$1 src=$2 cc=$3 want a ref=()
    shift 3
    for a in "$@"; do case $a in -fplugin-arg-*) ;; *) ref+=("$a") ;; esac; done
    want=$($cc -O2 "${ref[@]}" -I"$PERFINST_TOP/include" -c "$src" -o "$name-ref.o" &&
        pi_ld -O2 -o "$name-ref" "$name-ref.o" && ./"$name-ref")
    # shellcheck disable=SC2086
    $cc -fplugin="$PLUGIN" -I"$PERFINST_TOP/include" $GC -O2 -g -fplugin-arg-perfinst-all=count "$@" \
        -c "$src" -o "$name.o" 2> "$name.err" || fail "$name: the compile with GC forced: $(grep -m3 -E 'error|internal' "$name.err")"
    $cc -fplugin="$PLUGIN" -I"$PERFINST_TOP/include" -O2 -g -fplugin-arg-perfinst-all=count "$@" -c "$src" -o "$name-n.o"
    # the collector's pace changes no code (nor the unit's id: unit.cc;
    # -g's producer string names the params)
    objdump -dr "$name.o" | tail -n +3 > "$name.dis"
    objdump -dr "$name-n.o" | tail -n +3 > "$name-n.dis"
    cmp -s "$name.dis" "$name-n.dis" || { diff "$name.dis" "$name-n.dis" | head; fail "$name: GC forced made other code"; }
    pi_ld -O2 -o "$name" "$name.o"
    pi_ld -O2 -o "$name-n" "$name-n.o"
    if [ "$name" = o0 ]; then
        assert_eq "$name (GC forced): the program's result" "$want" "$(PERFINST_OUT=$name.pit ./"$name")"
    else
        run_exact "$name" "$src" "$want" "$name (GC forced)"
    fi
    PERFINST_OUT=$name-n.pit ./"$name-n" > /dev/null
    same_line_counts "$name: GC forced, as without" "./$name" "$name.pit" "./$name-n" "$name-n.pit"
}
exact final "$T/count/final.c" gcc
exact late "$T/count/clean-copies.c" gcc -fplugin-arg-perfinst-clean-copies=late
exact none "$T/count/loops.c" gcc -fplugin-arg-perfinst-clean-copies=none
exact pic "$T/count/final.c" gcc -fPIC
exact o0 "$T/count/final.c" gcc -O0
exact exc "$T/count/flow-exc.cc" g++

# the other instrumentations compile so (their own tests run them)
n=0
for f in "$T"/sharing/loops.c "$T"/sharing/layout.c "$T"/sharing/ctor-pool.cc; do
    case $f in *.cc) cc=g++ ;; *) cc=gcc ;; esac
    # shellcheck disable=SC2086
    $cc -fplugin="$PLUGIN" -I"$PERFINST_TOP/include" -I"$T/sharing" $GC -O2 -fplugin-arg-perfinst-sharing=all \
        -c "$f" -o x.o 2> err || fail "$(basename "$f"), sharing=all, GC forced: $(grep -m3 -E 'error|internal' err)"
    n=$((n + 1))
done
# the directives: counters, thresholds, regions, sampling, run-time
# instrumentation (each compiles without GC forced: plugin/t-*.sh, ri/)
for f in "$T"/indicators/{regions,thresh,types,watch}.c "$T"/ri/{count,region,events}.c "$T"/sampling/marked.c; do
    # shellcheck disable=SC2086
    gcc -fplugin="$PLUGIN" -I"$PERFINST_TOP/include" $GC -O2 -c "$f" -o x.o 2> err ||
        fail "$(basename "$f"), its directives, GC forced: $(grep -m3 -E 'error|internal' err)"
    n=$((n + 1))
done
ok "$n more units compile with GC forced"
