# Timer sampling with call stacks (PERFINST_SAMPLE): stacks of -O2 code
# without frame pointers are complete (_start → main → mid_a → mid_b →
# leaf_spin, every sample; threads from their start routine), pmopt report
# --tree prints that tree, export --folded writes one 'a;b;c N' line per
# stack adding up to the sampled periods, and export --flamegraph writes a
# well-formed SVG naming the hot function; a handler's stack continues
# through the signal frame to main.
. "$PERFINST_TOP/tests/lib.sh"

gcc -O2 -g -fomit-frame-pointer -c "$T/sampling/deep.c" -o deep.o
pi_ld --pi-runtime -O2 -o deep deep.o -pthread
# the chain really has no frame pointer: no function sets rbp from rsp
# (main even uses rbp as an ordinary register)
objdump -d deep | awk '/<(leaf_spin|mid_a|mid_b|main)>:/ {f=1} /^$/ {f=0} f && /mov +%rsp,%rbp/ {n++} END {exit n>0}' ||
    fail "the fixture saves a frame pointer"
ok "no frame pointers in main, mid_a, mid_b, leaf_spin"

PERFINST_SAMPLE=cpu:1ms PERFINST_OUT=s.pit ./deep 150000000 > /dev/null
"$PMOPT" report --tree s.pit > tree
cat tree
assert_contains "header" tree "^sampled stacks: cpu clock, period 1.000 ms: [0-9]+ samples for [0-9]+ periods, [0-9]+ truncated, 0 dropped, 1 threads$"
# none truncated under _start: a timer may expire once in the program's
# teardown (crtstuff's __do_global_dtors_aux, no frame description: a
# stack of its own, truncated), seen once under load; the chain through
# main unwinds whole
trunc=$(sed -n 's/^sampled stacks: .* \([0-9]*\) truncated, .*/\1/p' tree | head -1)
roots() { awk '/^ +[0-9.]+% +[0-9.]+% +[0-9]+ +[0-9]+  [^ ]/ { print $5, $3 }' tree; }
cut=$(roots | awk '$1 ~ /^(main|mid_a|mid_b|leaf_spin)$/')
[ -z "$cut" ] || fail "a stack of the chain not under _start (cut): $cut"
outside=$(roots | awk '$1 != "_start" { n += $2 } END { print n + 0 }')
[ "$trunc" -le "$outside" ] || fail "$trunc samples truncated, $outside outside _start: the chain through main was cut"
ok "truncated: $trunc, none under _start ($outside samples outside it)"
assert_contains "tree: leaf under mid_b" tree "^ +[0-9.]+% +[0-9.]+% +[0-9]+ +[0-9]+ {14}leaf_spin  \(deep.c:[0-9]+\)$"
# two runs' traces: their threads are in two processes
PERFINST_SAMPLE=cpu:1ms PERFINST_OUT=s2.pit ./deep 30000000 > /dev/null
"$PMOPT" report --tree s.pit s2.pit > tree2
assert_contains "two traces' header" tree2 "^sampled stacks: .* 0 dropped, 2 threads in 2 processes$"
# A program linked without the runtime (nothing in it refers to it) is
# sampled with the runtime preloaded: the same tree.  (Not with a
# sanitizer-built runtime, whose own runtime must come first.)
if ! readelf -dW "$B/libperfinst.so" | grep -q 'lib[at]san'; then
    gcc -O2 -o deep-plain deep.o -pthread
    readelf -dW deep-plain | grep -q libperfinst && fail "deep-plain links the runtime"
    LD_PRELOAD=$B/libperfinst.so PERFINST_SAMPLE=cpu:1ms PERFINST_OUT=preload.pit ./deep-plain 150000000 > /dev/null
    "$PMOPT" report --tree preload.pit > preload.tree
    assert_contains "LD_PRELOAD: leaf under mid_b" preload.tree "^ +[0-9.]+% +[0-9.]+% +[0-9]+ +[0-9]+ {14}leaf_spin  \(deep.c:[0-9]+\)$"
