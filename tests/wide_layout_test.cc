// Wide layouts (docs/formats-hdr.md, "Wide layouts"): a query over a layout
// of kWideLayoutBins or more reads each quantum through the bins it occupies
// (Sweep::occupied) and gathers them before its statistics. The rows must be
// the same bits as over the dense counts. The proof: the same intervals of
// one tag are queried twice, from an .hlog whose layout stays narrow and
// from one whose other tag reaches an index far above kWideLayoutBins (an
// HdrHistogram layout's bin i is index i in both, so only the path differs).
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <random>
#include <string>

#include "formats/fio_hist/window_blocks.h"
#include "formats/hdr/hdr_encode.h"
#include "latscope/engine.h"
#include "latscope/percentiles.h"
#include "latscope/result.h"
#include "latscope/uncertainty.h"
#include "query/aligner.h"
#include "query/extremes.h"

namespace latscope {
namespace {

// An interval line "Tag=T,start,length,max,payload" of counts at `bins`.
std::string line(const std::string& tag, double start_s, const std::vector<std::pair<uint32_t, uint64_t>>& bins,
                 double length_s = 1) {
  hdr::Histogram h;
  h.config.digits = 3;
  h.config.lowest = 1;
  h.config.highest = 3600000000000;
  for (const auto& [i, n] : bins) h.push(i, n);
  std::string payload;
  EXPECT_TRUE(hdr::encode_payload(h, deflate_zlib, &payload));
  char head[96];
  std::snprintf(head, sizeof head, "Tag=%s,%.3f,%.3f,1.000,", tag.c_str(), start_s, length_s);
  return head + payload + "\n";
}

// 90 intervals of tag A, starting 1.3 ms after each second (every window
// straddles a 1 s quantum), each with 1-60 counts among indexes 0-3000,
// some of them at index 0 and at the highest index A uses.
std::string tag_a() {
  std::mt19937 rng(7);
  std::string out = "#[StartTime: 1700000000.000 (seconds since epoch)]\n";
  for (int k = 0; k < 90; ++k) {
    std::map<uint32_t, uint64_t> m;
    const int n = 1 + static_cast<int>(rng() % 60);
    for (int j = 0; j < n; ++j) m[rng() % 3000] += 1 + rng() % (k % 7 == 0 ? 100000 : 9);
    if (k % 11 == 0) m[0] += 3;
    if (k % 13 == 0) m[2999] += 1;
    out += line("A", k + 0.0013, {m.begin(), m.end()});
    if (k == 40) out += line("A", 41.5, {{5, 1}});  // an overlap: its counts join the window before
  }
  return out;
}

QueryResult query(const std::string& text, double quantum_ms, Method method, bool bands) {
  Engine e;
  const int h = e.open_file("w.hlog");
  e.append(h, text.data(), text.size());
  const Source& s = e.finish(h);
  EXPECT_TRUE(s.status.ok()) << s.status.message;
  QueryOptions o;
  o.quantum_ms = quantum_ms;
  o.method = method;
  o.bands = bands;
  o.group_by = {"tag"};
  o.percentiles = {0, 10, 50, 90, 99, 99.9, 99.99, 100};
  QueryResult r;
  const Status st = e.query(o, &r);
  EXPECT_TRUE(st.ok()) << st.message;
  return r;
}

void expect_same(const Row& a, const Row& b, const std::string& where) {
  const auto bits = [](double x) {
    uint64_t u;
    std::memcpy(&u, &x, sizeof u);
    return u;
  };
  SCOPED_TRACE(where + " t=" + std::to_string(a.t_ms));
  EXPECT_EQ(a.t_ms, b.t_ms);
  EXPECT_EQ(a.flags, b.flags);
  EXPECT_EQ(bits(a.stats.samples), bits(b.stats.samples));
  EXPECT_EQ(bits(a.stats.min_ns), bits(b.stats.min_ns));
  EXPECT_EQ(bits(a.stats.max_ns), bits(b.stats.max_ns));
  EXPECT_EQ(bits(a.stats.mean_ns), bits(b.stats.mean_ns));
  EXPECT_EQ(a.stats.saturated, b.stats.saturated);
  ASSERT_EQ(a.p.size(), b.p.size());
  for (size_t j = 0; j < a.p.size(); ++j) {
    EXPECT_EQ(bits(a.p[j].value_ns), bits(b.p[j].value_ns)) << "percentile " << j;
    EXPECT_EQ(bits(a.p[j].err_ns), bits(b.p[j].err_ns)) << "percentile " << j;
    EXPECT_EQ(bits(a.p[j].lo_ns), bits(b.p[j].lo_ns)) << "percentile " << j;
    EXPECT_EQ(bits(a.p[j].hi_ns), bits(b.p[j].hi_ns)) << "percentile " << j;
    EXPECT_EQ(a.p[j].few_samples, b.p[j].few_samples);
    EXPECT_EQ(a.p[j].saturated, b.p[j].saturated);
  }
}

TEST(WideLayout, RowsAreTheBitsOfTheDenseCounts) {
  const std::string narrow = tag_a();
  // Tag B reaches index 9000: the configuration's layout is then wide.
  const std::string wide = narrow + line("B", 3.0, {{9000, 2}, {9001, 1}});
  size_t compared = 0;
  for (const double q : {1000.0, 700.0, 2500.0, 100000.0})
    for (const Method m : {Method::kInterp, Method::kHdr, Method::kFio})
      for (const bool bands : {true, false}) {
        const QueryResult a = query(narrow, q, m, bands), b = query(wide, q, m, bands);
        ASSERT_EQ(a.groups.size(), 1u);
        ASSERT_EQ(b.groups.size(), 2u);
        std::vector<const Row*> rows_b;
        for (const Row& r : b.rows)
          if (b.groups[r.group] == a.groups[0]) rows_b.push_back(&r);
        ASSERT_EQ(a.rows.size(), rows_b.size());
        for (size_t i = 0; i < a.rows.size(); ++i)
          expect_same(a.rows[i], *rows_b[i], "quantum " + std::to_string(q) + " ms");
        compared += a.rows.size();
      }
  EXPECT_GT(compared, 1000u);
}

// The latency heat map reads a wide layout through the occupied bins too:
// the same cells, bit for bit. Tag B's one interval lies far after A's, and
// the rows are fixed, so it only adds to its own quantum and to `above`.
TEST(WideLayout, HeatMapCellsAreTheBitsOfTheDenseCounts) {
  const std::string narrow = tag_a();
  const std::string wide = narrow + line("B", 500.0, {{9000, 2}, {9001, 1}});
  for (const double q : {1000.0, 700.0}) {
    HeatmapResult a, b;
    for (auto [text, out] : {std::pair{&narrow, &a}, std::pair{&wide, &b}}) {
      Engine e;
      const int h = e.open_file("w.hlog");
      e.append(h, text->data(), text->size());
      ASSERT_TRUE(e.finish(h).status.ok());
      HeatmapOptions o;
      o.quantum_ms = q;
      o.rows = 50;
      o.min_ns = 10;
      o.max_ns = 5000;
      ASSERT_TRUE(e.heatmap(o, out).ok());
    }
    ASSERT_GT(b.quanta, a.quanta);
    EXPECT_EQ(a.edges_ns, b.edges_ns);
    EXPECT_EQ(a.t0_ms, b.t0_ms);
    for (size_t i = 0; i < size_t{a.quanta} * a.rows; ++i) EXPECT_EQ(a.counts[i], b.counts[i]) << "cell " << i;
    EXPECT_EQ(a.below, b.below);
    EXPECT_EQ(a.above + 3, b.above);
    double sum = 0;
    for (double c : a.counts) sum += c;
    EXPECT_GT(sum, 1000);
  }
}

// The two files' layouts really are narrow and wide.
TEST(WideLayout, TheProofComparesANarrowWithAWideLayout) {
  for (const bool with_b : {false, true}) {
    std::string text = tag_a();
    if (with_b) text += line("B", 3.0, {{9000, 2}});
    Engine e;
    const int h = e.open_file("w.hlog");
    e.append(h, text.data(), text.size());
    const Source& s = e.finish(h);
    ASSERT_TRUE(s.status.ok());
    const size_t bins = s.series[0].layout->size();
    if (with_b)
      EXPECT_GE(bins, kWideLayoutBins);
    else
      EXPECT_LT(bins, kWideLayoutBins);
  }
}

// fill_row given the span alone (the CLI's streaming fold and adaptive
// quanta have no occupied list) gathers by scanning: the same bits again.
TEST(WideLayout, AWideSpanScannedGivesTheSameRow) {
  BinLayout l;
  l.id = "custom";
  for (int i = 0; i < 6000; ++i) {
    l.lo.push_back(1000.0 * i);
    l.hi.push_back(1000.0 * (i + 1));
    l.rep.push_back(1000.0 * i + 500);
  }
  for (const bool saturates : {false, true})
    for (const double top : {0.0, 1.5}) {  // the saturating last bin empty or not
      l.last_saturates = saturates;
      std::vector<double> counts(l.size(), 0.0);
      std::mt19937 rng(3);
      for (int j = 0; j < 200; ++j) counts[rng() % 5000] += 0.25 * (1 + rng() % 40);
      counts[0] = 2;
      counts[5999] = top;
      QueryOptions o;
      o.percentiles = {0, 50, 99, 99.9, 100};
      o.window_extremes = true;
      ExtremeBins ext;
      ext.add(0);
      ext.add(5999);
      for (const Method m : {Method::kInterp, Method::kHdr}) {
        o.method = m;
        Row wide, dense;
        wide.p.resize(o.percentiles.size());
        dense.p.resize(o.percentiles.size());
        fill_row(l, counts.data(), ext, o, &wide, BinSpan{0, 6000});
        // The reference: fill_row's steps (query.cc) over the dense counts.
        double sum = -1;
        ASSERT_TRUE(compute_stats(l, counts.data(), &dense.stats, {}, &sum));
        if (m == Method::kHdr) hdr_stats(l, counts.data(), &dense.stats, {});
        compute_percentiles(l, counts.data(), o.percentiles.data(), o.percentiles.size(), m, dense.p.data(),
                            {}, sum);
        compute_bands(l, counts.data(), o.percentiles.data(), o.percentiles.size(), dense.p.data(), {});
        limit_extremes(l, ext, m, &dense);
        for (const PercentileValue& v : dense.p) {
          if (v.few_samples) dense.flags |= kFlagFewSamples;
          if (v.saturated) dense.flags |= kFlagSaturated;
        }
        if (dense.stats.saturated) dense.flags |= kFlagSaturated;
        expect_same(wide, dense,
                    std::string(saturates ? "saturating" : "plain") + (top > 0 ? ", top bin" : ""));
      }
    }
}

}  // namespace
}  // namespace latscope

