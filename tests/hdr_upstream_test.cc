// The public HdrHistogram sample logs (../shared/data/hdr beside the
// repository; skipped when absent) against the upstream test suites'
// expectations and Java's HistogramLogProcessor output (docs/formats-hdr.md).
#include <gtest/gtest.h>

#include <cmath>

#include "formats/hdr/hdr_log.h"
#include "hdr_test_util.h"
#include "latscope/engine.h"

namespace latscope {
namespace {

bool sample(const std::string& name, std::string* text) {
  return hdrtest::slurp(hdrtest::samples_dir() + "/" + name, text);
}

struct Count {
  size_t intervals = 0;
  uint64_t total = 0;
};

// Intervals and values per tag ("" = untagged), optionally only those with
// Java's offset start in [from_s, to_s].
Count count(const std::string& text, const std::string& tag, double from_s = -1e300, double to_s = 1e300) {
  hdr::LogParser p;
  p.append(text.data(), text.size());
  p.finish();
  Count c;
  hdr::Interval iv;
  while (p.next(&iv)) {
    const double off = static_cast<double>(iv.offset_start_ns()) / 1e9;
    if (iv.tag != tag || off < from_s || off > to_s) continue;
    ++c.intervals;
    c.total += iv.hist.total();
  }
  return c;
}

TEST(HdrUpstream, IntervalCountsAndTotals) {
  std::string t;
  if (!sample("jHiccup-2.0.7S.logV2.hlog", &t)) GTEST_SKIP() << "no ../shared/data/hdr";
  struct Case {
    const char* file;
    const char* tag;
    size_t intervals;
    uint64_t total;
  } cases[] = {
      {"jHiccup-2.0.1.logV0.hlog", "", 81, 61256},   {"jHiccup-2.0.6.logV1.hlog", "", 88, 65964},
      {"jHiccup-2.0.7S.logV2.hlog", "", 62, 48761},  {"ycsb.logV1.hlog", "", 602, 300056},
      {"tagged-Log.logV2.hlog", "", 21, 16145},      {"tagged-Log.logV2.hlog", "A", 21, 16145},
  };
  for (const Case& c : cases) {
    ASSERT_TRUE(sample(c.file, &t)) << c.file;
    const Count n = count(t, c.tag);
    EXPECT_EQ(n.intervals, c.intervals) << c.file << " tag " << c.tag;
    EXPECT_EQ(n.total, c.total) << c.file << " tag " << c.tag;
  }
  ASSERT_TRUE(sample("jHiccup-2.0.7S.logV2.hlog", &t));
  const Count r = count(t, "", 5, 20);  // HistogramLogProcessor -start 5 -end 20
  EXPECT_EQ(r.intervals, 15u);
  EXPECT_EQ(r.total, 11664u);
}

TEST(HdrUpstream, TimeBases) {
  std::string t;
  if (!sample("ycsb.logV1.hlog", &t)) GTEST_SKIP() << "no ../shared/data/hdr";
  hdr::LogParser p;
  p.append(t.data(), t.size());
  p.finish();
  EXPECT_EQ(p.time_base(), hdr::TimeBase::kAbsolute);
  ASSERT_TRUE(sample("jHiccup-2.0.7S.logV2.hlog", &t));
  hdr::LogParser q;
  q.append(t.data(), t.size());
  q.finish();
  EXPECT_EQ(q.time_base(), hdr::TimeBase::kRelative);
  hdr::Interval iv;
  ASSERT_TRUE(q.next(&iv));
  EXPECT_EQ(iv.abs_start_ns() / 1000000, 1441812279601);  // 1441812279.474 + 0.127, exactly
}

// The upstream tests accumulate into a 3-significant-digit histogram (adding
// each bucket's lowest value) and ask getValueAtPercentile(99.9) and getMaxValue.
TEST(HdrUpstream, Sig3AccumulatorPercentile) {
  std::string t;
  if (!sample("jHiccup-2.0.7S.logV2.hlog", &t)) GTEST_SKIP() << "no ../shared/data/hdr";
  hdr::LogParser p;
  p.append(t.data(), t.size());
  p.finish();
  hdr::Config acc;
  acc.digits = 3;
  acc.lowest = 1;
  std::vector<uint64_t> counts;
  hdr::Interval iv;
  uint64_t total = 0;
  while (p.next(&iv))
    for (size_t k = 0; k < iv.hist.index.size(); ++k) {
      const auto j = static_cast<size_t>(acc.index_of(iv.hist.config.lowest_equivalent(iv.hist.index[k])));
      if (counts.size() <= j) counts.resize(j + 1);
      counts[j] += iv.hist.count[k];
      total += iv.hist.count[k];
    }
  const double want = std::ceil(std::nextafter(99.9, 0.0) / 100.0 * static_cast<double>(total));
  uint64_t cum = 0;
  int64_t p999 = -1;
  for (size_t j = 0; j < counts.size() && p999 < 0; ++j)
    if ((cum += counts[j]) >= want) p999 = acc.highest_equivalent(static_cast<int64_t>(j));
  EXPECT_EQ(p999, 1745879039);
  EXPECT_EQ(acc.highest_equivalent(static_cast<int64_t>(counts.size() - 1)), 1796210687);
}

// --method hdr through the engine on the log's own layout reproduces the
// Value column of HistogramLogProcessor's .hgrm (ms, 2 decimals) row by row.
TEST(HdrUpstream, MethodHdrMatchesHistogramLogProcessor) {
  std::string t, hgrm;
  if (!sample("jHiccup-2.0.7S.logV2.hlog", &t) || !sample("reference/jHiccup-2.0.7S.logV2.hgrm", &hgrm))
    GTEST_SKIP() << "no ../shared/data/hdr";
  Engine e;
  const int h = e.open_file("jHiccup-2.0.7S.logV2.hlog");
  e.append(h, t.data(), t.size());
  ASSERT_TRUE(e.finish(h).status.ok());
  QueryOptions q;
  q.method = Method::kHdr;
  q.quantum_ms = 1e9;
  q.percentiles.clear();
  std::istringstream in(hgrm);
  std::string line;
  std::vector<double> want;
  while (std::getline(in, line)) {
    double v, pct;
    if (line.empty() || line[0] == '#' || std::sscanf(line.c_str(), "%lf %lf", &v, &pct) != 2) continue;
    // The .hgrm's first row is the percentile iterator's (the first bucket's
    // highest value), not getValueAtPercentile(0) (its lowest).
    if (pct == 0) continue;
    q.percentiles.push_back(pct * 100);
    want.push_back(v);
  }
  ASSERT_GT(want.size(), 50u);
  QueryResult r;
  ASSERT_TRUE(e.query(q, &r).ok());
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0].stats.samples, 48761);
  EXPECT_EQ(r.rows[0].stats.max_ns, 1803550719);
  size_t bad = 0;
  for (size_t i = 0; i < want.size(); ++i)
    if (std::fabs(r.rows[0].p[i].value_ns / 1e6 - want[i]) > 0.0051) {
      ++bad;
      ADD_FAILURE() << "p" << q.percentiles[i] << ": " << r.rows[0].p[i].value_ns / 1e6 << " ms, Java " << want[i];
    }
  EXPECT_EQ(bad, 0u);
}

}  // namespace
}  // namespace latscope
