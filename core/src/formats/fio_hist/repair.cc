#include "formats/fio_hist/repair.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace latscope {
namespace {

// Mean absolute deviation from the median: a robust "how far from flat".
double spread(const std::vector<double>& v) {
  if (v.empty()) return 0;
  std::vector<double> s = v;
  std::nth_element(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(s.size() / 2), s.end());
  const double med = s[s.size() / 2];
  double a = 0;
  for (double x : v) a += std::fabs(x - med);
  return a / static_cast<double>(v.size());
}

using Sparse = SparseWindow;

// Walks windows k with k-2 at hand (three decoded windows in rotation) and
// calls f(cur, older) for each; older is empty for k < 2.
template <class F>
void with_k_minus_2(const Series& s, F&& f) {
  Sparse ring[3];
  for (size_t k = 0; k < s.windows.size(); ++k) {
    Sparse& cur = ring[k % 3];
    s.decode(s.windows[k], &cur.b, &cur.c);
    cur.n = cur.b.size();
    static const Sparse kEmpty;
    f(k, cur, k >= 2 ? ring[(k - 2) % 3] : kEmpty);
  }
}

}  // namespace

RepairVerdict detect_accumulation_defect(const Series& raw) {
  const size_t n = raw.windows.size();
  if (n < 3) {
    RepairVerdict v;
    v.explain = "too few windows to tell";
    return v;
  }
  // Every bin of window k-2 must be present in k with at least its count.
  bool consistent = true;
  with_k_minus_2(raw, [&](size_t, const Sparse& cur, const Sparse& old) {
    size_t i = 0;
    for (size_t j = 0; j < old.n && consistent; ++j) {
      while (i < cur.n && cur.b[i] < old.b[j]) ++i;
      if (i == cur.n || cur.b[i] != old.b[j] || cur.c[i] < old.c[j]) consistent = false;
    }
  });
  std::vector<uint64_t> totals(n);
  for (size_t k = 0; k < n; ++k) totals[k] = raw.windows[k].total;
  return judge_accumulation_defect(consistent, totals, raw.windows);
}

RepairVerdict judge_accumulation_defect(bool consistent, const std::vector<uint64_t>& raw_totals,
                                        const std::vector<Window>& windows) {
  RepairVerdict v;
  v.consistent = consistent;
  const size_t n = raw_totals.size();
  if (n < 3) {
    v.explain = "too few windows to tell";
    return v;
  }
  std::vector<double> raw_tot(n), rep_tot(n);
  for (size_t k = 0; k < n; ++k) {
    raw_tot[k] = static_cast<double>(raw_totals[k]);
    rep_tot[k] = raw_tot[k] - (k >= 2 ? static_cast<double>(raw_totals[k - 2]) : 0.0);
  }
  v.raw_first = raw_totals.front();
  v.raw_last = raw_totals.back();
  // Flatness is judged per logging period: records fio wrote at the same
  // time_ms count as one. After a window of two intervals or more (a stall)
  // fio's window clock catches up by one interval per record (stat.c:
  // hist_last = elapsed - (this_window - hist_msec)), so the next I/O,
  // completed in the same ms, writes a second record holding only itself;
  // on a short log that near-empty repaired total would hide the defect
  // (tests/fixtures/place-cs: 52, 50, 44 and 1 repaired at 531, 1018, 2019,
  // 2019 ms; docs/placement.md). The repair itself stays per record.
  size_t m = 0;
  for (size_t k = 0; k < n; ++k) {
    if (k && windows[k].end_ms == windows[k - 1].end_ms) {
      raw_tot[m - 1] += raw_tot[k];
      rep_tot[m - 1] += rep_tot[k];
    } else {
      raw_tot[m] = raw_tot[k];
      rep_tot[m++] = rep_tot[k];
    }
  }
  raw_tot.resize(m);
  rep_tot.resize(m);
  if (m < 3) {
    v.explain = "too few windows to tell";
    return v;
  }
  // Windows 0 and 1 are their own repair (r[-1] = r[-2] = 0); judge from 1 on.
  const std::vector<double> raw_tail(raw_tot.begin() + 1, raw_tot.end());
  const std::vector<double> rep_tail(rep_tot.begin() + 1, rep_tot.end());
  const double raw_spread = spread(raw_tail);
  v.repaired_spread = spread(rep_tail);
  double sum = 0;
  for (double x : rep_tail) sum += x;
  v.repaired_mean = sum / static_cast<double>(rep_tail.size());
  // "Far flatter": the raw totals climb through the run (402, 400, 802, 800,
  // ...) while the repaired ones hold still. A factor of 4 separates the two
  // with room to spare on every real log we have; both must carry I/O.
  v.defect = v.consistent && raw_spread > 0 && v.repaired_mean > 0 && v.repaired_spread * 4 < raw_spread;
  v.explain = "raw samples per window grow " + std::to_string(v.raw_first) + " ... " +
              std::to_string(v.raw_last) + "; repaired " +
              std::to_string(static_cast<uint64_t>(std::llround(v.repaired_mean))) +
              " per window (spread " + std::to_string(static_cast<uint64_t>(std::llround(v.repaired_spread))) + ")";
  return v;
}

