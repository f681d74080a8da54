// Text renderings of engine results, shared by the CLI and the WebAssembly
// build so the page's CSV export is byte-identical to `latscope pctiles`.
//
// pctiles CSV header: time_ms,group,samples,min,mean,p<P>...,max,flags
//   one p<P> column per requested percentile written as given (p50, p99.9);
//   values in the chosen unit; empty quanta leave value fields blank.
// flags: ';'-separated tokens: empty | few:p99.9|p99.99 | sat | partial | avg | finer | short
// bounds: after each p<P> its 95% sampling band p<P>_lo,p<P>_hi
//   (docs/uncertainty.md; _hi blank when nothing bounds it from above).
// Adaptive quanta (QueryResult::adaptive): width_ms follows time_ms.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "latscope/engine.h"
#include "latscope/text.h"  // format_number, json_escape

namespace latscope {

enum class Unit { kNs, kUs, kMs };
bool parse_unit(const std::string& s, Unit* out);
const char* unit_name(Unit u);
// Inline: the page's columns convert every value of every row (72,000 rows
// of 5 percentiles, 4 values each, in a query per host).
inline double ns_to_unit(double ns, Unit u) {
  switch (u) {
    case Unit::kNs: return ns;
    case Unit::kUs: return ns / 1e3;
    case Unit::kMs: return ns / 1e6;
  }
  return ns;
}

// A value as the page's columns and matrix carry it: in `unit`, NaN where
// pctiles_json writes null (not finite: an unbounded band's hi).
inline double unit_or_nan(double ns, Unit u) {
  return std::isfinite(ns) ? ns_to_unit(ns, u) : std::numeric_limits<double>::quiet_NaN();
}

// Row's percentile j, or null when the row has none (an empty quantum,
// window averages: fio logs written with log_avg_msec).
inline const PercentileValue* row_percentile(const Row& row, size_t j) {
  const bool none = (row.flags & kFlagEmpty) || (row.flags & kFlagWindowValues) || j >= row.p.size();
  return none ? nullptr : &row.p[j];
}

// How a percentile is written in a column name: as the user gave it
// ("99.9" -> "p99.9", "100" -> "p100"). labels parallel QueryOptions::percentiles.
std::string percentile_label(const std::string& as_given);


std::string flags_text(const Row& row, const std::vector<std::string>& pct_labels);

std::string pctiles_csv(const QueryResult& r, const std::vector<std::string>& pct_labels, Unit unit,
                        bool bounds = false);

// pctiles_csv written as rows come (a RowSink for StreamingQuery::finish):
// the text is handed to `write` in pieces of whole lines, about 1 MiB each,
// so a table of millions of rows is never held. The header goes out with
// the first row, or at finish: nothing is written for a query that fails
// before its first row. r's groups are read as rows come.
class PctilesCsvWriter : public RowSink {
 public:
  using Write = std::function<void(const std::string&)>;
  PctilesCsvWriter(const QueryResult& r, std::vector<std::string> pct_labels, Unit unit, bool bounds, Write write);
  // The header as edit makes it from pctiles_csv's (the CLI's
  // --header-units), when the first row comes (r.adaptive is known then).
  void edit_header(std::function<std::string(const std::string&)> edit) { edit_ = std::move(edit); }
  // pctiles_csv's header line, newline included.
  std::string header() const;
  void add(const Row& row) override;
  // The sampling bands only for --bounds' columns: nothing else in the CSV
  // reads them, and they were 7% of a dense fio log's CPU time.
  bool wants_bands() const override { return bounds_; }
  // Writes the header if no row came, and what is left.
  void finish();

