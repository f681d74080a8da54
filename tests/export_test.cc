// Exports (docs/export-formats.md): the .hlog writer and the long table.
//   * every fio 3 bin edge is an HdrHistogram bucket edge at 2 significant
//     digits (checked edge by edge, and shown not to hold at 1 digit or for
//     fio 2's microsecond edges in ns);
//   * .hlog payloads decode (our decoder) to the result's bins: exactly when
//     windows nest in the quanta, and with each interval's total kept to the
//     nearest I/O when they do not; latscope's .hlog reader gets the same
//     counts per quantum;
//   * the long table reads back to the same Result, bit for bit, in any row
//     order and with rows split; bad rows are named by line.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <random>
#include <sstream>

#include "fixture_util.h"
#include "formats/hdr/hdr_decode.h"
#include "formats/hdr/hdr_layout.h"
#include "formats/tsv/tsv_table.h"
#include "latscope/export.h"
#include "latscope/reader.h"
#include "latscope/report.h"
#include "latscope/stream.h"
#include "table_test_util.h"
#include "test_util.h"

namespace latscope {
namespace {

using fixtures::files_of;

using fixtures::reduce_files;

bool is_bucket_edge(const hdr::Config& c, double v) {
  if (v != std::floor(v) || v < 0) return false;
  const auto x = static_cast<int64_t>(v);
  return c.lowest_equivalent(c.index_of(x)) == x;
}

// How many of a layout's edges are not bucket edges of c.
int edges_off(const BinLayout& l, const hdr::Config& c) {
  int off = 0;
  for (size_t i = 0; i < l.size(); ++i) {
    off += !is_bucket_edge(c, l.lo[i]);
    if (!(l.last_saturates && i + 1 == l.size())) off += !is_bucket_edge(c, l.hi[i]);
  }
  return off;
}

hdr::Config config(int digits) {
  hdr::Config c;
  c.digits = digits;
  c.lowest = 1;
  return c;
}

TEST(ExportHlog, EveryFio3EdgeIsABucketEdgeAtTwoDigits) {
  for (int coarse = 0; coarse <= 6; ++coarse) {
    const LayoutPtr l = fio_layout(3, coarse);
    EXPECT_EQ(edges_off(*l, config(2)), 0) << l->id;
    EXPECT_EQ(edges_off(*l, config(3)), 0) << l->id;
  }
  // The check can fail: 1 digit (16 sub-buckets) is coarser than fio's 64
  // bins per power of two, and fio 2's edges are microseconds (x1000 ns).
  // The counts are the ones docs/export-formats.md quotes.
  EXPECT_EQ(edges_off(*fio_layout(3, 0), config(1)), 2720);
  EXPECT_EQ(edges_off(*fio_layout(2, 0), config(2)), 2382);
  EXPECT_EQ(edges_off(*fio_layout(2, 0), config(3)), 2080);
}

// Decoded payloads of an .hlog, per line: (tag, start s, histogram).
struct Interval {
  std::string tag;
  double start_s = 0;
  hdr::Histogram h;
};

std::vector<Interval> decode_lines(const std::string& log) {
  std::vector<Interval> out;
  std::istringstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line[0] == '"') continue;
    Interval iv;
    if (line.compare(0, 4, "Tag=") == 0) {
      iv.tag = line.substr(4, line.find(',') - 4);
      line = line.substr(line.find(',') + 1);
    }
    const std::vector<std::string> f = [&] {
      std::vector<std::string> v;
      std::stringstream ss(line);
      std::string x;
      while (std::getline(ss, x, ',')) v.push_back(x);
      return v;
    }();
    EXPECT_EQ(f.size(), 4u) << line;
    if (f.size() != 4) continue;
    iv.start_s = std::stod(f[0]);
    int enc = 0;
    std::string err;
    EXPECT_TRUE(hdr::decode_payload(f[3], size_t{64} << 20, &iv.h, &enc, &err)) << err;
    EXPECT_EQ(enc, 2);
    out.push_back(std::move(iv));
  }
  return out;
}

