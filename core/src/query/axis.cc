#include "query/axis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>

namespace latscope {

void add_time_runs(const Series& s, double offset_ms, const std::string& file, size_t owner, double quantum_ms,
                   std::vector<TimeRun>* runs) {
  // Apart by over a quarter of the limit: two such runs may still share an
  // axis, but one run never holds a gap that alone breaks it.
  const double gap = time_run_gap_ms(quantum_ms);
  std::vector<WindowDigest::Run> made;
  if (s.digest && s.digest->run_gap_ms == gap && offset_ms == 0) {
    made = s.digest->runs;  // the first pass made them (model.h WindowDigest)
  } else {
    RunMaker m(gap, std::ldexp(1.0, -static_cast<int>(s.count_frac_bits)), s.per_io);  // model.h
    for (const Window& w : s.windows) m.add(w, offset_ms);
    m.finish(&made);
  }
  for (const WindowDigest::Run& r : made) runs->push_back(TimeRun{r.start, r.end, r.ios, file, owner});
}

namespace {

void grid_of(double lo, double hi, bool absolute_time, const Selection& sel, double q, double* first, double* last) {
  // Relative logs: quanta start at the run's time 0. Absolute logs: at
  // multiples of the quantum on the epoch clock.
  *first = std::floor(lo / q);
  if (!absolute_time) *first = std::min(*first, 0.0);
  *last = std::ceil(hi / q);  // exclusive
  if (sel.from_ms > -HUGE_VAL) *first = std::max(*first, std::floor(sel.from_ms / q));
  if (sel.to_ms < HUGE_VAL) *last = std::min(*last, std::ceil(sel.to_ms / q));
}

std::string ms_text(double ms) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", ms);
  return buf;
}

std::string too_many(double first, double last, double q) {
  char buf[320];
  // The quantum that would fit, rounded up to a whole ms above 1 ms.
  double fit = (last - first) * q / kMaxQuanta;
  fit = fit >= 1 ? std::ceil(fit) : fit;
  std::snprintf(buf, sizeof buf,
                "quantum too small for the time range: %.17g quanta of %.17g ms from %.17g ms to %.17g ms is over the "
                "limit of 50 million quanta; use a coarser quantum (at least %.6g ms) or a shorter time range (from/to)",
                last - first, q, first * q, last * q, fit);
  return buf;
}

}  // namespace

Status decide_axis(double* lo, double* hi, bool absolute_time, const Selection& sel, double quantum_ms,
                   const std::function<void(std::vector<TimeRun>*)>& runs_of, double* first, double* last,
                   std::vector<std::string>* notes, Diagnostics* diag, std::vector<size_t>* gone) {
  const double q = quantum_ms;
  grid_of(*lo, *hi, absolute_time, sel, q, first, last);
  if (*last - *first <= kMaxQuanta) return Status::Ok();
  std::vector<TimeRun> runs;
  runs_of(&runs);

  // The runs within from/to, clipped to it: what lies outside was not asked for.
  std::vector<TimeRun> in;
  for (const TimeRun& r : runs) {
    TimeRun c = r;
    c.start = std::max(c.start, sel.from_ms);
    c.end = std::min(c.end, sel.to_ms);
    if (c.end >= c.start) in.push_back(std::move(c));
  }
  std::vector<size_t> order(in.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&in](size_t a, size_t b) { return in[a].start < in[b].start; });
  std::vector<double> starts(order.size()), ios_before(order.size() + 1, 0.0);
  for (size_t i = 0; i < order.size(); ++i) {
    starts[i] = in[order[i]].start;
    ios_before[i + 1] = ios_before[i] + in[order[i]].ios;
  }
  // Each run's start as the axis's left end: the I/Os of the runs starting
  // within the limit from there. The most wins (ties: the earliest).
  const auto axis_first = [&](double start) {
    double f = std::floor(start / q);
    if (!absolute_time) f = std::min(f, 0.0);
    if (sel.from_ms > -HUGE_VAL) f = std::max(f, std::floor(sel.from_ms / q));
    return f;
  };
  double best = -1, best_first = 0;
  for (size_t i = 0; i < order.size(); ++i) {
    if (i > 0 && starts[i] == starts[i - 1]) continue;
    const double f = axis_first(starts[i]);
    const size_t j = static_cast<size_t>(std::lower_bound(starts.begin(), starts.end(), (f + kMaxQuanta) * q) -
                                         starts.begin());
    const double ios = ios_before[j] - ios_before[i];
    if (ios > best) {
      best = ios;
      best_first = f;
    }
  }
  // Kept: the runs wholly on that axis.
  const double axis_end = best_first + kMaxQuanta;
  double klo = HUGE_VAL, khi = -HUGE_VAL;
  std::vector<const TimeRun*> out;
  std::map<size_t, bool> owner_kept;
  for (const TimeRun& r : in) {
    const bool keep = best >= 0 && std::floor(r.start / q) >= best_first && std::ceil(r.end / q) <= axis_end;
    owner_kept[r.owner] = owner_kept[r.owner] || keep;
    if (keep) {
      klo = std::min(klo, r.start);
      khi = std::max(khi, r.end);
    } else {
      out.push_back(&r);
    }
  }
  if (!(klo <= khi) || out.empty()) return Status::Error(ErrorCode::kInvalidArgument, too_many(*first, *last, q));

  // Left out, per file in the order given.
  std::vector<std::string> files;
  std::map<std::string, TimeRun> per_file;
  for (const TimeRun* r : out) {
    auto it = per_file.find(r->file);
    if (it == per_file.end()) {
      files.push_back(r->file);
      per_file.emplace(r->file, *r);
      continue;
    }
    it->second.start = std::min(it->second.start, r->start);
    it->second.end = std::max(it->second.end, r->end);
    it->second.ios += r->ios;
  }
  constexpr size_t kMaxNamed = 8;
  for (size_t i = 0; i < files.size() && i < kMaxNamed; ++i) {
    const TimeRun& r = per_file[files[i]];
    char ios[40];
    std::snprintf(ios, sizeof ios, "%.17g", r.ios);
    std::string note = files[i];
    note += ": ";
    note += ios;
    note += " I/Os from ";
    note += ms_text(r.start);
    note += " ms to ";
    note += ms_text(r.end);
    note += " ms left out: too far from the rest of the query (";
    note += ms_text(klo);
    note += " ms to ";
    note += ms_text(khi);
    note += " ms) for one time axis of at most 50 million quanta of ";
    note += ms_text(q);
    note += " ms (query that file alone, give it an offset, or use a coarser quantum)";
    notes->push_back(note);
  }
  if (files.size() > kMaxNamed)
    notes->push_back("and " + std::to_string(files.size() - kMaxNamed) + " more files left out for the same reason");
  diag->add(Issue::kFarTimes, 0, 0,
            files.front() + ": windows too far from the rest of the query for one time axis: left out");
  if (files.size() > 1) diag->add_count(Issue::kFarTimes, files.size() - 1);
  for (const auto& [owner, kept] : owner_kept)
    if (!kept) gone->push_back(owner);
  *lo = klo;
  *hi = khi;
  grid_of(klo, khi, absolute_time, sel, q, first, last);
  return Status::Ok();
}

}  // namespace latscope
