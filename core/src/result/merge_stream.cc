// `latscope merge` in time order, block by block (latscope/result_stream.h;
// docs/result-format.md, "Merging in time order"): the heads planned as
// merge() would add the whole results, then one output block at a time read
// from every input, re-quantized, added and written. The integers are
// merge()'s (the same cell sums, result/cells.h), so the bytes are those of
// encode_result(merge of the decoded inputs) (tests/result_stream_test.cc).
#include <algorithm>
#include <cmath>
#include <string>

#include "latscope/result_stream.h"
#include "result/cells.h"

namespace latscope {
namespace {

int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

// a * b, saturated: quantum indices are at most 9e15 (codec), factors up to
// 1e12 x quanta per block.
int64_t mul_sat(int64_t a, int64_t b) {
  const long double p = static_cast<long double>(a) * static_cast<long double>(b);
  if (p >= 9.2e18L) return INT64_MAX;
  if (p <= -9.2e18L) return INT64_MIN;
  return a * b;
}

}  // namespace

Status plan_merge(const std::vector<const Result*>& heads, MergePlan* plan, size_t* bad_input) {
  *plan = MergePlan();
  *bad_input = SIZE_MAX;
  if (heads.empty()) return Status::Ok();
  // merge()'s rules, input by input (result.cc): clocks, then quanta.
  double q = heads[0]->quantum_ms;
  bool absolute = heads[0]->absolute_time, any = !heads[0]->series.empty();
  for (size_t i = 1; i < heads.size(); ++i) {
    const Result& h = *heads[i];
    *bad_input = i;
    if (absolute != h.absolute_time && any && !h.series.empty())
      return Status::Error(ErrorCode::kInvalidArgument, "cannot merge a result on the epoch clock with a run-relative one");
    if (!any) absolute = h.absolute_time;
    any = any || !h.series.empty();
    if (h.quantum_ms == q) continue;
    if (quantum_multiple(h.quantum_ms, q)) {
      plan->notes.push_back("re-quantized a result from " + std::to_string(h.quantum_ms) + " to " +
                            std::to_string(q) + " ms");
    } else if (quantum_multiple(q, h.quantum_ms)) {
      plan->notes.push_back("re-quantized a result from " + std::to_string(q) + " to " +
                            std::to_string(h.quantum_ms) + " ms");
      q = h.quantum_ms;
    } else {
      return Status::Error(ErrorCode::kInvalidArgument, "cannot merge quanta of " + std::to_string(q) + " and " +
                                                            std::to_string(h.quantum_ms) +
                                                            " ms: neither is a multiple of the other");
    }
  }
  *bad_input = SIZE_MAX;
  plan->head.quantum_ms = q;
  plan->head.absolute_time = absolute;
  // Series: canonical order, equal keys one series (coverage: span union, full intersection).
  struct Ref {
    const ResultSeries* s;
    size_t input, index;
  };
  std::vector<Ref> refs;
  for (size_t i = 0; i < heads.size(); ++i)
    for (size_t k = 0; k < heads[i]->series.size(); ++k) refs.push_back({&heads[i]->series[k], i, k});
  std::stable_sort(refs.begin(), refs.end(), [](const Ref& a, const Ref& b) { return series_less(*a.s, *b.s); });
  plan->index.resize(heads.size());
  for (size_t i = 0; i < heads.size(); ++i) plan->index[i].resize(heads[i]->series.size());
  std::vector<ResultSeries>& out = plan->head.series;
  for (const Ref& r : refs) {
    if (out.empty() || !same_key(out.back(), *r.s)) {
      ResultSeries s;
      s.labels = r.s->labels;
      s.layout = r.s->layout;
      s.span_start_ms = r.s->span_start_ms;
      s.span_end_ms = r.s->span_end_ms;
      s.full_start_ms = r.s->full_start_ms;
      s.full_end_ms = r.s->full_end_ms;
      out.push_back(std::move(s));
    } else {
      ResultSeries& d = out.back();
      d.span_start_ms = std::min(d.span_start_ms, r.s->span_start_ms);
      d.span_end_ms = std::max(d.span_end_ms, r.s->span_end_ms);
      d.full_start_ms = std::max(d.full_start_ms, r.s->full_start_ms);
      d.full_end_ms = std::min(d.full_end_ms, r.s->full_end_ms);
    }
    plan->index[r.input][r.index] = static_cast<uint32_t>(out.size() - 1);
  }
  return Status::Ok();
}

Status write_merge(const MergePlan& plan, std::vector<ResultBlockReader>* inputs, double quantum_ms,
                   ResultEncoder* enc, size_t* bad_input) {
  *bad_input = SIZE_MAX;
  const int64_t per_block = enc->quanta_per_block();
  std::vector<int64_t> k(inputs->size());
  for (size_t i = 0; i < inputs->size(); ++i) {
    k[i] = quantum_multiple((*inputs)[i].head().quantum_ms, quantum_ms);
    if (k[i] == 0) {
      *bad_input = i;
      return Status::Error(ErrorCode::kInvalidArgument, "quantum " + quantum_text(quantum_ms) +
                                                            " ms is no multiple of the result's " +
                                                            quantum_text((*inputs)[i].head().quantum_ms) + " ms");
    }
  }
  // The output block of input i's next cells at or after output quantum `from`.
  auto next_block = [&](size_t i, int64_t from, int64_t* b) {
    int64_t q = 0;
    if (!(*inputs)[i].next_quantum(mul_sat(from, k[i]), &q)) return false;
    *b = floor_div(floor_div(q, k[i]), per_block);
    return true;
  };
  Result acc = plan.head;  // no cells: each block's are added, written and dropped
  acc.quantum_ms = quantum_ms;
  std::vector<Result> part(inputs->size());
  for (size_t i = 0; i < inputs->size(); ++i) part[i] = (*inputs)[i].head();
  int64_t from = INT64_MIN;  // output quanta before it are written
  int64_t last_block = INT64_MIN;
  for (;;) {
    int64_t block = INT64_MAX;
    bool any = false;
    for (size_t i = 0; i < inputs->size(); ++i) {
      int64_t b = 0;
      if (next_block(i, from, &b)) {
        block = std::min(block, b);
        any = true;
      }
    }
    if (!any) break;
    // Progress, whatever an index claims: a block never comes round twice
    // (quanta far out saturate in mul_sat).
    if (last_block != INT64_MIN && block <= last_block) {
      return Status::Error(ErrorCode::kUnusableFile, "result: index: block quanta out of range");
    }
    last_block = block;
    const int64_t lo = mul_sat(block, per_block), hi = mul_sat(block + 1, per_block);
    for (size_t i = 0; i < inputs->size(); ++i) {
      Result& p = part[i];
      p.quantum_ms = (*inputs)[i].head().quantum_ms;
      Status st = (*inputs)[i].read(mul_sat(lo, k[i]), mul_sat(hi, k[i]), &p);
      if (st.ok()) st = requantize(&p, quantum_ms);
      bool ok = st.ok();
      for (size_t s = 0; ok && s < p.series.size(); ++s)
        ok = add_cells(&acc.series[plan.index[i][s]].cells, p.series[s].cells);
      if (st.ok() && !ok) st = Status::Error(ErrorCode::kInvalidArgument, "a count passes 2^64 fixed-point units");
      for (ResultSeries& s : p.series) std::vector<ResultCell>().swap(s.cells);  // kept by no input between blocks
      if (!st.ok()) {
        *bad_input = i;
        return st;
      }
    }
    Status st = enc->add(acc);
    if (!st.ok()) return st;
    for (ResultSeries& s : acc.series) s.cells.clear();
    if (hi == INT64_MAX) break;
    from = hi;
  }
  return Status::Ok();
}

}  // namespace latscope
