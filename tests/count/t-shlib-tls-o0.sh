# A shared library compiled -O0 -fPIC (CMake's Debug build, the default of
# projects such as libgit2, whose flags put -O0 after the user's CFLAGS):
# its counters reach their thread-local array through the offset the
# unit's constructor sets (__perfinst_ctr_off, gcc-plugin/pass-tls.cc), as
# at -O2, not through a call of __tls_get_addr at every update (libgit2
# 1.5.1's Debug build: its workload 2.03x plain's instructions counted,
# bench/RESULTS.md).  Exact counts linked, dlopen'ed, and dlopen'ed with no
# static TLS surplus (the offset 0: the runtime's stub); the results of an
# uninstrumented -O0 build, also in the off mode; no __tls_get_addr call
# in any function but lib_jump (setjmp: GCC's model), in the code and, run
# under callgrind, in the linked program.
. "$PERFINST_TOP/tests/lib.sh"
pi_cc -O0 -g -fPIC -c "$T/count/shlib.c" -o shlib.o
pi_ld -shared -o libshlib.so shlib.o
mkdir -p plain
gcc -O0 -fPIC -shared -I"$PERFINST_TOP/include" "$T/count/shlib.c" -o plain/libshlib.so
rt="-L$B -Wl,--no-as-needed -lperfinst -Wl,--as-needed -Wl,-rpath,$B"
gcc -O2 -DLINKED "$T/count/shlibmain.c" -o linked $rt -L. -lshlib -Wl,-rpath,'$ORIGIN' -pthread
gcc -O2 -DLINKED "$T/count/shlibmain.c" -o plain/linked -Lplain -lshlib -Wl,-rpath,'$ORIGIN' -pthread
gcc -O2 "$T/count/shlibmain.c" -o opened $rt -ldl -pthread

./plain/linked > want
PERFINST_OUT=linked.pit ./linked > got1
PERFINST_OUT=opened.pit ./opened ./libshlib.so > got2
GLIBC_TUNABLES=glibc.rtld.optional_static_tls=0 PERFINST_OUT=dynamic.pit ./opened ./libshlib.so > got3
for g in got1 got2 got3; do cmp -s want $g || fail "$g: $(cat $g), uninstrumented: $(cat want)"; done
ok "the results of the uninstrumented -O0 build: $(cat want)"
assert_eq "linked, PERFINST_MODE=off" "$(cat want)" "$(PERFINST_MODE=off PERFINST_OUT=off.pit ./linked)"
for m in linked opened dynamic; do
    python3 "$T/count/check-counts.py" "$PMOPT" ./libshlib.so "$T/count/shlib.c" $m.pit > c || { cat c; fail "$m: counts"; }
    ok "$m, two threads: $(tail -1 c)"
    "$PMOPT" merge -o m.pit $m.pit > /dev/null
    "$PMOPT" dump m.pit | grep ' ICALL ' | sed 's/.* target \(0x[0-9a-f]*\) count \([0-9]*\)$/\1 \2/' | sort > icalls
    inc=0x$(nm libshlib.so | awk '$3 == "lib_inc" { sub(/^0+/, "", $1); print $1 }')
    dbl=0x$(nm libshlib.so | awk '$3 == "lib_dbl" { sub(/^0+/, "", $1); print $1 }')
    printf '%s\n' "$inc 2400" "$dbl 1600" "$inc 1200" "$dbl 800" "$inc 800" "$dbl 400" | sort > want.icalls
    diff want.icalls icalls || fail "$m: ICALL pairs: want lib_inc 2400, lib_dbl 1600 (lib_apply), lib_inc 1200, lib_dbl 800 (lib_jump), lib_inc 800, lib_dbl 400 (lib_o0)"
done

# the code: __tls_get_addr called by lib_jump alone among the counted functions
objdump -d --no-show-raw-insn libshlib.so |
    awk '/^[0-9a-f]+ <[^>]*>:$/ { fn = $2 } /call.*__tls_get_addr/ && fn ~ /^<lib_/ && fn != "<lib_jump>:" { n[fn]++ }
         END { for (f in n) print f, n[f] }' > many
[ ! -s many ] || fail "__tls_get_addr called at -O0 by: $(tr '\n' ' ' < many)"
ok "no __tls_get_addr call in lib_work, lib_scale, lib_apply, lib_o0"
grep -q '__perfinst_ctr_off' <(nm libshlib.so) || fail "no __perfinst_ctr_off in the -O0 unit"

# at run time, linked (the block static): no call of __tls_get_addr from the
# counted functions but lib_jump's
if command -v valgrind > /dev/null; then
    PERFINST_OUT=vg.pit valgrind --tool=callgrind --callgrind-out-file=cg.out ./linked > /dev/null 2> vg.err ||
        { cat vg.err; fail "valgrind"; }
    python3 - cg.out > calls << 'PY'
import re, sys
names, fn, cfn, n = {}, "", "", 0
def name(v):
    m = re.match(r"\((\d+)\)(?: (.*))?", v)
    if not m:
        return v
    if m.group(2):
        names[m.group(1)] = m.group(2)
    return names.get(m.group(1), "")
for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    if line.startswith("fn="):
        fn = name(line[3:])
    elif line.startswith("cfn="):
        cfn = name(line[4:])
    elif line.startswith("calls=") and fn.startswith("lib_") and fn != "lib_jump" and cfn == "__tls_get_addr":
        n += int(line[6:].split()[0])
print(n)
PY
    assert_eq "__tls_get_addr calls from lib_work, lib_scale, lib_apply, lib_o0, linked" "0" "$(cat calls)"
else
    echo "(no valgrind: the run-time check of __tls_get_addr calls is not made)"
fi
