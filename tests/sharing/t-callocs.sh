# align-alloc at calloc sites (docs/sharing.md, Repair): the call becomes
# aligned_alloc(64, n * size rounded up to whole lines) and, if that did
# not fail, memset(p, 0, n * size) -- in the program itself, with no
# allocator of perfinst's linked.  callocs.c's sites (constant and
# variable counts, a size that is not a multiple of a line, a product that
# wraps), each named by a hand-written feedback file, at -O0 and -O2 and
# with detection too: each object starts a line, comes back zeroed over
# memory a freed block left dirty, and the wrapping one fails with ENOMEM.
# realloc sites (grown, shrunk, from NULL, to 0 bytes) become the
# runtime's __perfinst_line_realloc (libperfinst-line.a): each object starts
# a line and keeps the old contents; realloc(p, 0) frees, as glibc's does;
# with detection the object is recorded at its site (a realloc, kind 3).
. "$PERFINST_TOP/tests/lib.sh"
src=$T/sharing/callocs.c
python3 - "$src" <<'PY'
import sys, zlib
lines = open(sys.argv[1]).read().split("\n")
recs = []
for site in ("const", "var", "bytes", "wrap", "grow", "shrink", "null", "zero"):
    n = next(i + 1 for i, l in enumerate(lines) if "/* site %s */" % site in l)
    recs.append("%d align-alloc func=main file=callocs.c line=%d" % (len(recs) + 1, n))
body = "perfinst-feedback 1\nprogram callocs\n" + "\n".join(recs) + "\n"
open("c.fb", "w").write(body + "end %d 0x%08x\n" % (len(recs), zlib.crc32(body.encode())))
PY
gcc -O2 "$src" -o plain
./plain 5 > plain.out
assert_contains "the plain build: memory nobody zeroes is dirty (the test can fail)" plain.out "^control \+0 DIRTY$"
for opt in -O0 -O2; do
    gcc $opt -fplugin="$PLUGIN" -fplugin-arg-perfinst-feedback=c.fb -fplugin-arg-perfinst-verbose -c "$src" \
        -o c$opt.o 2> c$opt.err || { cat c$opt.err >&2; fail "$opt: repaired build"; }
    assert_not_contains "$opt: every recommendation applied" c$opt.err "not applied"
    assert_contains "$opt: the calloc becomes aligned_alloc and memset" c$opt.err \
        "callocs.c:[0-9]+:.*aligned_alloc\(64, whole lines\) and memset"
    pi_ld $opt -o c$opt c$opt.o
    nm c$opt > c$opt.nm
    assert_contains "$opt: libc's aligned_alloc called" c$opt.nm " U aligned_alloc@"
    assert_not_contains "$opt: no calloc left" c$opt.nm " U calloc@"
    # (line-alloc.c's member is linked for the reallocs; main calls no
    # line allocator of calloc's)
    objdump -d --no-show-raw-insn c$opt | sed -n '/<main>:/,/^$/p' > c$opt.main
    assert_not_contains "$opt: main calls no line allocator for a calloc" c$opt.main "call.*<__perfinst_line_calloc"
    assert_contains "$opt: the realloc sites call the line allocator" c$opt.nm " T __perfinst_line_realloc$"
    assert_not_contains "$opt: no realloc left" c$opt.nm " U realloc@"
    ./c$opt 5 > c$opt.out
    cat > want <<'W'
control +0 DIRTY
const +0 zero
var +0 zero
bytes +0 zero
wrap NULL ENOMEM
grow +0 kept
shrink +0 kept
null +0 kept
zero NULL
W
    diff -u want c$opt.out || fail "$opt: the repaired callocs"
    ok "$opt: each repaired calloc starts a line and is zeroed; a wrapping product fails with ENOMEM; each realloc starts a line with its contents"
done
# with detection too: the recording twin of aligned_alloc (the object is
# recorded at its site), the same results
pi_cc -O2 -fplugin-arg-perfinst-sharing=all -fplugin-arg-perfinst-feedback=c.fb -c "$src" -o ci.o
pi_ld -O2 -o ci ci.o
nm ci > ci.nm
assert_contains "detection: the recording twin of aligned_alloc" ci.nm " U __perfinst_share_aligned_alloc$"
PERFINST_OUT=ci.pit ./ci 5 > ci.out
diff -u want ci.out || fail "detection: the repaired callocs"
ok "detection: the same results"
# ... and the repaired reallocs recorded at their sites as reallocs
# (kind 3) of the sizes asked (n = 5), each freed: the grown block by the
# shrinking realloc, the shrunk one by free; the one from NULL (GCC makes
# realloc(NULL, n) a malloc: aligned_alloc, whole lines) by the size 0
"$PMOPT" dump ci.pit > ci.dump
for size in 5000 40; do
    assert_eq "detection: the realloc of $size bytes recorded, freed" 1 \
        "$(grep -cE "SHARE_ALLOC 0x[0-9a-f]+, $size bytes, seq [0-9]+, T[0-9]+, kind 3 \(freed\), [1-9] frames" ci.dump)"
done
assert_eq "detection: the block from NULL recorded, freed by the size 0" 1 \
    "$(grep -cE "SHARE_ALLOC 0x[0-9a-f]+, (50 bytes, seq [0-9]+, T[0-9]+, kind 3|64 bytes, seq [0-9]+, T[0-9]+, kind 4) \(freed\)" ci.dump)"
