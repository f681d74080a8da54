// Long-table parser (tsv_table.h). A row, as `latscope export --format tsv`
// or `clickhouse ... FORMAT TSVWithNames` writes it:
//   0	1000	read	clat	fio3	1033	12.5
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

struct Field {
  std::string_view text;
  uint32_t column;  // 1-based byte column
};

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

}  // namespace

bool is_header(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  const std::vector<Field> fields = split_tabs(line);
  for (const char* name : {"t_ms", "quantum_ms", "layout", "bin", "count"})
    if (std::none_of(fields.begin(), fields.end(), [&](const Field& f) { return f.text == name; })) return false;
  return true;
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
    else label_cols_.emplace_back(col, name);
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
  const Field& bf = f[static_cast<size_t>(bin_col_)];
  const std::string bin_text(bf.text);
  char* end = nullptr;
  const unsigned long long bin = bin_text.empty() || bin_text[0] == '-' ? ~0ull : std::strtoull(bin_text.c_str(), &end, 10);
  if (bin_text.empty() || end != bin_text.c_str() + bin_text.size() || bin >= li->second->size()) {
    bad(bf.column, "bin '" + bin_text.substr(0, 32) + "' is not a bin of layout " + id + " (0.." +
                       std::to_string(li->second->size() - 1) + "): row skipped");
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
  Labels labels;
  for (const auto& lc : label_cols_) labels.set(lc.second, unescape(f[static_cast<size_t>(lc.first)].text));
  const std::string key = labels_text(labels) + '\n' + id;
  auto ai = index_.find(key);
  if (ai == index_.end()) {
    ai = index_.emplace(key, acc_.size()).first;
    acc_.push_back({labels, li->second, {}, {}});
  }
  if (extreme) {  // its count says nothing (0 as exported; a GROUP BY sums it)
    acc_[ai->second].extremes[static_cast<int64_t>(j)].add(static_cast<uint32_t>(bin));
    count_row(t);
    return;
  }
  uint64_t& u = acc_[ai->second].cells[static_cast<int64_t>(j)][static_cast<uint32_t>(bin)];
  if (__builtin_add_overflow(u, units, &u)) {
    bad(cf.column, "the bin's sum overflows 64-bit fixed point: row skipped");
    return;
  }
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
      if (!c.bins.empty() && extreme_col_ < 0) {  // as a version 1 result: every bin
        c.extremes.add(c.bins.front());
        c.extremes.add(c.bins.back());
      } else if (!c.bins.empty()) {
        const auto x = a.extremes.find(qc.first);
        if (x != a.extremes.end()) c.extremes = x->second;
      }
      if (!c.bins.empty()) s.cells.push_back(std::move(c));
    }
    if (s.cells.empty()) continue;
    // A table carries no coverage: the span is the quanta it has rows for.
    s.span_start_ms = s.full_start_ms = static_cast<double>(s.cells.front().quantum) * quantum_ms_;
    s.span_end_ms = s.full_end_ms = static_cast<double>(s.cells.back().quantum + 1) * quantum_ms_;
    r.series.push_back(std::move(s));
  }
  if (r.series.empty()) return Status::Error(ErrorCode::kUnusableFile, "the table's counts are all zero");
  r.normalize();
  *out = std::move(r);
  return Status::Ok();
}

}  // namespace latscope::tsv
