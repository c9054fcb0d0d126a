# Exact block counts of a program with known control flow (loops.c), for
# every way of building it: -O0/-O2/-O3, PIE and non-PIE, -flto, the static
# runtime, and all=count on top of the directives (its counting copies
# compiled with counting-opt=fast, the default, and with counting-opt=full;
# fast's counter updates are one asm each, in the local-exec TLS model of
# executables, spelled for -masm=intel too, and through the counters'
# offset in a register under -fPIC's dynamic models).
. "$PERFINST_TOP/tests/lib.sh"
src=$T/count/loops.c
variants=(
  "O0|-O0 -g|"
  "O2|-O2 -g|"
  "O3|-O3 -g -funroll-loops|"
  "pie|-O2 -fPIE|-pie"
  "nopie|-O2 -fno-PIE|-no-pie"
  "lto|-O2 -flto|-flto -fplugin=$PLUGIN"
  "static-runtime|-O2|--pi-static-runtime"
  "all|-O2 -fplugin-arg-perfinst-all=count|"
  "full|-O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-counting-opt=full|"
  "allpic|-O2 -fPIC -fplugin-arg-perfinst-all=count|"
  "allintel|-O2 -masm=intel -fplugin-arg-perfinst-all=count|"
)
for v in "${variants[@]}"; do
    IFS='|' read -r name cflags ldflags <<< "$v"
    pi_cc $cflags -c "$src" -o "$name.o"
    pi_ld $cflags $ldflags -o "$name" "$name.o"
    out=$(PERFINST_OUT="$name.pit" ./"$name")
    assert_eq "$name: program output" 822 "$out"
    all=""
    case $name in all*|full) all=--all ;; esac
    python3 "$T/count/check-counts.py" $all "$PMOPT" "./$name" "$src" "$name.pit" > "$name.check" ||
        { cat "$name.check" >&2; fail "$name: counts differ"; }
    ok "$name: $(tail -1 "$name.check")"
done
# fast: the counting copies' updates are asm statements; full: GCC's own code
asm_updates() { pi_cc -O2 -fplugin-arg-perfinst-all=count "$@" -S "$src" -o - |
    awk '/^#APP/ { a = 1 } /^#NO_APP/ { a = 0 } a && /addq \$[0-9]+, /' | wc -l; }
[ "$(asm_updates)" -gt 0 ] || fail "counting-opt=fast: no counter update as an asm"
assert_eq "counting-opt=full: counter updates as asm" 0 "$(asm_updates -fplugin-arg-perfinst-counting-opt=full)"
# -fPIC (a dynamic TLS model): asms too, every one through the offset
# pass-tls.cc loads (the local-exec form would not link into a shared object)
[ "$(asm_updates -fPIC)" -gt 0 ] || fail "-fPIC: no counter update as an asm"
pi_cc -O2 -fplugin-arg-perfinst-all=count -fPIC -S "$src" -o pic.s
assert_not_contains "-fPIC: no update at a local-exec offset" pic.s '@tpoff'

# PIE vs non-PIE really differ in kind, and no dynamic relocation comes from perfinst
readelf -h pie | grep -q "DYN" || fail "pie is not ET_DYN"
readelf -h nopie | grep -q "EXEC" || fail "nopie is not ET_EXEC"
# the only dynamic relocations perfinst adds are the runtime's symbols (and the
# jump slots' R_X86_64_RELATIVE: one per split function, docs/indicators.md)
readelf -rW pie | grep perfinst | grep -vE "__perfinst_(on|register_unit|register_functions|register_jumps|unregister_unit)" &&
    fail "unexpected dynamic relocations in PIE"
readelf -SW pie | grep -E "\.perfinst" | grep -E " WA? | A " && fail ".perfinst sections must not be allocated"
ok "PIE is ET_DYN, non-PIE is ET_EXEC, perfinst metadata is not loaded and needs no dynamic relocation"
# with counting off, nothing is counted and the output is the same
out=$(PERFINST_MODE=off PERFINST_OUT=off.pit ./O2)
assert_eq "PERFINST_MODE=off output" 822 "$out"
"$PMOPT" report ./O2 off.pit --by=line --format=csv > off.csv
assert_eq "PERFINST_MODE=off: counted lines" 0 "$(tail -n +2 off.csv | awk -F, '$1 > 0' | wc -l)"
