// Holding sources (stream_impl.h, docs/quanta.md "Memory: the fold by
// quanta"). The fold by file adds each source into cells of every quantum
// it reaches and makes rows at the end, so it holds every quantum's cell
// until then: for a long HdrHistogram log that is ~9x the parsed log (a
// sparse cell is 12 bytes a bin, a parsed window ~2). Held instead, the
// sources are swept at finish: rows by StreamingQuery::finish through
// query_sources (one sweep of every source, as Engine::query), a result
// here a slice of quanta at a time, each slice's cells quantized before the
// next is made. An HdrHistogram log file's windows come without their bins
// (model.h Series::line_at): the sweep decodes each again from its line.
#include <algorithm>
#include <cmath>

#include "query/axis.h"
#include "query/budget.h"
#include "query/stream_impl.h"

namespace latscope {

using stream_detail::Job;

namespace {

// The memory a parsed series takes (model.h: varint-coded bins per window).
double model_bytes(const Series& s) {
  return static_cast<double>(s.data.capacity()) + static_cast<double>(s.windows.capacity() * sizeof(Window)) +
         static_cast<double>(s.extremes.capacity() * sizeof(ExtremeBins)) +
         8.0 * static_cast<double>(s.io_ns.capacity() + s.io_offset.capacity() + s.line_at.capacity()) +
         4.0 * static_cast<double>(s.io_bs.capacity());
}

// fold's range of quanta for one window (stream_fold.cc), false for the
// windows it skips.
bool window_quanta(const Window& w, double offset, double q, double* j0, double* j1) {
  if (w.n == 0) return false;
  const double st = w.start_ms + offset, e = w.end_ms + offset;
  *j0 = std::floor((e > st ? st : e) / q) - 1;
  *j1 = std::floor(e / q) + 1;
  return std::isfinite(*j0) && std::isfinite(*j1) && std::fabs(*j1) <= 9e15 && *j1 - *j0 <= 50e6;
}

}  // namespace

double stream_detail::source_model_bytes(const Source& src) {
  double n = 0;
  for (const Series& s : src.series) n += model_bytes(s);
  return n;
}

void StreamingQuery::Impl::hold(const Series& s, double offset, uint32_t group, CoCorrector* co,
                                const std::string* name) {
  jobs.push_back({&s, offset, group, co, name});
  // The least the fold by file would hold for it: a cell per quantum its
  // windows reach, each with its windows' bins on average. Series of one
  // group share cells: the group's estimate is its largest series'.
  uint64_t bins_total = 0;
  size_t used = 0;
  for (const Window& w : s.windows)
    if (w.n) {
      bins_total += w.n;
      ++used;
    }
  if (!used) return;
  const double per_bin = sparse ? 12.0 : 8.0;
  const double bytes = distinct_quanta(s, offset, opts.quantum_ms) *
                       (kCellBytes + per_bin * static_cast<double>(bins_total) / static_cast<double>(used));
  double& e = cell_estimate[group];
  e = std::max(e, bytes);
}

bool StreamingQuery::Impl::holding_pays() const {
  if (how == Fold::kByQuanta) return true;
  double estimate = 0;
  for (const auto& kv : cell_estimate) estimate += kv.second;
  return kept_bytes <= estimate;
}

void StreamingQuery::set_fold(Fold how) {
  impl_->how = how;
  if (how == Fold::kByFile) impl_->holding = false;
  if (epoch_) epoch_->set_fold(how);
  for (auto& kv : kinds_) kv.second->set_fold(how);
}

void StreamingQuery::set_feed(WindowFeed* feed) {
  feed_ = feed;
  set_fold(Fold::kByQuanta);
}

std::shared_ptr<DigestSink> digest_sink(double quantum_ms) {
  return std::make_shared<DigestSink>(time_run_gap_ms(quantum_ms));
}

void StreamingQuery::Impl::flush_held() {
  holding = false;
  for (const Job& j : jobs) {
    folding = *j.name;
    fold(*j.series, j.offset, j.group, j.co);
    if (!error.ok()) break;
  }
  jobs.clear();
  kept_sources.clear();
  kept_bytes = 0;
  cell_estimate.clear();
}

bool StreamingQuery::Impl::fold_slice(double last) {
  const double q = opts.quantum_ms;
  double next = HUGE_VAL;
  for (Job& jb : jobs) {
    const std::vector<Window>& ws = jb.series->windows;
    for (; jb.next < ws.size(); ++jb.next) {
      double j0 = 0, j1 = 0;
      if (window_quanta(ws[jb.next], jb.offset, q, &j0, &j1) && !(j1 < horizon)) {
        next = std::min(next, j0);
        break;
      }
    }
  }
  const double lo = std::max(horizon, next);
  if (!(lo < last)) {
    horizon = last;
    return false;
  }
  const double hi = lo + slice;
  for (Job& jb : jobs) {
    folding = *jb.name;
    fold(*jb.series, jb.offset, jb.group, jb.co, {lo, hi, &jb.next});
    if (!error.ok()) return false;
  }
  horizon = hi;
  return true;
}

}  // namespace latscope
