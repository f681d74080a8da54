// pctiles_columns (latscope/report.h): the query's rows as columns for the
// page's worker. The values and nulls are those of pctiles_json, field by
// field (tests/pctiles_columns_test.cc compares the two on real logs).
#include <limits>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "latscope/report.h"


namespace latscope {

namespace {
constexpr double kNull = std::numeric_limits<double>::quiet_NaN();
}  // namespace

PctilesColumnsBuilder::PctilesColumnsBuilder(std::vector<std::string> labels, Unit unit, bool bands)
    : labels_(std::move(labels)), unit_(unit), bands_(bands), flag_index_{{"", 0}} {}

void PctilesColumnsBuilder::expect(size_t rows) {
  // Each column made once at its size: grown by doubling, the columns of a
  // per-host query at 1 s were copied twice over, 40% of that query's time
  // (docs/page-speed.md "Rows straight into columns").
  const size_t n = c_.t_ms.size() + rows, np = n * labels_.size();
  const auto room = [](auto& v, size_t items) {
    if (items <= v.capacity()) return;
    v.reserve(items);
  };
  for (std::vector<double>* v : {&c_.t_ms, &c_.width_ms, &c_.samples, &c_.min, &c_.mean, &c_.max}) room(*v, n);
  room(c_.p, np);
  if (bands_)
    for (std::vector<double>* v : {&c_.err, &c_.lo, &c_.hi}) room(*v, np);
  room(c_.group, n);
  room(c_.flag, n);
}

void PctilesColumnsBuilder::add(const Row& row) {
  PctilesColumns& c = c_;
  const size_t np = labels_.size();
  const bool empty = row.flags & kFlagEmpty;
  const auto in_unit = [this](double ns) { return unit_or_nan(ns, unit_); };
  c.t_ms.push_back(row.t_ms);
  c.width_ms.push_back(row.width_ms);
  c.group.push_back(row.group);
  c.samples.push_back(empty ? 0 : row.stats.samples);
  c.min.push_back(empty ? kNull : in_unit(row.stats.min_ns));
  c.mean.push_back(empty ? kNull : in_unit(row.stats.mean_ns));
  c.max.push_back(empty ? kNull : in_unit(row.stats.max_ns));
  for (size_t j = 0; j < np; ++j) {
    const PercentileValue* pv = row_percentile(row, j);
    c.p.push_back(pv ? in_unit(pv->value_ns) : kNull);
    if (!bands_) continue;
    c.err.push_back(pv ? in_unit(pv->err_ns) : kNull);
    c.lo.push_back(pv ? in_unit(pv->lo_ns) : kNull);
    c.hi.push_back(pv ? in_unit(pv->hi_ns) : kNull);
  }
  c.flag.push_back(row.flags ? flag_of(row) : 0);
  c.value_t_ms.insert(c.value_t_ms.end(), row.value_t_ms.begin(), row.value_t_ms.end());
}

uint32_t PctilesColumnsBuilder::flag_of(const Row& row) {
  // The text is made of the flag bits and the few-samples percentiles only
  // (flags_text), so those make the key while there are at most 32.
  uint64_t key = 0;
  const bool keyed = row.p.size() <= 32;
  if (keyed) {
    key = uint64_t{row.flags} << 32;
    for (size_t i = 0; i < row.p.size(); ++i)
      if (row.p[i].few_samples) key |= uint64_t{1} << i;
    if (auto k = flag_key_.find(key); k != flag_key_.end()) return k->second;
  }
  // Rows of one query share a handful of flag texts ("few:p99.9", "finer").
  auto it = flag_index_.try_emplace(flags_text(row, labels_), static_cast<uint32_t>(c_.flag_texts.size())).first;
  if (it->second == c_.flag_texts.size()) c_.flag_texts.push_back(it->first);
  if (keyed) flag_key_.emplace(key, it->second);
  return it->second;
}

void PctilesColumnsBuilder::clear_rows() {
  for (std::vector<double>* v : {&c_.t_ms, &c_.width_ms, &c_.samples, &c_.min, &c_.mean, &c_.max, &c_.p, &c_.err, &c_.lo, &c_.hi,
                                    &c_.value_t_ms})
    v->clear();
  c_.group.clear();
  c_.flag.clear();
}

PctilesColumns PctilesColumnsBuilder::take(bool adaptive) {
  if (!adaptive) std::vector<double>().swap(c_.width_ms);  // only adaptive quanta have widths
  PctilesColumns out = std::move(c_);
  c_ = PctilesColumns();
  flag_index_ = {{"", 0}};
  flag_key_.clear();
  return out;
}

PctilesColumns pctiles_columns(const QueryResult& r, const std::vector<std::string>& labels, Unit unit) {
  PctilesColumnsBuilder b(labels, unit, r.bands);
  b.expect(r.rows.size());
  for (const Row& row : r.rows) b.add(row);
  return b.take(r.adaptive);
}

}  // namespace latscope
