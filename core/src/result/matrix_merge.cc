// Per-host matrices concatenated by merge (docs/result-format.md, "Merging
// the matrix"): each host's rows come from the one input that holds the host,
// block by block, so memory is one output block and one input block; a
// percentile is never made from percentiles.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "latscope/result_matrix.h"
#include "query/aligner.h"

namespace latscope {

bool plan_matrix_merge(const std::vector<const MatrixHead*>& heads, const std::vector<std::string>& names,
                       MatrixMergePlan* plan, std::string* why) {
  *plan = MatrixMergePlan();
  why->clear();
  const MatrixHead* first = nullptr;
  size_t first_i = 0;
  for (size_t i = 0; i < heads.size(); ++i) {
    if (!heads[i]) {
      *why = names[i] + " holds no matrix";
      return false;
    }
    if (!first) {
      first = heads[i];
      first_i = i;
      continue;
    }
    const MatrixHead& a = *first;
    const MatrixHead& b = *heads[i];
    if (a.absolute_time != b.absolute_time || a.group_by != b.group_by || a.labels != b.labels ||
        a.percentiles != b.percentiles || a.method != b.method || a.levels != b.levels ||
        a.quanta_per_block != b.quanta_per_block || a.groups_per_block != b.groups_per_block) {
      *why = names[i] + "'s matrix has other levels, percentiles, method or clock than " + names[first_i] + "'s";
      return false;
    }
  }
  if (!first) {
    *why = "no input";
    return false;
  }
  std::map<std::string, size_t, bool (*)(const std::string&, const std::string&)> owner(natural_less);
  for (size_t i = 0; i < heads.size(); ++i)
    for (const std::string& g : heads[i]->groups) {
      const auto [it, added] = owner.emplace(g, i);
      if (!added) {
        // Its percentiles would need its two inputs' histograms added first.
        *why = g + " is in " + names[it->second] + " and in " + names[i];
        return false;
      }
    }
  plan->head = *first;
  plan->head.groups.clear();
  for (const auto& kv : owner) plan->head.groups.push_back(kv.first);
  plan->map.resize(heads.size());
  for (size_t i = 0; i < heads.size(); ++i)
    for (const std::string& g : heads[i]->groups)
      plan->map[i].push_back(static_cast<uint32_t>(
          std::lower_bound(plan->head.groups.begin(), plan->head.groups.end(), g, natural_less) -
          plan->head.groups.begin()));
  return true;
}

Status write_matrix_merge(const MatrixMergePlan& plan, std::vector<MatrixReader>* inputs, MatrixWriter* w,
                          size_t* bad_input) {
  *bad_input = SIZE_MAX;
  const MatrixHead& h = plan.head;
  Status st;
  // (level, time block) -> per input, its blocks there.
  std::map<std::pair<uint32_t, int64_t>, std::vector<std::pair<size_t, size_t>>> at;
  for (size_t i = 0; i < inputs->size(); ++i) {
    const std::vector<MatrixBlock>& ix = (*inputs)[i].blocks();
    for (size_t b = 0; b < ix.size(); ++b) at[{ix[b].level, ix[b].time_block}].push_back({i, b});
  }
  // A query of every host's logs lists each host at every quantum from the
  // first host's first to the last host's last, "empty;partial" where the
  // host has no log (docs/result-format.md, "Merging the matrix"): the
  // concatenation lists the same rows.
  std::vector<std::pair<double, double>> span(h.levels.size(), {HUGE_VAL, -HUGE_VAL});
  double rows = 0;
  for (uint32_t l = 0; l < h.levels.size(); ++l) {
    double a = 0, b = 0;
    for (const MatrixReader& r : *inputs)
      if (r.span(l, &a, &b)) span[l] = {std::min(span[l].first, a), std::max(span[l].second, b)};
    if (!(span[l].first <= span[l].second)) continue;
    rows += ((span[l].second - span[l].first) / h.levels[l] + 1) * static_cast<double>(h.groups.size());
  }
  // Every host at every quantum: bounded before a block is written, as a
  // query's rows are (kMaxResultBytes, docs/result-format.md "Memory").
  const double row_bytes = 64 + 8.0 * static_cast<double>(h.percentiles.size());
  if (rows * row_bytes > static_cast<double>(kMaxResultBytes))
    return Status::Error(ErrorCode::kUnusableFile,
                         "result: matrix: the concatenation would hold " + std::to_string(static_cast<uint64_t>(rows)) +
                             " rows, over the " + std::to_string(kMaxResultBytes >> 20) + " MiB of one result");
  st = w->begin(h);
  if (!st.ok()) return st;
  for (uint32_t l = 0; l < h.levels.size(); ++l) {
    if (!(span[l].first <= span[l].second)) continue;
    for (int64_t tb = matrix_time_block(h, l, span[l].first); tb <= matrix_time_block(h, l, span[l].second); ++tb)
      at[{l, tb}];
  }
  const uint32_t gpb = h.groups_per_block;
  std::vector<MatrixRow> in, out;
  for (const auto& [key, blocks] : at) {
    const double q = h.levels[key.first];
    for (uint32_t first = 0; first < h.groups.size(); first += gpb) {
      out.clear();
      for (const auto& [i, b] : blocks) {
        const MatrixReader& r = (*inputs)[i];
        const std::vector<uint32_t>& map = plan.map[i];
        const uint32_t fg = r.blocks()[b].first_group;
        const uint32_t lg = std::min<uint32_t>(fg + r.head().groups_per_block, static_cast<uint32_t>(map.size())) - 1;
        // Groups map in order, so the block's range maps onto [map[fg], map[lg]].
        if (map[lg] < first || map[fg] >= first + gpb) continue;
        st = (*inputs)[i].read(b, &in);
        if (!st.ok()) {
          *bad_input = i;
          return st;
        }
        for (MatrixRow& row : in) {
          const uint32_t g = map[row.group];
          if (g < first || g >= first + gpb) continue;
          row.group = g;
          out.push_back(std::move(row));
        }
      }
      const auto before = [](const MatrixRow& a, const MatrixRow& b) {
        return a.t_ms < b.t_ms || (a.t_ms == b.t_ms && a.group < b.group);
      };
      std::sort(out.begin(), out.end(), before);
      // The quanta of this block inside the level's span, each host once.
      const uint32_t last = std::min<uint32_t>(first + gpb, static_cast<uint32_t>(h.groups.size()));
      const size_t had = out.size();
      const double lo = std::max(span[key.first].first, static_cast<double>(key.second) * h.quanta_per_block * q);
      const double hi = std::min(span[key.first].second, static_cast<double>(key.second + 1) * h.quanta_per_block * q - q);
      size_t k = 0;
      for (auto j = static_cast<int64_t>(std::ceil(lo / q)); static_cast<double>(j) * q <= hi; ++j)
        for (uint32_t g = first; g < last; ++g) {
          const double t = static_cast<double>(j) * q;
          while (k < had && (out[k].t_ms < t || (out[k].t_ms == t && out[k].group < g))) ++k;
          if (k < had && out[k].t_ms == t && out[k].group == g) continue;
          MatrixRow e;
          e.t_ms = t;
          e.group = g;
          e.flags = kFlagEmpty | kFlagPartial;
          e.p.assign(h.percentiles.size(), 0);
          out.push_back(std::move(e));
        }
      if (out.size() != had) std::sort(out.begin(), out.end(), before);
      st = w->add(key.first, key.second, first, out);
      if (!st.ok()) return st;
    }
  }
  return w->finish();
}

}  // namespace latscope
