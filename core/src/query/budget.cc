#include "query/budget.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

#include "latscope/engine.h"

namespace latscope {

double row_bytes(size_t np) {
  return static_cast<double>(sizeof(Row)) + static_cast<double>(np) * static_cast<double>(sizeof(PercentileValue));
}

double distinct_quanta(const Series& s, double offset_ms, double quantum_ms) {
  // Each window's quanta as an interval of indices; their union, counted.
  std::vector<std::pair<double, double>> spans;
  spans.reserve(s.windows.size());
  bool sorted = true;
  for (const Window& w : s.windows) {
    if (w.total == 0) continue;
    const double st = std::min(w.start_ms, w.end_ms) + offset_ms, e = w.end_ms + offset_ms;
    const double a = std::floor(st / quantum_ms);
    // (st, e] ends in the quantum before one starting at e; an instant is in e's.
    const double b = e > st ? std::ceil(e / quantum_ms) - 1 : std::floor(e / quantum_ms);
    if (!spans.empty() && a < spans.back().first) sorted = false;
    spans.emplace_back(a, std::max(a, b));
  }
  if (!sorted) std::sort(spans.begin(), spans.end());
  double n = 0, lo = 0, hi = -1;
  for (const auto& [a, b] : spans) {
    if (hi >= lo && a <= hi + 1) {
      hi = std::max(hi, b);
      continue;
    }
    if (hi >= lo) n += hi - lo + 1;
    lo = a;
    hi = b;
  }
  if (hi >= lo) n += hi - lo + 1;
  return n;
}

double least_bytes(double quanta, size_t np) { return quanta * std::min(row_bytes(np), kCellBytes + 8); }

std::string over_budget(const std::string& input, const std::string& what, double bytes, uint64_t limit) {
  char buf[400];
  std::snprintf(buf, sizeof buf,
                ": the query would hold %s (%.3g GB), over its memory limit of %.3g GB: use a coarser quantum, a "
                "shorter time range (from/to), or raise the limit (--max-memory)",
                what.c_str(), bytes / 1e9, static_cast<double>(limit) / 1e9);
  return input + buf;
}

}  // namespace latscope
