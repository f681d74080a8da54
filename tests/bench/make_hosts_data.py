#!/usr/bin/python3
"""Builds a many-hosts benchmark set: fio histogram logs of H hosts x S seconds.

One log per host, named as fio's client mode names them
(hosts_clat_hist.1.log.h007: host label h007), reads only, one window per
second, written with log_hist_coarseness=4 (116 bins a line, fio's own
format for coarse histogram logs) so that 200 hosts x 1 h stay a few hundred
MB. Each window holds 400 I/Os (400 IOPS) spread log-normally around the
host's median (80 ... 240 us, fixed per host); every host has a few slow
minutes (latencies x 4 ... x 20) at its own times, so "which host was slow
when" has answers. Deterministic: the same options give the same bytes.

  tests/bench/make_hosts_data.py [--out DIR] [--hosts H] [--seconds S]

Writes DIR/hosts<H>_s<S>/ and prints that path; a .complete marker is the
last file written, so an interrupted run is regenerated next time.
"""

import argparse
import math
import os
import random

BINS_FULL = 1856  # fio 3: FIO_IO_U_PLAT_NR
COARSENESS = 4
BINS = BINS_FULL >> COARSENESS


def plat_index(ns):
    """fio's plat_val_to_idx (stat.c): 64 buckets per power of two above 128."""
    v = max(0, int(ns))
    if v < 128:
        return v
    msb = v.bit_length() - 1
    error_bits = msb - 6
    base = (error_bits + 1) << 6
    return min(BINS_FULL - 1, base + ((v >> error_bits) & 63))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="bench-data")
    ap.add_argument("--hosts", type=int, default=200)
    ap.add_argument("--seconds", type=int, default=3600)
    a = ap.parse_args()
    d = os.path.join(a.out, "hosts%d_s%d" % (a.hosts, a.seconds))
    if os.path.exists(os.path.join(d, ".complete")):
        print(d)
        return
    os.makedirs(d, exist_ok=True)
    rnd = random.Random(20240607)
    for h in range(1, a.hosts + 1):
        median_ns = rnd.uniform(80e3, 240e3)
        # A few slow spells per host: (start s, length s, factor).
        spells = [(rnd.randrange(0, max(1, a.seconds - 300)), rnd.randrange(20, 300), rnd.uniform(4, 20))
                  for _ in range(rnd.randrange(1, 4))]
        # 32 distinct window shapes per host and state (normal / slow factor),
        # drawn once and reused: the writing stays fast, the windows differ.
        def shapes(factor):
            out = []
            for _ in range(32):
                counts = [0] * BINS
                for _ in range(400):
                    ns = median_ns * factor * math.exp(rnd.gauss(0, 0.35) + (min(3.0, rnd.expovariate(1.0)) if rnd.random() < 0.02 else 0))
                    counts[plat_index(ns) >> COARSENESS] += 1
                out.append(", ".join(map(str, counts)))
            return out
        normal = shapes(1.0)
        slow = {s: shapes(s[2]) for s in spells}
        path = os.path.join(d, "hosts_clat_hist.1.log.h%03d" % h)
        with open(path, "w") as f:
            lines = []
            for s in range(1, a.seconds + 1):
                src = normal
                for sp in spells:
                    if sp[0] <= s < sp[0] + sp[1]:
                        src = slow[sp]
                lines.append("%d, 0, 4096, %s\n" % (s * 1000 + rnd.randrange(0, 3), src[rnd.randrange(32)]))
            f.write("".join(lines))
    with open(os.path.join(d, ".complete"), "w") as f:
        f.write("")
    print(d)


if __name__ == "__main__":
    main()
