# bench/workloads.sh — the programs and workloads that the cost benchmark
# (bench/count-cost.sh) and the layout suite (bench/suite.sh) share.  Sourced;
# needs `here` (bench/) set by the caller.
#
#   WL_PROGRAMS               sqlite lua zstd (bench/suite.sh also builds
#                             speedtest1: sqlite3.c + SQLite's test/speedtest1.c,
#                             and leveldb: LevelDB 1.23's db_bench)
#   wl_workloads PROG         the workloads of PROG (sqlite: train sort insert;
#                             lua: all; zstd: compress decompress)
#   wl_fetch PROG             the sources, fetched once into $WL_CACHE (default
#                             /work/cache if it exists, else bench/.cache):
#                             SQLite from npm (bench/fetch-sqlite.sh), lua5.4 and
#                             zstd and leveldb as Debian source packages (wl_debsrc),
#                             speedtest1.c from the sqlite3 source package
#                             (wl_speedtest1); sets WL_SRC (the unpacked tree,
#                             never built in)
#   wl_sources PROG           the C files a build compiles (after wl_fetch)
#   wl_cflags PROG            the program's own -D/-I flags
#   wl_build PROG DIR LINK CFLAGS...
#                             compile every source into DIR (objects kept while
#                             their stamp — flags, plugin, feedback file, source
#                             — is unchanged)
#                             and link DIR/prog with gcc (LINK=gcc: CFLAGS too) or
#                             perfinst-ld (LINK=pild; $B/perfinst-ld)
#   wl_run PROG WORKLOAD DIR SCALE [WRAPPER...]
#                             run DIR/prog on WORKLOAD at SCALE under WRAPPER
#                             (e.g. valgrind ...; run in DIR); prints the
#                             workload's checksum line on stdout
#   wl_scale PROG small|big   the scale for callgrind runs / for timed runs
#
# The workloads: SQLite's bench/sqlite/workload.c with its mixes (train: our
# original driver; sort: ORDER BY / GROUP BY over large result sets, the
# sorter's comparator called through a pointer, indexed lookups, joins;
# insert: late inserts into indexed tables, point updates and deletes);
# Lua 5.4 (Debian's lua5.4, whose source package ships no test scripts)
# running bench/lua/workload.lua (WORKLOAD: its MIX, all or one part);
# speedtest1 (WORKLOAD: a --testset, SCALE: --size, an in-memory database;
# the checksum is its --verify hash); zstd 1.5.4 (Debian's libzstd source, built
# single-threaded) compressing a generated 24 MiB corpus at -3 once per unit
# of scale, and decompressing it five times per unit, in one process;
# leveldb 1.23 (Debian's, C++: its library, util/histogram.cc,
# util/testutil.cc and benchmarks/db_bench.cc, as its CMake build compiles
# db_bench, without snappy and crc32c) running db_bench (WORKLOAD: a mix of
# its benchmarks, SCALE: --num; one thread, a fresh database in DIR; the
# checksum is the benchmarks' names and found counts).

WL_PROGRAMS="sqlite lua zstd"
WL_CACHE=${WL_CACHE:-$([ -d /work/cache ] && echo /work/cache || echo "$here/.cache")}

wl_workloads() {
    case $1 in
    sqlite) echo "train sort insert" ;;
    lua) echo "all" ;;
    zstd) echo "compress decompress" ;;
    esac
}

wl_scale() {
    case $1:$2 in
    sqlite:small) echo 0.1 ;; sqlite:big) echo 1 ;;
    lua:small) echo 2 ;; lua:big) echo 10 ;;
    zstd:small) echo 1 ;; zstd:big) echo 10 ;;
    esac
}

# wl_debsrc NAME: the unpacked Debian source package NAME under
# $WL_CACHE/debsrc (bench/fetch-debsrc.sh); prints its directory
wl_debsrc() {
    CACHE=$WL_CACHE "$here/fetch-debsrc.sh" "$1"
}