// fio bin -> count of a decoded interval (each bucket mapped to the bin of
// the layout holding it; -1 when none holds it whole).
std::map<int64_t, uint64_t> to_bins(const hdr::Histogram& h, const BinLayout& l) {
  std::map<int64_t, uint64_t> bins;
  for (size_t k = 0; k < h.index.size(); ++k) {
    const int64_t i = h.index[k];
    const double lo = static_cast<double>(h.config.lowest_equivalent(i));
    const double hi = lo + static_cast<double>(h.config.bucket_width(i));
    const auto it = std::upper_bound(l.lo.begin(), l.lo.end(), lo);
    const size_t above = static_cast<size_t>(it - l.lo.begin());  // bins with lo <= the bucket's lo
    int64_t b = static_cast<int64_t>(above) - 1;
    if (above == 0 || !(hi <= l.hi[above - 1] || (l.last_saturates && above == l.size()))) b = -1;
    bins[b] += h.count[k];
  }
  return bins;
}

TEST(ExportHlog, LosslessWhenWindowsNestInTheQuanta) {
  // 20 s quanta: every 1 s window of the 10 s run lies inside one quantum,
  // so every count is whole and must arrive bin for bin.
  const Result r = reduce_files(files_of("local", "_clat_hist"), 20000, {"dir"});
  ASSERT_EQ(r.series.size(), 2u);
  std::string log;
  HlogExportReport rep;
  ASSERT_TRUE(export_hlog(r, &deflate_zlib, &log, &rep).ok());
  EXPECT_EQ(rep.cells_rounded, 0u);
  EXPECT_EQ(rep.max_rounding, 0);
  EXPECT_EQ(rep.bins_inexact, 0u);
  const std::vector<Interval> ivs = decode_lines(log);
  size_t n = 0;
  for (const ResultSeries& s : r.series) {
    const std::string tag = hlog_tag(s.labels);
    for (const ResultCell& c : s.cells) {
      const auto it = std::find_if(ivs.begin(), ivs.end(), [&](const Interval& iv) {
        return iv.tag == tag && std::fabs(iv.start_s - c.quantum * 20.0) < 1e-9;
      });
      ASSERT_NE(it, ivs.end()) << tag << " " << c.quantum;
      EXPECT_EQ(it->h.config.digits, 2);
      std::map<int64_t, uint64_t> want;
      for (size_t k = 0; k < c.bins.size(); ++k) {
        ASSERT_EQ(c.counts[k] % (uint64_t{1} << kResultFracBits), 0u);
        want[c.bins[k]] = c.counts[k] >> kResultFracBits;
      }
      EXPECT_EQ(to_bins(it->h, *s.layout), want) << tag;
      ++n;
    }
  }
  EXPECT_EQ(n, ivs.size());
}

TEST(ExportHlog, FractionalCellsKeepTheirTotalsToTheNearestIo) {
  // 1 s quanta over windows that end at 1002, 2003, ... ms: fractions.
  const Result r = reduce_files(files_of("fio-s1", "_clat_hist"), 1000, {"kind"});
  ASSERT_EQ(r.series.size(), 1u);
  std::string log;
  HlogExportReport rep;
  ASSERT_TRUE(export_hlog(r, &deflate_zlib, &log, &rep).ok());
  EXPECT_GT(rep.cells_rounded, 0u);
  EXPECT_GT(rep.max_rounding, 0);
  EXPECT_LT(rep.max_rounding, 1);
  const std::vector<Interval> ivs = decode_lines(log);
  ASSERT_EQ(ivs.size(), r.series[0].cells.size());
  for (size_t i = 0; i < ivs.size(); ++i) {
    const ResultCell& c = r.series[0].cells[i];
    uint64_t units = 0;
    for (uint64_t u : c.counts) units += u;
    const double exact = units / kResultOne;
    EXPECT_EQ(ivs[i].tag, "");  // one label set: untagged
    EXPECT_EQ(static_cast<double>(ivs[i].h.total()), std::floor(exact + 0.5)) << "quantum " << c.quantum;
    // Each bin moves by less than one I/O.
    const std::map<int64_t, uint64_t> got = to_bins(ivs[i].h, *r.series[0].layout);
    EXPECT_EQ(got.count(-1), 0u);
    for (size_t k = 0; k < c.bins.size(); ++k) {
      const auto it = got.find(c.bins[k]);
      const double written = it == got.end() ? 0 : static_cast<double>(it->second);
      EXPECT_LT(std::fabs(written - c.counts[k] / kResultOne), 1.0);
    }
  }
}

