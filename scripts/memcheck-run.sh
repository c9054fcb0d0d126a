#!/bin/sh
# scripts/memcheck-run.sh LOG CMD ARGS... — CMD under valgrind's memcheck,
# as the plugin's memory checks run it (tests/plugin/t-memcheck.sh,
# scripts/check-memcheck.sh): into its children (cc1, cc1plus, and lto1
# under an -flto link's collect2), not the assembler's nor the linker's;
# each process's report in LOG (valgrind's %p: its pid), which
# scripts/memcheck-errors.awk reads.
log=$1
shift
exec valgrind -q --trace-children=yes --trace-children-skip='*/as,*/ld,*/ld.bfd,*/ld.gold' \
    --num-callers=40 --log-file="$log" "$@"