# wl_speedtest1: test/speedtest1.c of the sqlite3 Debian source package,
# extracted once into $WL_CACHE/debsrc (bench/fetch-debsrc.sh
# --download-only); prints its path
wl_speedtest1() {
    local d=$WL_CACHE/debsrc f
    f=$(ls "$d"/speedtest1-*.c 2> /dev/null | head -1)
    if [ -z "$f" ]; then
        CACHE=$WL_CACHE "$here/fetch-debsrc.sh" --download-only sqlite3 > /dev/null || return 1
        local t v
        t=$(ls "$d"/sqlite3_*.orig.tar.* 2> /dev/null | grep -v -- '-www' | head -1)
        v=${t##*/sqlite3_}; v=${v%%.orig.tar.*}
        [ -n "$t" ] && tar -xf "$t" --wildcards '*/test/speedtest1.c' -O > "$d/speedtest1-$v.c.tmp" &&
            [ -s "$d/speedtest1-$v.c.tmp" ] || { echo "workloads: no test/speedtest1.c in $t" >&2; return 1; }
        mv "$d/speedtest1-$v.c.tmp" "$d/speedtest1-$v.c"
        f=$d/speedtest1-$v.c
    fi
    echo "$f"
}

wl_fetch() {
    case $1 in
    sqlite) WL_SRC=$(CACHE=$WL_CACHE/bench "$here/fetch-sqlite.sh" "$WL_CACHE/bench/sqlite" | tail -1) ;;
    lua)
        WL_SRC=$(wl_debsrc lua5.4) || return 1
        # what Debian's build generates (debian/rules): luaconf.h includes it
        mkdir -p "$WL_CACHE/bench/lua-include"
        echo '#define DEB_HOST_MULTIARCH "x86_64-linux-gnu"' > "$WL_CACHE/bench/lua-include/lua5.4-deb-multiarch.h" ;;
    zstd) WL_SRC=$(wl_debsrc libzstd) ;;
    leveldb)
        WL_SRC=$(wl_debsrc leveldb) || return 1
        # what its CMake build generates (port/port_config.h.in): fdatasync
        # and O_CLOEXEC (Linux), no crc32c, no snappy
        mkdir -p "$WL_CACHE/bench/leveldb-include/port"
        printf '#define HAVE_FDATASYNC 1\n#define HAVE_FULLFSYNC 0\n#define HAVE_O_CLOEXEC 1\n#define HAVE_CRC32C 0\n#define HAVE_SNAPPY 0\n' \
            > "$WL_CACHE/bench/leveldb-include/port/port_config.h" ;;
    speedtest1)
        # the amalgamation (npm, as for sqlite) and test/speedtest1.c of the
        # sqlite3 Debian source package (downloaded, that one file extracted)
        wl_fetch sqlite || return 1
        wl_speedtest1 > /dev/null || return 1 ;;
    *) echo "workloads: unknown program $1" >&2; return 1 ;;
    esac
    [ -n "$WL_SRC" ]
}

