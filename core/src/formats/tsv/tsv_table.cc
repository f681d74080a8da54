// Long- and compact-table parser (tsv_table.h). A long row, as `latscope
// export --format tsv` or `clickhouse ... FORMAT TSVWithNames` writes it:
//   0	1000	read	clat	fio3	0	1033	12.5
// a compact row (`latscope export --format compact`, or ClickHouse's
// sumMap answer):
//   0	1000	read	clat	fio3	[1033,1040]	[3355443200,268435456]	[1033]	[1]
#include "formats/tsv/tsv_table.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "formats/hdr/hdr_layout.h"
#include "latscope/export.h"
#include "latscope/layout_budget.h"

namespace latscope::tsv {
namespace {

// Lines longer than this are no table row (a row is well under 1 KiB).
constexpr size_t kMaxLine = size_t{1} << 20;
// Times from here on are epoch ms (as for .hlog timestamps, docs/formats-hdr.md).
constexpr double kYearMs = 365.0 * 24 * 3600 * 1000;

using Field = TableParser::Field;

std::vector<Field> split_tabs(std::string_view l) {
  std::vector<Field> f;
  size_t start = 0;
  for (;;) {
    const size_t tab = l.find('\t', start);
    f.push_back({l.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start),
                 static_cast<uint32_t>(start + 1)});
    if (tab == std::string_view::npos) return f;
    start = tab + 1;
  }
}

// ClickHouse TSV unescaping: \t \n \r \\ \0 \b \f \v \' \" and "\N"
// (NULL: an absent label); any other "\c" is c.
std::string unescape(std::string_view s) {
  if (s == "\\N") return std::string();
  std::string o;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      o += s[i];
      continue;
    }
    const char c = s[++i];
    switch (c) {
      case 't': o += '\t'; break;
      case 'n': o += '\n'; break;
      case 'r': o += '\r'; break;
      case '0': o += '\0'; break;
      case 'b': o += '\b'; break;
      case 'f': o += '\f'; break;
      case 'v': o += '\v'; break;
      default: o += c;
    }
  }
  return o;
}

bool parse_number(std::string_view s, double* v) {
  if (s.empty() || s.size() > 64) return false;
  const std::string t(s);
  char* end = nullptr;
  *v = std::strtod(t.c_str(), &end);
  return end == t.c_str() + t.size() && std::isfinite(*v);
}

// The layout a layout id names: fio's ("fio3", "fio2/c1") or an
// HdrHistogram configuration's ("hdr:d3:l1:u1e0:n2048"); nullptr otherwise,
// with *why when the id is HdrHistogram's but out of range. An HdrHistogram
// layout of more than `room` bins is not made (*over set): the table's
// layouts stay within kMaxLayoutBins (docs/input-robustness.md, "Layouts").
LayoutPtr layout_for_id(const std::string& id, size_t room, std::string* why, bool* over) {
  for (int version : {3, 2}) {
    const std::string base = version == 3 ? "fio3" : "fio2";
    if (id.compare(0, 4, base) != 0) continue;
    int coarseness = 0;
    if (id.size() == 7 && id.compare(4, 2, "/c") == 0 && id[6] >= '1' && id[6] <= '6') coarseness = id[6] - '0';
    else if (id.size() != 4) return nullptr;
    LayoutPtr l = fio_layout(version, coarseness);
    return l && l->id == id ? l : nullptr;
  }
  hdr::Config c;
  double unit = 0;
  size_t n = 0;
  if (!hdr::parse_layout_id(id, &c, &unit, &n, why)) return nullptr;
  if (n > room) {
    *over = true;
    return nullptr;
  }
  return hdr::make_layout(c, unit, n);
}

// "[1,2,3]" (ClickHouse's text of an Array of unsigned integers) into *out,
// every element at most max; false for anything else.
bool parse_uint_array(std::string_view s, uint64_t max, std::vector<uint64_t>* out) {
  out->clear();
  if (s.size() < 2 || s.front() != '[' || s.back() != ']') return false;
  s = s.substr(1, s.size() - 2);
  if (s.empty()) return true;
  for (;;) {
    const size_t comma = s.find(',');
    const std::string_view e = s.substr(0, comma);
    if (e.empty() || e.size() > 20) return false;
    uint64_t v = 0;
    for (char c : e) {
      if (c < '0' || c > '9' || __builtin_mul_overflow(v, uint64_t{10}, &v) ||
          __builtin_add_overflow(v, static_cast<uint64_t>(c - '0'), &v))
        return false;
    }
    if (v > max) return false;
    out->push_back(v);
    if (comma == std::string_view::npos) return true;
    s = s.substr(comma + 1);
  }
}

}  // namespace

