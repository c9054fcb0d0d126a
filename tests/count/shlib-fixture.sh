# shlib-fixture.sh — sourced by t-shlib-tls.sh and t-shlib-tls-o0.sh:
# count/shlib.c as a counted shared library, used by a program linked to it
# and by one that dlopens it, each calling it from two threads.
#
# shlib_run OPT: libshlib.so compiled with OPT (and plain/libshlib.so, the
# uninstrumented build), the programs linked, opened and plain/linked, and
# the three runs — linked, dlopen'ed, and dlopen'ed with no static TLS
# surplus (the library's block per thread, its offset 0) — giving
# linked.pit, opened.pit and dynamic.pit; each run's results must be the
# uninstrumented build's (in want).  The programs themselves are not
# instrumented: the runtime comes first, so that its pthread_create is the
# one called and the second thread is known (docs/runtime.md, "Threads").
shlib_run() {
    pi_cc "$1" -g -fPIC -c "$T/count/shlib.c" -o shlib.o
    pi_ld -shared -o libshlib.so shlib.o
    mkdir -p plain
    gcc "$1" -fPIC -shared -I"$PERFINST_TOP/include" "$T/count/shlib.c" -o plain/libshlib.so
    rt="-L$B -Wl,--no-as-needed -lperfinst -Wl,--as-needed -Wl,-rpath,$B"
    gcc -O2 -DLINKED "$T/count/shlibmain.c" -o linked $rt -L. -lshlib -Wl,-rpath,'$ORIGIN' -pthread
    gcc -O2 -DLINKED "$T/count/shlibmain.c" -o plain/linked -Lplain -lshlib -Wl,-rpath,'$ORIGIN' -pthread
    gcc -O2 "$T/count/shlibmain.c" -o opened $rt -ldl -pthread
    ./plain/linked > want
    PERFINST_OUT=linked.pit ./linked > got1
    PERFINST_OUT=opened.pit ./opened ./libshlib.so > got2
    GLIBC_TUNABLES=glibc.rtld.optional_static_tls=0 PERFINST_OUT=dynamic.pit ./opened ./libshlib.so > got3
    cmp -s want got1 || fail "linked: $(cat got1), uninstrumented: $(cat want)"
    cmp -s want got2 || fail "dlopen'ed: $(cat got2), uninstrumented: $(cat want)"
    cmp -s want got3 || fail "dlopen'ed, no static surplus: $(cat got3), uninstrumented: $(cat want)"
    ok "the results of the uninstrumented $1 build: $(cat want)"
}

# shlib_counts M: M.pit's line counts exact (check-counts.py) and every
# (site, target) pair of the indirect calls exact through the thread-local
# inline caches, merged into m.pit.
shlib_counts() {
    python3 "$T/count/check-counts.py" "$PMOPT" ./libshlib.so "$T/count/shlib.c" "$1.pit" > c || { cat c; fail "$1: counts"; }
    ok "$1, two threads: $(tail -1 c)"
    "$PMOPT" merge -o m.pit "$1.pit" > /dev/null
    "$PMOPT" dump m.pit | grep ' ICALL ' | sed 's/.* target \(0x[0-9a-f]*\) count \([0-9]*\)$/\1 \2/' | sort > icalls
    local inc dbl
    inc=0x$(nm libshlib.so | awk '$3 == "lib_inc" { sub(/^0+/, "", $1); print $1 }')
    dbl=0x$(nm libshlib.so | awk '$3 == "lib_dbl" { sub(/^0+/, "", $1); print $1 }')
    printf '%s\n' "$inc 2400" "$dbl 1600" "$inc 1200" "$dbl 800" "$inc 800" "$dbl 400" | sort > want.icalls
    diff want.icalls icalls || fail "$1: ICALL pairs: want lib_inc 2400, lib_dbl 1600 (lib_apply), lib_inc 1200, lib_dbl 800 (lib_jump), lib_inc 800, lib_dbl 400 (lib_o0)"
}

# shlib_cg_calls OUT: of a callgrind profile, "TLS GETTER": the calls of
# __tls_get_addr from the library's functions (but lib_jump's: setjmp's
# counters through GCC's model, and its own __thread lib_env) and of the
# unit's getter from the runtime's stub
shlib_cg_calls() {
    python3 - "$1" << 'PY'
import re, sys
names, fn, cfn = {}, "", ""
def name(v):
    m = re.match(r"\((\d+)\)(?: (.*))?", v)
    if not m:
        return v
    if m.group(2):
        names[m.group(1)] = m.group(2)
    return names.get(m.group(1), "")
tls, getter = 0, 0
for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    if line.startswith("fn="):
        fn = name(line[3:])
    elif line.startswith("cfn="):
        cfn = name(line[4:])
    elif line.startswith("calls="):
        k = int(line[6:].split()[0])
        tls += k if fn.startswith("lib_") and fn.split(".")[0] != "lib_jump" and cfn == "__tls_get_addr" else 0
        getter += k if fn == "pi_ctr_base_libc" and cfn == "__perfinst_tls" else 0
print(tls, getter)
PY
}