// samples per quantum from pctiles over a file's text.
std::vector<double> samples_of(const std::string& name, const std::string& text, double q) {
  Engine e;
  const Source& s = testing::feed(&e, name, text);
  EXPECT_TRUE(s.status.ok()) << s.status.message;
  QueryOptions o;
  o.quantum_ms = q;
  QueryResult qr;
  EXPECT_TRUE(e.query(o, &qr).ok());
  std::vector<double> out;
  for (const Row& row : qr.rows) out.push_back(row.stats.samples);
  return out;
}

TEST(ExportHlog, LatscopeReadsItBackWithTheSameCountsPerQuantum) {
  const Result r = reduce_files(files_of("fio-s1", "_clat_hist"), 1000, {"kind"});
  std::string log;
  HlogExportReport rep;
  ASSERT_TRUE(export_hlog(r, &deflate_zlib, &log, &rep).ok());
  const std::vector<double> got = samples_of("x.hlog", log, 1000);
  ASSERT_EQ(got.size(), r.series[0].cells.size());
  for (size_t i = 0; i < got.size(); ++i) {
    uint64_t units = 0;
    for (uint64_t u : r.series[0].cells[i].counts) units += u;
    EXPECT_EQ(got[i], std::floor(units / kResultOne + 0.5)) << i;
  }
}

TEST(ExportHlog, HdrInputKeepsItsOwnConfiguration) {
  // A 3-digit HdrHistogram log (Java's writer) goes out in its own
  // configuration: bucket for bucket.
  const std::string f = std::string(LATSCOPE_FIXTURES) + "/../golden/hdr/y_java_d3.hlog";
  const Result r = reduce_files({f}, 1000, {"tag"});
  std::string log;
  HlogExportReport rep;
  ASSERT_TRUE(export_hlog(r, &deflate_zlib, &log, &rep).ok());
  EXPECT_EQ(rep.bins_inexact, 0u);
  for (const Interval& iv : decode_lines(log)) EXPECT_EQ(iv.h.config.digits, 3);
}

TEST(ExportHlog, TagsEscapeCommasWhitespaceAndPercent) {
  Labels l;
  l.set("host", "a b,c%d\te");
  l.set("dir", "read");
  EXPECT_EQ(hlog_tag(l), "dir=read;host=a%20b%2Cc%25d%09e");
}

TEST(ExportHlog, SeveralLabelSetsAreTagged) {
  const Result r = reduce_files(files_of("local", "_clat_hist"), 1000, {"dir", "kind"});
  std::string log;
  HlogExportReport rep;
  ASSERT_TRUE(export_hlog(r, &deflate_zlib, &log, &rep).ok());
  std::map<std::string, int> tags;
  for (const Interval& iv : decode_lines(log)) ++tags[iv.tag];
  EXPECT_EQ(tags.size(), 2u);
  EXPECT_EQ(tags["dir=read;kind=clat"], 10);
  EXPECT_EQ(tags["dir=write;kind=clat"], 10);
}

// ---- fixed-point counts as text ----

TEST(FixedCount, EveryValuePrintsExactlyAndReadsBack) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i) {
    const uint64_t u = rng() >> (i % 40);
    uint64_t back = 0;
    if ((u >> kResultFracBits) >= (uint64_t{1} << 36)) continue;
    ASSERT_TRUE(parse_fixed_count(format_fixed_count(u), &back)) << u;
    ASSERT_EQ(back, u) << format_fixed_count(u);
  }
  EXPECT_EQ(format_fixed_count(uint64_t{3} << 27), "1.5");
  EXPECT_EQ(format_fixed_count(1), "0.0000000037252902984619140625");  // 2^-28
  EXPECT_EQ(format_fixed_count(uint64_t{12} << kResultFracBits), "12");
}