Series repair_accumulation_defect(const Series& raw, uint64_t* clamped) {
  Series out;
  out.data.reserve(raw.data.size() / 2);
  Sparse d;
  with_k_minus_2(raw, [&](size_t k, const Sparse& cur, const Sparse& old) {
    *clamped += subtract_window(cur.b.data(), cur.c.data(), cur.n, old, &d);
    const Window& w = raw.windows[k];
    out.add_window(w.start_ms, w.end_ms, d.b.data(), d.c.data(), static_cast<uint32_t>(d.n));
  });
  return out;
}

uint64_t subtract_window(const uint32_t* cur_b, const uint64_t* cur_c, size_t cur_n, const SparseWindow& old,
                         SparseWindow* out) {
  // Runs once per line of every client-named log (fio_hist_reader.cc), where
  // the bins of k-2 are (nearly always) among those of k: one pass over k
  // with the matching k-2 count taken or 0, and no branch on the counts.
  out->room(cur_n);
  uint32_t* ob = out->b.data();
  uint64_t* oc = out->c.data();
  const uint32_t* old_b = old.b.data();
  const uint64_t* old_c = old.c.data();
  const size_t old_n = old.n;
  size_t m = 0, j = 0;
  uint64_t negative = 0;
  for (size_t i = 0; i < cur_n; ++i) {
    const uint32_t bin = cur_b[i];
    while (j < old_n && old_b[j] < bin) {
      ++negative;  // r[k-2] > 0 where r[k] is 0: negative delta
      ++j;
    }
    const bool same = j < old_n && old_b[j] == bin;
    const uint64_t sub = same ? old_c[j] : 0;
    j += same;
    negative += cur_c[i] < sub;
    ob[m] = bin;
    oc[m] = cur_c[i] - sub;
    m += cur_c[i] > sub;  // 0 is left out, and so is a negative count
  }
  negative += old_n - j;
  out->n = m;
  return negative;
}

void add_window(const SparseWindow& d, const SparseWindow& old, SparseWindow* out) {
  out->room(d.n + old.n);
  uint32_t* ob = out->b.data();
  uint64_t* oc = out->c.data();
  size_t m = 0, i = 0, j = 0;
  while (i < d.n || j < old.n) {
    if (j == old.n || (i < d.n && d.b[i] < old.b[j])) {
      ob[m] = d.b[i];
      oc[m++] = d.c[i++];
    } else if (i == d.n || old.b[j] < d.b[i]) {
      ob[m] = old.b[j];
      oc[m++] = old.c[j++];
    } else {
      ob[m] = d.b[i];
      oc[m++] = d.c[i++] + old.c[j++];
    }
  }
  out->n = m;
}

}  // namespace latscope
