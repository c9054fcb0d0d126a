# order-align=gcc|bolt|none (gcc-plugin/pass-feedback.cc, linker/falign.c,
# docs/layout.md "Function alignment"): the rebuild of sorted-a.c and
# sorted-b.c (t-sorted.sh's chain f1 g.constprop.0 f2 f3 f4 in
# .text.sorted.RANK.NAME sections).  With bolt and none the ordered
# functions are compiled without -falign-functions' .p2align 4: their
# sections have the same bytes and sizes as the default's, the alignment
# their code needs (16 for f1, whose loop GCC aligns; 1 for the others)
# instead of 16; bolt's objects carry .perfinst.falign "64:32", none's do
# not.  The link stage, on a real link with the program's own map
# (-Wl,-Map), places each ordered function at a multiple of 64 exactly
# where the padding before it (from the end of the input section before
# it) is at most 32 bytes — a padding section of int3 whose name sorts
# right before it — and else at its own alignment right after the one
# before; both cases occur.  none packs them (each at its own alignment
# right after the one before, no padding section); gcc's (the default)
# are at multiples of 16.  Every output is plain -O2's; pmopt relink of
# the bolt rebuild keeps its addresses; with --place-sorted (the relink's
# script names the sections one by one) the link stage keeps the link
# without the padding and says so; a bad .perfinst.falign is an error
# naming the object; a bad value of the argument is an error.
. "$PERFINST_TOP/tests/lib.sh"
for u in a b; do
    pi_cc -O2 -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=cfg -fplugin-arg-perfinst-counting-opt=fast -fplugin-arg-perfinst-entry-branch=tail -fplugin-arg-perfinst-sections -c "$T/layout/sorted-$u.c" -o t$u.o
done
pi_ld -O2 -o t ta.o tb.o
./t 5000 > plain.out
PERFINST_OUT=t.pit ./t 5000 > /dev/null
"$PMOPT" plan --order=exttsp --rebuild -o s.fb t t.pit > plan.out
assert_contains "the plan's order" s.fb "^[0-9]* order-functions alg=exttsp functions=main,f1,g.constprop.0,f2,f3,f4$"

build() { # MODE
    local u
    for u in a b; do
        pi_cc -O2 -fplugin-arg-perfinst-feedback=s.fb -fplugin-arg-perfinst-sections \
            -fplugin-arg-perfinst-order-align=$1 -c "$T/layout/sorted-$u.c" -o $1$u.o
    done
    pi_ld -O2 -Wl,-Map=$1.map -Wl,--pi-verbose -o $1 ${1}a.o ${1}b.o 2> $1.ld
    ./$1 5000 > $1.out
    cmp plain.out $1.out || fail "order-align=$1: the program prints something else"
}
build gcc
build bolt
build none
ok "the three rebuilds print what the training build prints"

# the objects: NAME ALIGN SIZE of every section, and the .text.sorted bytes
secs() { readelf -SW "$1" | sed 's/^ *\[ *[0-9]*\] //' | awk '$1 ~ /^\.(text\.sorted|perfinst\.falign)/ { print $1, $NF, $5 }'; }
bytes() { local s; for s in $(secs "$1" | awk '$1 ~ /^\.text\.sorted/ { print $1 }'); do readelf -x "$s" "$1" | grep '^  0x'; done | md5sum; }
# hex() for mawk
HEX='function hex(s,  i, n) { s = tolower(s); sub(/^0x/, "", s); n = 0; for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return n }'
for u in a b; do
    secs gcc$u.o > gcc$u.secs; secs bolt$u.o > bolt$u.secs; secs none$u.o > none$u.secs
    cat bolt$u.secs
    assert_eq "$u: the same sections, sizes and bytes (bolt)" "$(awk '{print $1, $3}' gcc$u.secs; bytes gcc$u.o)" \
        "$(grep -v falign bolt$u.secs | awk '{print $1, $3}'; bytes bolt$u.o)"
    assert_eq "$u: the same sections, sizes and bytes (none)" "$(awk '{print $1, $3}' gcc$u.secs; bytes gcc$u.o)" \
        "$(awk '{print $1, $3}' none$u.secs; bytes none$u.o)"
    assert_contains "$u: bolt's objects ask for 64:32" bolt$u.secs '^\.perfinst\.falign 1 000005$'
    [ "$(readelf -x .perfinst.falign bolt$u.o | grep -c '36343a33 32')" = 1 ] || fail "$u: .perfinst.falign is not \"64:32\""
    assert_not_contains "$u: none's objects do not" none$u.secs falign
    assert_not_contains "$u: gcc's are at 16" gcc$u.secs '^\.text\.sorted[^ ]* 1 '
done
assert_eq "bolt: f1 keeps 16 (its loop), the others 1" \
    ".text.sorted.0000000002.f1 16 .text.sorted.0000000003.g.constprop.0 1 .text.sorted.0000000004.f2 1 .text.sorted.0000000005.f3 1 .text.sorted.0000000006.f4 1" \
    "$(cat bolta.secs boltb.secs | grep sorted | sort | awk '{print $1, $2}' | paste -sd' ')"
cat bolta.secs boltb.secs | awk '{print $1, $2}' > align.list