fi
"$PMOPT" export --folded folded --flamegraph fg.svg s.pit
python3 - folded tree <<'PY' || fail "folded stacks"
import re, sys
lines = open(sys.argv[1]).read().splitlines()
total = full = 0
for l in lines:
    m = re.fullmatch(r"([^ ;]+(?:;[^ ;]+)*) ([0-9]+)", l)
    assert m, "not a folded line: %r" % l
    n = int(m.group(2)); total += n
    fr = m.group(1).split(";")
    if fr[-1] == "leaf_spin":
        assert fr[0] == "_start" and fr[-4:] == ["main", "mid_a", "mid_b", "leaf_spin"], "incomplete: " + l
        full += n
periods = int(re.search(r"samples for ([0-9]+) periods", open(sys.argv[2]).read()).group(1))
assert total == periods, (total, periods)
assert full >= 0.95 * total, (full, total)
print("ok: folded: %d lines, %d periods, %d in _start;...;main;mid_a;mid_b;leaf_spin" % (len(lines), total, full))
PY
python3 "$T/sampling/check-svg.py" fg.svg leaf_spin mid_b main || fail "flame graph"
ok "flame graph is well-formed and names leaf_spin"

# threads: each from its start routine
PERFINST_SAMPLE=cpu:1ms PERFINST_OUT=t.pit ./deep 80000000 threads > /dev/null
"$PMOPT" report --tree t.pit > ttree
assert_contains "3 threads" ttree "^sampled stacks: .* 0 truncated, 0 dropped, 3 threads$"
"$PMOPT" export --folded tfolded t.pit
assert_contains "thread stacks" tfolded ";thread_main;mid_a;mid_b;leaf_spin [0-9]+$"
assert_contains "main stack" tfolded "^_start;.*;main;mid_a;mid_b;leaf_spin [0-9]+$"

# wall-clock sampling; the records decoded by pmopt dump
PERFINST_SAMPLE=wall:2ms PERFINST_OUT=w.pit ./deep 50000000 > /dev/null
"$PMOPT" dump w.pit > wdump
assert_contains "wall header" wdump "SAMPLE_STATS kind wall, period 2000000 ns, taken [1-9][0-9]*,"
assert_contains "sample map of the program" wdump "SAMPLE_MAP \[0x[0-9a-f]+, 0x[0-9a-f]+\) bias 0x[0-9a-f]+, build-id [0-9a-f]+, path \"$PWD/deep\"$"
# (any sample: the first may be marked truncated, which the decoder says
# between weight and frames)
assert_contains "a decoded sample" wdump "^    \[0\] t [0-9]+ wall cpu [0-9]+ tid [0-9]+ weight [0-9]+ (\(truncated\) )?frames [0-9]+: 0x"

# a bad setting is said once and nothing is sampled
PERFINST_SAMPLE=cpu:fast PERFINST_OUT=bad.pit ./deep 1000 > /dev/null 2> err
assert_contains "bad PERFINST_SAMPLE" err "^perfinst: PERFINST_SAMPLE=cpu:fast: expected cpu\[:PERIOD\] or wall\[:PERIOD\]"
[ ! -e bad.pit ] || fail "a trace without samples or units"
ok "no trace without anything to write"

# through a signal frame: glibc's __restore_rt has CFI made of DWARF
# expressions; the walk from a signal handler gets back to main
gcc -O2 -g -c "$T/sampling/handler.c" -o handler.o
pi_ld --pi-runtime -O2 -o handler handler.o
PERFINST_SAMPLE=cpu:1ms PERFINST_OUT=h.pit ./handler > /dev/null
"$PMOPT" export --folded hfolded h.pit
# (glibc's functions by their DWARF names where libc6-dbg is installed, as
# gdb shows them: __GI_raise, __libc_start_main_impl, __GI_exit)
assert_contains "stack through the signal trampoline" hfolded "^_start;.*;main;(__GI_)?raise;.*;on_usr1;spin [0-9]+$"
"$PMOPT" report --tree h.pit > htree
assert_contains "none truncated" htree " 0 truncated, "