namespace latscope {
namespace {

// An interval that ends before the previous one's end joins that window
// (docs/formats-hdr.md, "Model"): the merged window replaces the last
// window's record and bytes, here among 4,200 windows read in the reader's
// 64 KiB slices.
TEST(HdrMerge, AnIntervalEndingBeforeThePreviousJoinsIt) {
  std::string text = "#[StartTime: 1700000000.000 (seconds since epoch)]\n";
  std::vector<std::map<uint32_t, uint64_t>> want;
  std::mt19937 rng(11);
  for (int k = 0; k < 4200; ++k) {
    std::map<uint32_t, uint64_t> m;
    for (int j = 0; j < 3; ++j) m[rng() % 500] += 1 + rng() % 5;
    text += line("A", k, {m.begin(), m.end()});
    want.push_back(m);
    // An interval inside this one, at a few places.
    if (k == 2046 || k == 2047 || k == 2048 || k == 4095 || k == 7 || k == 4199) {
      const std::map<uint32_t, uint64_t> extra = {{3, 2}, {rng() % 500, 1}};
      text += line("A", k + 0.25, {extra.begin(), extra.end()}, 0.5);
      for (const auto& [b, c] : extra) want.back()[b] += c;
    }
  }
  Engine e;
  const int h = e.open_file("m.hlog");
  e.append(h, text.data(), text.size());
  const Source& s = e.finish(h);
  ASSERT_TRUE(s.status.ok()) << s.status.message;
  EXPECT_EQ(s.diag.count(Issue::kHdrTimeBackwards), 6u);
  ASSERT_EQ(s.series.size(), 1u);
  const Series& x = s.series[0];
  ASSERT_EQ(x.windows.size(), want.size());
  for (size_t k = 0; k < want.size(); ++k) {
    std::map<uint32_t, uint64_t> got;
    uint64_t total = 0;
    x.for_each_bin(x.windows[k], [&](uint32_t b, uint64_t c) {
      got[b] += c;
      total += c;
    });
    EXPECT_EQ(got, want[k]) << "window " << k;
    EXPECT_EQ(x.windows[k].total, total) << "window " << k;
    EXPECT_EQ(x.windows[k].start_ms, 1000.0 * k) << "window " << k;
    // Each window's bytes follow the last's: a merged window's first
    // version left nothing behind.
    std::vector<uint32_t> b;
    std::vector<uint64_t> c;
    for (const auto& [bin, n] : got) {
      b.push_back(bin);
      c.push_back(n);
    }
    std::vector<uint8_t> bytes(fio_hist::kMaxWindowBytesPerBin * b.size());
    const size_t len = fio_hist::encode_window(b.data(), c.data(), static_cast<uint32_t>(b.size()), bytes.data());
    const size_t next = k + 1 < want.size() ? x.windows[k + 1].offset : x.data.size();
    EXPECT_EQ(x.windows[k].offset + len, next) << "window " << k;
  }
}

}  // namespace
}  // namespace latscope