 private:
  void start();
  const QueryResult& r_;
  std::vector<std::string> labels_;
  Unit unit_;
  bool bounds_;
  Write write_;
  std::function<std::string(const std::string&)> edit_;
  std::string buf_;
  bool started_ = false;
  std::vector<std::string> group_fields_;  // csv_field of r's groups, made at the first row
};

// {"quantum_ms":1000,"absolute_time":false,"unit":"us","layout":"fio3",
//  "percentiles":["50","99.9"],"groups":["all"],
//  "rows":[{"t_ms":0,"group":"all","samples":3200,"min":..,"mean":..,"max":..,
//           "p":[..],"err":[..],"lo":[..],"hi":[..],"flags":"few:p99.9"}],
//   (null values when empty; "hi" null when unbounded; lo/hi: the 95%
//   sampling band, docs/uncertainty.md; adaptive quanta: "adaptive":true
//   at the top and "width_ms" in each row; QueryResult::bands false:
//   "bands":false at the top and no err, lo, hi in the rows)
//  "notes":[..],"issues":[{"name":..,"severity":..,"description":..,"count":n}],
//  "examples":[{"issue":..,"line":n,"column":n,"text":..}]}
std::string pctiles_json(const QueryResult& r, const std::vector<std::string>& pct_labels, Unit unit);

// The same rows as columns, for the page: its worker posts these typed arrays
// instead of JSON text (docs/page-speed.md "Speed with many groups": with
// hundreds of groups the JSON took longer to write, copy and parse than the
// query took to run). Values in `unit` exactly as pctiles_json would write
// them before rounding to text; NaN where pctiles_json writes null. p, err,
// lo, hi are rows x percentiles, row-major. width_ms only with adaptive
// quanta. flag[i] indexes flag_texts, whose entry 0 is "" (no flags).
struct PctilesColumns {
  std::vector<double> t_ms, width_ms, samples, min, mean, max, p, err, lo, hi;
  // Rows of QueryOptions::columns: per row, percentiles + 3 quantum starts
  // (Row::value_t_ms); empty for other rows.
  std::vector<double> value_t_ms;
  std::vector<uint32_t> group, flag;
  std::vector<std::string> flag_texts{""};
};
PctilesColumns pctiles_columns(const QueryResult& r, const std::vector<std::string>& pct_labels, Unit unit);

// The same columns built row by row, as Engine::query's sink hands rows
// over, so the rows are never all kept (latscope/engine.h).
class PctilesColumnsBuilder : public RowSink {
 public:
  // bands false: err, lo and hi stay empty and the query is told it need
  // not work the bands out (QueryOptions::bands).
  PctilesColumnsBuilder(std::vector<std::string> pct_labels, Unit unit, bool bands = true);
  void expect(size_t rows) override;
  void add(const Row& row) override;
  bool wants_bands() const override { return bands_; }
  // The columns so far (width_ms kept only when `adaptive`); starts afresh.
  PctilesColumns take(bool adaptive);
  // The rows so far, to copy out a chunk at a time (the page's worker,
  // wasm/js_columns.h), and dropping them while keeping the flag texts, so
  // flag indices stay those of the whole answer, and the vectors' capacity.
  const PctilesColumns& rows() const { return c_; }
  void clear_rows();

 private:
  uint32_t flag_of(const Row& row);  // the row's index into flag_texts