# leaf code without CFI (glibc's clone3 after its system call, where a
# thread's creator takes its timer signal): when rsp holds the return
# address of a direct call the walk goes on; when it does not, it stops
gcc -O2 -g -c "$T/sampling/nocfi.c" -o nocfi.o
pi_ld --pi-runtime -O2 -o nocfi nocfi.o
a=$(nm nocfi | awk '$3 == "spin_nocfi" {print $1}')
readelf --debug-dump=frames nocfi | python3 -c '
import re, sys
a = int(sys.argv[1], 16)
ranges = [(int(m[0], 16), int(m[1], 16)) for m in re.findall(r" FDE .*pc=([0-9a-f]+)\.\.([0-9a-f]+)", sys.stdin.read())]
sys.exit(not ranges or any(lo <= a < hi for lo, hi in ranges))' "$a" || fail "an FDE covers spin_nocfi"
ok "no FDE covers spin_nocfi"
PERFINST_SAMPLE=cpu:1ms PERFINST_OUT=n.pit ./nocfi 300000000 > /dev/null
"$PMOPT" report --tree n.pit > ntree
assert_contains "an FDE-less leaf: none truncated" ntree "^sampled stacks: .*: [1-9][0-9]* samples for [0-9]+ periods, 0 truncated, "
"$PMOPT" export --folded nfolded n.pit
assert_eq "one stack ends in the FDE-less leaf" 1 "$(grep -c "spin_nocfi [0-9]*$" nfolded)"
assert_contains "main → outer → spin_nocfi" nfolded "^_start;.*;main;outer;spin_nocfi [0-9]+$"
# a leaf that pushed and counts in rbp: the return address above it, of a
# direct call of the leaf, found by scanning the stack
PERFINST_SAMPLE=cpu:1ms PERFINST_OUT=scan.pit ./nocfi 300000000 push > /dev/null
"$PMOPT" report --tree scan.pit > stree
assert_contains "a leaf that pushed: none truncated (scanned)" stree "^sampled stacks: .*: [1-9][0-9]* samples for [0-9]+ periods, 0 truncated, "
"$PMOPT" export --folded sfolded scan.pit
assert_contains "main → outer_push → spin_push" sfolded "^_start;.*;main;outer_push;spin_push [0-9]+$"
assert_eq "one stack ends in spin_push" 1 "$(grep -c "spin_push [0-9]*$" sfolded)"
# a leaf that counts in rbx, called by a function whose frame is reckoned
# from rbp: the scanned frame is the nearer, rbp kept for the caller's
PERFINST_SAMPLE=cpu:1ms PERFINST_OUT=alloca.pit ./nocfi 300000000 alloca > /dev/null
"$PMOPT" export --folded afolded alloca.pit
assert_contains "main → outer_alloca → spin_rbx" afolded "^_start;.*;main;outer_alloca;spin_rbx [0-9]+$"
assert_eq "spin_rbx: one stack, none skipping outer_alloca" 1 "$(grep -c "spin_rbx" afolded)"
# a leaf that saved rbp and counts in it under such a caller: the caller's
# rbp found among the words the leaf pushed
PERFINST_SAMPLE=cpu:1ms PERFINST_OUT=allocapush.pit ./nocfi 300000000 allocapush > /dev/null
"$PMOPT" report --tree allocapush.pit > aptree
assert_contains "allocapush: none truncated" aptree "^sampled stacks: .*: [1-9][0-9]* samples for [0-9]+ periods, 0 truncated, "
"$PMOPT" export --folded apfolded allocapush.pit
assert_contains "main → outer_alloca_push → spin_push" apfolded "^_start;.*;main;outer_alloca_push;spin_push [0-9]+$"
# the same leaf in a shared library, called through its PLT entry (jmp
# *GOT): the scanned word's call leads there, and through the GOT to it
cat > libspin.s <<'ASM'
	.text
	.globl lib_spin
	.type lib_spin, @function
lib_spin:
	push %rbp
	mov %rdi, %rbp