# the placements, from the final link's map: for each ordered function, E
# the end of the input section before it (before its padding), A its
# address, AL its section's alignment
placements() { # MAP
    awk "$HEX"'NR == FNR { al[$1] = $2; next }
         /^Linker script and memory map/ { on = 1; next }
         !on { next }
         /^ \./ { if (NF >= 3 && $2 ~ /^0x/) { n++; nm[n] = $1; ad[n] = hex($2); sz[n] = hex($3); pend = "" } else pend = $1; next }
         pend != "" && $1 ~ /^0x/ && $2 ~ /^0x/ { n++; nm[n] = pend; ad[n] = hex($1); sz[n] = hex($2); pend = ""; next }
         { pend = "" }
         END { for (i = 2; i <= n; i++) if (nm[i] ~ /^\.text\.sorted\.[0-9]+\./ && nm[i] !~ /~$/) {
                 p = i - 1; pad = 0
                 if (nm[p] ~ /~$/) { pad = sz[p]; if (ad[p] + sz[p] != ad[i]) print "BAD padding not right before", nm[i]; p-- }
                 e = ad[p] + sz[p]; if (pad && ad[i - 1] != e) print "BAD padding not right after", nm[p]
                 printf "%s %d %d %d %d\n", nm[i], e, ad[i], al[nm[i]], pad } }' align.list "$1"
}
placements bolt.map > bolt.pl
placements none.map > none.pl
cat bolt.pl
assert_not_contains "bolt: the padding lies between its function and the one before" bolt.pl BAD
assert_eq "bolt: five ordered functions" 5 "$(wc -l < bolt.pl)"
# the rule, exactly: at the next multiple of 64 when it is at most 32 bytes
# past E, else at E rounded up to AL
awk '{ e = $2; a = $3; al = $4; b = int((e + 63) / 64) * 64
       want = (b - e <= 32) ? b : int((e + al - 1) / al) * al
       if (a != want) print "BAD", $1, "at", a, "not", want, "(E", e, "AL", al ")"
       if ($5 != (b > e && b - e <= 32 ? b - e : 0)) print "BAD", $1, "padding", $5 }' bolt.pl > bolt.check
cat bolt.check
[ ! -s bolt.check ] || fail "bolt: a function is not where the rule puts it"
aligned=$(awk '$3 % 64 == 0 && $3 - $2 <= 32' bolt.pl | wc -l)
packed=$(awk '$3 % 64 != 0' bolt.pl | wc -l)
[ "$aligned" -ge 1 ] && [ "$packed" -ge 1 ] || fail "bolt: $aligned aligned and $packed unaligned functions (the test wants both)"
ok "bolt: $aligned functions at multiples of 64 (at most 32 bytes of padding), $packed where that would cost more"
assert_contains "the link stage says what it padded" bolt.ld "bolt: [0-9]* of 5 ordered input sections moved to a multiple of 64 by [0-9]* bytes of padding"
pads=$(sed -n '/^Linker script and memory map/,$p' bolt.map | grep -c '^ \.text\.sorted\.[^ ]*~')
assert_eq "one padding section per aligned function that needed one" "$(awk '$5 > 0' bolt.pl | wc -l)" "$pads"
# the padding is int3: the bytes from E to A in the program
read -r taddr toff <<< "$(readelf -SW bolt | sed 's/^ *\[ *[0-9]*\] //' | awk "$HEX"'$1 == ".text" { print hex($3), hex($4) }')"
awk '$5 > 0 { print $2, $5 }' bolt.pl | while read -r e n; do
    assert_eq "the $n bytes of padding at $e are int3" "$(printf 'cc %.0s' $(seq "$n"))" "$(od -An -v -tx1 -j $((e - taddr + toff)) -N "$n" bolt | tr -s ' \n' '  ' | sed 's/^ //')"
done
# the functions' sizes in the program are their sections' sizes
fsz() { nm -S "$1" | awk '$4 ~ /^(f[1-4]|g\.constprop\.0)$/ { print $4, $2 }' | sort; }
assert_eq "bolt: the functions' sizes as none's" "$(fsz none)" "$(fsz bolt)"
# none: packed, no padding
assert_eq "none: no padding" "" "$(awk '$5 != 0 || $3 != int(($2 + $4 - 1) / $4) * $4' none.pl)"
assert_not_contains "none: no second link" none.ld "ordered input sections moved"
assert_eq "gcc: the ordered functions at multiples of 16" "" "$(placements gcc.map | awk '$3 % 16')"

# pmopt relink of the bolt rebuild: its layout kept (the link stage pads again)
addrs() { nm "$1" | awk '$2 ~ /^[tT]$/ && $3 ~ /^(f[1-4]|g\.constprop\.0|f1\.cold|rare|main)$/ {print $3, $1}' | sort; }
"$PMOPT" relink bolt --feedback s.fb -o bolt.opt > rel.out 2> rel.err
cat rel.err
assert_contains "relink keeps the rebuild's order" rel.err "kept as linked"
assert_eq "the relinked program: the rebuild's addresses" "$(addrs bolt | paste -sd' ')" "$(addrs bolt.opt | paste -sd' ')"
"$PMOPT" relink bolt --feedback s.fb --place-sorted -o bolt.ps > ps.out 2> ps.err
cat ps.err
assert_contains "--place-sorted: the link without the padding, said" ps.err "the ordered functions not aligned (.*): .*the link without the padding is kept"
./bolt.ps 5000 > ps.outp
cmp plain.out ps.outp || fail "the relink with --place-sorted prints something else"
ok "--place-sorted relinks it, unaligned"

# a bad .perfinst.falign; a bad value
printf '\t.section .perfinst.falign,"e",@progbits\n\t.ascii "65:3"\n' | as -o badfa.o -
expect_fail "a bad .perfinst.falign" pi_ld -O2 -o badp bolta.o boltb.o badfa.o
assert_contains "the error names the object" err "badfa.o: section .perfinst.falign holds '65:3', not TO:MAX"
expect_fail "a bad order-align" pi_cc -O2 -fplugin-arg-perfinst-feedback=s.fb \
    -fplugin-arg-perfinst-order-align=64 -c "$T/layout/sorted-b.c" -o bad.o
assert_contains "the error names the values" err "order-align=64.: expected .gcc., .bolt. or .none."
