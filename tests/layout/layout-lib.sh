# tests/layout/layout-lib.sh — helpers of the layout tests (sourced after lib.sh).

# in_func OBJ FUNC [-v NAME=VALUE...] PROGRAM: the awk PROGRAM run over
# FUNC's disassembly in OBJ, its lines marked by `on`
in_func() {
    local obj=$1 fn=$2
    shift 2
    objdump -d --no-show-raw-insn "$obj" | awk -v f="<$fn>:" "${@:1:$#-1}" '
        $2 == f { on = 1; next }
        on && /^$/ { on = 0 }
        '"${!#}"
}

# arms OBJ FUNC [before]: "HOT COLD JCC" — the addresses of the hot arm's
# marker constant (0x5151), the cold arm's (0x7777), and the target of the
# first conditional jump in FUNC's disassembly, or with `before` of the
# last one before the hot arm's constant (hex, as objdump prints them).
arms() {
    in_func "$1" "$2" -v before="${3:-}" '
        on && /\$0x5151,/ && !hot { hot = $1; if (before) jcc = last }
        on && /\$0x7777,/ && !cold { cold = $1 }
        on && $2 ~ /^j/ && $2 != "jmp" { if (!jcc && !before) jcc = $3; if (!hot) last = $3 }
        END { sub(":", "", hot); sub(":", "", cold); print hot, cold, jcc }'
}
# train_and_plan SRC: SRC built with all=count as ./train (count-at=cfg:
# the fixtures' expected counts are of the source's blocks), run once
# (train.pit, train.out), and its plan in plan.fb (pmopt's output in
# plan.out)
train_and_plan() {
    pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=cfg -c "$1" -o train.o
    pi_ld -O2 -o train train.o
    PERFINST_OUT=train.pit ./train > train.out
    "$PMOPT" plan -o plan.fb ./train train.pit > plan.out
}

# same_output OBJ: the rebuilt object linked plainly prints what the
# training run printed
same_output() {
    gcc -O2 -o fb "$1"
    ./fb > fb.out
    cmp train.out fb.out || fail "the rebuilt program prints something else"
    ok "same output"
}

# hexlt A B: is hex A < hex B?
hexlt() { [ $((16#$1)) -lt $((16#$2)) ]; }

# rec FEEDBACK KIND FN: the recommendation of KIND for function FN, without
# its number and with src= dropped (it is an absolute path)
rec() {
    awk -v k="$2" -v f="fn=$3" '$2 == k && $3 == f' "$1" | sed 's/^[0-9]* //; s/ src=[^ ]*//'
}

# reseal BODY OUT: a feedback file's lines (BODY, without its trailer)
# edited by a test, sealed again with the trailer its CRC needs
reseal() {
    python3 - "$1" "$2" <<'PY'
import sys, zlib
body = open(sys.argv[1]).read()
n = sum(1 for l in body.splitlines() if l and l[0].isdigit())
crc = zlib.crc32("".join(l + "\n" for l in body.splitlines() if l and not l.startswith("#")).encode())
open(sys.argv[2], "w").write(body + "end %d 0x%08x\n" % (n, crc))
PY
}

# dis OBJ SYM: SYM's disassembly in OBJ
dis() {
    objdump -d --no-show-raw-insn "$1" | awk -v f="<$2>:" '$2 == f { on = 1; next } on && /^$/ { on = 0 } on'
}
# has OBJ SYM PATTERN: how many lines of SYM's disassembly match PATTERN
has() { dis "$1" "$2" | grep -c -e "$3" || true; }
# syms OBJ: the text symbols of OBJ, sorted
syms() { nm "$1" | awk '$2 ~ /^[tT]$/ { print $3 }' | sort | tr '\n' ' '; }

# checked_builds SRC PLAN OPT "VALUES" ARG OUT OUT-ARG: SRC rebuilt with
# PLAN and each -fplugin-arg-perfinst-OPT=VALUE at -O2 and -O3 with GCC's
# checking, without a diagnostic, printing OUT run with no argument and
# OUT-ARG run with ARG (the dispatch fixtures: ARG 2 runs every opcode; the
# split fixture: ARG 3 runs the cold paths)
checked_builds() {
    local src=$1 plan=$2 opt=$3 values=$4 arg=$5 out=$6 out_arg=$7 O v
    for O in -O2 -O3; do
        for v in $values; do
            pi_cc $O -fchecking=1 -fplugin-arg-perfinst-feedback="$plan" -fplugin-arg-perfinst-$opt=$v \
                -c "$src" -o c$v.o 2> c$v.err || { cat c$v.err; fail "$O $opt=$v with checking"; }
            assert_not_contains "$O $opt=$v: no diagnostic" c$v.err "error|internal|verify"
            gcc -o c$v c$v.o
            ./c$v > c$v.out
            ./c$v $arg > c$v-$arg.out
            cmp "$out" c$v.out || fail "$O $opt=$v prints something else"
            cmp "$out_arg" c$v-$arg.out || fail "$O $opt=$v prints something else when run with $arg"
        done
        ok "$O with checking: $opt=${values// /, } print what $out and $out_arg hold, run with $arg or not"
    done
}

# same_code A.o B.o MESSAGE: A's and B's disassembly the same byte for
# byte (in A.dis and B.dis, without objdump's header naming the file), or
# fail with MESSAGE
same_code() {
    objdump -d "$1" | sed 1,3d > "${1%.o}.dis"
    objdump -d "$2" | sed 1,3d > "${2%.o}.dis"
    cmp "${1%.o}.dis" "${2%.o}.dis" || fail "$3"
}

# split_trained SRC: the split fixtures' start (t-coldsplit.sh,
# t-finecounts.sh) — SRC built with all=count counted at cfg as ./train,
# run once with no argument (train.pit; train.out its output), its output
# with argument 3 (train3.out: the cold paths run), planned (plan.fb)
split_trained() {
    pi_cc -O2 -g -fplugin-arg-perfinst-all=count -fplugin-arg-perfinst-count-at=cfg -c "$1" -o train.o
    pi_ld -O2 -o train train.o
    PERFINST_OUT=train.pit ./train > train.out
    ./train 3 > train3.out
    "$PMOPT" plan -o plan.fb ./train train.pit > plan.out
}

# dispatch_trained SRC: the dispatch fixtures' start — SRC built with plain
# -O2 (o2.out: its output with no argument, o2-2.out with argument 2), with
# all=count as ./train, run once with no argument (train.pit, printing what
# -O2 prints) and planned (plan.fb), run's branch profile in the plan
dispatch_trained() {
    gcc -O2 -o o2 "$1"
    ./o2 > o2.out
    ./o2 2 > o2-2.out
    pi_cc -O2 -fplugin-arg-perfinst-all=count -c "$1" -o train.o
    pi_ld -O2 -o train train.o
    PERFINST_OUT=train.pit ./train > train.out
    cmp o2.out train.out || fail "the training build prints something else"
    "$PMOPT" plan -o plan.fb ./train train.pit > plan.out
    assert_contains "run has a branch profile" plan.fb "branch-profile fn=run .*counts="
}
