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

struct Sparse {
  std::vector<uint32_t> b;
  std::vector<uint64_t> c;
};

// Walks windows k with k-2 at hand (three decoded windows in rotation) and
// calls f(cur, older) for each; older is empty for k < 2.
template <class F>
void with_k_minus_2(const Series& s, F&& f) {
  Sparse ring[3];
  for (size_t k = 0; k < s.windows.size(); ++k) {
    Sparse& cur = ring[k % 3];
    s.decode(s.windows[k], &cur.b, &cur.c);
    static const Sparse kEmpty;
    f(k, cur, k >= 2 ? ring[(k - 2) % 3] : kEmpty);
  }
}

}  // namespace

RepairVerdict detect_accumulation_defect(const Series& raw) {
  RepairVerdict v;
  const size_t n = raw.windows.size();
  if (n < 3) {
    v.explain = "too few windows to tell";
    return v;
  }
  std::vector<double> raw_tot(n), rep_tot(n);
  with_k_minus_2(raw, [&](size_t k, const Sparse& cur, const Sparse& old) {
    // Every bin of window k-2 must be present in k with at least its count.
    size_t i = 0;
    for (size_t j = 0; j < old.b.size() && v.consistent; ++j) {
      while (i < cur.b.size() && cur.b[i] < old.b[j]) ++i;
      if (i == cur.b.size() || cur.b[i] != old.b[j] || cur.c[i] < old.c[j]) v.consistent = false;
    }
    raw_tot[k] = static_cast<double>(raw.windows[k].total);
    rep_tot[k] = raw_tot[k] - (k >= 2 ? static_cast<double>(raw.windows[k - 2].total) : 0.0);
  });
  v.raw_first = raw.windows.front().total;
  v.raw_last = raw.windows.back().total;
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
    if (k && raw.windows[k].end_ms == raw.windows[k - 1].end_ms) {
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
  std::vector<uint32_t> ob;
  std::vector<uint64_t> oc;
  with_k_minus_2(raw, [&](size_t k, const Sparse& cur, const Sparse& old) {
    ob.clear();
    oc.clear();
    size_t i = 0, j = 0;
    while (i < cur.b.size() || j < old.b.size()) {
      if (j == old.b.size() || (i < cur.b.size() && cur.b[i] < old.b[j])) {
        ob.push_back(cur.b[i]);
        oc.push_back(cur.c[i++]);
      } else if (i == cur.b.size() || old.b[j] < cur.b[i]) {
        ++*clamped;  // r[k-2] > 0 where r[k] is 0: negative delta
        ++j;
      } else {
        if (cur.c[i] > old.c[j]) {
          ob.push_back(cur.b[i]);
          oc.push_back(cur.c[i] - old.c[j]);
        } else if (cur.c[i] < old.c[j]) {
          ++*clamped;
        }
        ++i;
        ++j;
      }
    }
    const Window& w = raw.windows[k];
    out.add_window(w.start_ms, w.end_ms, ob.data(), oc.data(), static_cast<uint32_t>(ob.size()));
  });
  return out;
}

}  // namespace latscope
