#!/bin/bash
# Generates the web page's demo data set: REAL fio 3.33 logs from a
# client/server run (2 hosts x 2 jobs, 60 s, log_hist_msec=1000, json+) with
# a known latency spike in the middle, gzipped into web/public/demo/, plus
# web/public/demo/manifest.json listing the files and where the spike is
# (configured and observed), for the end-to-end tests.
#
#   web/demo/make_demo.sh              (run fio, then analyse)
#   web/demo/make_demo.sh --analyse    (only recompute manifest.json)
#
# The spike: on each host a third job (not logged) starts at 28 s and writes
# 1 MiB blocks with O_DIRECT at queue depth 16 for 5 s, saturating the disk
# that both hosts share (the two fio servers run on this one machine), so the
# logged 4 KiB random I/Os queue behind it.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
OUT="$HERE/../public/demo"
SCRATCH="${DEMO_SCRATCH:-$HERE/../../build-fixtures/demo-scratch}"
PORT_BASE="${DEMO_PORT_BASE:-18965}"
P1=$PORT_BASE
P2=$((PORT_BASE + 1))
SPIKE_START_S=28
SPIKE_LEN_S=5

if [ "${1:-}" != "--analyse" ]; then
rm -rf "$SCRATCH" && mkdir -p "$SCRATCH/srv1" "$SCRATCH/srv2" "$SCRATCH/client"
cat > "$SCRATCH/demo.fio" <<EOF
[global]
ioengine=libaio
direct=1
bs=4k
iodepth=4
size=64m

[steady]
filename=demo.dat
rw=randrw
rwmixread=70
rate_iops=200
time_based=1
runtime=60
numjobs=2
write_hist_log=demo
log_hist_msec=1000

[spike]
filename=spike.dat
size=512m
rw=write
bs=1m
iodepth=16
time_based=1
runtime=$SPIKE_LEN_S
startdelay=$SPIKE_START_S
EOF

(cd "$SCRATCH/srv1" && exec fio --server=ip:127.0.0.1,$P1) >/dev/null 2>&1 &
S1=$!
(cd "$SCRATCH/srv2" && exec fio --server=ip:127.0.0.2,$P2) >/dev/null 2>&1 &
S2=$!
trap 'kill $S1 $S2 2>/dev/null || true' EXIT
sleep 2
(cd "$SCRATCH/client" &&
 fio --output-format=json+ --output=demo.json \
   --client=ip:127.0.0.1,$P1 ../demo.fio --client=ip:127.0.0.2,$P2 ../demo.fio >/dev/null)

rm -rf "$OUT" && mkdir -p "$OUT"
cp "$SCRATCH/demo.fio" "$OUT/demo.fio"
for f in "$SCRATCH"/client/demo_clat_hist.* "$SCRATCH/client/demo.json"; do
  gzip -9 -n -c "$f" > "$OUT/$(basename "$f").gz"
done
kill $S1 $S2 2>/dev/null || true
fi

# Where the spike shows in the data: per 1 s quantum, p99 of all hosts and
# jobs merged, after undoing fio's client/server accumulation defect
# (d[k] = r[k] - r[k-2], see ../shared/docs/FORMATS.md); quanta whose p99 is
# above 5x the run's median p99 are the observed spike.
/usr/bin/python3 - "$OUT" "$SPIKE_START_S" "$SPIKE_LEN_S" <<'PY'
import glob, gzip, json, os, sys

out, spike_start, spike_len = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])

def fine_edges(i):
    if i < 128:
        return i, i + 1
    e, k = (i >> 6) - 1, i & 63
    lo = (1 << (e + 6)) + k * (1 << e)
    return lo, lo + (1 << e)

quanta = {}  # second -> {bin: count}
files = sorted(glob.glob(os.path.join(out, 'demo_clat_hist.*.gz')))
for f in files:
    prev = {0: [], 1: []}  # last two raw rows per direction
    for line in gzip.open(f, 'rt'):
        v = [int(x) for x in line.split(',')]
        t, d, counts = v[0], v[1], v[3:]
        p = prev[d]
        older = p[-2] if len(p) >= 2 else [0] * len(counts)
        delta = [a - b for a, b in zip(counts, older)]
        p.append(counts)
        # The window (t - 1000, t] is counted in the second holding its middle.
        q = quanta.setdefault((t - 500) // 1000, {})
        for i, c in enumerate(delta):
            if c:
                q[i] = q.get(i, 0) + c

def pctile(h, p):
    n = sum(h.values())
    cum = 0
    for i in sorted(h):
        cum += h[i]
        if cum >= p / 100 * n:
            return fine_edges(i)[1]

def spike(p):
    per_s = {s: pctile(h, p) for s, h in sorted(quanta.items()) if sum(h.values()) > 0}
    vals = sorted(per_s.values())
    median = vals[len(vals) // 2]
    hot = [s for s, v in per_s.items() if v > 5 * median]
    return per_s, vals, median, hot

series, vals, median, hot = spike(99)
_, _, median50, hot50 = spike(50)
manifest = {
    'description': 'fio 3.33 client/server run: 2 hosts (127.0.0.1, 127.0.0.2) x 2 jobs, '
                   '4 KiB randrw 70/30, 200 IOPS per direction per job, 60 s, '
                   'log_hist_msec=1000; logs carry the client/server accumulation defect',
    'files': sorted(os.path.basename(f) for f in glob.glob(os.path.join(out, '*.gz'))),
    'job_file': 'demo.fio',
    'spike': {
        'cause': '1 MiB O_DIRECT sequential writes at iodepth 16 on both hosts (shared disk)',
        'configured_ms': [spike_start * 1000, (spike_start + spike_len) * 1000],
        'observed_ms': [min(hot) * 1000, (max(hot) + 1) * 1000] if hot else None,
        'observed_rule': 'seconds [t, t+1000) ms of job time whose cluster-wide p99 (p50) '
                         '(repaired counts, bin upper edge; each 1 s log window counted in the '
                         'second holding its middle) exceeds 5x the run median of p99 (p50)',
        'observed_p50_ms': [min(hot50) * 1000, (max(hot50) + 1) * 1000] if hot50 else None,
        'median_p50_ns': median50,
        'median_p99_ns': median,
        'peak_p99_ns': max(vals),
    },
}
with open(os.path.join(out, 'manifest.json'), 'w') as f:
    json.dump(manifest, f, indent=2)
    f.write('\n')
print(json.dumps(manifest['spike']))
print('p99 per second (us):', ' '.join('%d:%.0f' % (s, v / 1000) for s, v in series.items()))
PY
du -sh "$OUT"
