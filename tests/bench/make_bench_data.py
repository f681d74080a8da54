#!/usr/bin/python3
"""Builds a large benchmark set of fio histogram logs from real fio records.

File i replays the windows of fixture file (i mod 6) from tests/fixtures/
(fio-s1: client/server mode; local: local mode; both 4 KiB random read/write
at 400 IOPS per direction and job), in their original order, cycled until the
requested run length is reached. time_ms continues across cycles and keeps
fio's few-ms jitter (e.g. 4003 vs 4002 between the read and write line of one
window). Files are named like fio's client mode,
<prefix>_clat_hist.<job>.log.<host>, spread over --hosts hosts, so grouping
by host and job has something to group.

--mode fio (default): what fio itself would have written for a run that long.
  The s1 fixtures carry fio's client/server accumulation defect
  (docs FORMATS.md section 1): r[k] = C[k] - r[k-1]. Their true per-window
  deltas d[k] = r[k] - r[k-2] (exact, all >= 0 on these files) are cycled, and
  the defect is re-applied over the whole run, so the generated lines are the
  ones fio's client would write: counts grow through the hour and every bin
  ever hit stays non-zero. The engine detects and repairs them, as on real
  client-mode logs. Files replayed from the local fixtures are clean deltas.
--mode replay: every line byte for byte as in the fixture, only time_ms
  rewritten. Cycling defect-carrying s1 lines gives a sawtooth no fio writes
  (the engine then declines to repair it); kept for a literal comparison.

--per-host-dirs: each host's logs in a folder of its own, DIR/.../<host>/, as
  each host of a cluster holds its own (tests/bench/scale_bench.sh reduces
  them host by host). With --files = hosts x jobs, every host gets the same
  number of jobs.

Deterministic: the same options always give the same bytes. A file's bytes
depend only on its fixture (i mod 6) and --seconds, so each distinct file is
generated once and copied for the other hosts (the scale benchmark's
thousands of files would otherwise take Python minutes each).

  tests/bench/make_bench_data.py [--out DIR] [--files N] [--seconds S] [--hosts H]
                                 [--mode fio|replay] [--per-host-dirs]

Writes DIR/f<N>_s<S>[_h<H>][_replay]/ (_h<H> with --per-host-dirs) and prints
that path; a .complete marker is the last file written, so an interrupted run
is regenerated next time.
"""

import argparse
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "fixtures")
SOURCES = [  # (path, written by fio's client with the accumulation defect)
    ("fio-s1/s1_clat_hist.1.log.127.0.0.1", True),
    ("fio-s1/s1_clat_hist.1.log.127.0.0.2", True),
    ("fio-s1/s1_clat_hist.2.log.127.0.0.1", True),
    ("fio-s1/s1_clat_hist.2.log.127.0.0.2", True),
    ("local/local_clat_hist.1.log", False),
    ("local/local_clat_hist.2.log", False),
]


class Record:
    __slots__ = ("k", "jitter", "ddir", "bs", "bins", "text")

    def __init__(self, k, jitter, ddir, bs, bins, text):
        self.k = k            # window number within the cycle, 1-based
        self.jitter = jitter  # time_ms - k * window_ms, as fio stamped it
        self.ddir = ddir
        self.bs = bs
        self.bins = bins      # the window's counts (true deltas in --mode fio)
        self.text = text      # the original line after time_ms (b", 0, 4096, ...\n")