bool is_header(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  const std::vector<Field> fields = split_tabs(line);
  const auto has = [&](const char* name) {
    return std::any_of(fields.begin(), fields.end(), [&](const Field& f) { return f.text == name; });
  };
  return has("t_ms") && has("quantum_ms") && has("layout") &&
         ((has("bin") && has("count")) || (has("binsMap.bin") && has("binsMap.units")));
}

void TableParser::append(const char* data, size_t n) {
  size_t i = 0;
  while (i < n) {
    const char* nl = static_cast<const char*>(std::memchr(data + i, '\n', n - i));
    const size_t end = nl ? static_cast<size_t>(nl - data) : n;
    if (!overlong_) {
      if (partial_.size() + (end - i) > kMaxLine) {
        overlong_ = true;
        partial_.clear();
      } else {
        partial_.append(data + i, end - i);
      }
    }
    if (!nl) return;
    ++line_no_;
    if (overlong_) {
      bad(0, "line over 1 MiB: skipped");
      overlong_ = false;
    } else {
      line(partial_);
    }
    partial_.clear();
    i = end + 1;
  }
}

void TableParser::bad(uint32_t column, const std::string& what) {
  diag_.add(Issue::kTsvMalformedRow, line_no_, column, what);
}

void TableParser::fail(uint32_t column, const std::string& what) {
  if (status_.ok())
    status_ = Status::Error(ErrorCode::kUnusableFile,
                            "line " + std::to_string(line_no_) + ":" + std::to_string(column) + ": " + what);
}

void TableParser::line(std::string_view l) {
  if (!status_.ok()) return;
  if (!l.empty() && l.back() == '\r') {
    l.remove_suffix(1);
    diag_.add(Issue::kCarriageReturn, line_no_, 0, "");
  }
  if (l.empty()) {
    diag_.add(Issue::kEmptyLine, line_no_, 0, "");
    return;
  }
  if (!have_header_) {
    header(l);
  } else if (is_header(l)) {
    // A concatenated table's header: read on when its columns are the same.
    if (l != header_text_) fail(1, "a second header with other columns than line 1's");
  } else {
    row(l);
  }
}

void TableParser::header(std::string_view l) {
  if (!is_header(l)) {
    fail(1, "not a long-table header (t_ms, quantum_ms, label columns, layout, bin, count)");
    return;
  }
  const std::vector<Field> f = split_tabs(l);
  ncols_ = f.size();
  std::map<std::string, int> seen;
  for (size_t i = 0; i < f.size(); ++i) {
    const std::string name = unescape(f[i].text);
    const int col = static_cast<int>(i);
    if (name.empty() || !seen.emplace(name, col).second) {
      fail(f[i].column, name.empty() ? "empty column name" : "column '" + name + "' twice");
      return;
    }
    if (name == "t_ms") t_col_ = col;
    else if (name == "quantum_ms") q_col_ = col;
    else if (name == "layout") layout_col_ = col;
    else if (name == "bin") bin_col_ = col;
    else if (name == "count") count_col_ = col;
    else if (name == "extreme") extreme_col_ = col;
    else if (name == "binsMap.bin") bins_col_ = col;
    else if (name == "binsMap.units") units_col_ = col;
    else if (name == "extremesMap.bin") xbins_col_ = col;
    else if (name == "extremesMap.n") continue;  // 1 per extreme bin, summed: says nothing
    else if (name == "span_start_ms") cov_cols_[0] = col;
    else if (name == "span_end_ms") cov_cols_[1] = col;
    else if (name == "full_start_ms") cov_cols_[2] = col;
    else if (name == "full_end_ms") cov_cols_[3] = col;
    else label_cols_.emplace_back(col, name);
  }
  const int ncov = static_cast<int>(std::count_if(std::begin(cov_cols_), std::end(cov_cols_), [](int c) { return c >= 0; }));
  if (ncov != 0 && ncov != 4) {
    fail(1, "the header names " + std::to_string(ncov) +
                " of the coverage columns span_start_ms, span_end_ms, full_start_ms, full_end_ms: all four or none");
    return;
  }
  const bool compact = bins_col_ >= 0 && units_col_ >= 0;
  if (compact == (bin_col_ >= 0 && count_col_ >= 0) || (compact && extreme_col_ >= 0)) {
    fail(1, "the header names both the long table's columns (bin, count, extreme) and the compact table's "
            "(binsMap.bin, binsMap.units)");
    return;
  }
  header_text_ = std::string(l);
  have_header_ = true;
}

