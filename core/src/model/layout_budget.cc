// The layout budget (latscope/layout_budget.h, docs/input-robustness.md "Layouts").
#include "latscope/layout_budget.h"

#include <set>

namespace latscope {
namespace {

// Each counted layout of src once (a source's series share their layouts).
template <class F>
void for_each_layout(const Source& src, F&& f) {
  const BinLayout* last = nullptr;
  auto visit = [&](const LayoutPtr& l) {
    if (!l || l.get() == last || !counts_against_budget(*l)) return;
    last = l.get();
    f(*l);
  };
  visit(src.layout);
  for (const Series& s : src.series) visit(s.layout);
}

}  // namespace

bool counts_against_budget(const BinLayout& l) {
  return l.kind != LayoutKind::kFio3 && l.kind != LayoutKind::kFio2;
}

std::string with_commas(uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

void LayoutTally::add(const Source& src) {
  for_each_layout(src, [&](const BinLayout& l) {
    if (held_.emplace(l.id, l.size()).second) bins_ += l.size();
  });
}

size_t LayoutTally::added_by(const Source& src) const {
  std::map<std::string, size_t> mine;
  for_each_layout(src, [&](const BinLayout& l) {
    if (!held_.count(l.id)) mine.emplace(l.id, l.size());
  });
  size_t n = 0;
  for (const auto& kv : mine) n += kv.second;
  return n;
}

std::string LayoutTally::refusal(const Source& src) const {
  const size_t mine = added_by(src);
  if (mine == 0 || (mine <= kMaxLayoutBins && bins_ <= kMaxLayoutBins - mine)) return "";
  std::set<std::string> named;
  std::string ids;
  for_each_layout(src, [&](const BinLayout& l) {
    if (held_.count(l.id) || !named.insert(l.id).second || named.size() > 3) return;
    ids += (ids.empty() ? "" : ", ") + l.id;
  });
  if (named.size() > 3) ids += " and " + std::to_string(named.size() - 3) + " more";
  std::string s = src.name;
  s += ": its bin layouts (";
  s += ids;
  s += ": ";
  s += with_commas(mine);
  s += " bins) with the ";
  s += with_commas(bins_);
  s += " bins of the layouts already held pass the limit of ";
  s += with_commas(kMaxLayoutBins);
  s += " bins held at once (docs/input-robustness.md, \"Layouts\"); file not read: read it apart from the others, "
       "or record with fewer significant digits";
  return s;
}

LayoutTally tally_layouts(const std::vector<Source>& sources) {
  LayoutTally t;
  for (const Source& s : sources) t.add(s);
  return t;
}

bool admit_layouts(const std::vector<Source>& held, Source* src) {
  bool counted = false;
  for_each_layout(*src, [&](const BinLayout&) { counted = true; });
  // Sources of fio layouts only (nearly all) cost no pass over the others.
  return !counted || admit_layouts(tally_layouts(held), src);
}

bool admit_layouts(const LayoutTally& tally, Source* src) {
  std::string why = tally.refusal(*src);
  if (why.empty()) return true;
  std::vector<Series>().swap(src->series);
  src->layout = nullptr;
  src->status = Status::Error(ErrorCode::kUnusableFile, std::move(why));
  return false;
}

}  // namespace latscope