1:	imul $0x5851f42d, %rax, %rax
	dec %rbp
	jnz 1b
	pop %rbp
	ret
	.size lib_spin, .-lib_spin
	.section .note.GNU-stack,"",@progbits
ASM
gcc -shared -o libspin.so libspin.s
printf 'void lib_spin(unsigned long);\nvolatile int sunk;\n__attribute__((noinline)) void lib_outer(unsigned long n) { lib_spin(n); sunk++; }\nint main(void) { lib_outer(300000000); return 0; }\n' > uselib.c
gcc -O2 -g -c uselib.c -o uselib.o
pi_ld --pi-runtime -O2 -o uselib uselib.o -L. -lspin -Wl,-rpath,"$PWD"
objdump -d uselib | grep -q "call .*<lib_spin@plt>" || fail "lib_outer does not call lib_spin through the PLT (the fixture wants it)"
PERFINST_SAMPLE=cpu:1ms PERFINST_OUT=plt.pit ./uselib
"$PMOPT" export --folded pltfolded plt.pit
assert_contains "main → lib_outer → lib_spin, through the PLT" pltfolded "^_start;.*;main;lib_outer;lib_spin [0-9]+$"
assert_not_contains "no lib_spin stack truncated" pltfolded "^\[truncated\];lib_spin"
# the same leaf called through a function pointer: nothing to check a
# scanned word against, the walk stops
PERFINST_SAMPLE=cpu:1ms PERFINST_OUT=p.pit ./nocfi 300000000 indirect > /dev/null
"$PMOPT" report --tree p.pit > ptree
# (not "every sample truncated": a timer may also expire once in main or in
# the runtime's exit path, whose stacks are complete — seen under load)
assert_contains "a leaf that pushed, called through a pointer: truncated" ptree "^sampled stacks: .*: [1-9][0-9]* samples for [0-9]+ periods, [1-9][0-9]* truncated, "
"$PMOPT" export --folded pfolded p.pit
assert_contains "no made-up caller: under [truncated]" pfolded "^\[truncated\];spin_push [0-9]+$"
assert_eq "spin_push only under [truncated]" 1 "$(grep -c "spin_push" pfolded)"
assert_contains "the tree's [truncated] root" ptree "^ *[0-9.]+% +[0-9.]+% +[0-9]+ +0  \\[truncated\\]$"
"$PMOPT" export --speedscope=pss.json --chrome=pchrome.json p.pit
python3 - pss.json pchrome.json <<'PY' || fail "speedscope, chrome: a truncated stack's root is [truncated]"
import json, sys
d = json.load(open(sys.argv[1]))
names = [f["name"] for f in d["shared"]["frames"]]
roots = {names[s[0]] for p in d["profiles"] for s in p["samples"] if any(names[i] == "spin_push" for i in s)}
assert roots == {"[truncated]"}, roots
# Chrome: every spin_push slice lies inside a [truncated] slice of its thread
ev = [e for e in json.load(open(sys.argv[2]))["traceEvents"] if e.get("ph") == "X" and e.get("cat") == "sample"]
outer = [e for e in ev if e["name"] == "[truncated]"]
leaf = [e for e in ev if e["name"] == "spin_push"]
assert leaf and all(any(o["tid"] == l["tid"] and o["ts"] <= l["ts"] and l["ts"] + l["dur"] <= o["ts"] + o["dur"] + 1e-3
                        for o in outer) for l in leaf), (len(outer), len(leaf))
