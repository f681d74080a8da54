#!/usr/bin/env python3
"""Mangled copies of an HdrHistogram interval log, the same for a seed.

    python3 tests/hlog_mangle.py LOG SEED OUT_DIR COUNT

Each copy has one to four of: two lines swapped, a line repeated or
dropped, a byte changed, a timestamp moved (back, a little, far ahead), a
line cut short, a tag renamed, a block of lines moved later. cli_test.sh
reads every copy both ways a .hlog file can be read (twice, in time order;
held from standard input) and expects the same rows, messages and exit code.
"""
import os
import random
import sys


def mangle(lines, rnd):
    out = list(lines)
    for _ in range(rnd.randint(1, 4)):
        op = rnd.choice(["swap", "dup", "drop", "byte", "time", "cut", "tag", "move"])
        i = rnd.randrange(len(out))
        if op == "swap":
            j = rnd.randrange(len(out))
            out[i], out[j] = out[j], out[i]
        elif op == "dup":
            out.insert(i, out[i])
        elif op == "drop":
            del out[i]
        elif op == "byte" and out[i]:
            b = bytearray(out[i])
            b[rnd.randrange(len(b))] = rnd.choice(b"0123456789,.-ATagx=/+ ")
            out[i] = bytes(b)
        elif op == "time":
            parts = out[i].split(b",")
            for k, p in enumerate(parts):
                if p[:1].isdigit():
                    try:
                        parts[k] = b"%.3f" % (float(p) + rnd.choice([-30, -1, 0.5, 7, 1000, 1e6]))
                    except ValueError:
                        pass
                    break
            out[i] = b",".join(parts)
        elif op == "cut" and out[i]:
            out[i] = out[i][: rnd.randrange(len(out[i]))]
        elif op == "tag" and out[i].startswith(b"Tag=") and b"," in out[i]:
            out[i] = b"Tag=" + rnd.choice([b"x", b"read", b"write"]) + out[i][out[i].index(b","):]
        elif op == "move":
            j = rnd.randrange(len(out))
            block = out[i : i + 5]
            del out[i : i + 5]
            out[j:j] = block
    return out


def main():
    log, seed, out_dir, count = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    with open(log, "rb") as f:
        lines = f.read().split(b"\n")
    rnd = random.Random(seed)
    for n in range(count):
        with open(os.path.join(out_dir, "m%03d.hlog" % n), "wb") as f:
            f.write(b"\n".join(mangle(lines, rnd)))


if __name__ == "__main__":
    main()
