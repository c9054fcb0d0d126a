#!/usr/bin/env python3
"""pitdump.py -- print a perfinst trace (*.pit) one record a line, checking
every CRC.  A small reader for the runtime's tests only (pmopt has the real
one); the layout is include/perfinst-format.h.

    pitdump.py FILE

Output lines:
    header version=1 flags=0x0 mode_off=0 pid=.. ppid=.. line_size=64
    process nthreads=N argc=N args=a|b|c
    module index=0 build_id=HEX bias=0x.. path=PATH
    counts unit=0x.. module=0 ncounters=N counts=1,2,3
    signal signo=11 code=1 addr=0x0
    end nrecords=N
Exit status: 0 for a complete, valid trace; 1 for a CRC or format error;
2 for a trace cut short (no END record).
"""
import struct
import sys
import zlib

HDR = struct.Struct('<8sHHIQQQII')
REC = struct.Struct('<IIII')
TYPES = {1: 'process', 2: 'module', 3: 'counts', 4: 'signal', 5: 'end', 59: 'stopped'}


def fail(msg, status=1):
    print('error: ' + msg)
    sys.exit(status)


def main():
    data = open(sys.argv[1], 'rb').read()
    if len(data) < HDR.size:
        fail('file shorter than the header (%d bytes)' % len(data), 2)
    magic, ver, hsize, flags, pid, ppid, start, line, crc = HDR.unpack_from(data)
    if magic != b'PERFINST':
        fail('bad magic %r' % magic)
    if zlib.crc32(data[:HDR.size - 4]) != crc:
        fail('header CRC mismatch')
    if ver != 1 or hsize != HDR.size:
        fail('version %d, header size %d' % (ver, hsize))
    print('header version=%d flags=0x%x mode_off=%d pid=%d ppid=%d line_size=%d start_ns=%d'
          % (ver, flags, (flags >> 1) & 1, pid, ppid, line, start))
    pos, n = HDR.size, 0
    while True:
        if pos == len(data):
            fail('no END record after %d records' % n, 2)
        if len(data) - pos < REC.size:
            fail('truncated record header at %d' % pos, 2)
        typ, size, pcrc, hcrc = REC.unpack_from(data, pos)
        if zlib.crc32(data[pos:pos + 12]) != hcrc:
            fail('record header CRC mismatch at %d' % pos)
        if size % 8:
            fail('record at %d: payload size %d not a multiple of 8' % (pos, size))
        pay = data[pos + REC.size:pos + REC.size + size]
        if len(pay) != size:
            fail('truncated record at %d' % pos, 2)
        if zlib.crc32(pay) != pcrc:
            fail('record payload CRC mismatch at %d' % pos)
        pos += REC.size + size
        name = TYPES.get(typ)
        if name == 'process':
            end_ns, nthreads, argc = struct.unpack_from('<QII', pay)
            args = pay[16:].split(b'\0')[:argc]
            used = 16 + sum(len(a) + 1 for a in args)
            if len(args) != argc or (used + 7) // 8 * 8 != size:
                fail('process record: %d strings do not fill its %d bytes' % (argc, size))
            if end_ns < start:
                fail('end_ns before start_ns')
            print('process nthreads=%d argc=%d args=%s'
                  % (nthreads, argc, '|'.join(a.decode(errors='replace') for a in args)))
        elif name == 'module':
            idx, blen = struct.unpack_from('<II', pay)
            bid = pay[8:8 + blen].hex()
            bias, plen = struct.unpack_from('<QI', pay, 40)
            if plen == 0 or (56 + plen + 7) // 8 * 8 != size or pay[56 + plen - 1] != 0:
                fail('module record: path of %d bytes does not fit %d bytes' % (plen, size))
            path = pay[56:56 + plen - 1].decode(errors='replace')
            print('module index=%d build_id=%s bias=0x%x path=%s' % (idx, bid, bias, path))
        elif name == 'counts':
            uid, mod, nc = struct.unpack_from('<QII', pay)
            if 16 + 8 * nc != size:
                fail('counts record: %d counters in %d bytes' % (nc, size))
            counts = struct.unpack_from('<%dQ' % nc, pay, 16)
            print('counts unit=0x%x module=%d ncounters=%d counts=%s'
                  % (uid, mod, nc, ','.join(map(str, counts))))
        elif name == 'signal':
            signo, code, addr = struct.unpack_from('<iiQ', pay)
            print('signal signo=%d code=%d addr=0x%x' % (signo, code, addr))
        elif name == 'stopped':
            if size != 16:
                fail('stopped record: %d bytes, expected 16' % size)
            mod, count, pc = struct.unpack_from('<IIQ', pay)
            print('stopped module=%d count=%d pc=0x%x' % (mod, count, pc))
        elif name == 'end':
            (nrec,) = struct.unpack_from('<I', pay)
            if nrec != n:
                fail('END says %d records, saw %d' % (nrec, n))
            print('end nrecords=%d' % nrec)
            if pos != len(data):
                fail('%d bytes after END' % (len(data) - pos))
            return
        else:
            print('unknown type=%d size=%d' % (typ, size))
        n += 1


if __name__ == '__main__':
    main()