void TableParser::row(std::string_view l) {
  const std::vector<Field> f = split_tabs(l);
  if (f.size() != ncols_) {
    bad(0, std::to_string(f.size()) + " fields, the header has " + std::to_string(ncols_) + ": row skipped");
    return;
  }
  double q = 0, t = 0;
  const Field& qf = f[static_cast<size_t>(q_col_)];
  if (!parse_number(qf.text, &q) || !(q > 0)) {
    bad(qf.column, "quantum_ms '" + std::string(qf.text.substr(0, 32)) + "' is not a positive number: row skipped");
    return;
  }
  if (quantum_ms_ == 0) {
    quantum_ms_ = q;
    quantum_line_ = line_no_;
  } else if (q != quantum_ms_) {
    fail(qf.column, "quantum_ms " + std::string(qf.text) + " differs from line " + std::to_string(quantum_line_) +
                        "'s; a table holds one quantum (export each quantum to its own file)");
    return;
  }
  const Field& tf = f[static_cast<size_t>(t_col_)];
  const double j = parse_number(tf.text, &t) ? std::round(t / q) : NAN;
  if (!(std::fabs(j) < 9e15) || std::fabs(j * q - t) > 1e-6 * std::max(1.0, std::fabs(t))) {
    bad(tf.column, "t_ms '" + std::string(tf.text.substr(0, 32)) + "' is not a multiple of quantum_ms: row skipped");
    return;
  }
  const Field& lf = f[static_cast<size_t>(layout_col_)];
  const std::string id = unescape(lf.text);
  auto li = layouts_.find(id);
  if (li == layouts_.end()) {
    std::string why;
    bool over = false;
    LayoutPtr made = layout_for_id(id, kMaxLayoutBins - layout_bins_, &why, &over);
    if (over) {
      diag_.add(Issue::kLayoutBudget, line_no_, lf.column,
                "layout " + id.substr(0, 64) + " with the table's other layouts (" + with_commas(layout_bins_) +
                    " bins) passes the limit of " + with_commas(kMaxLayoutBins) +
                    " bins (docs/input-robustness.md, \"Layouts\"): row skipped; export fewer layouts per table");
      return;
    }
    if (made && counts_against_budget(*made)) layout_bins_ += made->size();
    li = layouts_.emplace(id, std::move(made)).first;
    if (!li->second && !why.empty()) {
      fail(lf.column, "layout id '" + id.substr(0, 64) + "': " + why);
      return;
    }
  }
  if (!li->second) {
    fail(lf.column, "unknown layout id '" + id.substr(0, 64) + "' (fio3, fio3/cN, fio2, fio2/cN or hdr:dD:lL:uU:nN)");
    return;
  }
  double cov[4] = {0, 0, 0, 0};
  if (cov_cols_[0] >= 0 && !coverage(f, cov)) return;
  Acc& acc = acc_for(f, id, li->second);
  const uint64_t rows_before = rows_;
  if (bins_col_ >= 0) compact_row(f, static_cast<int64_t>(j), t, &acc);
  else long_row(f, static_cast<int64_t>(j), t, &acc);
  if (cov_cols_[0] < 0 || rows_ == rows_before) return;  // no coverage, or the row was skipped
  if (!acc.covered) {
    acc.covered = true;
    acc.span_start = cov[0], acc.span_end = cov[1], acc.full_start = cov[2], acc.full_end = cov[3];
  } else {  // merge()'s rule (docs/result-format.md): span the union, full the intersection
    acc.span_start = std::min(acc.span_start, cov[0]);
    acc.span_end = std::max(acc.span_end, cov[1]);
    acc.full_start = std::max(acc.full_start, cov[2]);
    acc.full_end = std::min(acc.full_end, cov[3]);
  }
}

// The row's four coverage columns (ms); false (the row skipped, named) when
// one is no number or a span ends before it starts.
bool TableParser::coverage(const std::vector<Field>& f, double cov[4]) {
  for (int k = 0; k < 4; ++k) {
    const Field& c = f[static_cast<size_t>(cov_cols_[k])];
    if (!parse_number(c.text, &cov[k])) {
      bad(c.column, "coverage '" + std::string(c.text.substr(0, 32)) + "' is not a number (ms): row skipped");
      return false;
    }
  }
  if (cov[1] < cov[0]) {
    bad(f[static_cast<size_t>(cov_cols_[1])].column, "span_end_ms is before span_start_ms: row skipped");
    return false;
  }
  return true;
}

