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
#include "latscope/text.h"
#include "query/aligner.h"
#include "query/axis.h"

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
  // Memory is one block's rows, whatever the number of hosts or the length
  // of the day (docs/result-format.md, "Merging the matrix"). What is
  // bounded is what a query of the logs would list: at most kMaxQuanta
  // quanta a level (the axis of a query, query/axis.h), and the blocks
  // written (an index entry each) at most kMaxMatrixBlocks.
  double blocks_out = 0;
  const double group_chunks = std::ceil(static_cast<double>(h.groups.size()) / h.groups_per_block);
  for (uint32_t l = 0; l < h.levels.size(); ++l) {
    double a = 0, b = 0;
    for (const MatrixReader& r : *inputs)
      if (r.span(l, &a, &b)) span[l] = {std::min(span[l].first, a), std::max(span[l].second, b)};
    if (!(span[l].first <= span[l].second)) continue;
    const double quanta = (span[l].second - span[l].first) / h.levels[l] + 1;
    if (quanta > kMaxQuanta)
      return Status::Error(ErrorCode::kUnusableFile,
                           "result: matrix: level " + std::to_string(l) + " would list " +
                               std::to_string(static_cast<uint64_t>(quanta)) + " quanta of " +
                               format_number(h.levels[l]) + " ms, over the " +
                               std::to_string(static_cast<uint64_t>(kMaxQuanta)) + " of a query's axis");
    blocks_out += (static_cast<double>(matrix_time_block(h, l, span[l].second) - matrix_time_block(h, l, span[l].first)) + 1) *
                  group_chunks;
  }
  if (blocks_out > static_cast<double>(kMaxMatrixBlocks))
    return Status::Error(ErrorCode::kUnusableFile,
                         "result: matrix: the concatenation would write " +
                             std::to_string(static_cast<uint64_t>(blocks_out)) + " blocks, over the " +
                             std::to_string(kMaxMatrixBlocks) + " of one matrix's index");
  st = w->begin(h);
  if (!st.ok()) return st;
  const uint32_t gpb = h.groups_per_block;
  const auto ngroups = static_cast<uint32_t>(h.groups.size());
  std::vector<MatrixRow> in, out;
  std::vector<uint8_t> stored;
  const auto before = [](const MatrixRow& a, const MatrixRow& b) {
    return a.t_ms < b.t_ms || (a.t_ms == b.t_ms && a.group < b.group);
  };
  // Every time block of each level's span, in (level, time block) order;
  // those no input has are filled (never inserted into `at`: its size is
  // the inputs' blocks).
  const std::vector<std::pair<size_t, size_t>> none;
  std::vector<std::pair<uint32_t, int64_t>> keys;
  for (uint32_t l = 0; l < h.levels.size(); ++l) {
    if (!(span[l].first <= span[l].second)) continue;
    for (int64_t tb = matrix_time_block(h, l, span[l].first); tb <= matrix_time_block(h, l, span[l].second); ++tb)
      keys.push_back({l, tb});
  }
  for (const std::pair<uint32_t, int64_t>& key : keys) {
    const auto found = at.find(key);
    const std::vector<std::pair<size_t, size_t>>& blocks = found == at.end() ? none : found->second;
    const double q = h.levels[key.first];
    // The quanta of this time block inside the level's span: every output
    // block lists each of its hosts at each of them.
    const double lo = std::max(span[key.first].first, static_cast<double>(key.second) * h.quanta_per_block * q);
    const double hi = std::min(span[key.first].second, static_cast<double>(key.second + 1) * h.quanta_per_block * q - q);
    const auto j0 = static_cast<int64_t>(std::ceil(lo / q));
    int64_t j1 = j0 - 1;
    while (static_cast<double>(j1 + 1) * q <= hi) ++j1;
    const auto quanta = static_cast<uint64_t>(j1 - j0 + 1);
    // Output groups [first, last) from the inputs' rows, decoded, renumbered
    // and the missing quanta filled with "empty;partial" rows.
    const auto rebuild = [&](uint32_t first, uint32_t last) -> Status {
      out.clear();
      for (const auto& [i, b] : blocks) {
        const MatrixReader& r = (*inputs)[i];
        const std::vector<uint32_t>& map = plan.map[i];
        const MatrixBlock& e = r.blocks()[b];
        // Groups map in order, so the block's groups map into [map[fg], map[lg]].
        if (map[e.first_group + e.groups - 1] < first || map[e.first_group] >= last) continue;
        Status rs = (*inputs)[i].read(b, &in);
        if (!rs.ok()) {
          *bad_input = i;
          return rs;
        }
        for (MatrixRow& row : in) {
          const uint32_t g = map[row.group];
          if (g < first || g >= last) continue;
          row.group = g;
          out.push_back(std::move(row));
        }
      }
      std::sort(out.begin(), out.end(), before);
      const size_t had = out.size();
      size_t k = 0;
      for (int64_t j = j0; j <= j1; ++j)
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
      return w->add(key.first, key.second, first, last - first, out);
    };
    const auto rebuild_run = [&](uint32_t from, uint32_t to) -> Status {
      for (uint32_t first = from; first < to; first += std::min(gpb, to - first)) {
        Status rs = rebuild(first, first + std::min(gpb, to - first));
        if (!rs.ok()) return rs;
      }
      return Status::Ok();
    };
    // A block is copied as stored (docs/result-format.md, "Blocks copied as
    // stored (matrix section version 2)") when that is exact: its groups map
    // onto a run of output groups (its rows' groups, relative to the first,
    // stay right) and it already lists each of them at every quantum of the
    // output's span here (nothing to fill). The rest is rebuilt.
    std::vector<std::pair<uint32_t, std::pair<size_t, size_t>>> copies;  // output first group, (input, block)
    for (const auto& [i, b] : blocks) {
      const MatrixReader& r = (*inputs)[i];
      const MatrixBlock& e = r.blocks()[b];
      const std::vector<uint32_t>& map = plan.map[i];
      const uint32_t of = map[e.first_group];
      if (r.version() >= 2 && map[e.first_group + e.groups - 1] - of == e.groups - 1 &&
          uint64_t{e.rows} == quanta * e.groups)
        copies.push_back({of, {i, b}});
    }
    std::sort(copies.begin(), copies.end());
    uint32_t next = 0;
    for (const auto& [of, ib] : copies) {
      const auto [i, b] = ib;
      const MatrixBlock& e = (*inputs)[i].blocks()[b];
      st = rebuild_run(next, of);
      if (!st.ok()) return st;
      // Inflated and checked all the same (not deflated again): a damaged
      // input block is named, never copied (docs/result-format.md, "Errors").
      st = (*inputs)[i].read(b, &in);
      if (st.ok()) st = (*inputs)[i].read_stored(b, &stored);
      if (!st.ok()) {
        *bad_input = i;
        return st;
      }
      st = w->add_stored(key.first, key.second, of, e.groups, e.rows, stored, static_cast<double>(j0) * q,
                         static_cast<double>(j1) * q);
      if (!st.ok()) return st;
      next = of + e.groups;
    }
    st = rebuild_run(next, ngroups);
    if (!st.ok()) return st;
  }
  return w->finish();
}

}  // namespace latscope