wl_sources() {
    case $1 in
    sqlite) echo "$WL_SRC/sqlite3.c $here/sqlite/workload.c" ;;
    speedtest1) echo "$WL_SRC/sqlite3.c $(wl_speedtest1)" ;;
    lua) ls "$WL_SRC"/src/*.c | grep -v -e '/luac\.c$' ;;
    zstd)
        ls "$WL_SRC"/lib/common/*.c "$WL_SRC"/lib/compress/*.c "$WL_SRC"/lib/decompress/*.c \
            "$WL_SRC"/lib/decompress/*.S
        local f
        for f in zstdcli util timefn fileio fileio_asyncio benchfn benchzstd datagen dibio zstdcli_trace; do
            echo "$WL_SRC/programs/$f.c"
        done
        ls "$WL_SRC"/lib/dictBuilder/*.c
        ;;
    leveldb)
        # the library (CMakeLists.txt's leveldb target on POSIX), then db_bench's own
        local f
        for f in db/builder db/c db/db_impl db/db_iter db/dbformat db/dumpfile db/filename \
            db/log_reader db/log_writer db/memtable db/repair db/table_cache db/version_edit \
            db/version_set db/write_batch helpers/memenv/memenv table/block table/block_builder \
            table/filter_block table/format table/iterator table/merger table/table \
            table/table_builder table/two_level_iterator util/arena util/bloom util/cache \
            util/coding util/comparator util/crc32c util/env util/env_posix util/filter_policy \
            util/hash util/logging util/options util/status util/histogram util/testutil \
            benchmarks/db_bench; do
            echo "$WL_SRC/$f.cc"
        done
        ;;
    esac
}

wl_cflags() {
    case $1 in
    sqlite|speedtest1) echo "-DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -I$WL_SRC" ;;
    lua) echo "-DLUA_COMPAT_5_3 -DLUA_USE_LINUX -I$WL_CACHE/bench/lua-include" ;;
    zstd) echo "-I$WL_SRC/lib -I$WL_SRC/lib/common -I$WL_SRC/programs -DXXH_NAMESPACE=ZSTD_ -DZSTD_LEGACY_SUPPORT=0" ;;
    leveldb) echo "-std=c++11 -fno-exceptions -DNDEBUG -DLEVELDB_PLATFORM_POSIX=1 -I$WL_CACHE/bench/leveldb-include -I$WL_SRC -I$WL_SRC/include" ;;
    esac
}

wl_libs() {
    case $1 in
    sqlite|speedtest1) echo "-lm" ;;
    lua) echo "-lm -ldl" ;;
    zstd) echo "" ;;
    leveldb) echo "-lgmock -lgtest -lstdc++ -lm -lpthread" ;;
    esac
}

wl_stamp() { # FILE CFLAGS...
    local f=$1 a; shift
    echo "$*"
    for a in "$@"; do
        case $a in
        -fplugin=*) sha256sum "${a#-fplugin=}" ;;
        -fplugin-arg-perfinst-feedback=*) sha256sum "${a#-fplugin-arg-perfinst-feedback=}" ;;
        esac
    done
    sha256sum "$f"
}

wl_build() {
    local prog=$1 d=$2 link=$3; shift 3
    local f o objs=() own
    own=$(wl_cflags "$prog")
    mkdir -p "$d/obj"
    for f in $(wl_sources "$prog"); do
        o=$d/obj/$(basename "${f%.*}").o
        objs+=("$o")
        if [ -f "$o" ] && wl_stamp "$f" "$@" | cmp -s - "$o.stamp"; then continue; fi
        rm -f "$o.stamp" "$d/prog"
        local std=
        [ "${f##*.}" = c ] && std=-std=gnu11
        # shellcheck disable=SC2086  # the program's own flags are word-split on purpose
        gcc "$@" $std $own -c "$f" -o "$o" 2>> "$d/cc.err" || { tail "$d/cc.err" >&2; return 1; }
        wl_stamp "$f" "$@" > "$o.stamp"
    done
    local newest=1 x
    if [ -x "$d/prog" ]; then
        for x in "${objs[@]}"; do [ "$d/prog" -nt "$x" ] || newest=0; done
        [ "$link" != pild ] || { [ "$d/prog" -nt "$B/perfinst-ld" ] && [ "$d/prog" -nt "$B/libperfinst.so" ]; } || newest=0
    else
        newest=0
    fi
    [ $newest = 0 ] || return 0
    # shellcheck disable=SC2046
    if [ "$link" = pild ]; then
        (cd "$d" && PERFINST_LIB_DIR=$B "$B/perfinst-ld" -O2 -o prog "${objs[@]}" $(wl_libs "$prog"))
    else
        gcc "$@" -o "$d/prog" "${objs[@]}" $(wl_libs "$prog")
    fi
}

# wl_zstd_corpus SCALE: the zstd corpus, SCALE × 24 MiB of generated text and records, the same
# bytes on every machine
wl_zstd_corpus() {
    local f=$WL_CACHE/bench/zstd-corpus-$1
    if [ ! -s "$f" ]; then
        mkdir -p "$WL_CACHE/bench"
        python3 - "$1" > "$f.tmp" << 'EOF' || return 1
import sys, struct
scale = float(sys.argv[1])
want = int(scale * 24 * 1024 * 1024)
words = ("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november "
         "oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu the of and to "
         "in is that for it as was with be by on not he this are or his from at which but have an "
         "they you were her she there been one all we their has would when if so no will").split()
x = 0x2545F4914F6CDD1D
out = bytearray()
def rnd():
    global x
    x ^= (x << 13) & 0xffffffffffffffff; x ^= x >> 7; x ^= (x << 17) & 0xffffffffffffffff
    return x
line = 0
while len(out) < want:
    r = rnd()
    k = r % 4
    line += 1
    if k < 2:      # prose
        out += (" ".join(words[(r >> (8 + 5 * i)) % len(words)] for i in range(8 + r % 9))).encode() + b".\n"
    elif k == 2:   # log records
        out += b"%08d %s level=%d user=%d took=%dms\n" % (line, words[(r >> 20) % len(words)].encode(),
                                                          (r >> 30) % 5, (r >> 33) % 5000, (r >> 45) % 997)
    else:          # binary-ish records
        out += struct.pack("<IHHQ", line, r & 0xffff, (r >> 16) & 0x3ff, r >> 40) * (1 + (r >> 60) % 3)
sys.stdout.buffer.write(bytes(out[:want]))
EOF
        mv "$f.tmp" "$f"
    fi
    echo "$f"
}

wl_run() {
    local prog=$1 wl=$2 d=$3 scale=$4; shift 4
    case $prog in
    sqlite) (cd "$d" && "$@" ./prog "$scale" "$wl") | tail -1 ;;
    lua) (cd "$d" && "$@" ./prog "$here/lua/workload.lua" "$scale" "$wl") | tail -1 ;;
    speedtest1)
        # SQLite's own benchmark; its timings vary, its verification hash does not
        (cd "$d" && "$@" ./prog --testset "$wl" --size "$scale" --memdb --nosync --verify) |
            sed -n "s/^Verification Hash: [0-9]* \([0-9a-f]*\)$/checksum=\1 testset=$wl size=$scale/p" ;;
    zstd)
        local c n i files=()
        c=$(wl_zstd_corpus 1) || return 1
        [ -s "$c.zst" ] || (cd "$d" && ./prog -3 -q -f "$c" -o "$c.zst") || return 1
        # SCALE passes over the corpus in one process (five times as many
        # for decompression, which is about five times as fast)
        n=$(awk -v s="$scale" -v w="$wl" 'BEGIN { n = int(s * (w == "decompress" ? 5 : 1) + 0.5); print n < 1 ? 1 : n }')
        for ((i = 0; i < n; i++)); do files+=("$c"); done
        case $wl in
        decompress) files=("${files[@]/%/.zst}") ;;
        esac
        (cd "$d" && "$@" ./prog $([ "$wl" = decompress ] && echo -d || echo -3) -q -c --no-progress "${files[@]}" > "$d/out") ||
            return 1
        echo "checksum=$(cksum < "$d/out" | cut -d' ' -f1) scale=$scale $wl"
        rm -f "$d/out"
        ;;
    leveldb)
        local b
        case $wl in
        train) b=fillseq,fillrandom,readrandom ;;
        overwrite) b=fillrandom,overwrite,readrandom ;;
        reverse) b=fillseq,readseq,readreverse ;;
        seek) b=fillrandom,seekrandom,deleterandom ;;
        *) echo "workloads: leveldb has no workload $wl" >&2; return 1 ;;
        esac
        # a database and an output of its own (the suite runs two at a time in one
        # DIR); its results are on stdout, its progress on stderr (dropped; WRAPPER's kept)
        local t
        t=$(mktemp -d "$d/run.XXXXXX") || return 1
        { (cd "$d" && "$@" ./prog --benchmarks=$b --num="$scale" --db="$t/db" --threads=1) 2>&1 > "$t/out" |
            tr '\r' '\n' | sed '/^\.\.\. finished [0-9]* ops/d' >&2; } || { rm -rf "$t"; return 1; }
        # the benchmarks' names and found counts (their timings vary)
        echo "checksum=$(tr '\r' '\n' < "$t/out" | sed -n 's/^\([a-z]*\) *: .*\(([0-9]* of [0-9]* found)\).*/\1 \2/p; t; s/^\([a-z]*\) *: .*micros.op.*/\1/p' |
            cksum | cut -d' ' -f1) scale=$scale $wl"
        rm -rf "$t"
        ;;
    esac
}
