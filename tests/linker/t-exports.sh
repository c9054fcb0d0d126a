# Counting adds nothing to what a module exports: a counted shared library
# (no version script; of one object, as pcre3's libpcreposix, and of two)
# and an executable linked
# with --export-dynamic define the same dynamic symbols as their plain
# builds, with entry=test and entry=jump, through GNU ld and, when
# installed, gold and lld.  (The units once handed the runtime ld's
# __start/__stop___perfinst_jumpinfo, which GNU ld 2.40 leaves in a shared
# object's .dynsym, hidden: dpkg-gensymbols -c4 refused pcre3 for "new
# symbols".)  The jump slots still follow the mode with entry=jump.
. "$PERFINST_TOP/tests/lib.sh"
cat > l1.c << 'C'
int l2(int);
int l1(int n) { int s = 0; for (int i = 0; i < n; i++) s += i % 3 ? l2(i) : 1; return s; }
C
cat > l2.c << 'C'
int l2(int x) { return x > 5 ? x * 3 : x + 1; }
C
cat > main.c << 'C'
#include <stdio.h>
int l1(int);
int main(int argc, char **argv) { (void)argv; printf("%d\n", l1(10 + argc)); return 0; }
C
# DSO: the defined dynamic symbols' names
exports() { nm -D --defined-only "$1" | awk '{ print $NF }' | sort | paste -sd' '; }
mkdir plain
(cd plain && gcc -O2 -fPIC -c ../l1.c ../l2.c ../main.c)
for ld in bfd gold lld; do
    command -v "ld.$ld" > /dev/null || { echo "ld.$ld not installed: not checked"; continue; }
    # (each linker's own: gold exports _end and the like from a library)
    gcc -fuse-ld=$ld -shared -o plain/lib.so plain/l1.o plain/l2.o
    gcc -fuse-ld=$ld -shared -o plain/lib1.so plain/l2.o
    gcc -fuse-ld=$ld -rdynamic -o plain/exe plain/main.o plain/l1.o plain/l2.o
    want_lib=$(exports plain/lib.so) want_lib1=$(exports plain/lib1.so) want_exe=$(exports plain/exe)
    case " $want_lib " in *" l1 l2 "*) ;; *) fail "$ld: the plain library exports '$want_lib'" ;; esac
    for entry in test jump; do
        pi_cc -O2 -fPIC -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-entry=$entry -c l1.c l2.c main.c
        pi_ld -fuse-ld=$ld -shared -o lib$ld$entry.so l1.o l2.o
        assert_eq "$ld, entry=$entry: the library's exports" "$want_lib" "$(exports lib$ld$entry.so)"
        # (GNU ld exported __start/__stop from a library of one object, not of two)
        pi_ld -fuse-ld=$ld -shared -o lib1$ld$entry.so l2.o
        assert_eq "$ld, entry=$entry: a one-object library's exports" "$want_lib1" "$(exports lib1$ld$entry.so)"
        pi_ld -fuse-ld=$ld -rdynamic -o exe$ld$entry main.o l1.o l2.o
        assert_eq "$ld, entry=$entry: the --export-dynamic executable's exports" "$want_exe" "$(exports exe$ld$entry)"
        # the program counts, and with the mode off its functions run clean
        rm -f on.pit off.pit
        PERFINST_OUT=on.pit ./exe$ld$entry > out || fail "exe$ld$entry failed"
        assert_eq "$ld, entry=$entry: output" "$(plain/exe)" "$(cat out)"
        "$PMOPT" report --format=csv --by=function ./exe$ld$entry on.pit | awk -F, '$4 == "l2" { print $2 }' > l2.on
        assert_eq "$ld, entry=$entry: l2's entries counted" 7 "$(cat l2.on)"
        PERFINST_MODE=off PERFINST_OUT=off.pit ./exe$ld$entry > /dev/null || fail "exe$ld$entry off failed"
        "$PMOPT" report --format=csv --by=function ./exe$ld$entry off.pit | awk -F, '$4 == "l2" { print $2 + 0 }' > l2.off
        assert_eq "$ld, entry=$entry: l2's entries with the mode off" 0 "$(cat l2.off)"
    done
done
ok "counted modules export what plain ones do"