def load(path, window_ms, defect, mode):
    records = []
    with open(path, "rb") as f:
        for line in f:
            line = line.rstrip(b"\r\n")
            if not line:
                continue
            t, rest = line.split(b",", 1)
            v = [int(x) for x in rest.split(b",")]
            t = int(t)
            k = max(1, (t + window_ms // 2) // window_ms)
            records.append(Record(k, t - k * window_ms, v[0], v[1], v[2:], b"," + rest + b"\n"))
    if defect and mode == "fio":
        # Undo the defect per direction and bin: d[k] = r[k] - r[k-2].
        last = {}
        for rec in records:
            r1, r2 = last.get(rec.ddir, (None, None))
            raw = rec.bins
            if r2 is not None:
                rec.bins = [a - b for a, b in zip(raw, r2)]
                if min(rec.bins) < 0:
                    sys.exit("make_bench_data: %s does not carry the accumulation defect" % path)
            last[rec.ddir] = (raw, r1)
    return records, max(rec.k for rec in records)


def lines_for(records, cycle_windows, total_windows, window_ms, defect, mode):
    """Yields the output lines of one file, window by window."""
    cum = {}   # per direction: cumulative counts C[k]
    prev = {}  # per direction: the previous written record r[k-1]
    base = 0
    while base < total_windows:
        for rec in records:
            w = base + rec.k
            if w > total_windows:
                continue
            t = b"%d" % (w * window_ms + rec.jitter)
            if mode == "replay" or not defect:
                yield t + rec.text
                continue
            # fio's client: r[k] = C[k] - r[k-1] (per direction, per bin).
            c = cum.get(rec.ddir)
            c = list(rec.bins) if c is None else [a + b for a, b in zip(c, rec.bins)]
            cum[rec.ddir] = c
            p = prev.get(rec.ddir)
            r = c if p is None else [a - b for a, b in zip(c, p)]
            prev[rec.ddir] = r
            yield b"%s, %d, %d, %s\n" % (t, rec.ddir, rec.bs, ", ".join(map(str, r)).encode())
        base += cycle_windows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(HERE, "..", "..", "bench-data"),
                    help="output directory (gitignored /bench-data/ by default)")
    ap.add_argument("--files", type=int, default=32)
    ap.add_argument("--seconds", type=int, default=3600, help="run length per file")
    ap.add_argument("--hosts", type=int, default=8, help="distinct host names")
    ap.add_argument("--mode", choices=("fio", "replay"), default="fio")
    ap.add_argument("--window-ms", type=int, default=1000, help="log_hist_msec of the fixtures")
    ap.add_argument("--per-host-dirs", action="store_true",
                    help="one folder per host (DIR/<set>/<host>/), as on a cluster")
    args = ap.parse_args()
    if args.files < 1 or args.seconds < 1 or args.hosts < 1:
        sys.exit("make_bench_data: --files, --seconds and --hosts must be positive")

    name = "f%d_s%d%s%s" % (args.files, args.seconds,
                            "_h%d" % args.hosts if args.per_host_dirs else "",
                            "_replay" if args.mode == "replay" else "")
    out = os.path.abspath(os.path.join(args.out, name))
    os.makedirs(out, exist_ok=True)
    marker = os.path.join(out, ".complete")  # hidden: DIR/* globs only logs
    if os.path.exists(marker):
        os.remove(marker)
    sources = [(load(os.path.join(FIXTURES, p), args.window_ms, d, args.mode), d) for p, d in SOURCES]

    total_windows = args.seconds * 1000 // args.window_ms
    total = 0
    first = {}  # source index -> the file already generated from it
    for i in range(args.files):
        h = i % args.hosts
        host = "10.0.%d.%d" % (h // 250, h % 250 + 1)
        job = i // args.hosts + 1
        (records, cycle_windows), defect = sources[i % len(sources)]
        folder = os.path.join(out, host) if args.per_host_dirs else out
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, "bench_clat_hist.%d.log.%s" % (job, host))
        src = i % len(sources)
        if src in first:
            shutil.copyfile(first[src], path)
            total += os.path.getsize(path)
            continue
        first[src] = path
        with open(path, "wb") as f:
            buf = []
            for line in lines_for(records, cycle_windows, total_windows, args.window_ms, defect,
                                  args.mode):
                buf.append(line)
                if len(buf) >= 1024:
                    total += f.write(b"".join(buf))
                    buf = []
            total += f.write(b"".join(buf))
    with open(marker, "w") as f:
        f.write("%d bytes in %d files, mode %s\n" % (total, args.files, args.mode))
    print(out)


if __name__ == "__main__":
    main()
