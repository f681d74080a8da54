// pctiles_columns (latscope/report.h): the query's rows as columns for the
// page's worker. The values and nulls are those of pctiles_json, field by
// field (tests/pctiles_columns_test.cc compares the two on real logs).
#include <cmath>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

#include "latscope/report.h"

namespace latscope {

PctilesColumns pctiles_columns(const QueryResult& r, const std::vector<std::string>& labels, Unit unit) {
  constexpr double kNull = std::numeric_limits<double>::quiet_NaN();
  PctilesColumns c;
  const size_t n = r.rows.size();
  const size_t np = labels.size();
  for (std::vector<double>* v : {&c.t_ms, &c.samples, &c.min, &c.mean, &c.max}) v->resize(n);
  for (std::vector<double>* v : {&c.p, &c.err, &c.lo, &c.hi}) v->assign(n * np, kNull);
  if (r.adaptive) c.width_ms.resize(n);
  c.group.resize(n);
  c.flag.assign(n, 0);
  // pctiles_json writes non-finite numbers as null (an unbounded band's hi).
  const auto in_unit = [unit](double ns) { return std::isfinite(ns) ? ns_to_unit(ns, unit) : kNull; };
  // Rows of one query share a handful of flag texts ("few:p99.9", "finer").
  std::unordered_map<std::string, uint32_t> flag_index{{"", 0}};
  for (size_t i = 0; i < n; ++i) {
    const Row& row = r.rows[i];
    const bool empty = row.flags & kFlagEmpty;
    const bool no_p = row.flags & kFlagWindowValues;  // window averages: no percentile
    c.t_ms[i] = row.t_ms;
    if (r.adaptive) c.width_ms[i] = row.width_ms;
    c.group[i] = row.group;
    c.samples[i] = empty ? 0 : row.stats.samples;
    c.min[i] = empty ? kNull : in_unit(row.stats.min_ns);
    c.mean[i] = empty ? kNull : in_unit(row.stats.mean_ns);
    c.max[i] = empty ? kNull : in_unit(row.stats.max_ns);
    if (!empty && !no_p) {
      for (size_t j = 0; j < row.p.size() && j < np; ++j) {
        const PercentileValue& pv = row.p[j];
        c.p[i * np + j] = in_unit(pv.value_ns);
        c.err[i * np + j] = in_unit(pv.err_ns);
        c.lo[i * np + j] = in_unit(pv.lo_ns);
        c.hi[i * np + j] = in_unit(pv.hi_ns);
      }
    }
    if (row.flags) {
      auto it = flag_index.try_emplace(flags_text(row, labels), static_cast<uint32_t>(c.flag_texts.size())).first;
      if (it->second == c.flag_texts.size()) c.flag_texts.push_back(it->first);
      c.flag[i] = it->second;
    }
  }
  return c;
}

}  // namespace latscope