  std::vector<std::string> labels_;
  Unit unit_;
  bool bands_;
  PctilesColumns c_;
  std::unordered_map<std::string, uint32_t> flag_index_;
  // A row's flag bits and which of its percentiles had few samples, to the
  // index of their text: every row of a per-host query at 1 s is flagged,
  // and building its text to look it up was two thirds of the builder's
  // time per row (natively, per host at 1 s: 60 -> 20 ms).
  std::unordered_map<uint64_t, uint32_t> flag_key_;
};

// The rows' values as a group x time x percentile matrix, for the page's
// groups view (heat map, top N, small multiples), which shows nothing else:
// built here, the worker copies out two arrays instead of every column of
// PctilesColumns (a per-host query at 1 s: 12 MB instead of 63 MB).
// times: every row time, ascending; values
// [(group * times + t) * percentiles + p] in `unit` as PctilesColumns::p
// (NaN: no value, or no row); samples [group * times + t] as
// PctilesColumns::samples (0 without a row).
// marks [(group * times + t) * width + k]: take()'s row_marks (one byte per
// row and SLA verdict, SlaFieldJudge::marks) placed as values are (0 without a row).
struct ValueMatrix {
  std::vector<double> times, values, samples;
  std::vector<uint8_t> marks;
};
class ValueMatrixBuilder : public RowSink {
 public:
  ValueMatrixBuilder(size_t percentiles, Unit unit) : np_(percentiles), unit_(unit) {}
  void expect(size_t rows) override;
  void add(const Row& row) override;
  bool wants_bands() const override { return false; }
  // The matrix of `groups` groups (QueryResult::groups.size()); starts afresh.
  // row_marks: `width` bytes per row added, in the same order (nullptr: none).
  ValueMatrix take(size_t groups, const std::vector<uint8_t>* row_marks = nullptr, size_t width = 0);

 private:
  size_t np_;
  Unit unit_;
  std::vector<double> t_, p_, samples_;  // per row, as handed over
  std::vector<uint32_t> group_;
};

// pctiles_json without its rows ("rows":[]): what goes with the columns.
std::string pctiles_meta_json(const QueryResult& r, const std::vector<std::string>& pct_labels, Unit unit);

// One file's summary for file lists (CLI stderr, page's file table):
// {"name":..,"format":"fio-hist","layout":"fio3","prefix":..,"job":..,"host":..,
//  "absolute_time":false,"lines":n,"records":n,"bytes":n,
//  "status":{"ok":true,"message":""},
//  "series":[{"dir":"read","job":"1","segment":0,"windows":19,"samples":8000,
//             "repaired":true,"saturated":0,"start_ms":0,"end_ms":19002,
//             "interval_ms":1000}],   (median window length; 0 for per-I/O logs)
//  "issues":[...],"examples":[...]}
std::string source_json(const Source& s);

// Heat map: {"t0_ms":..,"quantum_ms":..,"absolute_time":..,"quanta":n,"rows":n,
//  "edges_ns":[..],"below":x,"above":x,"counts":[..]} (counts time-major)
std::string heatmap_json(const HeatmapResult& h);
// Heat map cells as CSV: time_ms,lat_lo,lat_hi,count (or bs_/offset_ in
// bytes), one line per non-empty cell. The CLI's `heatmap` and the page's
// export both write it (docs/page-views.md, "Exports"): header_units names
// the unit in the header (`--header-units`: lat_lo_us, bs_lo_bytes); only
// quanta overlapping [from_ms, to_ms) are written (the page's zoom).
struct HeatmapCsvOptions {
  bool header_units = false;
  double from_ms = -HUGE_VAL, to_ms = HUGE_VAL;
};
std::string heatmap_csv(const HeatmapResult& h, Unit unit, const HeatmapCsvOptions& o = {});
// The groups of one density cell (Engine::density_cell) for the page:
// {"unit": "us", "members": [{"group": "host=h07", "value": 812.5}, ...]},
// values in `unit` as the groups matrix carries them.
std::string density_cell_json(const std::vector<DensityMember>& members, Unit unit);

// A CSV field, quoted (RFC 4180) when it holds a comma, quote or line break.
std::string csv_field(const std::string& s);

// The length in bytes of a Unicode bidirectional control (U+061C, U+200E,
// U+200F, U+202A..U+202E, U+2066..U+2069) starting at s[i] in UTF-8, else 0.
// Such a character in a file name reorders the text after it in a Markdown
// verdict or an SVG label (a name could make "FAIL" read as "PASS"): the
// writers show it as \u202e instead (docs/security.md).
size_t bidi_control_len(const std::string& s, size_t i);
// "\u202e" for the bidirectional control of `len` bytes at s[i].
std::string bidi_control_text(const std::string& s, size_t i, size_t len);

}  // namespace latscope