TEST(FixedCount, DecimalsRoundToTheNearestUnit) {
  uint64_t u = 0;
  ASSERT_TRUE(parse_fixed_count("0.1", &u));
  EXPECT_EQ(u, static_cast<uint64_t>(std::llround(0.1 * kResultOne)));
  ASSERT_TRUE(parse_fixed_count("2", &u));
  EXPECT_EQ(u, uint64_t{2} << kResultFracBits);
  ASSERT_TRUE(parse_fixed_count("1e-3", &u));
  EXPECT_EQ(u, static_cast<uint64_t>(std::llround(1e-3 * kResultOne)));
  ASSERT_TRUE(parse_fixed_count(".5", &u));
  EXPECT_EQ(u, uint64_t{1} << 27);
  // Half a unit rounds up; just below half rounds down.
  ASSERT_TRUE(parse_fixed_count("0.00000000186264514923095703125", &u));
  EXPECT_EQ(u, 1u);
  ASSERT_TRUE(parse_fixed_count("0.00000000186264514923095703124", &u));
  EXPECT_EQ(u, 0u);
  for (const char* bad : {"", ".", "-1", "1.2.3", "abc", "1,5", "68719476736", "nan", "inf", "-1e-3"})
    EXPECT_FALSE(parse_fixed_count(bad, &u)) << bad;
}

// ---- the long table ----

using testing::parse_table;

// Results compare equal in everything a long table carries (not coverage).
void expect_same_counts(const Result& a, const Result& b) { testing::expect_same_cells(a, b, false); }

TEST(ExportTsv, ReadsBackToTheSameResultInAnyChunking) {
  for (const char* set : {"fio-s1", "epoch", "coarse"}) {
    const auto long_table = [](const Result& r) {
      std::string text;
      EXPECT_TRUE(export_tsv(r, &text).ok());
      return text;
    };
    testing::expect_reads_back_in_any_chunking(reduce_files(files_of(set, "_clat_hist"), 1000, {"*"}), long_table, false);
  }
}

TEST(ExportTsv, HdrLayoutsReadBackFromTheirIds) {
  const std::string f = std::string(LATSCOPE_FIXTURES) + "/../golden/hdr/y_java_double.hlog";
  const Result r = reduce_files({f, std::string(LATSCOPE_FIXTURES) + "/../golden/hdr/y_java_d1.hlog"}, 1000, {"*"});
  std::string text;
  ASSERT_TRUE(export_tsv(r, &text).ok());
  Result back;
  ASSERT_TRUE(parse_table(text, &back).ok());
  expect_same_counts(r, back);
  for (size_t i = 0; i < r.series.size(); ++i) {
    EXPECT_EQ(r.series[i].layout->hi, back.series[i].layout->hi);
    EXPECT_EQ(r.series[i].layout->rep, back.series[i].layout->rep);
  }
}

TEST(ExportTsv, ShuffledAndSplitRowsAddUp) {
  const Result r = reduce_files(files_of("local", "_clat_hist"), 1000, {"dir"});
  std::string text;
  ASSERT_TRUE(export_tsv(r, &text).ok());
  std::istringstream in(text);
  std::string header, line;
  std::getline(in, header);
  std::vector<std::string> rows;
  while (std::getline(in, line)) {
    // Split each count in two exact parts (a GROUP BY's input, or two tables
    // concatenated): units u = floor(u/3) + (u - floor(u/3)).
    const size_t tab = line.rfind('\t');
    uint64_t u = 0;
    ASSERT_TRUE(parse_fixed_count(line.substr(tab + 1), &u));
    const std::string head = line.substr(0, tab + 1);
    rows.push_back(head + format_fixed_count(u / 3));
    rows.push_back(head + format_fixed_count(u - u / 3));
  }
  std::shuffle(rows.begin(), rows.end(), std::mt19937(11));
  std::string shuffled = header + "\n";
  for (const std::string& row : rows) shuffled += row + "\n";
  Result back;
  ASSERT_TRUE(parse_table(shuffled, &back).ok());
  expect_same_counts(r, back);
  // Two tables one after the other (the second header is read over).
  Result twice;
  ASSERT_TRUE(parse_table(text + text, &twice).ok());
  for (size_t i = 0; i < r.series.size(); ++i)
    for (size_t j = 0; j < r.series[i].cells.size(); ++j)
      for (size_t k = 0; k < r.series[i].cells[j].counts.size(); ++k)
        ASSERT_EQ(twice.series[i].cells[j].counts[k], 2 * r.series[i].cells[j].counts[k]);
}

