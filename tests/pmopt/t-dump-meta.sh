#!/bin/bash
# pmopt dump-meta on an object (relocations applied: section+offset) and on
# the linked program (function+offset, flags, sites, sites without code).
source "$PERFINST_TOP/tests/lib.sh"
source "$T/pmopt/fixture.sh"
build_prog

# ---- the relocatable object: addr = label offset in .text, via .rela.perfinst
run_pmopt dump-meta prog.o
[ $rc = 0 ] || { cat err; fail "dump-meta prog.o exited $rc"; }
assert_contains "object kind" out "^prog.o: relocatable object, build-id none, 1 units, 8 code ranges"
# the label of site 0 sits at the same .text offset as in the linked program
# (prog.o's .text comes first in the link)
off0=$(grep -E '^  0x[0-9a-f]+  \.text\+0x[0-9a-f]+ +7  count +0  classify' out | awk '{print $2}')
[ -n "$off0" ] || { cat out; fail "no .text+offset row for site 0"; }
ok "site 0 in prog.o at $off0"

# ---- the program
run_pmopt dump-meta prog
[ $rc = 0 ] || { cat err; fail "dump-meta prog exited $rc"; }
bid=$(pigen buildid prog)
assert_contains "program header" out "^prog: .*build-id $bid, 2 units, 11 code ranges"
assert_contains "unit A header" out "^unit 0xa0a0a0a000000001  source prog.c"
assert_contains "unit B header" out "^unit 0xb0b0b0b000000002  source lib.c"
assert_contains "function line" out "function 0 classify \(prog.c:8\): sites 0\.\.2"
l0=$(line_of prog.c 0); l4=$(line_of prog.c 4); l9=$(line_of prog.c 9)
assert_contains "site 0 row: where, length, flags, site, function, file:line" out \
    "^  0x[0-9a-f]{16}  classify\+0x[0-9a-f]+ +7  count +0  classify +prog.c:$l0 "
assert_contains "count|trap flags" out "main\+0x[0-9a-f]+ +[0-9]+  count\|trap +4  main +prog.c:$l4 "
assert_contains "a site with two ranges (two rows)" out "count\|trap +4  main"
[ "$(grep -cE 'count\|trap +4  main' out)" = 2 ] || fail "site 4 should have two ranges"
assert_contains "trap-only site without counter" out "  trap +8  main +prog.c:$l9 "
assert_contains "type counts columns" out "insns +branch +call +ret +load +store +string +fp"
assert_contains "sites without code" out "^  sites without code"
assert_contains "site 6 has no code" out "^    site 6 \(main, prog.c:$l4\)"
assert_contains "site counter none" out "site 8: block, prog.c:$l9:5, bb 7, counter -, trap"
assert_contains "successors" out "site 0: block, prog.c:$l0:5, bb 2, counter 0, count, successors 1 2"
# the program address = object offset + where the linker put .text of prog.o:
# DWARF agrees with the sites' lines except for site 4's second copy
assert_contains "DWARF cross-check flags the copy" out "count\|trap +4 .*\(DWARF: .*prog.c:$(line_of prog.c 8)\)"
[ "$(grep -c 'DWARF:' out)" = 1 ] || { grep DWARF: out; fail "only site 4's copy should disagree with DWARF"; }

# ---- addresses: every range of the program lies in a function of the same name
for fn in classify main work; do
    n=$(grep -cE "^  0x[0-9a-f]{16}  $fn\+0x[0-9a-f]+ .* $fn +" out)
    [ "$n" -ge 1 ] || fail "no range of $fn lies in $fn"
done
ok "ranges lie in their functions"