PY
ok "speedscope, chrome: a truncated stack's root is [truncated]"
# counted, outer's counting copy calls the leaf at its stand-in
# `spin_nocfi.pi_entry: jmp spin_nocfi`, elsewhere in the text: the walk
# follows the jump to the leaf
pi_cc -O2 -g -fplugin-arg-perfinst-all=count -c "$T/sampling/nocfi.c" -o nocfi-count.o
pi_ld -O2 -o nocfi-count nocfi-count.o
objdump -d nocfi-count | grep -q "call .*<spin_nocfi\.pi_entry>" || fail "no call of spin_nocfi.pi_entry (the fixture wants one)"
PERFINST_SAMPLE=cpu:1ms PERFINST_OUT=cn.pit ./nocfi-count 300000000 > /dev/null
"$PMOPT" report --tree cn.pit > cntree
assert_contains "called at its stand-in: none truncated" cntree "^sampled stacks: .*: [1-9][0-9]* samples for [0-9]+ periods, 0 truncated, "
"$PMOPT" export --folded cnfolded cn.pit
assert_contains "counted: main → outer → spin_nocfi" cnfolded "^_start;.*;main;outer;spin_nocfi [0-9]+$"
# code without CFI that keeps a frame pointer (nasm's functions): the walk
# follows rbp, from the interrupted leaf and from a return address into it
for m in frame call; do
    PERFINST_SAMPLE=cpu:1ms PERFINST_OUT=$m.pit ./nocfi 300000000 $m > /dev/null
    "$PMOPT" report --tree $m.pit > $m.tree
    assert_contains "$m: none truncated" $m.tree "^sampled stacks: .*: [1-9][0-9]* samples for [0-9]+ periods, 0 truncated, "
    "$PMOPT" export --folded $m.folded $m.pit
done
assert_eq "one stack ends in spin_frame" 1 "$(grep -c "spin_frame [0-9]*$" frame.folded)"
assert_contains "main → outer_frame → spin_frame" frame.folded "^_start;.*;main;outer_frame;spin_frame [0-9]+$"
assert_eq "one stack ends in c_spin" 1 "$(grep -c "c_spin [0-9]*$" call.folded)"
assert_contains "main → outer_call → call_frame → c_spin" call.folded "^_start;.*;main;outer_call;call_frame;c_spin [0-9]+$"

# a library's constructor that runs after the runtime's (the timers run):
# _dl_init is called by ld.so's entry code, which has no FDE; the walk ends
# there, complete, as at a program's _start (every one of these samples
# was truncated before; a wall timer also expires there when the machine
# is loaded, seen in CI-like runs)
gcc -O2 -g -fPIC -shared -DCTOR_LIB "$T/sampling/ctor.c" -o libctor.so -L"$B" -lperfinst
gcc -O2 -g -c "$T/sampling/ctor.c" -o ctor.o
pi_ld --pi-runtime -O2 -o ctor ctor.o -L. -lctor -Wl,-rpath,"$PWD"
PERFINST_SAMPLE=cpu:1ms PERFINST_OUT=k.pit ./ctor > /dev/null
"$PMOPT" report --tree k.pit > ktree
assert_contains "a constructor's samples: none truncated" ktree "^sampled stacks: .*: [1-9][0-9]* samples for [0-9]+ periods, 0 truncated, "
"$PMOPT" export --folded kfolded k.pit
assert_contains "from the loader's entry code to ctor_spin" kfolded ";ctor_init;ctor_spin [0-9]+$"

# _init and _fini (glibc's crti.o/crtn.o: `sub $8,%rsp` ... `add $8,%rsp;
# ret`, no FDE), stepped out of at each of their instructions by the walk
# itself (walkinit.c: the return address where the disassembly's stack
# depth puts it), then sampled: initfini.c calls a spin from inside each
# (as gcrt1.o's __gmon_start__ call in _init), which __libc_start_main and
# _dl_fini run while the timers do.  Every such step ended the walk,
# truncated, before.
gcc -O2 -g -Wall -pthread -I"$PERFINST_TOP/include" -I"$PERFINST_TOP/runtime" \
    -o walkinit "$T/sampling/walkinit.c" "$B/libperfinst.a"
objdump -d --no-show-raw-insn walkinit --section=.init --section=.fini | python3 -c '
import re, sys
out, fn, base, depth = [], None, 0, 0
for line in sys.stdin:
    m = re.match(r"([0-9a-f]+) <(_init|_fini)>:", line)
    if m:
        fn, base, depth = m.group(2)[1:], int(m.group(1), 16), 0
        continue
    m = re.match(r"\s+([0-9a-f]+):\s+(\S.*)", line)
    if fn and m:
        out.append("%s:%x:%d" % (fn, int(m.group(1), 16) - base, depth))
        ins = " ".join(m.group(2).split())
        depth = 8 if ins == "sub $0x8,%rsp" else 0 if ins == "add $0x8,%rsp" else depth
