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
#include "result/codec_parts.h"

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
  // Blocks by host (docs/result-format.md, "Blocks by host (version 5)"):
  // each output chunk is written from the inputs whose series land in it,
  // reading only their blocks of the chunks that do.
  const std::vector<uint32_t>& out_chunk = enc->series_chunks();
  const uint32_t nout = std::max<uint32_t>(1, enc->chunk_count());
  const std::vector<std::vector<uint32_t>> out_members = chunk_members(out_chunk, nout);
  struct Feed {
    size_t input;
    std::vector<bool> chunks;      // the input's chunks with series in this output chunk
    std::vector<uint32_t> series;  // and those series
  };
  std::vector<std::vector<Feed>> sources(nout);
  std::vector<bool> whole(inputs->size(), false);  // an input chunk feeds several output chunks
  for (size_t i = 0; i < inputs->size(); ++i) {
    const ResultBlockReader& r = (*inputs)[i];
    std::vector<int64_t> fed(r.chunk_count(), -1);
    for (size_t s = 0; s < r.head().series.size(); ++s) {
      const uint32_t oc = out_chunk.empty() ? 0 : out_chunk[plan.index[i][s]];
      const uint32_t ic = r.series_chunks()[s];
      if (sources[oc].empty() || sources[oc].back().input != i)
        sources[oc].push_back({i, std::vector<bool>(r.chunk_count(), false), {}});
      sources[oc].back().chunks[ic] = true;
      sources[oc].back().series.push_back(static_cast<uint32_t>(s));
      if (fed[ic] >= 0 && fed[ic] != oc) whole[i] = true;
      fed[ic] = oc;
    }
  }
  // An output chunk whose series are exactly one input chunk's, at the same
  // quantum and block grid, is that chunk's blocks as stored: copied, not
  // inflated, added and deflated again (version 1 blocks lack extremes).
  std::vector<int64_t> copy(nout, -1);
  for (uint32_t oc = 0; oc < nout; ++oc) {
    if (sources[oc].size() != 1) continue;
    const Feed& src = sources[oc][0];
    const ResultBlockReader& r = (*inputs)[src.input];
    if (k[src.input] != 1 || r.quanta_per_block() != enc->quanta_per_block() || r.version() == 1 ||
        whole[src.input] || src.series.size() != out_members[oc].size())
      continue;
    int64_t ic = -1;
    bool same = true;
    for (size_t n = 0; same && n < src.series.size(); ++n) {
      const uint32_t s = src.series[n];
      same = plan.index[src.input][s] == out_members[oc][n] && (ic < 0 || ic == r.series_chunks()[s]);
      ic = r.series_chunks()[s];
    }
    if (same) copy[oc] = ic;
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
  std::vector<bool> have(inputs->size(), false);  // whole inputs read for this block
  ResultBlockReader::StoredBlock stored;
  int64_t from = INT64_MIN;  // output quanta before it are written
  int64_t last_block = INT64_MIN;
  auto drop = [](Result* p) {
    for (ResultSeries& s : p->series) std::vector<ResultCell>().swap(s.cells);  // kept by no input between blocks
  };
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
    for (uint32_t oc = 0; oc < nout; ++oc) {
      if (copy[oc] >= 0) {
        const size_t i = sources[oc][0].input;
        size_t e = 0;
        if (!(*inputs)[i].find_block(lo, static_cast<uint32_t>(copy[oc]), &e)) continue;
        Status st = (*inputs)[i].read_block(e, &part[i], &stored);
        if (!st.ok()) {
          *bad_input = i;
          return st;
        }
        st = enc->put_block(oc, stored.first, stored.last, stored.cells, stored.z.data(), stored.z.size());
        std::vector<uint8_t>().swap(stored.z);
        if (!st.ok()) return st;
        continue;
      }
      for (const Feed& src : sources[oc]) {
        const size_t i = src.input;
        Result& p = part[i];
        const std::vector<uint32_t>& in_chunk = (*inputs)[i].series_chunks();
        // One input chunk at a time (the hosts of a merged file added into
        // one output chunk: one host's block held), or an input's block read
        // once when its one chunk feeds several output chunks.
        for (size_t ic = 0; ic < (whole[i] ? 1 : src.chunks.size()); ++ic) {
          if (!whole[i] && !src.chunks[ic]) continue;
          Status st;
          if (!whole[i] || !have[i]) {
            std::vector<bool> one(src.chunks.size(), false);
            if (!whole[i]) one[ic] = true;
            p.quantum_ms = (*inputs)[i].head().quantum_ms;
            st = (*inputs)[i].read(mul_sat(lo, k[i]), mul_sat(hi, k[i]), &p, whole[i] ? nullptr : &one);
            if (st.ok()) st = requantize(&p, quantum_ms);
            have[i] = whole[i];
          }
          bool ok = st.ok();
          for (size_t n = 0; ok && n < src.series.size(); ++n)
            if (whole[i] || in_chunk[src.series[n]] == ic)
              ok = add_cells(&acc.series[plan.index[i][src.series[n]]].cells, p.series[src.series[n]].cells);
          if (st.ok() && !ok) st = Status::Error(ErrorCode::kInvalidArgument, "a count passes 2^64 fixed-point units");
          if (!whole[i]) drop(&p);
          if (!st.ok()) {
            *bad_input = i;
            return st;
          }
        }
      }
      Status st = enc->add(acc);
      if (!st.ok()) return st;
      for (uint32_t s : out_members[oc]) std::vector<ResultCell>().swap(acc.series[s].cells);
    }
    for (size_t i = 0; i < inputs->size(); ++i)
      if (have[i]) {
        drop(&part[i]);
        have[i] = false;
      }
    if (hi == INT64_MAX) break;
    from = hi;
  }
  return Status::Ok();
}

bool plan_merge_summed(const std::vector<const Result*>& heads, MergePlan* plan) {
  std::vector<Result> keyed;
  keyed.reserve(heads.size());
  const std::string* first = nullptr;
  bool several = false;
  for (const Result* r : heads) {
    for (const ResultSeries& s : r->series) {
      const std::string* h = s.labels.find("host");
      if (h && !first) first = h;
      else if (h && *h != *first) several = true;
    }
  }
  if (!several) return false;
  for (const Result* r : heads) {
    keyed.push_back(*r);
    for (ResultSeries& s : keyed.back().series) s.labels.set("host", "");
  }
  std::vector<const Result*> ptrs;
  ptrs.reserve(keyed.size());
  for (const Result& r : keyed) ptrs.push_back(&r);
  size_t bad = SIZE_MAX;
  return plan_merge(ptrs, plan, &bad).ok();
}

}  // namespace latscope
