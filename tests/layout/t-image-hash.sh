# bench/image-hash.py, by which bench/suite.sh gives a program the count of
# another with the same loaded image (a relink that kept the rebuild's
# layout): the hash stays when only what is not loaded changes (section
# headers, .comment, symbols, an added non-allocated section) and changes
# with one byte of code, the entry point or a segment's address; a file it
# cannot read is refused with its name.
. "$PERFINST_TOP/tests/lib.sh"
H="python3 $PERFINST_TOP/bench/image-hash.py"
cat > p.c <<'C'
int twice(int x) { return 2 * x; }
int main(int argc, char **argv) { return argc > 1 ? twice(argv[1][0]) : 0; }
C
gcc -O2 -g -o p p.c
base=$($H p)
[ ${#base} = 64 ] || fail "no hash: '$base'"
objcopy --remove-section .comment p p-nocomment
strip -o p-stripped p
objcopy --add-section .note.perfinst-test=p.c p p-added
for f in p-nocomment p-stripped p-added; do
    cmp -s p "$f" && fail "$f is the same file as p (the case tests nothing)"
    assert_eq "$f: the same image" "$base" "$($H "$f")"
done
# edit FILE OUT WHAT: OUT is FILE with one change (python, no ELF library)
edit() {
    python3 - "$@" <<'PY'
import struct, sys
src, out, what = sys.argv[1:]
d = bytearray(open(src, "rb").read())
shoff, = struct.unpack_from("<Q", d, 40)
shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 58)
sh = lambda i: struct.unpack_from("<IIQQQQIIQQ", d, shoff + i * shentsize)
names = sh(shstrndx)[4]
name = lambda i: bytes(d[names + sh(i)[0]:d.index(b"\0", names + sh(i)[0])]).decode()
if what == "text":            # one byte in .text: main's code or twice's
    s = next(sh(i) for i in range(shnum) if name(i) == ".text")
    d[s[4] + s[5] // 2] ^= 0x01
elif what == "shdr":          # a section header's name and the table's offset field
    i = next(i for i in range(shnum) if name(i) == ".comment")
    struct.pack_into("<I", d, shoff + i * shentsize, 1)
elif what == "entry":
    e, = struct.unpack_from("<Q", d, 24)
    struct.pack_into("<Q", d, 24, e + 16)
elif what == "vaddr":         # the second PT_LOAD 4 KiB higher
    phoff, = struct.unpack_from("<Q", d, 32)
    phnum, = struct.unpack_from("<H", d, 56)
    loads = [i for i in range(phnum) if struct.unpack_from("<I", d, phoff + i * 56)[0] == 1]
    o = phoff + loads[1] * 56
    struct.pack_into("<Q", d, o + 16, struct.unpack_from("<Q", d, o + 16)[0] + 4096)
elif what == "truncate":
    d = d[:len(d) // 2]
open(out, "wb").write(d)
PY
}
edit p p-shdr shdr
assert_eq "a section header changed: the same image" "$base" "$($H p-shdr)"
for w in text entry vaddr; do
    edit p "p-$w" "$w"
    h=$($H "p-$w")
    [ "$h" != "$base" ] || fail "$w changed, the hash did not"
    ok "$w changed: another image"
done
edit p p-truncate truncate
expect_fail "a truncated program" $H p-truncate
assert_contains "named, with the problem" err '^image-hash.py: p-truncate: .*(past the file|out of the file)'
expect_fail "a file that is not ELF" $H p.c
assert_contains "named, with the problem" err '^image-hash.py: p.c: not a little-endian ELF64 file$'
expect_fail "a missing file" $H nosuch
assert_contains "named" err '^image-hash.py: nosuch: '
