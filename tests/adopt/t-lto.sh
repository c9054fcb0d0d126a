# -flto: objects compiled with the plugin and -flto get their code at link
# time, in lto1.  With the plugin on the link line (pkg-config --libs has
# it; perfinst-ld adds it) their counts are exact; a link that gives gcc
# only perfinst.specs, without the plugin, is refused with what to add —
# never a program that silently lost its code ranges.
. "$PERFINST_TOP/tests/lib.sh"
. "$PERFINST_TOP/tests/adopt/lib-adopt.sh"
CFLAGS="-O2 -flto $PI_CFLAGS -fplugin-arg-perfinst-all=count"
gcc $CFLAGS -c "$A/src/walk.c" -o walk.o
gcc $CFLAGS -c "$A/src/steps.c" -o steps.o
expect_fail "-flto link without the plugin" gcc -O2 -flto -specs="$B/perfinst.specs" -o bad steps.o walk.o
assert_contains "names the object and the plugin to add" err "^perfinst-ld: (steps|walk)\.o: compiled with -flto and the perfinst plugin, but this link runs without the plugin: .*-fplugin=$B/perfinst\.so"
[ ! -e bad ] || fail "bad was written"
gcc -O2 -flto $PI_LIBS -o steps steps.o walk.o
PERFINST_OUT=run.pit ./steps 3 > out
assert_eq "output" "steps 3: 63" "$(cat out)"
assert_eq "flags route: walk entered 3 times" 3 "$(function_entries steps run.pit walk)"
assert_eq "flags route: step entered 9 times" 9 "$(function_entries steps run.pit step)"
"$PILD" -O2 -flto -o steps2 steps.o walk.o
PERFINST_OUT=run2.pit ./steps2 3 > out
assert_eq "perfinst-ld: step entered 9 times" 9 "$(function_entries steps2 run2.pit step)"
# -flto objects compiled with the plugin but nothing to count (as in a
# feedback rebuild): whether lto1's code refers to the runtime is known only
# after the link, so it is linked as needed: no DT_NEEDED.
gcc -O2 -flto $PI_CFLAGS -c "$A/src/walk.c" -o plain-walk.o
gcc -O2 -flto $PI_CFLAGS -c "$A/src/steps.c" -o plain-steps.o
gcc -O2 -flto $PI_LIBS -o plain plain-steps.o plain-walk.o
readelf -dW plain > plain.d
assert_not_contains "nothing counted: no DT_NEEDED libperfinst" plain.d 'NEEDED.*libperfinst'
assert_eq "same output" "steps 3: 63" "$(./plain 3)"
# ... also for a feedback rebuild's code that calls malloc, which the
# runtime defines too (its wrappers): linked after libc, so that only a
# reference to the runtime's own symbols makes it needed (a -shared -flto
# rebuild of json-c got DT_NEEDED libperfinst.so and an unversioned
# malloc); not where lto1 may instrument (sharing=all: t-detect.sh's
# -flto runs need the wrappers first)
printf '#include <stdlib.h>\n#include <string.h>\nchar *dup3(const char *s) { char *p = malloc(4); if (p) memcpy(p, s, 3), p[3] = 0; return p; }\n' > dup.c
python3 -c 'import zlib; b = b"perfinst-feedback 1\n"; open("none.fb", "wb").write(b + b"end 0 0x%08x\n" % zlib.crc32(b))'
gcc -O2 -fPIC -flto $PI_CFLAGS -fplugin-arg-perfinst-feedback=none.fb -c dup.c -o dup.o
gcc -O2 -fPIC -flto -shared $PI_LIBS -o libdup.so dup.o
readelf -dW libdup.so > dup.d
assert_not_contains "a -shared -flto library calling malloc: no DT_NEEDED libperfinst" dup.d 'NEEDED.*libperfinst'
nm -D libdup.so > dup.syms
assert_contains "its malloc is libc's (versioned)" dup.syms ' U malloc@GLIBC'
# indirect calls in two -flto units: each unit's inline caches are its own
# static thread-local array, which lto1 renames when the units share a
# partition, so the caches stay GIMPLE's (an asm naming the array would not
# link: pass-count.cc icall_as_asm); every (site, target) pair exact
cat > ia.c << 'C'
int (*volatile fa)(int);
static int inc(int x) { return x + 1; }
int ua(int n) { fa = inc; int s = 0; for (int i = 0; i < n; i++) s += fa(i); return s; }
C
cat > ib.c << 'C'
#include <stdio.h>
int (*volatile fb)(int);
static int dbl(int x) { return x * 2; }
int ua(int);
int main(void) { fb = dbl; int s = 0; for (int i = 0; i < 70; i++) s += fb(i); printf("%d %d\n", s, ua(30)); return 0; }
C
gcc $CFLAGS -c ia.c -o ia.o
gcc $CFLAGS -c ib.c -o ib.o
gcc -O2 -flto $PI_LIBS -o icalls ia.o ib.o
PERFINST_OUT=icalls.pit ./icalls > out
assert_eq "indirect calls: output" "4830 465" "$(cat out)"
"$PMOPT" dump icalls.pit | sed -n 's/.* ICALL .* count \([0-9]*\)$/\1/p' | sort -n | xargs > counts
assert_eq "indirect calls: the two sites' targets counted" "30 70" "$(cat counts)"
