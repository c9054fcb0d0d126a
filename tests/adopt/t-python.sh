#!/bin/bash
# timeout: 300
# A Python extension module built as its users build one — setuptools'
# build_ext, CFLAGS and LDFLAGS from pkg-config, the interpreter's own
# LDSHARED (`gcc -shared` or `x86_64-linux-gnu-gcc -shared`) — and
# imported by python3, which perfinst did not build: a counted shared
# object that python dlopen's with RTLD_LOCAL (docs/adopting.md, "Python
# extension modules").  Exact counts in perfinst.python3.<pid>.pit at a
# normal exit, sys.exit, an uncaught exception and SIGTERM; in a
# subinterpreter and after a reload; what python calls of libc's, pointed
# at the runtime's (os._exit in multiprocessing's fork children,
# KeyboardInterrupt, threads), and os._exit with the runtime preloaded.
. "$PERFINST_TOP/tests/lib.sh"
. "$PERFINST_TOP/tests/adopt/lib-adopt.sh"
need python3
inc=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])') || fail "python3's sysconfig"
[ -e "$inc/Python.h" ] || skip "python3's headers are missing ($inc/Python.h: apt-get install python3-dev)"
python3 -c 'import setuptools' 2> /dev/null || skip "python3's setuptools is missing (apt-get install python3-setuptools)"
cp "$A/python/piext.c" "$A/python/setup.py" "$A/python/mp.py" .
CFLAGS="$PI_CFLAGS -fplugin-arg-perfinst-all=count" LDFLAGS="$PI_LIBS" \
    python3 setup.py build_ext --inplace > build.log 2>&1 || { cat build.log; fail "setup.py build_ext"; }
so=$(ls piext*.so)
readelf -dW "$so" > so.d
assert_contains "the module needs the runtime" so.d 'NEEDED.*\[libperfinst\.so\]'
"$PMOPT" dump-meta "$so" > so.meta
assert_contains "the module's own translation table and recipe (the link stage ran)" so.meta 'translation table, link recipe'
pre=$B/libperfinst.so

# run NAME STATUS [ENV=VALUE...] -- PYTHON: python3 -c PYTHON with piext
# imported and work(10) called three times first; its status must be
# STATUS; the one trace it wrote becomes NAME.pit
run() {
    local name=$1 want=$2 st=0
    shift 2
    local envs=()
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    mkdir "$name.d"
    (cd "$name.d" && env "${envs[@]}" python3 -c "import os, signal, sys
sys.path.insert(0, '..')
import piext
for _ in range(3): piext.work(10)
print(os.getpid(), flush=True)
${1:-}" > out 2> err) || st=$?
    assert_eq "$name: status" "$want" "$st"
    local pid
    pid=$(head -1 "$name.d/out")
    [ -e "$name.d/perfinst.python3.$pid.pit" ] || { ls -la "$name.d" >&2; fail "$name: no perfinst.python3.$pid.pit"; }
    assert_eq "$name: one trace" 1 "$(ls "$name.d" | grep -c '\.pit$')"
    mv "$name.d/perfinst.python3.$pid.pit" "$name.pit"
}
# entries TRACE FUNCTION
entries() { function_entries "$so" "$1" "$2"; }

run exit 0 --
assert_eq "exit: work entered 3 times" 3 "$(entries exit.pit work)"
assert_eq "exit: step 30 times" 30 "$(entries exit.pit step)"
run sysexit 3 -- 'piext.work(5); sys.exit(3)'
assert_eq "sys.exit: step" 35 "$(entries sysexit.pit step)"
run raise 1 -- 'piext.work(5); raise ValueError("x")'
assert_eq "an uncaught exception: step" 35 "$(entries raise.pit step)"
run term 143 -- 'piext.work(5); os.kill(os.getpid(), signal.SIGTERM)'
assert_eq "SIGTERM: step" 35 "$(entries term.pit step)"
"$PMOPT" report "$so" term.pit > term.txt 2>&1
assert_contains "SIGTERM: the trace says so" term.txt 'died of signal 15 \(SIGTERM\)'

# python3 itself given to pmopt: the trace names the module that counted
expect_fail "pmopt report python3" "$PMOPT" report "$(python3 -c 'import sys; print(sys.executable)')" exit.pit
assert_contains "pmopt names the module the trace counted in" err "exit\.pit counted in $(pwd)/$so"

# a subinterpreter importing it again (single-phase init: not run again)
# and importlib.reload, then one more call in the main interpreter
if python3 -c 'import _xxsubinterpreters' 2> /dev/null; then
    run subinterp 0 -- 'import _xxsubinterpreters as I, importlib
i = I.create()
I.run_string(i, "import sys; sys.path.insert(0, \"..\"); import piext; piext.work(7)")
I.destroy(i)
importlib.reload(piext); piext.work(1)'
    assert_eq "subinterpreter: step" 38 "$(entries subinterp.pit step)"
    assert_eq "subinterpreter: work" 5 "$(entries subinterp.pit work)"
    assert_eq "subinterpreter: the module initialised once" 1 "$(entries subinterp.pit PyInit_piext)"
else
    ok "(this python3 has no _xxsubinterpreters: no subinterpreter run)"
fi

# what python3 calls of libc's, its imports pointed at the runtime's as
# the module loads (runtime/gotpatch.c): os._exit (here, and in
# multiprocessing's fork children), KeyboardInterrupt (python puts SIGINT's
# default back and kills itself), threads python starts after the import;
# and os._exit with the runtime preloaded, the route for threads started
# before it
run osexit 4 -- 'piext.work(5); sys.stdout.flush(); os._exit(4)'
assert_eq "os._exit: step" 35 "$(entries osexit.pit step)"
run kbint 130 -- 'piext.work(5); os.kill(os.getpid(), signal.SIGINT)'
assert_eq "KeyboardInterrupt: step" 35 "$(entries kbint.pit step)"
run threads 0 -- 'import threading
ts = [threading.Thread(target=piext.work, args=(100,)) for _ in range(4)]
for t in ts: t.start()
for t in ts: t.join()'
assert_eq "threads: step" 430 "$(entries threads.pit step)"
run preexit 4 LD_PRELOAD="$pre" -- 'piext.work(5); sys.stdout.flush(); os._exit(4)'
assert_eq "os._exit, preloaded: step" 35 "$(entries preexit.pit step)"

mkdir mp.d
(cd mp.d && PYTHONPATH=.. python3 ../mp.py > out 2> err) || { cat mp.d/err; fail "mp.py"; }
assert_eq "multiprocessing: the children's status" "exitcodes 0 0" "$(cat mp.d/out)"
assert_eq "multiprocessing: three traces (the parent, two children)" 3 "$(ls mp.d/*.pit | wc -l)"
for f in mp.d/*.pit; do
    echo "$(entries "$f" work) $(entries "$f" step)"
done | sort -n -k2 > mp.counts
assert_eq "multiprocessing: work and step in each process" "1 5 1 20 1 30" "$(echo $(cat mp.counts))"
