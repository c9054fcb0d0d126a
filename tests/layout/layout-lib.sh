# tests/layout/layout-lib.sh — helpers of the layout tests (sourced after lib.sh).

# arms OBJ FUNC: "HOT COLD JCC" — the addresses of the hot arm's marker
# constant (0x5151), the cold arm's (0x7777), and the target of the first
# conditional jump in FUNC's disassembly (hex, as objdump prints them).
arms() {
    objdump -d --no-show-raw-insn "$1" | awk -v f="<$2>:" '
        $2 == f { on = 1; next }
        on && /^$/ { on = 0 }
        on && /\$0x5151,/ && !hot { hot = $1 }
        on && /\$0x7777,/ && !cold { cold = $1 }
        on && $2 ~ /^j/ && $2 != "jmp" && !jcc { jcc = $3 }
        END { sub(":", "", hot); sub(":", "", cold); print hot, cold, jcc }'
}
# hexlt A B: is hex A < hex B?
hexlt() { [ $((16#$1)) -lt $((16#$2)) ]; }

# rec FEEDBACK KIND FN: the recommendation of KIND for function FN, without
# its number and with src= dropped (it is an absolute path)
rec() {
    awk -v k="$2" -v f="fn=$3" '$2 == k && $3 == f' "$1" | sed 's/^[0-9]* //; s/ src=[^ ]*//'
}