TableParser::Acc& TableParser::acc_for(const std::vector<Field>& f, const std::string& layout_id,
                                       const LayoutPtr& layout) {
  Labels labels;
  for (const auto& lc : label_cols_) labels.set(lc.second, unescape(f[static_cast<size_t>(lc.first)].text));
  const std::string key = labels_text(labels) + '\n' + layout_id;
  auto ai = index_.find(key);
  if (ai == index_.end()) {
    ai = index_.emplace(key, acc_.size()).first;
    Acc a;
    a.labels = labels;
    a.layout = layout;
    acc_.push_back(std::move(a));
  }
  return acc_[ai->second];
}

void TableParser::long_row(const std::vector<Field>& f, int64_t j, double t, Acc* acc) {
  const Field& bf = f[static_cast<size_t>(bin_col_)];
  const std::string bin_text(bf.text);
  char* end = nullptr;
  const unsigned long long bin = bin_text.empty() || bin_text[0] == '-' ? ~0ull : std::strtoull(bin_text.c_str(), &end, 10);
  if (bin_text.empty() || end != bin_text.c_str() + bin_text.size() || bin >= acc->layout->size()) {
    bad(bf.column, "bin '" + bin_text.substr(0, 32) + "' is not a bin of layout " + acc->layout->id + " (0.." +
                       std::to_string(acc->layout->size() - 1) + "): row skipped");
    return;
  }
  const Field& cf = f[static_cast<size_t>(count_col_)];
  uint64_t units = 0;
  if (!parse_fixed_count(cf.text, &units)) {
    bad(cf.column, "count '" + std::string(cf.text.substr(0, 32)) + "' is not a non-negative decimal below 2^36: row skipped");
    return;
  }
  bool extreme = false;  // a row naming a bin the cell's extremes may come from
  if (extreme_col_ >= 0) {
    const Field& xf = f[static_cast<size_t>(extreme_col_)];
    if (xf.text != "0" && xf.text != "1") {
      bad(xf.column, "extreme '" + std::string(xf.text.substr(0, 32)) + "' is neither 0 nor 1: row skipped");
      return;
    }
    extreme = xf.text == "1";
  }
  if (extreme) {  // its count says nothing (0 as exported; a GROUP BY sums it)
    acc->extremes[j].add(static_cast<uint32_t>(bin));
    count_row(t);
    return;
  }
  uint64_t& u = acc->cells[j][static_cast<uint32_t>(bin)];
  if (__builtin_add_overflow(u, units, &u)) {
    bad(cf.column, "the bin's sum overflows 64-bit fixed point: row skipped");
    return;
  }
  count_row(t);
}

// A compact row: the cell's bins and their integer units as two arrays of
// equal length, and the bins its extremes may come from (docs/export-formats.md,
// "The compact table"). Checked whole before anything is added, so a bad row
// adds nothing.
void TableParser::compact_row(const std::vector<Field>& f, int64_t j, double t, Acc* acc) {
  const size_t nbins = acc->layout->size();
  const Field& bf = f[static_cast<size_t>(bins_col_)];
  const Field& uf = f[static_cast<size_t>(units_col_)];
  std::vector<uint64_t> bins, units, xbins;
  if (!parse_uint_array(bf.text, nbins - 1, &bins)) {
    bad(bf.column, "binsMap.bin '" + std::string(bf.text.substr(0, 32)) + "' is not an array of bins of layout " +
                       acc->layout->id + " (0.." + std::to_string(nbins - 1) + "): row skipped");
    return;
  }
  if (!parse_uint_array(uf.text, UINT64_MAX, &units) || units.size() != bins.size()) {
    bad(uf.column, "binsMap.units '" + std::string(uf.text.substr(0, 32)) + "' is not an array of " +
                       std::to_string(bins.size()) + " unsigned 64-bit integers: row skipped");
    return;
  }
  if (xbins_col_ >= 0) {
    const Field& xf = f[static_cast<size_t>(xbins_col_)];
    if (!parse_uint_array(xf.text, nbins - 1, &xbins)) {
      bad(xf.column, "extremesMap.bin '" + std::string(xf.text.substr(0, 32)) +
                         "' is not an array of bins of layout " + acc->layout->id + ": row skipped");
      return;
    }
  }
  std::map<uint32_t, uint64_t>& cell = acc->cells[j];
  for (size_t k = 0; k < bins.size(); ++k) {
    const auto it = cell.find(static_cast<uint32_t>(bins[k]));
    uint64_t sum = 0;
    if (it != cell.end() && __builtin_add_overflow(it->second, units[k], &sum)) {
      bad(uf.column, "bin " + std::to_string(bins[k]) + "'s sum overflows 64-bit fixed point: row skipped");
      return;
    }
  }
  for (size_t k = 0; k < bins.size(); ++k) cell[static_cast<uint32_t>(bins[k])] += units[k];
  for (uint64_t x : xbins) acc->extremes[j].add(static_cast<uint32_t>(x));
  count_row(t);
}

