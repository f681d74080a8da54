// The unit of fio per-I/O logs without a priority column (latscope/folder.h,
// docs/fio-versions.md "Per-I/O logs"). fio 2 wrote `time, value, ddir, bs`
// with values in us; fio 3 wrote values in ns, in the same 4 columns until it
// added the priority column. The reader keeps such values as written and
// labels the source unit=pending; here the folder's evidence decides:
//   1. the run's fio json(+) output names the fio version;
//   2. the run's histogram logs have fio 2's 1216-bin (us) or fio 3's
//      1856-bin (ns) layout;
//   3. else the values' magnitudes: a median under 1000 read as ns would be
//      I/Os under a microsecond, which no storage device serves, so us;
//      anything else ns (every fio since 3.0, 2017), said as a guess.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "latscope/folder.h"
#include "formats/fio_lat/fio_lat_reader.h"

namespace latscope {
namespace {

// "fio-3.12", "fio-3.12-5-gabc", "fio-2.99": 3 for a version that logs ns,
// 2 for one that logs us, 0 when unknown. fio-2.99 was the 3.0 pre-release,
// after the nsec merge 22bcb265 (docs/fio-versions.md section 1).
int major_of(const std::string& v) {
  size_t i = 0;
  while (i < v.size() && !std::isdigit(static_cast<unsigned char>(v[i]))) ++i;
  if (i == v.size()) return 0;
  int major = 0, minor = 0;
  if (std::sscanf(v.c_str() + i, "%d.%d", &major, &minor) < 1) return 0;
  if (major == 2 && minor >= 99) return 3;
  return major >= 3 ? 3 : major == 2 ? 2 : 0;
}

// The median value as written: sampled from the kept values, else from the
// bins' lower edges (values past the per-I/O budget).
double median_value(const Source& src) {
  std::vector<double> v;
  for (const Series& s : src.series) {
    if (!s.io_ns.empty()) {
      const size_t step = std::max<size_t>(1, s.io_ns.size() / 65536);
      for (size_t i = 0; i < s.io_ns.size(); i += step) v.push_back(static_cast<double>(s.io_ns[i]));
    } else {
      for (const Window& w : s.windows)
        s.for_each_bin(w, [&](uint32_t b, uint64_t c) {
          if (v.size() < 65536) v.insert(v.end(), static_cast<size_t>(std::min<uint64_t>(c, 16)), s.layout->lo[b]);
        });
    }
  }
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

// Multiplies a series' values by `factor` and rebins its windows. Values
// kept: exact. Values past the budget: each bin's count moves to the bin of
// its representative value times the factor (said by the caller).
void rescale(Series* s, uint64_t factor) {
  Series out = *s;
  out.windows.clear();
  out.data.clear();
  out.saturated = 0;
  const bool values = !s->io_ns.empty();
  constexpr uint64_t kMax = uint64_t{1} << 62;
  size_t k = 0;
  std::vector<uint32_t> bins;
  std::vector<uint64_t> counts;
  for (uint64_t& v : out.window_max_ns) v = v > kMax / factor ? kMax : v * factor;  // log_window_value=both
  for (const Window& w : s->windows) {
    std::vector<std::pair<uint32_t, uint64_t>> cells;
    if (values) {
      for (uint64_t j = 0; j < w.total && k < s->io_ns.size(); ++j, ++k) {
        uint64_t& v = out.io_ns[k];
        v = v > kMax / factor ? kMax : v * factor;
        cells.emplace_back(fio_value_to_bin(v), 1);
      }
    } else {
      s->for_each_bin(w, [&](uint32_t b, uint64_t c) {
        const double rep = s->layout->rep[b] * static_cast<double>(factor);
        cells.emplace_back(fio_value_to_bin(rep >= static_cast<double>(kMax) ? kMax : static_cast<uint64_t>(rep)), c);
      });
    }
    std::sort(cells.begin(), cells.end());
    bins.clear();
    counts.clear();
    for (const auto& [b, c] : cells) {
      if (!bins.empty() && bins.back() == b) {
        counts.back() += c;
      } else {
        bins.push_back(b);
        counts.push_back(c);
      }
      if (b + 1 == s->layout->size()) out.saturated += c;
    }
    out.add_window(w.start_ms, w.end_ms, bins.data(), counts.data(), static_cast<uint32_t>(bins.size()));
  }
  *s = std::move(out);
}

}  // namespace

bool unit_pending(const Source& src) {
  const std::string* u = src.labels.find(kUnitLabel);
  return u && *u == "pending";
}

UnitDecision decide_unit(const std::vector<FolderFile>& folder, const std::string& run, double median) {
  std::set<std::string> json;
  std::set<int> json_major, hist_major;
  for (const FolderFile& f : folder) {
    if (f.run != run) continue;
    if (!f.fio_version.empty() && major_of(f.fio_version) >= 2) {
      json.insert(f.fio_version);
      json_major.insert(major_of(f.fio_version));
    }
    if (f.hist_version) hist_major.insert(f.hist_version);
  }
  const auto list = [](const std::set<std::string>& s) {
    std::string o;
    for (const std::string& x : s) o += (o.empty() ? "" : ", ") + x;
    return o;
  };
  UnitDecision d;
  std::string disagree;
  if (json_major.size() == 1) {
    d.fio_version = *json_major.begin();
    d.why = "the run's fio json output says " + list(json) + ": fio " + std::to_string(d.fio_version) + " logs " +
            (d.fio_version == 3 ? "ns" : "us");
    return d;
  }
  if (json_major.size() > 1) disagree = "the run's json outputs name several fio versions (" + list(json) + ")";
  if (hist_major.size() == 1) {
    d.fio_version = *hist_major.begin();
    d.why = std::string("the run's histogram logs have fio ") + std::to_string(d.fio_version) + "'s bins (" +
            (d.fio_version == 3 ? "1856, ns" : "1216, us") + ")";
    if (!disagree.empty()) {
      d.guessed = true;
      d.why += "; but " + disagree;
    }
    return d;
  }
  if (hist_major.size() > 1 && disagree.empty()) disagree = "the run's histogram logs have both fio 2's and fio 3's bins";
  d.guessed = true;
  if (median > 0 && median < 1000) {
    d.fio_version = 2;
    d.why = "no fio version known for this run; the median value " + std::to_string(static_cast<uint64_t>(median)) +
            " would be under 1 us in ns, so read as us (fio 2)";
  } else {
    d.fio_version = 3;
    d.why = "no fio version known for this run; read as ns (fio 3" +
            std::string(median > 0 ? ", median value " + std::to_string(static_cast<uint64_t>(median)) + " ns" : "") +
            ")";
  }
  if (!disagree.empty()) d.why = disagree + "; " + d.why;
  return d;
}

void settle_units(Source* src, const std::vector<FolderFile>& folder) {
  if (!unit_pending(*src)) return;
  const std::string* run = src->labels.find("run");
  const UnitDecision d = decide_unit(folder, run ? *run : "", median_value(*src));
  bool approximate = false;
  if (d.fio_version == 2)
    for (Series& s : src->series) {
      if (s.io_ns.empty()) approximate = true;
      rescale(&s, 1000);
    }
  src->labels.set(kUnitLabel, d.fio_version == 2 ? "us" : "ns");
  const std::string text = std::string("no priority column, values read in ") +
                           (d.fio_version == 2 ? "us" : "ns") + ": " + d.why +
                           (approximate ? "; exact values were not kept (per-I/O budget), bins rescaled" : "");
  src->diag.add(d.guessed ? Issue::kUnitGuessed : Issue::kUnitDecided, 0, 0, text);
}

}  // namespace latscope
