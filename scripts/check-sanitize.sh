#!/bin/bash
# make check-sanitize: the tools and the runtime built with AddressSanitizer
# and UBSan (build-asan/) and the test suite run against them; then the
# runtime built with ThreadSanitizer (build-tsan/) and its thread tests.
#
#   scripts/check-sanitize.sh [--asan-only|--tsan-only|--ci] [PATTERN...]
#
# PATTERN selects the ASan tests as tests/run.sh does (default: all but the
# libFuzzer tests, which build their own sanitized harness).  --ci is the
# bounded subset make check runs (tests/sanitize/t-sanitize.sh): the runtime's and the load
# tests under ASan+UBSan, and the thread tests under TSan (docs/testing.md).  Test programs
# are compiled as usual (the plugin's exact counts and static instruction
# types must not change) but every link adds -fsanitize=...: a gcc shim first
# in PATH does it, so that the sanitizer runtime comes first in the link and
# the sanitized libperfinst resolves.  Sanitizer reports go to log files
# (log_path), so that a report in a program a test expects to fail (pmopt
# on a bad file, a child killed on purpose) is not lost: any report fails the
# run.  The GCC plugin is not sanitized (cc1 is not); it is copied from build/.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
mode=both
case "${1:-}" in
--asan-only) mode=asan; shift ;;
--tsan-only) mode=tsan; shift ;;
--ci) shift; set -- 'runtime/' 'load/' ;;
esac
patterns=("$@")
status=0

# shim DIR FLAGS [FIRST]: DIR/gcc, DIR/cc, DIR/g++ and DIR/c++ add FLAGS to
# every link, and FIRST before every other input of a link that names
# libperfinst.so or goes through perfinst's link stage
# (-specs=…perfinst.specs, which adds the runtime after the inputs, where it
# would follow libtsan).  g++ too: C++ programs link with it (perfinst-ld
# picks it for C++ objects).
shim() {
    mkdir -p "$1"
    for cc in gcc g++; do
        cat > "$1/$cc" <<SH
#!/bin/sh
# Added by scripts/check-sanitize.sh: sanitize every link, nothing else.
first=
for a in "\$@"; do
    case "\$a" in
    -c|-S|-E|-M|-MM|-static|-fsyntax-only|-print-*|--version|-dumpversion|-v) exec /usr/bin/$cc "\$@" ;;
    -lperfinst|*/libperfinst.so|-specs=*perfinst.specs) first="${3:-}" ;;
    esac
done
exec /usr/bin/$cc \$first "\$@" $2
SH
        chmod +x "$1/$cc"
    done
    ln -sf gcc "$1/cc"
    ln -sf g++ "$1/c++"
}

# reports DIR: print and count the sanitizer reports in DIR.  A leak report
# of a fork child whose parent had threads running is LeakSanitizer's own
# false positive ("Running thread N was not suspended. False leaks are
# possible."): the child cannot scan the lost threads' TLS, which still
# points at their tables.  Such a report (leaks only, with that warning) is
# shown but does not fail the run; any other report does.  (LSAN exitcode=0:
# a leak never changes a program's exit status; its report fails the run here.)
reports() {
    local n=0 f
    for f in "$1"/*; do
        [ -e "$f" ] || continue
        if grep -q "was not suspended. False leaks are possible" "$f" &&
           grep -q "ERROR: LeakSanitizer" "$f" &&
           ! grep -q "ERROR: AddressSanitizer\|runtime error\|ThreadSanitizer" "$f"; then
            echo "check-sanitize: ignored (leak report of a fork child of a threaded parent): $f"
            continue
        fi
        n=$((n + 1))
        echo "== $f"; head -60 "$f"
    done
    if [ "$n" != 0 ]; then
        echo "check-sanitize: $n report(s) in $1"
        return 1
    fi
}

make -j2 all >/dev/null || exit 1

if [ "$mode" != tsan ]; then
    san="-fsanitize=address,undefined"
    B=build-asan
    echo "== ASan+UBSan build in $B/"
    CFLAGS="-O1 -g -fno-omit-frame-pointer $san -fno-sanitize-recover=undefined" \
    LDFLAGS="$san" make -j2 BUILD=$B $B/libperfinst.so $B/libperfinst.a $B/pmopt $B/perfinst-ld \
        $B/perfinst.specs $B/perfinst-uninstalled.pc >/dev/null || exit 1
    cp build/perfinst.so $B/
    shim "$top/$B/shim" "$san"
    logs=$top/$B/reports
    rm -rf "$logs"; mkdir -p "$logs"
    # handle_*=0: the runtime's own fatal-signal handlers must run (they
    # write the trace); a crash a test makes on purpose is not a finding.
    common="log_path=$logs/r:handle_segv=0:handle_sigbus=0:handle_abort=0:handle_sigfpe=0:handle_sigill=0"
    [ ${#patterns[@]} = 0 ] && patterns=($(ls tests/*/t-*.sh | grep -v 't-fuzz' | sed 's|^tests/||; s|\.sh$||'))
    PATH="$top/$B/shim:$PATH" PERFINST_BUILD="$top/$B" PERFINST_SANITIZE=address \
    ASAN_OPTIONS="$common:detect_leaks=1:verify_asan_link_order=0" \
    UBSAN_OPTIONS="log_path=$logs/ub:print_stacktrace=1:halt_on_error=1" \
    LSAN_OPTIONS="suppressions=$top/tests/lsan.supp:print_suppressions=0:exitcode=0" \
        tests/run.sh -j 2 "${patterns[@]}" || status=1
    reports "$logs" || status=1
fi

if [ "$mode" != asan ]; then
    san="-fsanitize=thread"
    B=build-tsan
    echo "== TSan build of the runtime in $B/"
    CFLAGS="-O1 -g $san" LDFLAGS="$san" make -j2 BUILD=$B $B/libperfinst.so $B/libperfinst.a \
        $B/perfinst.specs >/dev/null || exit 1
    cp build/perfinst.so build/pmopt build/perfinst-ld $B/
    # libperfinst.so before libtsan among the program's libraries: the
    # program's pthread_create must be libperfinst's, which reaches TSan's
    # through RTLD_NEXT, so that TSan's thread start runs before the
    # runtime's (instrumented) one.  -fsanitize=thread at the link would
    # put libtsan first, so it is named as a library, last.
    shim "$top/$B/shim" "-Wl,--push-state,--no-as-needed $(gcc -print-file-name=libtsan.so) -Wl,--pop-state" \
        "-Wl,--push-state,--no-as-needed $top/$B/libperfinst.so -Wl,--pop-state -Wl,-rpath,$top/$B"
    logs=$top/$B/reports
    rm -rf "$logs"; mkdir -p "$logs"
    # die_after_fork=0: t-fork.sh's children start threads after a fork
    # (t-load.sh runs its 64 threads without children under TSan).
    PATH="$top/$B/shim:$PATH" PERFINST_BUILD="$top/$B" PERFINST_SANITIZE=thread \
    TSAN_OPTIONS="log_path=$logs/t:handle_segv=0:handle_sigbus=0:handle_abort=0:handle_sigfpe=0:handle_sigill=0:halt_on_error=0:second_deadlock_stack=1:die_after_fork=0:suppressions=$top/tests/tsan.supp" \
        tests/run.sh -j 2 'runtime/t-(threads|stress|fork|signal|exec|plain-host)' 'count/t-threads' 'load/t-load' || status=1
    reports "$logs" || status=1
fi
[ $status = 0 ] && echo "check-sanitize: clean"
exit $status
