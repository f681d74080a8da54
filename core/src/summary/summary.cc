// `latscope summary`'s rows and their text (summary.h): fio's figures for
// json sources, every window of a log series summed otherwise.
#include "latscope/summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>

#include "latscope/percentiles.h"

namespace latscope {
namespace {

const double kBlank = std::numeric_limits<double>::quiet_NaN();

// Shortest decimal (up to 15 significant digits) that reads back as the
// same double: fio's exact json values (mean 138175.380375) survive, bin
// values stay short, and a unit conversion's last-bit noise (105376.331 ns /
// 1000 = 105.37633100000001) is not printed. Integral values print whole.
// Neither the CLI nor the page's WASM calls setlocale, so '.' is the point.
std::string exact_number(double v) {
  if (!std::isfinite(v)) return "";
  char buf[64];
  if (v == std::floor(v) && std::fabs(v) < 9007199254740992.0) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  for (int digits = 10; digits <= 15; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

// Percentiles and stats of one dense histogram by fio's method.
void fill_from_bins(const BinLayout& layout, const std::vector<double>& counts, const SummaryColumns& cols,
                    bool stats_from_bins, SummaryRow* row) {
  row->p.assign(cols.ps.size(), kBlank);
  Stats st;
  if (!compute_stats(layout, counts.data(), &st)) return;  // empty
  if (stats_from_bins) {
    row->min_ns = st.min_ns;
    row->mean_ns = st.mean_ns;
    row->max_ns = st.max_ns;
  }
  std::vector<PercentileValue> pv(cols.ps.size());
  if (compute_percentiles(layout, counts.data(), cols.ps.data(), cols.ps.size(), Method::kFio, pv.data())) {
    for (size_t i = 0; i < pv.size(); ++i) row->p[i] = pv[i].value_ns;
  }
}

// fio json output: one row per job entry and direction with I/Os; client
// mode's "All clients" entry as job "all".
void summarize_json(const Source& src, const SummaryColumns& cols, std::vector<SummaryRow>* rows) {
  for (const FioFigures& f : src.fio) {
    SummaryRow row;
    row.file = src.name;
    row.host = f.aggregate ? "" : f.host;
    // job 0 of no aggregate: fio reported a group of jobs (group_reporting; fio_json.h FioJsonJob::group).
    row.job = f.aggregate ? "all" : f.job == 0 ? "group" : std::to_string(f.job);
    row.dir = dir_name(f.dir);
    row.samples = f.n;
    if (f.has_bins && src.layout) {
      fill_from_bins(*src.layout, fio_figures_counts(src, f), cols, false, &row);
    } else {
      // Plain json: only fio's printed list is known.
      row.p.assign(cols.ps.size(), kBlank);
      for (size_t i = 0; i < cols.ps.size(); ++i)
        for (const auto& fp : f.percentiles)
          if (fp.first == cols.ps[i]) row.p[i] = static_cast<double>(fp.second);
    }
    row.exact = true;
    row.min_ns = static_cast<double>(f.min_ns);
    row.mean_ns = f.mean_ns;
    row.max_ns = static_cast<double>(f.max_ns);
    rows->push_back(std::move(row));
  }
}

// A wide layout (HdrHistogram's, tens of thousands of bins) gathered to the
// bins a series uses, in order: the statistics and percentiles only skip
// empty bins, so they are the same (docs/formats-hdr.md "Wide layouts"),
// and a log of thousands of tags no longer costs tags x layout bins. fio's
// p0 is bin 0's value (percentiles.h): not gathered when p0 is asked.
constexpr size_t kGatherBins = 4096;

// A fio log_avg_msec log holds one value per window, each a window's
// average (or maximum) latency, not an I/O: as `pctiles` shows them
// (docs/formats-fio-lat.md, "log_avg_msec logs"), samples = the windows,
// min/mean/max of their values, no percentile (a percentile of window
// averages is no latency percentile).
void summarize_window_values(const Source& src, const Series& s, const SummaryColumns& cols,
                             std::vector<SummaryRow>* rows) {
  SummaryRow row;
  row.file = src.name;
  row.host = src.id.host;
  row.job = s.job;
  row.dir = dir_name(s.dir);
  row.samples = s.io_ns.size();
  if (!s.io_ns.empty()) {
    const auto [lo, hi] = std::minmax_element(s.io_ns.begin(), s.io_ns.end());
    double sum = 0;
    for (uint64_t v : s.io_ns) sum += static_cast<double>(v);
    row.min_ns = static_cast<double>(*lo);
    row.max_ns = static_cast<double>(*hi);
    // log_window_value=both: each window's own maximum (model.h Series::window_max_ns).
    if (s.window_max_ns.size() == s.io_ns.size())
      row.max_ns = static_cast<double>(*std::max_element(s.window_max_ns.begin(), s.window_max_ns.end()));
    row.mean_ns = sum / static_cast<double>(s.io_ns.size());
  }
  row.p.assign(cols.ps.size(), std::numeric_limits<double>::quiet_NaN());
  rows->push_back(std::move(row));
}

void summarize_logs(const Source& src, const SummaryColumns& cols, std::vector<SummaryRow>* rows) {
  const bool p0 = std::any_of(cols.ps.begin(), cols.ps.end(), [](double p) { return p == 0; });
  for (const Series& s : src.series) {
    if (s.role == Role::kWindowValues) {
      summarize_window_values(src, s, cols, rows);
      continue;
    }
    if (!s.layout) continue;
    // Result files keep fixed-point counts (model.h, count_frac_bits).
    const double unit = std::ldexp(1.0, -static_cast<int>(s.count_frac_bits));
    double sum = 0;
    std::vector<double> counts;
    BinLayout gathered;
    const BinLayout* layout = s.layout.get();
    if (s.layout->size() >= kGatherBins && !p0) {
      std::map<uint32_t, double> used;
      for (const Window& w : s.windows)
        s.for_each_bin(w, [&](uint32_t b, uint64_t c) { used[b] += static_cast<double>(c) * unit; });
      gathered.kind = s.layout->kind;
      gathered.id = s.layout->id;
      for (const auto& [b, c] : used) {
        gathered.lo.push_back(s.layout->lo[b]);
        gathered.hi.push_back(s.layout->hi[b]);
        gathered.rep.push_back(s.layout->rep[b]);
        counts.push_back(c);
        sum += c;
      }
      gathered.last_saturates = s.layout->last_saturates && !used.empty() && used.rbegin()->first + 1 == s.layout->size();
      layout = &gathered;
    } else {
      counts.assign(s.layout->size(), 0.0);
      for (const Window& w : s.windows) {
        s.for_each_bin(w, [&](uint32_t b, uint64_t c) {
          counts[b] += static_cast<double>(c) * unit;
          sum += static_cast<double>(c) * unit;
        });
      }
    }
    SummaryRow row;
    row.file = src.name;
    row.host = src.id.host;
    row.job = s.job;
    row.dir = dir_name(s.dir);
    row.samples = static_cast<uint64_t>(std::llround(sum));
    fill_from_bins(*layout, counts, cols, true, &row);
    rows->push_back(std::move(row));
  }
}

std::string json_number(double v, bool exact) {
  std::string s = summary_number(v, exact);
  return s.empty() ? "null" : s;
}

}  // namespace

// Bin-derived values carry no more than 10 significant digits of meaning
// (report.h's format_number, as `pctiles` prints); fio's json values are
// printed exactly.
std::string summary_number(double v, bool exact) { return exact ? exact_number(v) : format_number(v); }

// A value starting with = + - @ (or a tab or carriage return) is a formula
// to Excel, LibreOffice and Google Sheets, so it gets a leading apostrophe
// (OWASP's rule); then RFC 4180 quoting (csv_field).
std::string summary_csv_text(const std::string& s) {
  if (!s.empty() && std::string("=+-@\t\r").find(s[0]) != std::string::npos) return csv_field("'" + s);
  return csv_field(s);
}

bool is_fio_json_source(const Source& src) { return src.format == FileFormat::kFioJson || !src.fio.empty(); }

std::vector<double> fio_figures_counts(const Source& src, const FioFigures& f) {
  std::vector<double> counts(src.layout ? src.layout->size() : 0, 0.0);
  for (uint32_t i : f.series) {
    const Series& s = src.series[i];
    for (const Window& w : s.windows)
      s.for_each_bin(w, [&](uint32_t b, uint64_t c) {
        if (b < counts.size()) counts[b] += static_cast<double>(c);
      });
  }
  for (size_t i = 0; i < f.bin_index.size(); ++i)
    if (f.bin_index[i] < counts.size()) counts[f.bin_index[i]] += static_cast<double>(f.bin_count[i]);
  return counts;
}

void summarize_source(const Source& src, const SummaryColumns& cols, std::vector<SummaryRow>* rows) {
  if (!src.status.ok()) return;
  if (is_fio_json_source(src)) summarize_json(src, cols, rows);
  else if (src.format != FileFormat::kIgnored) summarize_logs(src, cols, rows);
}

std::string summary_csv(const std::vector<SummaryRow>& rows, const SummaryColumns& cols) {
  std::string out = "file,host,job,dir,samples,min,mean,max";
  for (const std::string& l : cols.labels) out += "," + csv_field(l);
  out += "\n";
  for (const SummaryRow& r : rows) {
    out += summary_csv_text(r.file) + "," + summary_csv_text(r.host) + "," + summary_csv_text(r.job) + "," + r.dir +
           "," + std::to_string(r.samples);
    for (double v : {r.min_ns, r.mean_ns, r.max_ns}) out += "," + summary_number(ns_to_unit(v, cols.unit), r.exact);
    for (double v : r.p) out += "," + summary_number(ns_to_unit(v, cols.unit), r.exact);
    out += "\n";
  }
  return out;
}

// report.h's json_escape returns the quoted JSON string.
std::string summary_json(const std::vector<SummaryRow>& rows, const std::vector<SummaryFile>& files,
                         const SummaryColumns& cols) {
  std::string out = "{\"unit\":\"" + std::string(unit_name(cols.unit)) + "\",\"method\":\"fio\",\"percentiles\":[";
  for (size_t i = 0; i < cols.labels.size(); ++i) {
    // labels are "p" + the text as given; the list holds the text itself
    out += (i ? "," : "") + json_escape(cols.labels[i].substr(1));
  }
  out += "],\"rows\":[";
  for (size_t i = 0; i < rows.size(); ++i) {
    const SummaryRow& r = rows[i];
    out += (i ? ",{" : "{");
    out += "\"file\":" + json_escape(r.file) + ",\"host\":" + json_escape(r.host) + ",\"job\":" +
           json_escape(r.job) + ",\"dir\":\"" + r.dir + "\",\"samples\":" + std::to_string(r.samples);
    out += ",\"min\":" + json_number(ns_to_unit(r.min_ns, cols.unit), r.exact);
    out += ",\"mean\":" + json_number(ns_to_unit(r.mean_ns, cols.unit), r.exact);
    out += ",\"max\":" + json_number(ns_to_unit(r.max_ns, cols.unit), r.exact);
    out += ",\"p\":[";
    for (size_t k = 0; k < r.p.size(); ++k)
      out += (k ? "," : "") + json_number(ns_to_unit(r.p[k], cols.unit), r.exact);
    out += "]}";
  }
  out += "],\"files\":[";
  for (size_t i = 0; i < files.size(); ++i) {
    const SummaryFile& f = files[i];
    out += (i ? ",{" : "{");
    out += "\"name\":" + json_escape(f.name) + ",\"format\":" + json_escape(f.format) +
           ",\"ok\":" + (f.status.ok() ? "true" : "false") + ",\"message\":" + json_escape(f.status.message) +
           ",\"skipped_lines\":" + std::to_string(f.skipped) + "}";
  }
  out += "]}\n";
  return out;
}

}  // namespace latscope