TEST(ExportTsv, LabelValuesAreEscaped) {
  Result r;
  r.quantum_ms = 500;
  ResultSeries s;
  s.labels.set("host", "a\tb\\c\nd");
  s.labels.set("kind", "clat");
  s.layout = fio_layout(3, 0);
  ResultCell c{3, {100}, {uint64_t{5} << 27}, {}};
  c.extremes.add(100);
  s.cells.push_back(c);
  r.series.push_back(s);
  std::string text;
  ASSERT_TRUE(export_tsv(r, &text).ok());
  EXPECT_EQ(text,
            "t_ms\tquantum_ms\thost\tkind\tlayout\textreme\tbin\tcount\n"
            "1500\t500\ta\\tb\\\\c\\nd\tclat\tfio3\t0\t100\t2.5\n"
            "1500\t500\ta\\tb\\\\c\\nd\tclat\tfio3\t1\t100\t0\n");
  Result back;
  ASSERT_TRUE(parse_table(text, &back).ok());
  ASSERT_EQ(back.series.size(), 1u);
  EXPECT_EQ(*back.series[0].labels.find("host"), "a\tb\\c\nd");
}

// docs/export-formats.md, "Extremes": rows with extreme = 1 name the bins a
// cell's min and max may come from; they add no count, and a GROUP BY's sum
// of several tables keeps the lowest and highest of them.
TEST(ExportTsv, ExtremeRowsRoundTripAndUnite) {
  constexpr uint64_t kUnit = uint64_t{1} << kResultFracBits;
  Result r;
  r.quantum_ms = 1000;
  ResultSeries s;
  s.layout = fio_layout(3, 0);
  ResultCell c{0, {10, 20, 30}, {kUnit, kUnit, kUnit}, {}};
  c.extremes.add(20);
  c.extremes.add(30);
  s.cells.push_back(c);
  ResultCell empty{1, {5}, {kUnit}, {}};  // no window had its midpoint here
  s.cells.push_back(empty);
  r.series.push_back(s);
  std::string text;
  ASSERT_TRUE(export_tsv(r, &text).ok());
  Result back;
  ASSERT_TRUE(parse_table(text, &back).ok());
  ASSERT_EQ(back.series.size(), 1u);
  ASSERT_EQ(back.series[0].cells.size(), 2u);
  EXPECT_EQ(back.series[0].cells[0].extremes.lo, 20u);
  EXPECT_EQ(back.series[0].cells[0].extremes.hi, 30u);
  EXPECT_FALSE(back.series[0].cells[1].extremes.any());
  EXPECT_EQ(back.series[0].cells[0].counts, c.counts);  // extreme rows add nothing
  // Another table's cell 0 with extremes at bin 10: the union is 10..30.
  Result other = r;
  other.series[0].cells[0].extremes = ExtremeBins();
  other.series[0].cells[0].extremes.add(10);
  std::string text2;
  ASSERT_TRUE(export_tsv(other, &text2).ok());
  Result both;
  ASSERT_TRUE(parse_table(text + text2, &both).ok());
  EXPECT_EQ(both.series[0].cells[0].extremes.lo, 10u);
  EXPECT_EQ(both.series[0].cells[0].extremes.hi, 30u);
  // A table without the column reads as a version 1 result: every bin.
  Result old;
  ASSERT_TRUE(parse_table("t_ms\tquantum_ms\tlayout\tbin\tcount\n0\t1000\tfio3\t7\t1\n0\t1000\tfio3\t9\t1\n", &old).ok());
  EXPECT_EQ(old.series[0].cells[0].extremes.lo, 7u);
  EXPECT_EQ(old.series[0].cells[0].extremes.hi, 9u);
  // A bad flag is a skipped row, named.
  Diagnostics d;
  ASSERT_TRUE(parse_table("t_ms\tquantum_ms\tlayout\textreme\tbin\tcount\n0\t1000\tfio3\t0\t7\t1\n"
                          "0\t1000\tfio3\t2\t7\t0\n", &old, &d).ok());
  EXPECT_EQ(d.count(Issue::kTsvMalformedRow), 1u);
}

