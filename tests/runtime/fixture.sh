# fixture.sh — sourced by tests/runtime/t-*.sh after tests/lib.sh.
R=$T/runtime
CFIX="-O2 -g -Wall -I$PERFINST_TOP/include -I$R"

# build_prog NAME SRC [EXTRA...]: NAME linked with libperfinst.so,
# NAME.static with libperfinst.a (its ABI exported, so that instrumented
# shared libraries it loads find this copy of the runtime).
build_prog() {
    local name=$1 src=$2; shift 2
    gcc $CFIX -pthread -o "$name" "$src" "$@" -L"$B" -lperfinst -Wl,-rpath,"$B"
    gcc $CFIX -pthread -o "$name.static" "$src" "$@" "$B/libperfinst.a" \
        -Wl,--export-dynamic-symbol='__perfinst_*' -Wl,--export-dynamic-symbol='perfinst_*'
}
# dump FILE: print the trace, failing unless it is complete and valid.
dump() { python3 "$R/pitdump.py" "$1" > "$1.txt" || { cat "$1.txt" >&2; fail "invalid trace $1"; }; }
# pid_of TRACE_TXT: the pid in a dumped trace's header.
pid_of() { sed -n 's/^header .* pid=\([0-9]*\) .*/\1/p' "$1"; }
# only_trace PATTERN: the one file matching the glob, else fail.
only_trace() {
    local f n
    n=$(ls $1 2>/dev/null | wc -l)
    [ "$n" = 1 ] || { ls -la >&2; fail "expected one trace $1, found $n"; }
    ls $1
}
