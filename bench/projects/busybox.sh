# bench/projects/busybox.sh — BusyBox 1.35.0 (C, its own Kconfig/Kbuild
# makefiles) for bench/projects.sh: Debian's patched tree, `make
# defconfig` (some 300 applets in one multi-call binary), then `make`
# with the flags in the environment, which Kbuild takes as they are
# (Makefile: `CFLAGS := $(CFLAGS)`, `LDFLAGS := $(LDFLAGS)`, exported)
# before its own Makefile.flags: every compile gets them, and so does
# each link scripts/trylink makes (its --gc-sections, --sort-section and
# --sort-common probes, the library pruning links, the final link with
# -Wl,--verbose and a map).  BusyBox's own -Os comes after CFLAGS' -O2
# and wins, as in Debian's build (debian/rules filters -O2 out), with
# its -finline-limit=0, -falign-functions=1, -fno-guess-branch-probability
# and -fno-asynchronous-unwind-tables.  SKIP_STRIP=y as Debian's: busybox
# is busybox_unstripped.  Tests: testsuite/runtest for a handful of
# applets (awk sed sort grep gzip bzip2 xargs cut tr and a few more), each
# case a PASS or FAIL line.  Workloads over the log corpus of
# bench/projects/logs.py: train (seed 1) is sed, grep, sort, uniq, cut,
# tr and tail in pipelines (every reader reads its whole input: `head -8`
# after a sort had the sort killed by SIGPIPE in some runs and not in
# others, and tail read from a pipe calls safe_read as often as the pipe
# happens to hold data, 4,443 times in one run and 4,520 in another: the
# exact-count check compared runs that differed); test (seed 7) is clearly different: awk
# aggregation, gzip/gunzip and bzip2, md5sum/sha1sum/sha256sum, a loop in
# `busybox sh`, and 20 short runs of small applets (the fixed cost of a
# process, which a multi-call binary run from scripts pays often).
P_PKG=busybox=1:1.35.0-4+deb12u1
P_TREE=debian
P_LANG=c
P_EXES=busybox
P_SPOT=uniq_main                     # once per uniq run of the training mix
P_VGSCALE=0.1

p_build() {
    {
        make V=1 defconfig &&
            make V=1 -j2 SKIP_STRIP=y
    } > build.log 2>&1
}

# the applets' tests: runtest prints PASS: or FAIL: for each case (and
# UNTESTED:/SKIPPED: for what the configuration leaves out)
p_test() {
    (cd testsuite && SKIP_KNOWN_BUGS=y SKIP_INTERNET_TESTS=y LANG=C.UTF-8 LC_ALL=C.UTF-8 ECHO=/bin/echo \
        ./runtest awk sed sort grep gzip bzip2 bunzip2 xargs cut tr uniq head tail wc md5sum sha256sum expr) \
        > test-runtest.out 2>&1
    awk '/^PASS:/ { p++ } /^(PASS|FAIL):/ { n++ } END { print p + 0, n + 0 }' test-runtest.out
}

p_workload() {
    local mix=$1; shift
    local n data bb=./busybox i
    case $mix in
    train)
        read -r n data <<< "$(log_corpus train 100000)"
        echo "errors: $("$@" $bb grep -c 'ERROR' "$data")"
        echo "alice or bob: $("$@" $bb grep -E 'user (alice|bob) ' "$data" | "$@" $bb wc -l)"
        "$@" $bb sed -e 's/id=[0-9]*/id=N/' -e 's/^[0-9-]* [0-9:]* \(\[[A-Za-z]*\] user [a-z]* [^ ]*\).*/\1/' "$data" |
            "$@" $bb sort | "$@" $bb uniq -c | "$@" $bb sort -k1,1nr -k2 | "$@" $bb sed -n 1,8p
        "$@" $bb cut -d' ' -f3,5 "$data" | "$@" $bb sort | "$@" $bb uniq -c
        "$@" $bb sort -t' ' -k5,5 -k1,2 "$data" > .sorted
        "$@" $bb tail -3 .sorted
        "$@" $bb tr 'a-z' 'A-Z' < "$data" | "$@" $bb grep -c 'USER ALICE .*CACHE'
        "$@" $bb sed -n 's/.*path=\/\([a-z]*\)\/.*/\1/p' "$data" | "$@" $bb sort | "$@" $bb uniq -c | "$@" $bb sort -nr
        ;;
    test)
        read -r n data <<< "$(log_corpus test 100000)"
        "$@" $bb awk '{ lv = $3; gsub(/[][]/, "", lv); n[lv]++; ms = $NF; sub(/ms$/, "", ms)
                if ($NF ~ /ms$/) { t[$5] += ms; if (ms + 0 > mx[$5]) mx[$5] = ms + 0 }
                for (i = 6; i < NF; i++) if ($i !~ /=/) w[$i]++ }
            END { for (k in n) printf "%-8s %7d\n", k, n[k] | "sort"; close("sort")
                for (k in t) printf "%-6s %10d %5d\n", k, t[k], mx[k] | "sort"; close("sort")
                c = 0; for (k in w) c++; printf "words %d\n", c }' "$data"
        "$@" $bb gzip -6 -c "$data" > .t.gz
        echo "gzip: $(wc -c < .t.gz) bytes"
        "$@" $bb gunzip -c .t.gz | "$@" $bb md5sum
        "$@" $bb bzip2 -c "$data" > .t.bz2
        echo "bzip2: $(wc -c < .t.bz2) bytes"
        "$@" $bb bunzip2 -c .t.bz2 | cmp -s - "$data" && echo "bunzip2: round trip ok"
        "$@" $bb md5sum < "$data"
        "$@" $bb sha1sum < "$data"
        "$@" $bb sha256sum < "$data"
        "$@" $bb sh -c 'i=0 s=0 t=""
            while [ $i -lt $1 ]; do
                s=$(( (s * 31 + i) % 1000003 ))
                case $i in *7) t="${t}x" ;; *3) t=${t%x} ;; esac
                i=$((i + 1))
            done
            echo "sh: $s ${#t}"' sh "$((n / 4))"
        for i in $(seq 20); do
            "$@" $bb basename "/var/log/app$i/file$i.txt" .txt
            "$@" $bb expr "$i" '*' 7 + 1 > /dev/null
        done | "$@" $bb md5sum
        ;;
    esac
}
