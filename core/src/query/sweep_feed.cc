// The sweep's fed series (aligner.h Sweep, model.h WindowFeed): windows of
// series held with a WindowDigest, read again in time order as the quanta
// reach them and dropped once passed (docs/quanta.md, "Memory: windows read
// twice").
#include <set>
#include <string>

#include "query/aligner.h"
#include "query/axis.h"

namespace latscope {

Sweep::Sweep(const Plan& plan, WindowFeed* feed)
    : plan_(plan), cursor_(plan.series.size(), 0), io_at_(plan.series.size(), 0), feed_(feed), fed_(plan.series.size()) {
  for (size_t si = 0; si < plan.series.size(); ++si) {
    const Selected& x = plan.series[si];
    if (!x.series->digest) continue;
    if (!feed) {  // its windows are not here: no quantum it reaches may be trusted (unfed_series)
      if (scratch_.error.ok()) scratch_.error = Status::Error(ErrorCode::kInvalidArgument, unfed_series(plan, feed));
      continue;
    }
    fed_[si].on = true;
    feed->want(*x.src, static_cast<size_t>(x.series - x.src->series.data()));
  }
}

std::string unfed_series(const Plan& plan, const WindowFeed* feed) {
  std::set<const Series*> seen;
  for (const Selected& x : plan.series) {
    if (!x.series->digest) continue;
    // Its runs were made at offset 0 for the query's quantum (axis.cc), and
    // the feed reads each series once.
    if (!feed) return x.src->name + ": held without its windows, and no feed reads them again";
    if (x.offset_ms != 0 || x.co || !seen.insert(x.series).second ||
        x.series->digest->run_gap_ms != time_run_gap_ms(plan.quantum_ms))
      return x.src->name + ": windows read again in time order take no offset, correction or other quantum";
  }
  return "";
}

void Sweep::fill(size_t j) {
  if (!feed_) return;
  const double a = (plan_.first + static_cast<double>(j)) * plan_.quantum_ms;
  const double b = a + plan_.quantum_ms;
  for (size_t si = 0; si < fed_.size(); ++si) {
    Fed& f = fed_[si];
    if (!f.on) continue;
    const Selected& x = plan_.series[si];
    // As next() passes them: windows ending at or before a reach no later quantum.
    size_t& c = cursor_[si];
    while (c < f.w.size() && (f.w[c].end_ms + x.offset_ms < a ||
                              (f.w[c].end_ms + x.offset_ms == a && f.w[c].end_ms > f.w[c].start_ms)))
      ++c;
    // Dropped in blocks, so each window is moved a bounded number of times.
    if (c > 0 && 2 * c >= f.w.size()) {
      f.w.erase(f.w.begin(), f.w.begin() + static_cast<std::ptrdiff_t>(c));
      f.line.erase(f.line.begin(), f.line.begin() + static_cast<std::ptrdiff_t>(c));
      f.bins.erase(f.bins.begin(), f.bins.begin() + static_cast<std::ptrdiff_t>(c));
      f.base += c;
      if (decoded_.size() == fed_.size() && decoded_[si].series && decoded_[si].wi < f.base)
        decoded_[si].series = nullptr;
      c = 0;
    }
    // Read on until a window starts at or after b: then every window that
    // reaches quantum j, and the next one holding I/Os (next_busy), is here.
    while (!f.done && (f.w.empty() || !(f.w.back().start_ms + x.offset_ms >= b))) {
      f.got.clear();
      f.got_line.clear();
      f.got_bins.clear();
      if (!feed_->more(*x.src, static_cast<size_t>(x.series - x.src->series.data()), b - x.offset_ms, &f.got,
                       &f.got_line, &f.got_bins)) {
        f.done = true;
        // The same reader on the same bytes gives the same windows: any
        // other count means the file changed between the two readings.
        if (f.seen != x.series->digest->windows && scratch_.error.ok())
          scratch_.error = Status::Error(
              ErrorCode::kUnusableFile,
              x.src->name + ": changed since it was first read (" + std::to_string(x.series->digest->windows) +
                  " windows of a series then, " + std::to_string(f.seen) + " now): the rows from here on are not made");
        break;
      }
      f.seen += f.got.size();
      // A window without counts adds nothing to any quantum (next() and
      // next_busy pass it by): not kept.
      for (size_t i = 0; i < f.got.size(); ++i)
        if (f.got[i].total) {
          f.w.push_back(f.got[i]);
          f.line.push_back(f.got_line[i]);
          // Its bins as decoded, or read again from its line when the feed has none.
          f.bins.push_back(i < f.got_bins.size() ? std::move(f.got_bins[i]) : WindowBins{});
        }
    }
  }
}

}  // namespace latscope
