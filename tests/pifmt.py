"""pifmt.py — the chunk formats of include/perfinst-format.h, encoded for the
tests' fixture writers: tests/linker/gen-fixture.py, tests/pmopt/pigen.py,
tests/runtime/mkxlat.py.  Stdlib only; zlib.crc32 is pi_crc32.

The checkers (tests/linker/check.py, tests/runtime/pitdump.py) decode the
formats on their own, so that they stay independent of these writers.

A writer puts this folder on sys.path and imports what it uses:

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    from pifmt import chunk_header, pad8
"""
import struct
import zlib

CHUNK_MAGIC = 0x31544950   # PI_CHUNK_MAGIC
FORMAT_VERSION = 2         # PI_FORMAT_VERSION
LINK_VERSION = 2           # PI_LINK_VERSION
UNIT, CODE, XLAT, LINK = 1, 2, 3, 4   # enum pi_chunk_kind
PI_NONE = 0xFFFFFFFF


def crc(b):
    return zlib.crc32(b) & 0xFFFFFFFF


def pad8(b):
    return b + b"\0" * (-len(b) % 8)


def trace_record(rtype, payload, bad_crc=False):
    """A trace record: its header (type, size, payload CRC, header CRC) and
    the payload as given (not padded: a test may want it odd)."""
    h = struct.pack("<III", rtype, len(payload), crc(payload) ^ (1 if bad_crc else 0))
    return h + struct.pack("<I", crc(h)) + payload


def trace_header(flags=0, pid=1, tid=1, time=0, version=1, magic=b"PERFINST"):
    """A trace's 48-byte header (pitrace.h), its CRC last."""
    h = magic + struct.pack("<HHIQQQI", version, 48, flags, pid, tid, time, 64)
    return h + struct.pack("<I", crc(h))


def chunk_header(kind, size, version=FORMAT_VERSION, magic=CHUNK_MAGIC, crc_xor=0):
    """pi_chunk_hdr; a crc_xor other than 0 makes hdr_crc wrong on purpose."""
    h = struct.pack("<IHHI", magic, version, kind, size)
    return h + struct.pack("<I", crc(h) ^ crc_xor)


class Strtab:
    """A string table: "" at offset 0, each string once."""

    def __init__(self):
        self.data = b"\0"
        self.offs = {"": 0}

    def add(self, s):
        if s not in self.offs:
            self.offs[s] = len(self.data)
            self.data += s.encode() + b"\0"
        return self.offs[s]


def unit_body(unit_id, ncounters, strtab, source, producer, funcs, sites, succs, line_size=64,
              arcs=(), lines=()):
    """A UNIT chunk after its header, unpadded: pi_unit, pi_func[], pi_site[],
    succ[], arc[], line[] and the string table (a Strtab).  funcs, sites and
    arcs are dicts keyed by the field names of pi_func (cfg for
    cfg_checksum), pi_site and pi_arc (fields left out are 0); lines are
    (file, line) pairs."""
    body = struct.pack("<QIIIIIIIIII", unit_id, len(funcs), len(sites), len(succs), ncounters,
                       len(strtab.data), source, producer, line_size, len(arcs), len(lines))
    for f in funcs:
        body += struct.pack("<IIIIIIQII", f["name"], f["file"], f["line"], f["first_site"],
                            f["nsites"], f["directives"], f["cfg"], f.get("first_arc", 0),
                            f.get("narcs", 0))
    for s in sites:
        body += struct.pack("<IIIIHHIIIIIQIIII", s["func"], s["counter"], s["file"], s["line"],
                            s["column"], s["kind"], s["directives"], s["bb"], s["succ_first"],
                            s["nsucc"], s["region"], s["threshold"], s["arg"],
                            s.get("handler", 0), s.get("line_first", 0), s.get("nlines", 0))
    body += b"".join(struct.pack("<I", x) for x in succs)
    for a in arcs:
        body += struct.pack("<IIIIII", a["src"], a["dst"], a.get("counter", PI_NONE),
                            a.get("flags", 0), a.get("file", 0), a.get("line", 0))
    body += b"".join(struct.pack("<II", f, l) for f, l in lines)
    return body + strtab.data


def asm_bytes(data):
    """Assembly lines that put these bytes into the current section."""
    return ["\t.byte " + ",".join("0x%02x" % b for b in data[i:i + 16])
            for i in range(0, len(data), 16)]


def link_chunk(argv, cwd, output, inputs=(), env=(), flags=0, version=LINK_VERSION):
    """A LINK chunk: argv, cwd, output, env ("NAME=VALUE"), inputs as (path,
    argi, size, mtime_ns, hash).  version 1: the 24-byte pi_link of a
    gcc-level recipe, without level, flags or environment."""
    st = Strtab()
    first = len(st.data)
    st.data += b"".join(a.encode() + b"\0" for a in argv)   # consecutive, not deduplicated
    envoff = len(st.data) if env else 0
    st.data += b"".join(e.encode() + b"\0" for e in env)
    cwd_off, out_off = st.add(cwd), st.add(output)
    ins = [(st.add(p), argi, size, mtime, h) for p, argi, size, mtime, h in inputs]
    body = struct.pack("<IIIIII", len(argv), first, cwd_off, out_off, len(ins), len(st.data))
    if version >= 2:
        body += struct.pack("<IIII", 2, flags, len(env), envoff)   # level PI_LINK_COLLECT2
    for i in ins:
        body += struct.pack("<IIQqQ", *i)
    body = pad8(body + st.data)
    return chunk_header(LINK, 16 + len(body), version=version) + body