TEST(ExportTsv, BadRowsAreSkippedAndNamedByLine) {
  const std::string text =
      "t_ms\tquantum_ms\tdir\tlayout\tbin\tcount\n"
      "0\t1000\tread\tfio3\t100\t3\n"
      "0\t1000\tread\tfio3\t100\n"          // line 3: a field short
      "1000\t1000\tread\tfio3\t1856\t1\n"   // line 4: no such bin
      "1500\t1000\tread\tfio3\t7\t1\n"      // line 5: not on a quantum
      "2000\t1000\tread\tfio3\t7\t-1\n"     // line 6: negative count
      "2000\t1000\tread\tfio3\t7\tx\n"      // line 7: not a number
      "2000\t1000\t\tfio3\t7\t4\r\n";       // line 8: kept (no dir, CRLF)
  Result r;
  Diagnostics d;
  const Status st = parse_table(text, &r, &d);
  ASSERT_TRUE(st.ok()) << st.message;
  EXPECT_EQ(d.count(Issue::kTsvMalformedRow), 5u);
  std::vector<uint64_t> lines;
  for (const IssueExample& e : d.examples())
    if (e.issue == Issue::kTsvMalformedRow) lines.push_back(e.line);
  // The first examples, with their lines (the count has them all).
  EXPECT_EQ(lines, (std::vector<uint64_t>{3, 4, 5}));
  EXPECT_EQ(d.count(Issue::kCarriageReturn), 1u);
  ASSERT_EQ(r.series.size(), 2u);  // {} and {dir=read}
}

TEST(ExportTsv, StructuralErrorsFailTheTable) {
  Result r;
  Status st = parse_table("t_ms\tquantum_ms\tlayout\tbin\tcount\n0\t1000\tfio9\t1\t1\n", &r);
  EXPECT_EQ(st.message, "line 2:8: unknown layout id 'fio9' (fio3, fio3/cN, fio2, fio2/cN or hdr:dD:lL:uU:nN)");
  st = parse_table("t_ms\tquantum_ms\tlayout\tbin\tcount\n0\t1000\tfio3\t1\t1\n0\t500\tfio3\t1\t1\n", &r);
  EXPECT_EQ(st.message.substr(0, 45), "line 3:3: quantum_ms 500 differs from line 2'");
  st = parse_table("t_ms\tquantum_ms\tlayout\tbin\tcount\n0\t1000\tfio3\t1\t1\nt_ms\tquantum_ms\thost\tlayout\tbin\tcount\n",
                   &r);
  EXPECT_EQ(st.message, "line 3:1: a second header with other columns than line 1's");
  st = parse_table("t_ms\tquantum_ms\tlayout\tbin\tcount\n", &r);
  EXPECT_EQ(st.message, "the table has no readable row");
  st = parse_table("t_ms\tquantum_ms\tlayout\tbin\tcount\tbin\n", &r);
  EXPECT_EQ(st.message, "line 1:34: column 'bin' twice");
}

TEST(ExportTsv, TheRegistryDetectsTheTableByItsHeader) {
  const Result r = reduce_files(files_of("local", "_clat_hist"), 1000, {"dir"});
  std::string text;
  ASSERT_TRUE(export_tsv(r, &text).ok());
  SniffInput in;
  in.name = "anything.txt";
  in.data = text.data();
  in.n = std::min(text.size(), kSniffBytes);
  EXPECT_EQ(sniff(in).format, FileFormat::kTsv);
  // Read as an input: the same samples per quantum as the result it came from.
  Engine e;
  const Source& s = testing::feed(&e, "t.tsv", text, 777);
  ASSERT_TRUE(s.status.ok()) << s.status.message;
  EXPECT_EQ(s.format, FileFormat::kTsv);
  QueryOptions o;
  QueryResult qr;
  ASSERT_TRUE(e.query(o, &qr).ok());
  ASSERT_EQ(qr.rows.size(), 10u);
  for (size_t i = 0; i < qr.rows.size(); ++i) {
    uint64_t units = 0;
    for (const ResultSeries& rs : r.series)
      for (const ResultCell& c : rs.cells)
        if (c.quantum == static_cast<int64_t>(i))
          for (uint64_t u : c.counts) units += u;
    EXPECT_NEAR(qr.rows[i].stats.samples, units / kResultOne, 1e-9);
  }
}

}  // namespace
}  // namespace latscope
