// A Result as an HdrHistogram interval log (docs/export-formats.md).
//
//   #[Histogram log format version 1.3]
//   #[StartTime: 0.000 (seconds since epoch), Thu Jan 01 00:00:00 UTC 1970]
//   #[BaseTime: 0.000 (seconds since epoch)]
//   "StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"
//   Tag=dir=read;kind=clat,0.000,1.000,3.801,HISTFAAAAC...
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <map>

#include "formats/hdr/hdr_encode.h"
#include "formats/hdr/hdr_layout.h"
#include "latscope/export.h"

namespace latscope {
namespace {

constexpr uint64_t kFracMask = (uint64_t{1} << kResultFracBits) - 1;
// Bin edges beyond this are out of an int64 histogram's reach.
constexpr double kMaxEdge = 4611686018427387904.0;  // 2^62

// Where one bin of a layout goes: the bucket index, and whether that bucket
// lies inside the bin (so a reader sees the count in the bin it came from).
struct Placement {
  int64_t index = 0;
  bool exact = true;
};

// True when v is a whole number of ns that starts a bucket of c.
bool is_bucket_edge(const hdr::Config& c, double v) {
  if (!(v >= 0 && v <= kMaxEdge) || v != std::floor(v)) return false;
  const auto x = static_cast<int64_t>(v);
  return c.lowest_equivalent(c.index_of(x)) == x;
}

// Every bin edge of l is a bucket edge of c (a saturating last bin has no
// upper edge). docs/export-formats.md, "Bucket edges".
bool edges_are_buckets(const BinLayout& l, const hdr::Config& c) {
  for (size_t i = 0; i < l.size(); ++i) {
    if (!is_bucket_edge(c, l.lo[i])) return false;
    if (!(l.last_saturates && i + 1 == l.size()) && !is_bucket_edge(c, l.hi[i])) return false;
  }
  return true;
}

hdr::Config make_config(int32_t digits, int64_t lowest) {
  hdr::Config c;
  c.digits = digits;
  c.lowest = lowest;
  return c;
}

// The configuration for a label set's layouts: an integer ns HdrHistogram
// configuration one of them already has, else 2 significant digits (where
// every fio 3 edge is a bucket edge), whichever holds every layout's edges;
// 3 digits when none does (the bins are then placed approximately).
hdr::Config choose_config(const std::vector<LayoutPtr>& layouts, bool* exact) {
  std::vector<hdr::Config> candidates;
  for (const LayoutPtr& l : layouts) {
    hdr::Config c;
    double unit = 0;
    size_t n = 0;
    if (l->kind == LayoutKind::kHdr && hdr::parse_layout_id(l->id, &c, &unit, &n) && unit == 1 && !c.is_double)
      candidates.push_back(make_config(c.digits, c.lowest));
  }
  candidates.push_back(make_config(2, 1));
  for (const hdr::Config& c : candidates) {
    if (std::all_of(layouts.begin(), layouts.end(), [&](const LayoutPtr& l) { return edges_are_buckets(*l, c); })) {
      *exact = true;
      return c;
    }
  }
  *exact = false;
  return make_config(3, 1);
}

// The bucket of the bin's representative value (fio's plat_idx_to_val, the
// HdrHistogram median equivalent), kept inside the bin.
Placement place(const BinLayout& l, size_t bin, const hdr::Config& c) {
  const double lo = l.lo[bin];
  const bool open_top = l.last_saturates && bin + 1 == l.size();
  const double hi = open_top ? kMaxEdge : std::min(l.hi[bin], kMaxEdge);
  double v = std::floor(l.rep[bin]);
  if (!(v >= lo && v < hi)) v = std::ceil(lo);
  v = std::min(std::max(v, 0.0), kMaxEdge);
  Placement p;
  p.index = c.index_of(static_cast<int64_t>(v));
  const double b_lo = static_cast<double>(c.lowest_equivalent(p.index));
  const double b_hi = b_lo + static_cast<double>(c.bucket_width(p.index));
  p.exact = b_lo >= lo && (open_top || b_hi <= hi);
  return p;
}

struct Group {
  Labels labels;
  std::string tag;
  hdr::Config config;
  // Per series of the group: the bucket index of each bin of its layout.
  std::vector<const ResultSeries*> series;
  std::vector<std::vector<Placement>> placements;
};

std::string seconds(double ms) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.3f", ms / 1000.0);
  return buf;
}

// java.util.Date.toString() in UTC: "Thu Jan 01 00:00:00 UTC 1970".
std::string date_text(double ms) {
  const auto t = static_cast<std::time_t>(std::floor(ms / 1000.0));
  std::tm tm{};
  if (!gmtime_r(&t, &tm)) return "";
  char buf[64];
  std::strftime(buf, sizeof buf, "%a %b %d %H:%M:%S UTC %Y", &tm);
  return buf;
}

// Largest remainder: whole parts first, then one more I/O to the buckets
// with the largest fractional parts (lower bucket first on ties) until the
// cell's total, rounded to the nearest integer, is reached.
std::vector<uint64_t> round_cell(const std::map<int64_t, uint64_t>& units, std::vector<int64_t>* indexes,
                                 HlogExportReport* rep) {
  std::vector<uint64_t> whole;
  std::vector<std::pair<uint64_t, size_t>> rem;  // (fraction, position)
  uint64_t total = 0, floors = 0;
  for (const auto& kv : units) {
    indexes->push_back(kv.first);
    whole.push_back(kv.second >> kResultFracBits);
    floors += whole.back();
    total += kv.second;
    if (kv.second & kFracMask) rem.emplace_back(kv.second & kFracMask, whole.size() - 1);
  }
  if (rem.empty()) return whole;
  ++rep->cells_rounded;
  const uint64_t target = (total + (uint64_t{1} << (kResultFracBits - 1))) >> kResultFracBits;
  std::stable_sort(rem.begin(), rem.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  const uint64_t deficit = target - floors;  // <= rem.size(): each remainder is < 1
  for (size_t k = 0; k < rem.size() && k < deficit; ++k) ++whole[rem[k].second];
  for (size_t i = 0; i < whole.size(); ++i) {
    const uint64_t exact = units.at((*indexes)[i]);
    const uint64_t written = whole[i] << kResultFracBits;
    const uint64_t diff = written > exact ? written - exact : exact - written;
    rep->max_rounding = std::max(rep->max_rounding, static_cast<double>(diff) / kResultOne);
  }
  return whole;
}

}  // namespace

std::string hlog_tag(const Labels& l) {
  const std::string text = labels_text(l);
  std::string out;
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c <= 0x20 || c == 0x7f || c == ',' || c == '%') {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    } else {
      out += ch;
    }
  }
  return out;
}

