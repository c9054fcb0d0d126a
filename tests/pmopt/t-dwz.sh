#!/bin/bash
# A program as a Debian package ships it: DWARF compressed by dwz -m (dh_dwz
# for a package of several programs: DW_FORM_GNU_strp_alt and
# DW_FORM_GNU_ref_alt into a supplementary file that .gnu_debugaltlink
# names, /usr/lib/debug/.dwz/ARCH/PACKAGE.debug), then stripped with its
# debug information in a file of its own (dh_strip: .build-id/xx/yyyy.debug,
# compressed), the -dbgsym package extracted into a directory rather than
# installed.  pmopt --debug-file-directory=ROOT/usr/lib/debug (before the
# command or among its options) names the watched words and the callers of
# the stripped program exactly as the unstripped build's; with the supplementary file missing, pmopt says so
# and names from the symbol table, never libdwarf's placeholder
# "<DW_FORM_GNU_strp_alt-no-tied-file>" (main's name, the variables'), and
# never reads the supplementary file's offsets as its own DIEs (the types).
source "$PERFINST_TOP/tests/lib.sh"
source "$T/pmopt/fixture.sh"
command -v dwz > /dev/null || skip "dwz not installed"
command -v objcopy > /dev/null && command -v strip > /dev/null || skip "binutils not installed"
UW=0xd0d0d0d000000004
build_obj watched
gcc watched.o -o watched
printf 'long other_table[2];\nint other(void) { return (int)other_table[1]; }\n' > other.c
gcc -g -O0 -c other.c -o other.o
gcc watched.o other.o -o watched2         # the package's second program
cp watched watched-full                   # the unstripped, uncompressed build

sym() { nm watched-full | awk -v s="$1" '$3 == s { print "0x" $1 }'; }
t=$(sym table); c=$(sym counter); r=$(sym recs); g=$(sym grid); m=$(sym main)
pigen trace -o a.pit --prog watched-full --pid 100 --unit "$UW=3" \
    --watch "8:p+$t=3/3,p+$c=1/2,p+$((r + 8))=1/1,p+$((g + 24))=4/0" \
    --event "$UW:1:threshold:4:7:p+$((m + 4)),p+$((m + 8))"

# ---- dh_dwz, then dh_strip, into a package tree
root=$PWD/root
dwzdir=usr/lib/debug/.dwz/x86_64-linux-gnu
mkdir -p "$root/usr/bin" "$root/$dwzdir"
dwz -m "$root/$dwzdir/fixture.debug" -M "/$dwzdir/fixture.debug" watched watched2 ||
    fail "dwz -m failed"
readelf -S watched | grep -q '\.gnu_debugaltlink' || fail "dwz made no .gnu_debugaltlink"
readelf -wi watched 2> /dev/null | grep -q 'alt indirect string' ||
    fail "dwz moved no string to the supplementary file"
readelf -wi watched 2> /dev/null | grep -Eq 'DW_AT_type +: <alt 0x' ||
    fail "dwz moved no type to the supplementary file"
id=$(readelf -n watched | awk '/Build ID:/ { print $3 }')
[ ${#id} = 40 ] || fail "no build-id"
dbg=$root/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug
mkdir -p "${dbg%/*}"
objcopy --only-keep-debug --compress-debug-sections watched "$dbg"
strip --remove-section=.comment --remove-section=.note watched
objcopy --add-gnu-debuglink="$dbg" watched
mv watched "$root/usr/bin/watched"
prog=$root/usr/bin/watched
! readelf -S "$prog" | grep -q '\.debug_info' || fail "the program still has .debug_info"

# the reference: the unstripped build
run_pmopt report --by=watch --format=csv watched-full a.pit
[ $rc = 0 ] || { cat err; fail "the unstripped build: exit $rc"; }
cp out full.csv
assert_eq "the unstripped build names every word" \
    "table[0] 3 3|counter 1 2|recs[0].pad 1 1|grid[0][2].a 4 0" \
    "$(python3 -c "
import csv; print('|'.join(' '.join((r['object'], r['reads'], r['writes'])) for r in sorted(
    csv.DictReader(open('full.csv')), key=lambda r: int(r['address'], 16))))")"
run_pmopt report --callers --by=callers --format=csv watched-full a.pit
cp out full-callers.csv
assert_contains "the unstripped build names main as the caller" full-callers.csv '(^|,)main,'

# ---- the package as extracted, its debug directory named: the same
run_pmopt --debug-file-directory="$root/usr/lib/debug" report --by=watch --format=csv "$prog" a.pit
[ $rc = 0 ] || { cat err; fail "the packaged program: exit $rc"; }
assert_eq "packaged, dbgsym and dwz file found: the words named as unstripped" "$(cat full.csv)" "$(cat out)"
assert_not_contains "no note about the debug information" err 'DWARF'
run_pmopt --debug-file-directory="$root/usr/lib/debug" report --callers --by=callers --format=csv "$prog" a.pit
assert_eq "packaged: the callers named as unstripped" "$(cat full-callers.csv)" "$(cat out)"
run_pmopt report --by=watch --debug-file-directory /nowhere:"$root/usr/lib/debug/" --format=csv "$prog" a.pit
assert_eq "after the command, a list of directories, the value apart, a trailing slash" "$(cat full.csv)" "$(cat out)"

# ---- the debug file found, its supplementary file not
cp "$dbg" "$root/usr/bin/${id:2}.debug"       # beside the program: by .gnu_debuglink
run_pmopt report --by=watch --format=csv "$prog" a.pit
[ $rc = 0 ] || { cat err; fail "without the supplementary file: exit $rc"; }
assert_contains "the missing supplementary file is named" err \
    "note: .*${id:2}\.debug: DWARF: its supplementary file /$dwzdir/fixture\.debug \(\.gnu_debugaltlink, made by dwz\) was not found \(--debug-file-directory names where it is\)"
assert_not_contains "no placeholder name" out 'DW_FORM|no-tied-file'
assert_eq "the words named from the symbol table, without types" \
    "table 3 3|counter 1 2|recs+0x8 1 1|grid+0x18 4 0" \
    "$(python3 -c "
import csv; print('|'.join(' '.join((r['object'], r['reads'], r['writes'])) for r in sorted(
    csv.DictReader(open('out')), key=lambda r: int(r['address'], 16))))")"
run_pmopt report --callers --by=callers --format=csv "$prog" a.pit
assert_not_contains "callers: no placeholder name" out 'DW_FORM|no-tied-file'
assert_eq "callers: main named from the symbol table" "$(cat full-callers.csv)" "$(cat out)"

# ---- a supplementary file of another build (its build-id differs) is not used
mv "$root/$dwzdir/fixture.debug" fixture.debug
printf 'int x;\nint main(void) { return x; }\n' > x.c && gcc -g -c x.c -o x.o && gcc -g x.o -o x1 && gcc -g x.o -o x2 -Wl,--build-id=0x1234
dwz -m "$root/$dwzdir/fixture.debug" x1 x2 2> /dev/null || cp x1 "$root/$dwzdir/fixture.debug"
rm "$root/usr/bin/${id:2}.debug"
run_pmopt --debug-file-directory="$root/usr/lib/debug" report --by=watch --format=csv "$prog" a.pit
assert_contains "another build's supplementary file: not found" err "its supplementary file /$dwzdir/fixture\.debug .* was not found"
assert_not_contains "another build's: no placeholder, no foreign name" out 'DW_FORM|no-tied-file|other'
ok "dwz -m and dh_strip: as the unstripped build with the files, the symbol table without"
