// The result value (latscope/result.h): canonical order, merge, re-quantizing.
// docs/result-format.md, "Merging".
#include "latscope/result.h"

#include "result/cells.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace latscope {

bool series_less(const ResultSeries& a, const ResultSeries& b) {
  const auto& la = a.labels.items();
  const auto& lb = b.labels.items();
  if (la != lb) return la < lb;
  return a.layout->id < b.layout->id;
}

bool same_key(const ResultSeries& a, const ResultSeries& b) {
  return a.labels == b.labels && a.layout->id == b.layout->id;
}

namespace {

// Adds two ascending sparse cells; false when a count would pass 2^64 - 1.
bool add_cell(const ResultCell& a, const ResultCell& b, ResultCell* out) {
  ResultCell c;
  c.quantum = a.quantum;
  // Extremes: the union's (docs/extremes.md, "Results": midpoints nest).
  c.extremes = a.extremes;
  c.extremes.add(b.extremes);
  size_t i = 0, j = 0;
  bool ok = true;
  while (i < a.bins.size() || j < b.bins.size()) {
    if (j == b.bins.size() || (i < a.bins.size() && a.bins[i] < b.bins[j])) {
      c.bins.push_back(a.bins[i]);
      c.counts.push_back(a.counts[i++]);
    } else if (i == a.bins.size() || b.bins[j] < a.bins[i]) {
      c.bins.push_back(b.bins[j]);
      c.counts.push_back(b.counts[j++]);
    } else {
      const uint64_t x = a.counts[i++], y = b.counts[j];
      if (x > UINT64_MAX - y) ok = false;
      c.bins.push_back(b.bins[j++]);
      c.counts.push_back(x + y);
    }
  }
  *out = std::move(c);
  return ok;
}

}  // namespace

bool add_cells(std::vector<ResultCell>* d, const std::vector<ResultCell>& s) {
  if (s.empty()) return true;
  if (d->empty() || d->back().quantum < s.front().quantum) {  // disjoint and later: appended
    d->insert(d->end(), s.begin(), s.end());
    return true;
  }
  std::vector<ResultCell> out;
  out.reserve(d->size() + s.size());
  size_t i = 0, j = 0;
  bool ok = true;
  while (i < d->size() || j < s.size()) {
    if (j == s.size() || (i < d->size() && (*d)[i].quantum < s[j].quantum)) {
      out.push_back(std::move((*d)[i++]));
    } else if (i == d->size() || s[j].quantum < (*d)[i].quantum) {
      out.push_back(s[j++]);
    } else {
      ResultCell c;
      ok = add_cell((*d)[i++], s[j++], &c) && ok;
      out.push_back(std::move(c));
    }
  }
  *d = std::move(out);
  return ok;
}

namespace {

// Adds cells of s into d (same labels and layout); coverage: union / intersection.
bool add_series(ResultSeries* d, const ResultSeries& s) {
  d->span_start_ms = std::min(d->span_start_ms, s.span_start_ms);
  d->span_end_ms = std::max(d->span_end_ms, s.span_end_ms);
  d->full_start_ms = std::max(d->full_start_ms, s.full_start_ms);
  d->full_end_ms = std::min(d->full_end_ms, s.full_end_ms);
  return add_cells(&d->cells, s.cells);
}

int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

}  // namespace

int64_t quantum_multiple(double a, double b) {
  if (!(a > 0) || !std::isfinite(a) || !std::isfinite(b)) return 0;
  const double k = std::round(b / a);
  if (k < 1 || k > 1e12 || static_cast<double>(k) * a != b) return 0;
  return static_cast<int64_t>(k);
}

std::string labels_text(const Labels& l) {
  std::string s;
  for (const auto& kv : l.items()) s += (s.empty() ? "" : ";") + kv.first + "=" + kv.second;
  return s;
}

uint64_t Result::cells() const {
  uint64_t n = 0;
  for (const ResultSeries& s : series) n += s.cells.size();
  return n;
}

void Result::normalize() {
  std::stable_sort(series.begin(), series.end(), series_less);
  std::vector<ResultSeries> out;
  for (ResultSeries& s : series) {
    if (!out.empty() && same_key(out.back(), s)) add_series(&out.back(), s);
    else out.push_back(std::move(s));
  }
  series = std::move(out);
}

Status requantize(Result* r, double quantum_ms) {
  const int64_t k = quantum_multiple(r->quantum_ms, quantum_ms);
  if (k == 0)
    return Status::Error(ErrorCode::kInvalidArgument,
                         "quantum " + std::to_string(quantum_ms) + " ms is no multiple of the result's " +
                             std::to_string(r->quantum_ms) + " ms");
  if (k == 1) return Status::Ok();
  bool ok = true;
  for (ResultSeries& s : r->series) {
    std::vector<ResultCell> out;
    for (ResultCell& c : s.cells) {
      c.quantum = floor_div(c.quantum, k);
      if (!out.empty() && out.back().quantum == c.quantum) {
        ResultCell sum;
        ok = add_cell(out.back(), c, &sum) && ok;
        out.back() = std::move(sum);
      } else {
        out.push_back(std::move(c));
      }
    }
    s.cells = std::move(out);
  }
  r->quantum_ms = quantum_ms;
  if (!ok) return Status::Error(ErrorCode::kInvalidArgument, "a count passes 2^64 fixed-point units");
  return Status::Ok();
}

Status merge(Result* into, const Result& other) {
  if (into->series.empty() && other.series.empty() && into->quantum_ms == other.quantum_ms) return Status::Ok();
  if (into->absolute_time != other.absolute_time && !into->series.empty() && !other.series.empty())
    return Status::Error(ErrorCode::kInvalidArgument,
                         "cannot merge a result on the epoch clock with a run-relative one");
  Result b = other;
  if (into->series.empty()) into->absolute_time = other.absolute_time;
  if (b.quantum_ms != into->quantum_ms) {
    const double from_a = into->quantum_ms, from_b = b.quantum_ms;
    if (quantum_multiple(from_b, from_a)) {
      Status st = requantize(&b, from_a);
      if (!st.ok()) return st;
      into->notes.push_back("re-quantized a result from " + std::to_string(from_b) + " to " +
                            std::to_string(from_a) + " ms");
    } else if (quantum_multiple(from_a, from_b)) {
      Result a = *into;
      Status st = requantize(&a, from_b);
      if (!st.ok()) return st;
      a.notes.push_back("re-quantized a result from " + std::to_string(from_a) + " to " + std::to_string(from_b) +
                        " ms");
      *into = std::move(a);
    } else {
      return Status::Error(ErrorCode::kInvalidArgument,
                           "cannot merge quanta of " + std::to_string(from_a) + " and " + std::to_string(from_b) +
                               " ms: neither is a multiple of the other");
    }
  }
  for (ResultSeries& s : b.series) into->series.push_back(std::move(s));
  std::stable_sort(into->series.begin(), into->series.end(), series_less);
  std::vector<ResultSeries> out;
  bool ok = true;
  for (ResultSeries& s : into->series) {
    if (!out.empty() && same_key(out.back(), s)) ok = add_series(&out.back(), s) && ok;
    else out.push_back(std::move(s));
  }
  into->series = std::move(out);
  if (!ok) return Status::Error(ErrorCode::kInvalidArgument, "a count passes 2^64 fixed-point units");
  return Status::Ok();
}

}  // namespace latscope
