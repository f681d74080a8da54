#!/usr/bin/env python3
# An .hlog of N intervals, interval k of the configuration (5 digits, lowest
# LOW + k) holding a single count at INDEX: a layout of INDEX + 1 bins per
# configuration (tests/bounds/README.md).
#   make_hlog.py 40 5500000 > layouts40.hlog
#   make_hlog.py 1 5500000 7 > layout_d5_l7.hlog
import base64
import struct
import sys
import zlib


def zigzag(v):
    v = (v << 1) ^ (v >> 63)
    out = bytearray()
    while True:
        b = v & 0x7f
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def payload(digits, lowest, highest, counts):
    """V2 payload, compressed envelope, base64; counts: (index, count) ascending."""
    body = bytearray()
    pos = 0
    for i, c in counts:
        if i > pos:
            body += zigzag(-(i - pos))  # a run of zeros
        body += zigzag(c)
        pos = i + 1
    inner = struct.pack('>iiiiqqd', 0x1c849313, len(body), 0, digits, lowest, highest, 1.0) + bytes(body)
    comp = zlib.compress(inner)
    return base64.b64encode(struct.pack('>ii', 0x1c849314, len(comp)) + comp).decode()


def main():
    n, index = int(sys.argv[1]), int(sys.argv[2])
    low = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    out = ['#[Histogram log format version 1.3]', '#[StartTime: 1441812279.474 (seconds since epoch)]',
           '"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"']
    for k in range(n):
        out.append('%.3f,1.000,1.000,%s' % (k, payload(5, low + k, 2 ** 62, [(index, 1)])))
    sys.stdout.write('\n'.join(out) + '\n')


main()
