// Windows read twice (model.h WindowSink, docs/quanta.md "Memory: windows
// read twice"): the first pass keeps of each series what the query's plan
// reads (its first and last window, the median window length, its runs of
// time), so that memory does not grow with the length of the log.
#include <algorithm>
#include <cmath>
#include <map>

#include "latscope/model.h"

namespace latscope {

void RunMaker::add(const Window& w, double offset_ms) {
  if (w.total == 0) return;
  // As Selected::cover_* (aligner.cc): a per-I/O stamp t covers [t, t + 1).
  const double st = std::min(w.start_ms, w.end_ms) + offset_ms;
  const double e = w.end_ms + offset_ms + (per_io_ ? 1 : 0);
  if (open_ && st <= cur_.end + gap_ && e >= cur_.start - gap_) {
    cur_.start = std::min(cur_.start, st);
    cur_.end = std::max(cur_.end, e);
    cur_.ios += static_cast<double>(w.total) * unit_;
    return;
  }
  if (open_) done_.push_back(cur_);
  cur_ = WindowDigest::Run{st, e, static_cast<double>(w.total) * unit_};
  open_ = true;
}

void RunMaker::finish(std::vector<WindowDigest::Run>* out) {
  if (open_) done_.push_back(cur_);
  open_ = false;
  out->insert(out->end(), done_.begin(), done_.end());
  done_.clear();
}

struct DigestSink::One {
  explicit One(double gap) : runs(gap, 1, false) {}
  Window first, last;
  uint64_t first_line = 0, last_line = 0;
  size_t n = 0;
  uint64_t total = 0, most = 0;
  std::map<double, size_t> lengths;  // window length -> how many (the median, exactly)
  RunMaker runs;
};

void DigestSink::window(size_t series, const Window& w, uint64_t line_at, const uint32_t* /*bins*/,
                        const uint64_t* /*counts*/) {
  if (series >= per_.size()) per_.resize(series + 1);
  if (!per_[series]) per_[series] = std::make_shared<One>(gap_);
  One& o = *per_[series];
  // Bins kept in data: the second pass could not read them from a line.
  if (line_at == Series::kBinsInData) complete_ = false;
  if (!complete_) return;
  if (o.n == 0) {
    o.first = w;
    o.first_line = line_at;
  }
  o.last = w;
  o.last_line = line_at;
  ++o.n;
  o.total += w.total;  // at most 2^53 a series (the reader refuses more: model.h kMaxCount)
  o.most = std::max(o.most, w.total);
  if (w.end_ms > w.start_ms && ++o.lengths[w.end_ms - w.start_ms] && o.lengths.size() > kMaxLengths)
    complete_ = false;
  o.runs.add(w, 0);
}

void DigestSink::finish(Source* src) {
  if (!complete_) return;
  for (size_t i = 0; i < src->series.size() && i < per_.size(); ++i) {
    if (!per_[i]) continue;
    One& o = *per_[i];
    Series& s = src->series[i];
    auto d = std::make_shared<WindowDigest>();
    d->run_gap_ms = gap_;
    d->windows = o.n;
    d->total = o.total;
    d->most = o.most;
    // logging_interval_ms: the element nth_element puts at index n/2 of the
    // lengths, in ascending order.
    size_t k = 0;
    for (const auto& kv : o.lengths) k += kv.second;
    if (k) {
      size_t at = k / 2;
      for (const auto& kv : o.lengths) {
        if (at < kv.second) {
          d->interval_ms = kv.first;
          break;
        }
        at -= kv.second;
      }
    }
    o.runs.finish(&d->runs);
    s.windows.clear();
    s.line_at.clear();
    s.windows.push_back(o.first);
    s.line_at.push_back(o.first_line);
    if (o.n > 1) {
      s.windows.push_back(o.last);
      s.line_at.push_back(o.last_line);
    }
    s.digest = std::move(d);
  }
  per_.clear();
}

}  // namespace latscope