void TableParser::count_row(double t) {
  if (rows_ == 0 || t < min_t_ms_) min_t_ms_ = t;
  ++rows_;
  clock_.see(t >= kYearMs ? 1 : 0, line_no_);
}

// One table, one clock, as for fio logs (docs/input-robustness.md, "Time
// bases"): the clock most rows use (a tie: the first row's) is the table's;
// the other clock's rows are left out and counted as kTimeBaseChange. One
// epoch row among relative ones used to stretch the table over decades.
void TableParser::keep_one_time_base() {
  const int keep = clock_.kept();
  if (keep < 0) return;
  const int drop = 1 - keep;
  const char* kClock[2] = {"relative ms", "epoch ms"};
  const uint64_t n = clock_.name_dropped(&diag_, "row(s)", "rows", "t_ms", kClock);
  if (n == 0) return;
  rows_ -= n;
  const auto dropped = [this, drop](int64_t j) { return (static_cast<double>(j) * quantum_ms_ >= kYearMs) == (drop == 1); };
  double lo = HUGE_VAL;
  for (Acc& a : acc_) {
    for (auto it = a.cells.begin(); it != a.cells.end();) it = dropped(it->first) ? a.cells.erase(it) : std::next(it);
    for (auto it = a.extremes.begin(); it != a.extremes.end();)
      it = dropped(it->first) ? a.extremes.erase(it) : std::next(it);
    if (!a.cells.empty()) lo = std::min(lo, static_cast<double>(a.cells.begin()->first) * quantum_ms_);
  }
  if (lo < HUGE_VAL) min_t_ms_ = lo;
}

Status TableParser::finish(Result* out) {
  if (!partial_.empty() || overlong_) {
    ++line_no_;
    if (overlong_) bad(0, "line over 1 MiB: skipped");
    else line(partial_);
    partial_.clear();
    overlong_ = false;
  }
  if (!status_.ok()) return status_;
  if (!have_header_) return Status::Error(ErrorCode::kUnusableFile, "empty table: no header row");
  keep_one_time_base();
  if (rows_ == 0) return Status::Error(ErrorCode::kUnusableFile, "the table has no readable row");
  Result r;
  r.quantum_ms = quantum_ms_;
  r.absolute_time = min_t_ms_ >= kYearMs;
  for (Acc& a : acc_) {
    ResultSeries s;
    s.labels = a.labels;
    s.layout = a.layout;
    for (const auto& qc : a.cells) {
      ResultCell c;
      c.quantum = qc.first;
      for (const auto& bc : qc.second)
        if (bc.second) {
          c.bins.push_back(bc.first);
          c.counts.push_back(bc.second);
        }
      // A table without extreme rows (no `extreme` nor `extremesMap.bin`
      // column) reads as a version 1 result: every bin.
      if (!c.bins.empty() && extreme_col_ < 0 && xbins_col_ < 0) {
        c.extremes.add(c.bins.front());
        c.extremes.add(c.bins.back());
      } else if (!c.bins.empty()) {
        const auto x = a.extremes.find(qc.first);
        if (x != a.extremes.end()) c.extremes = x->second;
      }
      if (!c.bins.empty()) s.cells.push_back(std::move(c));
    }
    if (s.cells.empty()) continue;
    if (a.covered) {  // the coverage columns (docs/export-formats.md, "The compact table")
      s.span_start_ms = a.span_start, s.span_end_ms = a.span_end;
      s.full_start_ms = a.full_start, s.full_end_ms = a.full_end;
    } else {  // a table without them carries no coverage: the span is the quanta it has rows for
      s.span_start_ms = s.full_start_ms = static_cast<double>(s.cells.front().quantum) * quantum_ms_;
      s.span_end_ms = s.full_end_ms = static_cast<double>(s.cells.back().quantum + 1) * quantum_ms_;
    }
    r.series.push_back(std::move(s));
  }
  if (r.series.empty()) return Status::Error(ErrorCode::kUnusableFile, "the table's counts are all zero");
  r.normalize();
  *out = std::move(r);
  return Status::Ok();
}

}  // namespace latscope::tsv
