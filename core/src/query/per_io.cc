#include "query/per_io.h"

#include <algorithm>
#include <cmath>

#include "latscope/text.h"

namespace latscope {

std::string kind_of(const Source& src, const Series& s) {
  std::string k = label_of(src, s, "kind");
  return k.empty() ? "clat" : k;
}

std::string default_kind(const std::set<std::string>& present) {
  for (const char* k : {"clat", "lat", "slat"})
    if (present.count(k)) return k;
  return present.empty() ? std::string("clat") : *present.begin();
}

std::string kinds_note(const std::set<std::string>& present, const std::string& kept) {
  std::string out;
  for (const std::string& k : present)
    if (k != kept) out += (out.empty() ? "" : ", ") + k;
  return "latency kinds " + out + " left out: the selection holds several kinds (lat = slat + clat, never merged " +
         "silently); showing " + kept + " only (choose with --kind, options \"kinds\")";
}

void keep_default_kind(std::vector<Selected>* series, std::vector<std::string>* notes) {
  std::set<std::string> present;
  for (const Selected& x : *series) present.insert(kind_of(*x.src, *x.series));
  if (present.size() < 2) return;
  const std::string kept = default_kind(present);
  series->erase(std::remove_if(series->begin(), series->end(),
                               [&](const Selected& x) { return kind_of(*x.src, *x.series) != kept; }),
                series->end());
  notes->push_back(kinds_note(present, kept));
}

std::string exact_fallback_note(size_t without) {
  return "method exact: " + std::to_string(without) +
         " selected series carry no per-I/O values (histogram inputs, json+ tails, coordinated-omission "
         "corrections, or per-I/O logs past the budget); percentiles from bins (interp) instead";
}

std::string exact_budget_note(uint64_t budget) {
  return "method exact: the selected per-I/O values do not fit the budget of " + std::to_string(budget) +
         " samples; percentiles from bins (interp) instead";
}

bool exact_possible(const std::vector<Selected>& series, uint64_t budget, std::vector<std::string>* notes) {
  size_t without = 0;
  uint64_t values = 0;
  for (const Selected& x : series) {
    if (!x.series->has_io_values() || x.co) ++without;  // corrected copies are no I/Os (co.h)
    else values += x.series->io_ns.size();
  }
  if (without) notes->push_back(exact_fallback_note(without));
  else if (values > budget) notes->push_back(exact_budget_note(budget));
  return without == 0 && values <= budget;
}

void fill_row_exact(std::vector<uint64_t>* values, const QueryOptions& opts, Row* row) {
  if (!exact_percentiles(values, opts.percentiles.data(), opts.percentiles.size(), &row->stats, row->p.data())) {
    row->flags |= kFlagEmpty;
    return;
  }
  for (const PercentileValue& v : row->p)
    if (v.few_samples) row->flags |= kFlagFewSamples;
}

Status io_heatmap(const Plan& plan, const HeatmapOptions& opts, HeatmapResult* out) {
  const bool by_bs = opts.y == HeatmapOptions::Y::kBs;
  out->y = by_bs ? "bs" : "offset";
  // A series gives rows only with each I/O's value kept (and offsets for rows by offset).
  const auto placeable = [by_bs](const Series& s) { return s.has_io_values() && (by_bs || !s.io_offset.empty()); };
  size_t with = 0, without = 0;
  uint64_t lo = UINT64_MAX, hi = 0, left_out = 0;
  for (const Selected& x : plan.series) {
    const Series& s = *x.series;
    if (!placeable(s)) {
      ++without;
      left_out += s.total();
      continue;
    }
    ++with;
    if (by_bs) {
      for (uint32_t b : s.io_bs) {
        lo = std::min<uint64_t>(lo, b);
        hi = std::max<uint64_t>(hi, b);
      }
    } else {
      for (uint64_t o : s.io_offset) hi = std::max(hi, o);
      lo = 0;
    }
  }
  if (with == 0) {
    bool per_io = false;
    for (const Selected& x : plan.series) per_io = per_io || x.series->per_io;
    return Status::Error(ErrorCode::kInvalidArgument,
                         std::string("heat map by ") + out->y + ": " +
                             (per_io ? (by_bs ? "the selected per-I/O logs' values were not kept (per-I/O budget)"
                                              : "the selected per-I/O logs have no offset column (fio log_offset=1) "
                                                "or their values were not kept")
                                     : "no fio per-I/O latency log (write_lat_log) is selected: only those record "
                                       "each I/O's block size and offset"));
  }
  // Nothing lost silently: the I/Os of the series that cannot be placed by
  // bs or offset are named (histogram logs have no value per I/O).
  if (without)
    out->notes.push_back(std::to_string(without) + " series (" + format_number(static_cast<double>(left_out)) + " I/Os) left out of the heat map by " +
                         out->y + ": only fio's per-I/O logs (write_lat_log" + (by_bs ? "" : " with log_offset=1") +
                         ", values kept) record each I/O's " + (by_bs ? "block size" : "offset"));
  std::vector<double>& edges = out->edges_ns;
  if (by_bs) {
    // Rows [2^k, 2^(k+1)): from the power of two at or below the smallest bs
    // to the one above the largest.
    int k0 = 63 - __builtin_clzll(lo), k1 = 63 - __builtin_clzll(hi);
    out->rows = static_cast<uint32_t>(k1 - k0 + 1);
    for (int k = k0; k <= k1 + 1; ++k) edges.push_back(std::ldexp(1.0, k));
  } else {
    out->rows = opts.rows;
    const double top = static_cast<double>(hi) + 1;
    for (uint32_t r = 0; r <= opts.rows; ++r) edges.push_back(top * r / opts.rows);
    edges.back() = top;
  }
  out->quanta = static_cast<uint32_t>(plan.quanta);
  out->counts.assign(plan.quanta * out->rows, 0.0);
  const double q = plan.quantum_ms;
  for (const Selected& x : plan.series) {
    const Series& s = *x.series;
    if (!placeable(s)) continue;
    size_t io = 0;
    for (const Window& w : s.windows) {
      const size_t at = io;
      io += w.total;
      // The quantum holding the instant, as Sweep::next decides it:
      // a <= t < b with a = (first + j) * Q.
      const double t = w.end_ms + x.offset_ms;
      double j = std::floor(t / q) - plan.first;
      if (!std::isfinite(j)) continue;
      if ((plan.first + j) * q > t) --j;
      if ((plan.first + j + 1) * q <= t) ++j;
      if (j < 0 || j >= static_cast<double>(plan.quanta)) continue;
      double* dst = out->counts.data() + static_cast<size_t>(j) * out->rows;
      for (size_t i = at; i < io; ++i) {
        const double v = by_bs ? static_cast<double>(s.io_bs[i]) : static_cast<double>(s.io_offset[i]);
        const size_t r = static_cast<size_t>(std::upper_bound(edges.begin(), edges.end(), v) - edges.begin());
        if (r == 0) out->below += 1;
        else if (r > out->rows) out->above += 1;
        else dst[r - 1] += 1;
      }
    }
  }
  return Status::Ok();
}

}  // namespace latscope
