# The inline fast paths: an LD_PRELOAD shim counts the calls into the
# runtime's probes.  tick() (one unit, a call and a return a call) run 100
# times with every=7: the unit probe calls in 15 times (the thread's first
# unit, then the 14 sample points), the call and return probes 100 times
# each; with events=none they call in once (the first, which sets the skip
# bits); with PERFINST_RI=off the first unit calls in and nothing after.
# The counts and the report groups are the same as without the shim.
. "$PERFINST_TOP/tests/lib.sh"
gcc -O2 -shared -fPIC -o shim.so "$T/ri/shim.c" -ldl
pi_cc -O2 -g -c "$T/ri/count.c" -o count.o
pi_ld -O2 -o count count.o
LD_PRELOAD=./shim.so PERFINST_OUT=a.pit ./count 100 tick > /dev/null 2> err
assert_contains "every=7: 15 unit calls, 100 calls, 100 returns" err "^shim: unit 15 call 100 return 100 transfer 0$"
"$PMOPT" dump a.pit | grep -c INSTRUCTION > n
assert_eq "... 14 groups" 14 "$(cat n)"
LD_PRELOAD=./shim.so PERFINST_RI=events=none PERFINST_OUT=b.pit ./count 100 tick > /dev/null 2> err
assert_contains "events=none: one call and no return into the runtime" err "^shim: unit 15 call 1 return 0 transfer 0$"
LD_PRELOAD=./shim.so PERFINST_RI=off PERFINST_OUT=c.pit ./count 100 tick > /dev/null 2> err
assert_contains "PERFINST_RI=off: the first probe only" err "^shim: unit 0 call 1 return 0 transfer 0$"
LD_PRELOAD=./shim.so PERFINST_RI=every=1000000 PERFINST_OUT=d.pit ./count 100 tick > /dev/null 2> err
assert_contains "a long interval: the first unit only" err "^shim: unit 1 call 100 return 100 transfer 0$"