Status export_hlog(const Result& r, DeflateFn deflate, std::string* out, HlogExportReport* report) {
  *report = HlogExportReport();
  out->clear();
  // Series of equal labels (adjacent: canonical order) form one tag.
  std::vector<Group> groups;
  for (const ResultSeries& s : r.series) {
    if (groups.empty() || !(groups.back().labels == s.labels)) {
      groups.emplace_back();
      groups.back().labels = s.labels;
      groups.back().tag = hlog_tag(s.labels);
    }
    groups.back().series.push_back(&s);
  }
  if (groups.empty()) return Status::Error(ErrorCode::kUnusableFile, "export: the result holds no counts");
  const bool tagged = groups.size() > 1;
  for (Group& g : groups) {
    std::vector<LayoutPtr> layouts;
    for (const ResultSeries* s : g.series) layouts.push_back(s->layout);
    bool exact = false;
    g.config = choose_config(layouts, &exact);
    for (const ResultSeries* s : g.series) {
      std::vector<Placement> p(s->layout->size());
      for (size_t b = 0; b < p.size(); ++b) p[b] = place(*s->layout, b, g.config);
      g.placements.push_back(std::move(p));
    }
    std::string layout_ids;
    for (const LayoutPtr& l : layouts) layout_ids += (layout_ids.empty() ? "" : ", ") + l->id;
    report->notes.push_back((tagged ? "Tag=" + g.tag : "untagged (" + labels_text(g.labels) + ")") + ": " +
                            layout_ids + " as HdrHistogram " + hdr::config_key(g.config) +
                            (exact ? " (every bin edge is a bucket edge)" : " (bin edges are not bucket edges: approximate)"));
  }
  // quantum -> per group: bucket index -> fixed-point units.
  std::map<int64_t, std::vector<std::map<int64_t, uint64_t>>> cells;
  for (size_t gi = 0; gi < groups.size(); ++gi) {
    const Group& g = groups[gi];
    for (size_t si = 0; si < g.series.size(); ++si) {
      for (const ResultCell& c : g.series[si]->cells) {
        auto& per_group = cells[c.quantum];
        per_group.resize(groups.size());
        for (size_t k = 0; k < c.bins.size(); ++k) {
          const Placement& p = g.placements[si][c.bins[k]];
          if (!p.exact) ++report->bins_inexact;
          uint64_t& u = per_group[gi][p.index];
          if (__builtin_add_overflow(u, c.counts[k], &u))
            return Status::Error(ErrorCode::kUnusableFile, "export: a bucket's count overflows 64 bits");
        }
      }
    }
  }
  const double q = r.quantum_ms;
  const double base_ms = r.absolute_time ? static_cast<double>(cells.begin()->first) * q : 0;
  std::string& o = *out;
  o += "#[Written by latscope export: one interval per quantum";
  o += tagged ? " and label set (Tag), values in ns]\n" : ", values in ns]\n";
  if (!tagged) o += "#[Labels: " + hlog_tag(groups.front().labels) + "]\n";
  o += "#[Histogram log format version 1.3]\n";
  o += "#[StartTime: " + seconds(base_ms) + " (seconds since epoch), " + date_text(base_ms) + "]\n";
  o += "#[BaseTime: " + seconds(base_ms) + " (seconds since epoch)]\n";
  o += "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n";
  for (const auto& kv : cells) {
    const std::string start = seconds(static_cast<double>(kv.first) * q - base_ms), length = seconds(q);
    for (size_t gi = 0; gi < kv.second.size(); ++gi) {
      const auto& units = kv.second[gi];
      if (units.empty()) continue;
      const Group& g = groups[gi];
      std::vector<int64_t> idx;
      const std::vector<uint64_t> counts = round_cell(units, &idx, report);
      hdr::Histogram h;
      h.config = g.config;
      int64_t top = -1;
      for (size_t i = 0; i < idx.size(); ++i)
        if (counts[i]) {
          h.push(static_cast<uint32_t>(idx[i]), counts[i]);
          top = idx[i];
        }
      h.config.highest = std::max(2 * h.config.lowest, h.config.highest_equivalent(idx.back()));
      std::string payload;
      if (!hdr::encode_payload(h, deflate, &payload))
        return Status::Error(ErrorCode::kUnusableFile, "export: deflate failed");
      // Interval_Max as Java writes it: the max value's highest equivalent / 1e6.
      char max_text[48];
      std::snprintf(max_text, sizeof max_text, "%.3f",
                    top < 0 ? 0.0 : static_cast<double>(h.config.highest_equivalent(top)) / 1e6);
      if (tagged) o += "Tag=" + g.tag + ",";
      o.append(start).append(",").append(length).append(",").append(max_text).append(",").append(payload).append("\n");
      ++report->intervals;
    }
  }
  return Status::Ok();
}

}  // namespace latscope
