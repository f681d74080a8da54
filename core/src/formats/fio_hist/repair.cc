#include "formats/fio_hist/repair.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace latscope {
namespace {

// Mean absolute deviation from the median: a robust "how far from flat".
double spread(std::vector<double> v) {
  if (v.empty()) return 0;
  std::vector<double> s = v;
  std::nth_element(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(s.size() / 2), s.end());
  const double med = s[s.size() / 2];
  double a = 0;
  for (double x : v) a += std::fabs(x - med);
  return a / static_cast<double>(v.size());
}

}  // namespace

RepairVerdict detect_accumulation_defect(const FioHistReader::Raw& raw, size_t bins) {
  RepairVerdict v;
  const size_t n = raw.t.size();
  if (n < 3) {
    v.explain = "too few windows to tell";
    return v;
  }
  std::vector<int64_t> prev1(bins, 0), prev2(bins, 0), cur(bins, 0);
  std::vector<double> raw_tot(n), rep_tot(n);
  for (size_t k = 0; k < n; ++k) {
    std::fill(cur.begin(), cur.end(), 0);
    double tot = 0;
    for (uint32_t i = 0; i < raw.n[k]; ++i) {
      cur[raw.bins[raw.first[k] + i]] = static_cast<int64_t>(raw.counts[raw.first[k] + i]);
      tot += static_cast<double>(raw.counts[raw.first[k] + i]);
    }
    double rep = 0;
    for (size_t b = 0; b < bins; ++b) {
      const int64_t d = cur[b] - prev2[b];
      if (d < 0) v.consistent = false;
      rep += static_cast<double>(d);
    }
    raw_tot[k] = tot;
    rep_tot[k] = rep;
    std::swap(prev2, prev1);
    std::swap(prev1, cur);
  }
  v.raw_first = static_cast<uint64_t>(raw_tot.front());
  v.raw_last = static_cast<uint64_t>(raw_tot.back());
  // Windows 0 and 1 are their own repair (r[-1] = r[-2] = 0); judge from 1 on.
  std::vector<double> raw_tail(raw_tot.begin() + 1, raw_tot.end());
  std::vector<double> rep_tail(rep_tot.begin() + 1, rep_tot.end());
  const double raw_spread = spread(raw_tail);
  v.repaired_spread = spread(rep_tail);
  double sum = 0;
  for (double x : rep_tail) sum += x;
  v.repaired_mean = sum / static_cast<double>(rep_tail.size());
  // "Far flatter": the raw totals climb through the run (402, 400, 802, 800,
  // ...) while the repaired ones hold still. A factor of 4 separates the two
  // with room to spare on every real log we have; both must carry I/O.
  v.defect = v.consistent && raw_spread > 0 && v.repaired_mean > 0 &&
             v.repaired_spread * 4 < raw_spread;
  v.explain = "raw samples per window grow " + std::to_string(v.raw_first) + " ... " +
              std::to_string(v.raw_last) + "; repaired " +
              std::to_string(static_cast<uint64_t>(std::llround(v.repaired_mean))) +
              " per window (spread " + std::to_string(static_cast<uint64_t>(std::llround(v.repaired_spread))) + ")";
  return v;
}

void repair_accumulation_defect(FioHistReader::Raw* raw, size_t bins, uint64_t* clamped) {
  const size_t n = raw->t.size();
  std::vector<int64_t> prev1(bins, 0), prev2(bins, 0), cur(bins, 0);
  std::vector<uint32_t> out_bins;
  std::vector<uint64_t> out_counts;
  out_bins.reserve(raw->bins.size());
  out_counts.reserve(raw->counts.size());
  for (size_t k = 0; k < n; ++k) {
    std::fill(cur.begin(), cur.end(), 0);
    for (uint32_t i = 0; i < raw->n[k]; ++i)
      cur[raw->bins[raw->first[k] + i]] = static_cast<int64_t>(raw->counts[raw->first[k] + i]);
    const uint32_t first = static_cast<uint32_t>(out_bins.size());
    for (size_t b = 0; b < bins; ++b) {
      int64_t d = cur[b] - prev2[b];
      if (d < 0) {
        *clamped += 1;
        d = 0;
      }
      if (d) {
        out_bins.push_back(static_cast<uint32_t>(b));
        out_counts.push_back(static_cast<uint64_t>(d));
      }
    }
    raw->first[k] = first;
    raw->n[k] = static_cast<uint32_t>(out_bins.size()) - first;
    std::swap(prev2, prev1);
    std::swap(prev1, cur);
  }
  raw->bins.swap(out_bins);
  raw->counts.swap(out_counts);
}

}  // namespace latscope