print(" ".join(out))' > walkargs
grep -q "init:.*:8" walkargs && grep -q "fini:.*:8" walkargs || fail "no _init/_fini of the expected shape: $(cat walkargs)"
./walkinit $(cat walkargs) > walk
cat walk
assert_eq "every instruction of _init and _fini steps to its caller" "$(wc -w < walkargs)" \
    "$(grep -c ' frames 2 second 0x7e5700$' walk)"
gcc -O2 -g -c "$T/sampling/initfini.c" -o initfini.o
pi_ld --pi-runtime -O2 -o initfini initfini.o
objdump -d initfini --section=.fini | grep -q "call.*<fini_spin>" || fail "fini_spin is not called from .fini"
PERFINST_SAMPLE=cpu:1ms PERFINST_OUT=if.pit ./initfini > ifout
assert_eq "both spins ran" 1 "$(cat ifout)"
"$PMOPT" report --tree if.pit > iftree
assert_contains "samples in _init and _fini: none truncated" iftree "^sampled stacks: .*: [1-9][0-9]* samples for [0-9]+ periods, 0 truncated, "
"$PMOPT" export --folded iffolded if.pit
cat iffolded
assert_contains "through _init to init_spin" iffolded "^_start;__libc_start_main(_impl)?;.*init_spin;spin [0-9]+$"
assert_contains "through _dl_fini and _fini to fini_spin" iffolded "^_start;__libc_start_main(_impl)?;.*;(__GI_)?exit;.*fini_spin;spin [0-9]+$"

# 100 distinct functions on one stack: each frame gets one node (one root,
# one path of 100 + leaf), so pmopt names each distinct function once
python3 - > chain.c <<'PY'
print("volatile unsigned long sink;")
print("__attribute__((noinline)) void f100(unsigned long n) { unsigned long x = sink; for (unsigned long i = 0; i < n; i++) x = x * 6364136223846793005ul + 1; sink = x; }")
for i in range(99, -1, -1):
    print("__attribute__((noinline)) void f%d(unsigned long n) { f%d(n); sink++; }" % (i, i + 1))
print("int main(void) { f0(150000000); return (int)(sink & 1); }")
PY
gcc -O2 -g -c chain.c -o chain.o
pi_ld --pi-runtime -O2 -o chain chain.o
PERFINST_SAMPLE=cpu:1ms PERFINST_OUT=c.pit ./chain || true
"$PMOPT" export --folded cfolded c.pit
assert_eq "one stack ends in f100" 1 "$(grep -c ";f100 [0-9]*$" cfolded)"
assert_contains "the whole chain" cfolded "^_start;.*;main;f0;f1;f2;.*;f98;f99;f100 [0-9]+$"

# usage errors exit 2, bad files 1, each with a message
st=0; "$PMOPT" export s.pit 2> err || st=$?
assert_eq "export without an output: usage" 2 "$st"
assert_contains "says what is missing" err "nothing to export: .*--flamegraph OUT or --folded OUT"
st=0; "$PMOPT" export --what=everything --folded - s.pit 2> err || st=$?
assert_eq "bad --what: usage" 2 "$st"
st=0; "$PMOPT" report --tree 2> err || st=$?
assert_eq "report --tree without a trace: usage" 2 "$st"
st=0; "$PMOPT" export --folded /nonexistent/dir/out s.pit 2> err || st=$?
assert_eq "unwritable output: error" 1 "$st"
assert_contains "names the file" err "^pmopt: /nonexistent/dir/out: cannot create: No such file or directory$"
head -c 100 s.pit > cut.pit
"$PMOPT" report --tree cut.pit > /dev/null 2> err
assert_contains "a cut trace is read up to its last complete record" err "cut.pit: truncated after"
