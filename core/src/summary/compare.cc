// `latscope summary --compare`: two runs side by side (summary.h,
// docs/runs.md "A/B"), for the CLI and the page's A/B table alike.
#include <algorithm>
#include <cmath>
#include <limits>

#include "latscope/percentiles.h"
#include "latscope/summary.h"
#include "latscope/uncertainty.h"

namespace latscope {
namespace {

const double kBlank = std::numeric_limits<double>::quiet_NaN();

// Adds a histogram to a direction; false (nothing added) when its layout
// differs from what the direction holds.
bool add_counts(RunDir* d, const LayoutPtr& layout, const std::vector<double>& counts) {
  if (!d->layout) {
    d->layout = layout;
    d->counts.assign(layout->size(), 0.0);
  }
  if (d->layout->id != layout->id) return false;
  for (size_t b = 0; b < counts.size() && b < d->counts.size(); ++b) d->counts[b] += counts[b];
  return true;
}

// The bin holding a value of the layout (fio's method reports a bin's
// representative value, which lies in its bin).
size_t bin_of(const BinLayout& L, double v) {
  const auto it = std::upper_bound(L.lo.begin(), L.lo.end(), v);
  return it == L.lo.begin() ? 0 : static_cast<size_t>(it - L.lo.begin()) - 1;
}

}  // namespace

void RunCompare::add_json(RunSide* s, const Source& src) {
  for (const FioFigures& f : src.fio) {
    if (f.aggregate) continue;  // client mode's "All clients": the jobs again
    if (!f.has_bins || !src.layout) {
      s->json_without_bins = true;
      continue;
    }
    RunDir& acc = s->json[static_cast<int>(f.dir)];
    if (!add_counts(&acc, src.layout, fio_figures_counts(src, f))) {
      acc.layout_clash = true;
      continue;
    }
    const auto mn = static_cast<double>(f.min_ns), mx = static_cast<double>(f.max_ns);
    acc.min_ns = acc.jobs ? std::min(acc.min_ns, mn) : mn;
    acc.max_ns = acc.jobs ? std::max(acc.max_ns, mx) : mx;
    acc.mean_sum += f.mean_ns * static_cast<double>(f.n);
    acc.mean_ns = f.mean_ns;
    acc.n += f.n;
    ++acc.jobs;
  }
}

void RunCompare::add_source(size_t side, const Source& src) {
  RunSide& s = sides_[side];
  if (is_fio_json_source(src)) {
    add_json(&s, src);
    return;
  }
  for (const Series& x : src.series) {
    if (!x.layout || x.role != Role::kTimeSeries) continue;
    // Result files keep fixed-point counts (model.h, count_frac_bits).
    const double unit = std::ldexp(1.0, -static_cast<int>(x.count_frac_bits));
    std::vector<double> counts(x.layout->size(), 0.0);
    for (const Window& w : x.windows)
      x.for_each_bin(w, [&](uint32_t b, uint64_t c) { counts[b] += static_cast<double>(c) * unit; });
    RunDir& acc = s.logs[static_cast<int>(x.dir)];
    if (!add_counts(&acc, x.layout, counts)) acc.layout_clash = true;
  }
}

std::vector<RunCompare::Table> RunCompare::tables() const {
  std::vector<Table> out;
  if (sides_.size() != 2) return out;
  const size_t np = cols_.ps.size();
  for (int d = 0; d < kDirCount; ++d) {
    const RunDir* pick[2] = {nullptr, nullptr};
    Table t;
    t.dir = dir_name(static_cast<Dir>(d));
    for (int k = 0; k < 2; ++k) {
      const RunSide& s = sides_[static_cast<size_t>(k)];
      if (s.json[d].jobs > 0) {
        pick[k] = &s.json[d];
        t.from[k] = "json+";
      } else if (s.logs[d].layout) {
        pick[k] = &s.logs[d];
        t.from[k] = "logs";
      }
    }
    if (!pick[0] || !pick[1]) continue;
    Stats st[2];
    std::vector<PercentileValue> pv[2];
    bool ok = true;
    for (int k = 0; k < 2; ++k) {
      const RunDir& r = *pick[k];
      pv[k].resize(np);
      ok = ok && compute_stats(*r.layout, r.counts.data(), &st[k]) &&
           compute_percentiles(*r.layout, r.counts.data(), cols_.ps.data(), np, Method::kFio, pv[k].data()) &&
           compute_bands(*r.layout, r.counts.data(), cols_.ps.data(), np, pv[k].data());
    }
    if (!ok) continue;
    auto plain = [&](const std::string& stat, double a, bool ea, double b, bool eb) {
      Cell c{{a, b}, {ea, eb}, {kBlank, kBlank}, {kBlank, kBlank}, {kBlank, kBlank}, {kBlank, kBlank}, stat, ""};
      t.cells.push_back(c);
    };
    double v[4][2];
    bool exact[2];
    for (int k = 0; k < 2; ++k) {
      const RunDir& r = *pick[k];
      exact[k] = r.jobs > 0;  // fio's own N, min, mean, max
      v[0][k] = exact[k] ? static_cast<double>(r.n) : std::round(st[k].samples);
      v[1][k] = exact[k] ? r.min_ns : st[k].min_ns;
      v[2][k] = exact[k] ? (r.jobs == 1 ? r.mean_ns : r.mean_sum / static_cast<double>(r.n)) : st[k].mean_ns;
      v[3][k] = exact[k] ? r.max_ns : st[k].max_ns;
    }
    plain("samples", v[0][0], true, v[0][1], true);
    plain("min", v[1][0], exact[0], v[1][1], exact[1]);
    plain("mean", v[2][0], exact[0], v[2][1], exact[1]);
    plain("max", v[3][0], exact[0], v[3][1], exact[1]);
    t.cells[1].note = t.cells[3].note = "one I/O each";
    for (size_t i = 0; i < np; ++i) {
      Cell c;
      c.stat = cols_.labels[i];
      std::vector<std::string> notes;
      for (int k = 0; k < 2; ++k) {
        const PercentileValue& p = pv[k][i];
        const BinLayout& L = *pick[k]->layout;
        const size_t b = bin_of(L, p.value_ns);
        c.v[k] = p.value_ns;
        c.exact[k] = false;
        c.lo[k] = p.lo_ns;
        c.hi[k] = p.hi_ns;
        c.bin_lo[k] = L.lo[b];
        c.bin_hi[k] = L.hi[b];
        if (p.few_samples) notes.push_back(sides_[static_cast<size_t>(k)].name + ": too few I/Os above it");
        if (p.saturated) notes.push_back(sides_[static_cast<size_t>(k)].name + ": a lower bound (fio's last bin)");
      }
      // Same layouts put a value in the same bin or in disjoint ones; across
      // layouts (a coarse log) bins may overlap partly: either way the two
      // values could be one latency.
      // A band open above (too few I/Os above the percentile: max, p100,
      // often p99.9) overlaps anything higher, so it cannot say "noise": a
      // p100 that grew 264% read "within sampling noise".
      const bool open = std::isinf(c.hi[0]) || std::isinf(c.hi[1]);
      if (std::max(c.bin_lo[0], c.bin_lo[1]) < std::min(c.bin_hi[0], c.bin_hi[1]))
        notes.insert(notes.begin(), "within bin width");
      else if (open)
        notes.insert(notes.begin(), "sampling noise not judged (a band open above: too few I/Os above it)");
      else if (std::max(c.lo[0], c.lo[1]) <= std::min(c.hi[0], c.hi[1]))
        notes.insert(notes.begin(), "within sampling noise (95% bands overlap)");
      for (const std::string& n : notes) c.note += (c.note.empty() ? "" : "; ") + n;
      t.cells.push_back(c);
    }
    out.push_back(std::move(t));
  }
  return out;
}

namespace {

// Change from a to b in %, to 0.01 %; NaN when a is 0 or either is missing.
double change_pct(double a, double b) {
  if (!(std::isfinite(a) && std::isfinite(b)) || a == 0) return kBlank;
  return std::round((b - a) / a * 1e4) / 100;
}

}  // namespace

std::string RunCompare::csv() const {
  const std::string& a = sides_[0].name;
  const std::string& b = sides_[1].name;
  std::string out = "dir,stat," + summary_csv_text(a) + "," + summary_csv_text(b) + ",change_pct," +
                    summary_csv_text(a + "_lo") + "," + summary_csv_text(a + "_hi") + "," +
                    summary_csv_text(b + "_lo") + "," + summary_csv_text(b + "_hi") + ",note\n";
  for (const Table& t : tables())
    for (const Cell& c : t.cells) {
      const bool count = c.stat == "samples";
      auto val = [&](double v, bool exact) { return summary_number(count ? v : ns_to_unit(v, cols_.unit), exact); };
      out += t.dir + "," + summary_csv_text(c.stat) + "," + val(c.v[0], c.exact[0]) + "," + val(c.v[1], c.exact[1]) +
             "," + summary_number(change_pct(c.v[0], c.v[1]), false);
      for (int k = 0; k < 2; ++k) out += "," + val(c.lo[k], false) + "," + val(c.hi[k], false);
      out += "," + summary_csv_text(c.note) + "\n";
    }
  return out;
}

std::string RunCompare::json() const {
  auto num = [](const std::string& s) { return s.empty() ? std::string("null") : s; };
  std::string out = "{\"unit\":\"" + std::string(unit_name(cols_.unit)) + "\",\"method\":\"fio\",\"runs\":[";
  for (size_t k = 0; k < sides_.size(); ++k) {
    const RunSide& s = sides_[k];
    out += (k ? ",{" : "{") + std::string("\"name\":") + json_escape(s.name) + ",\"how\":" + json_escape(s.how) +
           ",\"files\":[";
    for (size_t i = 0; i < s.files.size(); ++i) out += (i ? "," : "") + json_escape(s.files[i]);
    out += "]}";
  }
  out += "],\"dirs\":[";
  bool first_t = true;
  for (const Table& t : tables()) {
    out += (first_t ? "{" : ",{") + std::string("\"dir\":\"") + t.dir + "\",\"from\":[\"" + t.from[0] + "\",\"" +
           t.from[1] + "\"],\"rows\":[";
    first_t = false;
    for (size_t i = 0; i < t.cells.size(); ++i) {
      const Cell& c = t.cells[i];
      const bool count = c.stat == "samples";
      auto val = [&](double v, bool exact) { return num(summary_number(count ? v : ns_to_unit(v, cols_.unit), exact)); };
      auto pair = [&](const double* v, const bool* exact) {
        return "[" + val(v[0], exact && exact[0]) + "," + val(v[1], exact && exact[1]) + "]";
      };
      out += (i ? ",{" : "{") + std::string("\"stat\":") + json_escape(c.stat) + ",\"values\":" + pair(c.v, c.exact) +
             ",\"change_pct\":" + num(summary_number(change_pct(c.v[0], c.v[1]), false)) +
             ",\"band_lo\":" + pair(c.lo, nullptr) + ",\"band_hi\":" + pair(c.hi, nullptr) +
             ",\"bin_lo\":" + pair(c.bin_lo, nullptr) + ",\"bin_hi\":" + pair(c.bin_hi, nullptr) +
             ",\"note\":" + json_escape(c.note) + "}";
    }
    out += "]}";
  }
  return out + "]}\n";
}

std::vector<std::string> RunCompare::notes() const {
  std::vector<std::string> out;
  if (sides_.size() != 2) return out;
  for (const RunSide& s : sides_) {
    out.push_back("run " + s.name + " (" + s.how + ")");
    if (s.json_without_bins) out.push_back(s.name + ": fio json without json+ bins left out (run fio with --output-format=json+)");
  }
  const std::vector<Table> t = tables();
  for (int d = 0; d < kDirCount; ++d) {
    const std::string dn = dir_name(static_cast<Dir>(d));
    bool has[2];
    for (int k = 0; k < 2; ++k) {
      const RunSide& s = sides_[static_cast<size_t>(k)];
      has[k] = s.json[d].jobs > 0 || s.logs[d].layout;
      if (s.json[d].layout_clash || (s.json[d].jobs == 0 && s.logs[d].layout_clash))
        out.push_back(s.name + " " + dn + ": series of another bin layout left out");
    }
    if (has[0] != has[1]) out.push_back(dn + ": only run " + sides_[has[0] ? 0 : 1].name + " has it; not compared");
  }
  for (const Table& x : t)
    for (int k = 0; k < 2; ++k)
      if (x.from[k] == "logs")
        out.push_back(sides_[static_cast<size_t>(k)].name + " " + x.dir +
                      ": from its logs (no json+ output): fio never logs a job's last, partial window");
  return out;
}

}  // namespace latscope