# ---- relocation: the program's address of site 0 = symbol of classify + offset in prog.o
sym=$(nm prog | awk '$3 == "classify" { print $1 }')
obj_sym=$(nm prog.o | awk '$3 == "classify" { print $1 }')
addr=$(grep -E ' classify\+0x[0-9a-f]+ +7  count +0 ' out | awk '{print $1}')
off0_hex=${off0#.text+}
exp=$(printf '0x%016x' $(( 0x$sym - 0x$obj_sym + off0_hex )))
assert_eq "site 0 address = classify + (offset in .text - classify's offset)" "$exp" "$addr"

# ---- a file without metadata is not an error
gcc -O0 -c "$F/lib.c" -I"$F" -o plain.o
run_pmopt dump-meta plain.o
[ $rc = 0 ] || fail "dump-meta on a plain object exited $rc"
assert_contains "no metadata" out "no perfinst metadata"

# ---- not ELF
echo hello > notelf
run_pmopt dump-meta notelf
assert_eq "not ELF: exit status" 1 "$rc"
assert_contains "not ELF names the file" err "notelf: not an ELF file"

# ---- CODE chunks in sections of their own (SHF_LINK_ORDER, one per function,
# as the plugin emits them for -ffunction-sections/COMDAT code): an object
# with three .perfinst sections, each with its own .rela.perfinst
python3 -c "
import json; s = json.load(open('$F/prog.json'))
s['code_section'] = '.perfinst,\"o\",@progbits,.text,unique,@N'
json.dump(s, open('split.json', 'w'))"
cp prog.c split.c
gcc -S -g -O0 split.c -o split.s
pigen meta split.json split.c >> split.s
gcc -c split.s -o split.o
assert_eq "split.o has three .perfinst sections" 3 "$(readelf -SW split.o | grep -c ' \.perfinst ')"
run_pmopt dump-meta split.o
[ $rc = 0 ] || { cat err; fail "dump-meta split.o exited $rc"; }
assert_contains "all ranges of the three sections" out "^split.o: relocatable object, build-id none, 1 units, 8 code ranges"
gcc split.o lib.o -o splitprog
run_pmopt dump-meta splitprog
[ $rc = 0 ] || { cat err; fail "dump-meta splitprog exited $rc"; }
# same code, same addresses as prog
diff <(grep -E '^  0x' out | awk '{print $1, $2, $3, $5}') \
     <("$PMOPT" dump-meta prog | grep -E '^  0x' | awk '{print $1, $2, $3, $5}') \
    || fail "the split program's ranges differ from prog's"
ok "the ranges of the split program equal prog's"

# ---- an archive: every member's metadata, named lib.a(member.o)
echo "not an object" > README
ar rcs libfx.a prog.o README lib.o
run_pmopt dump-meta libfx.a
[ $rc = 0 ] || { cat err; fail "dump-meta on an archive exited $rc"; }
assert_contains "member prog.o" out "^libfx.a\(prog.o\): relocatable object, build-id none, 1 units, 8 code ranges"
assert_contains "member lib.o" out "^libfx.a\(lib.o\): relocatable object, build-id none, 1 units, 3 code ranges"
assert_contains "members' ranges by section" out "^  0x[0-9a-f]{16}  \.text\+0x[0-9a-f]+ +7  count +0  work"
assert_not_contains "the text member is skipped" out "README"

# ---- a translation table and a link recipe (as perfinst-ld writes them)
python3 -c "
import json; s = json.load(open('$F/lib.json'))
s['xlat_nunits'] = 2
s['link_argv'] = ['gcc', '-o', 'progx', 'prog.o', 'libx.o']
s['link_env'] = ['COLLECT_GCC=gcc', 'COMPILER_PATH=/usr/lib/gcc']
json.dump(s, open('libx.json', 'w'))"
cp lib.c libx.c
gcc -S -g -O0 libx.c -o libx.s
pigen meta libx.json libx.c >> libx.s
gcc -c libx.s -o libx.o
gcc prog.o libx.o -o progx
run_pmopt dump-meta progx
[ $rc = 0 ] || { cat err; fail "dump-meta progx exited $rc"; }
assert_contains "header says so" out "^progx: .*, 2 units, 11 code ranges, translation table, link recipe$"
assert_contains "xlat summary" out "^translation table \(\.perfinst\.xlat\): line size 64, 3 items, 0 blocks, 0 refs, 2 units, span \[0x[0-9a-f]+, 0x[0-9a-f]+\)$"
assert_contains "link recipe" out "^link recipe \(\.perfinst\.link, collect2 command line\): cwd /work, output progx, 2 inputs$"
assert_contains "link argv" out "^  argv: gcc -o progx prog.o libx.o$"
assert_contains "link environment" out "^  env COLLECT_GCC=gcc$"
assert_contains "link environment, in order" out "^  env COMPILER_PATH=/usr/lib/gcc$"
assert_contains "link input" out "^  input 1: /work/libx.o \(argv\[4\]\), 1001 bytes, mtime 1700000000.123456789, hash 0x0000000000002222$"
# an XLAT chunk that miscounts the units is caught by the cross-checks
python3 -c "
import json; s = json.load(open('libx.json')); s['xlat_nunits'] = 3
json.dump(s, open('liby.json', 'w'))"
cp lib.c liby.c
gcc -S -g -O0 liby.c -o liby.s && pigen meta liby.json liby.c >> liby.s && gcc -c liby.s -o liby.o
gcc prog.o liby.o -o progy
run_pmopt dump-meta progy
assert_eq "xlat unit count wrong: exit status" 1 "$rc"
assert_contains "xlat unit count wrong: message" err "^pmopt: progy: \.perfinst\.xlat: says 3 units but \.perfinst has 2$"
