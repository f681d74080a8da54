#include "query/layout_merge.h"

#include <algorithm>
#include <cstdlib>

#include "query/aligner.h"

namespace latscope {
namespace {

// Significant digits of an HdrHistogram layout id ("hdr:d3:l1:u1e0:n13642").
int hdr_digits(const BinLayout& l) {
  const size_t d = l.id.find(":d");
  return d == std::string::npos ? 0 : std::atoi(l.id.c_str() + d + 2);
}

// The id without its bucket count: equal for one configuration read from
// files of different lengths.
std::string hdr_config(const BinLayout& l) {
  const size_t n = l.id.find(":n");
  if (n == std::string::npos) return l.id;
  const size_t end = l.id.find(':', n + 1);
  return l.id.substr(0, n) + (end == std::string::npos ? "" : l.id.substr(end));
}

bool moves_exactly(const BinLayout& from, const BinLayout& to) {
  const std::unique_ptr<RebinMap> m = make_rebin(from, to);
  for (size_t b = 0; b + 1 < m->start.size(); ++b)
    if (m->start[b + 1] - m->start[b] != 1 || m->frac[m->start[b]] != 1.0) return false;
  return true;
}

// The same buckets, only fewer of them (one configuration, a shorter file).
bool is_prefix(const BinLayout& from, const BinLayout& to) {
  if (from.size() > to.size()) return false;
  for (size_t i = 0; i < from.size(); ++i)
    if (from.lo[i] != to.lo[i] || from.hi[i] != to.hi[i]) return false;
  return true;
}

}  // namespace

LayoutPtr merge_layout(const std::map<std::string, LayoutPtr>& layouts) {
  if (layouts.size() == 1) return layouts.begin()->second;
  LayoutPtr best;
  for (const auto& kv : layouts) {
    const LayoutPtr& l = kv.second;
    if (l->kind != LayoutKind::kHdr) continue;
    if (!best) {
      best = l;
      continue;
    }
    const int d = hdr_digits(*l), bd = hdr_digits(*best);
    if (d > bd || (d == bd && hdr_config(*l) == hdr_config(*best) && l->size() > best->size()) ||
        (d == bd && hdr_config(*l) != hdr_config(*best) && l->hi.back() > best->hi.back()))
      best = l;
  }
  if (best) return best;
  int c = 0;
  for (const auto& kv : layouts)
    if (kv.second->kind == LayoutKind::kFio3) c = std::max(c, kv.second->coarseness);
  return fio_layout(3, c);
}

std::string describe_layout_merge(const std::map<std::string, LayoutPtr>& layouts, const BinLayout& target) {
  std::string exact, rebinned;
  bool all_prefixes = true;
  for (const auto& kv : layouts) {
    if (kv.first == target.id) continue;
    if (!is_prefix(*kv.second, target)) all_prefixes = false;
    std::string& list = moves_exactly(*kv.second, target) ? exact : rebinned;
    list += (list.empty() ? "" : ", ") + kv.first;
  }
  if (all_prefixes) return "";
  std::string s = "layouts merged onto " + target.id + ":";
  if (!exact.empty()) s += " " + exact + " moved exactly (each bin into one)";
  if (!rebinned.empty()) s += std::string(exact.empty() ? " " : "; ") + rebinned + " re-binned in proportion to bin overlap";
  return s;
}

}  // namespace latscope
