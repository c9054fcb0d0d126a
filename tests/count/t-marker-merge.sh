# timeout: 300
# A body kept whole (clean-copies=late, none, loops) has its counter updates
# written as one asm each (copies.cc, pi_counters_as_asm); an update that
# opens its block, right after the block's site marker, is written in the
# marker's asm: `# perfinst site U S\n\t{addq $1, %%fs:...}`, one statement
# and one RTL insn less for every pass after (sqlite3.c: 20,591 of 62,795
# markers).  pass-ranges.cc then starts site S's range at that asm and
# keeps its update.  Checked: merged asms exist; each merged site's range
# in the counting copy starts at its `addq $0x1,%fs:` and holds it; no
# marker text reaches the assembly; the exact counts and the off mode;
# under -fPIC and counter-address=base (pass-tls.cc rebases the update onto
# a register) the marker is an asm of its own again and every update goes
# through the register.  The copies split right after IPA (clean-copies=all)
# merge nothing: at -O2 one statement less in a block lets jump threading
# copy more of it.
. "$PERFINST_TOP/tests/lib.sh"
LATE="-fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-clean-copies=late -fplugin-arg-perfinst-counting-opt=lean"
src=$T/count/clean-copies.c
# merged DUMP: the sites of the merged asms in a -fdump-tree-optimized dump
merged() { awk '/__asm__ __volatile__\("# perfinst site [0-9a-f]+ [0-9]+$/ { s = $NF; next }
                s != "" && /^[[:space:]]*\{addq \$/ { print s } { s = "" }' "$1" | sort -n | tr '\n' ' '; }

# 1. late + lean: merged asms; each merged site's range starts at its update
# shellcheck disable=SC2086
pi_cc -O2 -g $LATE -fdump-tree-optimized=late.opt -c "$src" -o late.o
# shellcheck disable=SC2086
pi_cc -O2 -g $LATE -S "$src" -o late.s
sites=$(merged late.opt)
[ -n "$sites" ] || fail "late: no update merged with its site marker"
ok "late: updates merged with their site markers at sites $sites"
assert_eq "late: no site marker text in the assembly" 0 "$(grep -c 'perfinst site' late.s || true)"
"$PMOPT" dump-meta late.o > late.meta
objdump -dr --no-show-raw-insn late.o > late.dis
for s in $sites; do
    # the counting copy's range of site s: section and offset, length
    r=$(awk -v s="$s" '$2 ~ /\.count\.[0-9]+\+0x/ && $5 == s && $4 == "count" { print $2, $3; exit }' late.meta)
    [ -n "$r" ] || fail "late: merged site $s has no range in a counting copy"
    read -r at len <<< "$r"
    sec=${at%%+*}
    off=$(printf '%x' "$((${at#*+}))")
    [ "$len" -ge 10 ] || fail "late: merged site $s's range is $len bytes: not its 10-byte update and more"
    # the instruction at that offset in that section
    first=$(awk -v sec="Disassembly of section $sec:" -v at="$off:" '
        $0 == sec { on = 1; next } /^Disassembly of section/ { on = 0 }
        on && $1 == at { $1 = ""; print; exit }' late.dis)
    case $first in
    *'add'*' $0x1,%fs:'*) ;;
    *) fail "late: merged site $s's range ($r) starts with '$first', not its counter update" ;;
    esac
done
ok "late: each merged site's range starts at its counter update"
pi_ld -O2 -o late late.o
run_exact late "$src" 195 "late + lean"
assert_eq "late + lean, PERFINST_MODE=off: output" 195 "$(PERFINST_MODE=off PERFINST_OUT=off.pit ./late)"
assert_eq "late + lean, PERFINST_MODE=off: lines counted" "" \
    "$("$PMOPT" report ./late off.pit --by=line --format=csv 2> /dev/null | awk -F, 'NR > 1 && $1 > 0')"

# 2. an update rebased onto a register (pass-tls.cc, after the last GIMPLE
# pass): its marker an asm of its own again, so every site keeps its range
ranged() { "$PMOPT" dump-meta "$1" | awk '$2 ~ /\.count\.[0-9]+\+0x/ && $4 == "count" { print $5 }' | sort -nu | tr '\n' ' '; }
want=$(ranged late.o)
for extra in -fPIC -fplugin-arg-perfinst-counter-address=base; do
    name=base${extra//[^a-zA-Z]/}
    # shellcheck disable=SC2086
    pi_cc -O2 -g $LATE $extra -S "$src" -o $name.s
    # shellcheck disable=SC2086
    pi_cc -O2 -g $LATE $extra -c "$src" -o $name.o
    assert_eq "$extra: no site marker text in the assembly" 0 "$(grep -c 'perfinst site' $name.s || true)"
    assert_eq "$extra: the sites with a range in a counting copy" "$want" "$(ranged $name.o)"
done
assert_eq "-fPIC: no update at a local-exec offset" 0 "$(grep -c '__perfinst_ctr@tpoff' basefPIC.s || true)"
[ "$(grep -c 'addq \$1, %fs:[0-9]*(%r' basefPIC.s)" -gt 0 ] || fail "-fPIC: no update through a register"
ok "-fPIC, counter-address=base: updates rebased, every site's range kept"

# 3. clean-copies=all (copies split after IPA): nothing merged
pi_cc -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-clean-copies=all -fplugin-arg-perfinst-counting-opt=lean \
    -fdump-tree-optimized=all.opt -S "$src" -o all.s
[ "$(grep -c '__asm__ __volatile__("{addq' all.opt)" -gt 0 ] || fail "all: no update written as an asm"
assert_eq "all: no update merged with a site marker" "" "$(merged all.opt)"
ok "all: updates as asms of their own"
