// Window values of fio log_avg_msec logs: see window_values.h.
#include "query/window_values.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "query/per_io.h"

namespace latscope {

void select_window_values(const Source& src, const Selection& sel, std::vector<Selected>* out) {
  select_series(src, sel, out, Role::kWindowValues);
}

std::string window_values_left_out_note(size_t n) {
  return std::to_string(n) +
         " fio log_avg_msec series (window averages, not I/Os) left out: they cannot be merged with I/O "
         "counts; query them on their own";
}

Status window_value_query(std::vector<Selected> series, const QueryOptions& opts, QueryResult* out) {
  const double q = opts.quantum_ms;
  if (!(q > 0) || !std::isfinite(q))
    return Status::Error(ErrorCode::kInvalidArgument, "quantum must be a positive number of ms");
  *out = QueryResult();
  out->quantum_ms = q;
  if (opts.sel.kinds.empty()) keep_default_kind(&series, &out->notes);  // per_io.h
  Status st = check_group_by(series, opts.group_by);
  if (!st.ok()) return st;
  out->notes.insert(out->notes.begin(),
                    "fio log_avg_msec log: each line is a window's average (or max) latency, not an I/O, so "
                    "percentiles cannot be computed from window averages; rows (flag avg) show the mean and "
                    "max of the window values in each quantum, samples = number of windows");
  if (std::any_of(series.begin(), series.end(), [](const Selected& x) { return !x.series->window_max_ns.empty(); }))
    out->notes.insert(out->notes.begin() + 1,
                      "log_window_value=both: each line holds a window's average and its maximum; min and mean "
                      "are the averages', max the largest window maximum, the largest latency fio logged in "
                      "the quantum");
  if (series.empty()) return Status::Ok();

  std::vector<std::string> keys;
  bool any_abs = false, any_rel = false;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const Selected& x : series) {
    keys.push_back(group_key(*x.src, *x.series, opts.group_by));
    (x.src->absolute_time ? any_abs : any_rel) = true;
    lo = std::min(lo, x.series->windows.front().end_ms + x.offset_ms);
    hi = std::max(hi, x.series->windows.back().end_ms + x.offset_ms);
  }
  out->absolute_time = any_abs && !any_rel;
  out->groups = keys;
  std::sort(out->groups.begin(), out->groups.end(), natural_less);
  out->groups.erase(std::unique(out->groups.begin(), out->groups.end()), out->groups.end());
  std::vector<uint32_t> group(series.size());
  for (size_t i = 0; i < series.size(); ++i)
    group[i] = static_cast<uint32_t>(
        std::lower_bound(out->groups.begin(), out->groups.end(), keys[i], natural_less) - out->groups.begin());

  // Quanta as make_plan lays them out; a value stamped t belongs to the
  // quantum [a, a + Q) holding t.
  double first = std::floor(lo / q);
  if (!out->absolute_time) first = std::min(first, 0.0);
  double last = std::floor(hi / q) + 1;  // exclusive
  if (opts.sel.from_ms > -HUGE_VAL) first = std::max(first, std::floor(opts.sel.from_ms / q));
  if (opts.sel.to_ms < HUGE_VAL) last = std::min(last, std::ceil(opts.sel.to_ms / q));
  if (last - first > 50e6)
    return Status::Error(ErrorCode::kInvalidArgument, "quantum too small for the time range: over 50 million quanta");
  const size_t quanta = last > first ? static_cast<size_t>(last - first) : 0;
  const size_t ng = out->groups.size();

  struct Acc {
    double n = 0, sum = 0, min = 0, max = 0;
  };
  std::vector<Acc> acc(quanta * ng);
  for (size_t i = 0; i < series.size(); ++i) {
    const Selected& x = series[i];
    const std::vector<Window>& w = x.series->windows;
    const std::vector<uint64_t>& v = x.series->io_ns;
    // log_window_value=both: each window's own maximum gives the max column.
    const std::vector<uint64_t>& top = x.series->window_max_ns.size() == v.size() ? x.series->window_max_ns : v;
    for (size_t k = 0; k < w.size() && k < v.size(); ++k) {
      const double t = w[k].end_ms + x.offset_ms;
      const double j = std::floor(t / q) - first;
      if (j < 0 || j >= static_cast<double>(quanta)) continue;
      Acc& a = acc[static_cast<size_t>(j) * ng + group[i]];
      const auto ns = static_cast<double>(v[k]);
      const auto most = static_cast<double>(top[k]);
      a.min = a.n == 0 ? ns : std::min(a.min, ns);
      a.max = a.n == 0 ? most : std::max(a.max, most);
      a.sum += ns;
      a.n += 1;
    }
  }
  out->rows.reserve(quanta * ng);
  for (size_t j = 0; j < quanta; ++j) {
    for (size_t g = 0; g < ng; ++g) {
      const Acc& a = acc[j * ng + g];
      Row row;
      row.t_ms = (first + static_cast<double>(j)) * q;
      row.group = static_cast<uint32_t>(g);
      row.p.resize(opts.percentiles.size());
      row.flags = kFlagWindowValues;
      if (a.n == 0) {
        row.flags |= kFlagEmpty;
      } else {
        row.stats.samples = a.n;
        row.stats.min_ns = a.min;
        row.stats.max_ns = a.max;
        row.stats.mean_ns = a.sum / a.n;
      }
      out->rows.push_back(std::move(row));
    }
  }
  return Status::Ok();
}

}  // namespace latscope
