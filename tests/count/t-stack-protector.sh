# The stack protector and the clean copy made of the counting copy's
# assembly (clean-copies=final, the default): sspvla.c's stackzero has a
# variable-length array, which -fstack-protector guards (and
# -fstack-protector-all every function).  Its clean copy is a naked
# function of one asm; GCC's expand still stored the canary of a function
# that called alloca into a frame it does not have — the caller's — before
# the dispatch (the off mode crashed in libsodium's sodium_stackzero, and a
# plain caller's frame was overwritten in count mode too).  With each
# protector, with and without frame pointers: the counts exact, the same
# output counted and off, no canary before the dispatch in stackzero, and
# the counting copy's canary kept (in the copy, and so in the clean copy
# made of it).
. "$PERFINST_TOP/tests/lib.sh"
src=$T/count/sspvla.c
i=0
for sp in -fstack-protector -fstack-protector-all -fstack-protector-strong; do
    for fp in -fomit-frame-pointer -fno-omit-frame-pointer; do
        i=$((i + 1))
        pi_cc -O2 -g $sp $fp -fplugin-arg-perfinst-all=count -c "$src" -o s$i.o
        pi_ld -O2 -o s$i s$i.o
        run_exact s$i "$src" 442 "$sp $fp" 100
        assert_eq "$sp $fp, off: the program's result" 442 "$(PERFINST_MODE=off PERFINST_OUT=/dev/null ./s$i 100)"
        objdump -d --no-show-raw-insn s$i | awk '/^[0-9a-f]+ <stackzero>:$/,/^$/' | sed -n 2p > first
        assert_contains "$sp $fp: stackzero opens with its dispatch, no canary" first 'cmpb +\$0x0,'
        objdump -d --no-show-raw-insn s$i | awk '/^[0-9a-f]+ <stackzero\.count\.0>:$/,/^$/' > copy
        assert_contains "$sp $fp: the counting copy keeps its canary" copy '%fs:0x28'
    done
done
# a caller compiled without the plugin, its values in its frame (%rbp):
# the counted library's stackzero left them alone
cat > app.c << 'C'
#include <stdio.h>
#include <stdlib.h>
void stackzero(size_t);
__attribute__((noinline)) long caller(long x) { long k = x * 3; stackzero(64); return k + 1; }
int main(int argc, char **argv) { long a = argc * 1000L; printf("%ld %ld\n", caller(argc), a); return 0; }
C
printf '#include <string.h>\nvoid stackzero(size_t len) { unsigned char fodder[len]; explicit_bzero(fodder, len); }\n' > lib.c
gcc -O2 -fno-omit-frame-pointer -fstack-protector -c app.c -o app.o
pi_cc -O2 -fstack-protector -fplugin-arg-perfinst-all=count -c lib.c -o lib.o
pi_ld -O2 -o mixed app.o lib.o
assert_eq "a plain caller of the counted stackzero, counting" "4 1000" "$(PERFINST_OUT=/dev/null ./mixed)"
assert_eq "a plain caller of the counted stackzero, off" "4 1000" "$(PERFINST_MODE=off PERFINST_OUT=/dev/null ./mixed)"
ok "a plain caller's frame left alone"
