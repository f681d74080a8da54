// A query is bounded on any input (docs/input-robustness.md, "Far times",
// "Query budget", "Time bases"): one file far in time is left out with its
// name while the others answer; a tiny quantum is refused before anything is
// allocated; one clock per per-I/O log and per table; a heat map of a long,
// mostly empty grid only works where windows are.
#include <gtest/gtest.h>

#include "fixture_util.h"
#include "latscope/report.h"
#include "latscope/stream.h"
#include "test_util.h"

namespace latscope {
namespace {

const std::vector<std::string> kLabels{"p50", "p90", "p99", "p99.9", "p100"};

std::string text_of(const std::string& rel) {
  std::string t;
  EXPECT_TRUE(fixtures::read_file(fixtures::path(rel), &t)) << rel;
  return t;
}

// The lines of a fio log with `ms` added to every time_ms.
std::string shifted(const std::string& text, uint64_t ms) {
  std::string out;
  size_t a = 0;
  while (a < text.size()) {
    size_t e = text.find('\n', a);
    if (e == std::string::npos) e = text.size();
    const std::string line = text.substr(a, e - a);
    const size_t c = line.find(',');
    if (c != std::string::npos) out += std::to_string(std::stoull(line.substr(0, c)) + ms) + line.substr(c) + "\n";
    a = e + 1;
  }
  return out;
}

struct Both {
  Status stored, streamed;
  QueryResult a, b;
};

// Engine::query over the stored files and the streaming fold, file by file.
Both query_both(const std::vector<std::pair<std::string, std::string>>& files, const QueryOptions& o) {
  Both r;
  Engine all;
  StreamingQuery stream(o);
  Status added;
  for (const auto& [name, text] : files) {
    testing::feed(&all, name, text);
    Engine one;
    const Status st = stream.add(testing::feed(&one, name, text));
    if (added.ok()) added = st;
  }
  r.stored = all.query(o, &r.a);
  r.streamed = added.ok() ? stream.finish(&r.b) : added;
  return r;
}

std::string notes_of(const QueryResult& r) {
  std::string s;
  for (const std::string& n : r.notes) s += n + "\n";
  return s;
}

const uint64_t kFar = 90000000000;  // 9e10 ms: relative still (below 10^11), 9e7 quanta of 1 s away

TEST(QueryBounds, AFileFarInTimeIsLeftOutNamedAndTheOthersAnswer) {
  const std::string good = text_of("local/local_clat_hist.2.log");
  const std::string far = shifted(text_of("local/local_clat_hist.1.log"), kFar);
  QueryOptions o;
  const Both alone = query_both({{"good_clat_hist.2.log", good}}, o);
  ASSERT_TRUE(alone.stored.ok());
  const Both both = query_both({{"good_clat_hist.2.log", good}, {"far_clat_hist.1.log", far}}, o);
  ASSERT_TRUE(both.stored.ok()) << both.stored.message;
  ASSERT_TRUE(both.streamed.ok()) << both.streamed.message;
  // The good file's rows, bit for bit, from both paths.
  const std::string want = pctiles_csv(alone.a, kLabels, Unit::kNs);
  EXPECT_EQ(pctiles_csv(both.a, kLabels, Unit::kNs), want);
  EXPECT_EQ(pctiles_csv(both.b, kLabels, Unit::kNs), want);
  for (const QueryResult* r : {&both.a, &both.b}) {
    const std::string notes = notes_of(*r);
    EXPECT_NE(notes.find("far_clat_hist.1.log: 7205 I/Os from 90000000002 ms to 90000009005 ms left out: too far "
                         "from the rest of the query (0 ms to 9002 ms)"),
              std::string::npos)
        << notes;
    EXPECT_EQ(r->diag.count(Issue::kFarTimes), 1u);
  }
  EXPECT_EQ(notes_of(both.a), notes_of(both.b));

  // The heat map keeps the same axis and names the same file.
  Engine e;
  testing::feed(&e, "good_clat_hist.2.log", good);
  testing::feed(&e, "far_clat_hist.1.log", far);
  HeatmapOptions h;
  HeatmapResult hm;
  ASSERT_TRUE(e.heatmap(h, &hm).ok());
  EXPECT_EQ(hm.quanta, 10u);
  EXPECT_EQ(hm.diag.count(Issue::kFarTimes), 1u);
}

TEST(QueryBounds, OneCorruptFarLineLeavesOutOnlyItsIOs) {
  // An I/O stamped 9e10 ms among a per-I/O log's lines at 0..9 s: that I/O
  // is left out, the file's other lines answer. (A histogram log's far line
  // is a time gap instead: docs/time-gaps.md.)
  std::string text = text_of("local/local_clat.1.log");
  Engine clean;
  const Source& whole = testing::feed(&clean, "c_clat.1.log", text);
  const size_t cut = text.find('\n', text.size() / 2) + 1;
  const std::string corrupt = text.substr(0, cut) + std::to_string(kFar) + ", 5000, 0, 4096, 0\n" + text.substr(cut);
  QueryOptions o;
  const Both r = query_both({{"c_clat.1.log", corrupt}}, o);
  ASSERT_TRUE(r.stored.ok()) << r.stored.message;
  ASSERT_TRUE(r.streamed.ok()) << r.streamed.message;
  EXPECT_EQ(pctiles_csv(r.a, kLabels, Unit::kNs), pctiles_csv(r.b, kLabels, Unit::kNs));
  const std::string notes = notes_of(r.a);
  EXPECT_NE(notes.find("c_clat.1.log: 1 I/Os from 90000000000 ms to 90000000001 ms left out"), std::string::npos)
      << notes;
  double n = 0;
  for (const Row& row : r.a.rows) n += row.stats.samples;
  EXPECT_DOUBLE_EQ(n, static_cast<double>(whole.records));  // every other I/O answered
  ASSERT_FALSE(r.a.rows.empty());
  EXPECT_LT(r.a.rows.back().t_ms, 20000);
}

TEST(QueryBounds, ARunLongerThanAnyAxisIsAnErrorSayingWhatToDo) {
  // One file from 0 to 9e10 ms with lines in between: no part of it fits.
  std::string text;
  for (uint64_t t = 1000; t <= kFar; t += kFar / 8) text += testing::hist_line(t, 0, {{300, 1}});
  QueryOptions o;
  const Both r = query_both({{"long_clat_hist.1.log", text}}, o);
  // Its windows are 1.1e10 ms long (the logging interval the lines show):
  // the stored query says the axis is too long, the streaming fold that the
  // windows alone are over its memory; both say how to get an answer.
  ASSERT_FALSE(r.stored.ok());
  EXPECT_NE(r.stored.message.find("78750001 quanta of 1000 ms from 0 ms to 78750001000 ms is over the limit of 50 "
                                  "million quanta; use a coarser quantum (at least 1576 ms)"),
            std::string::npos)
      << r.stored.message;
  ASSERT_FALSE(r.streamed.ok());
  EXPECT_NE(r.streamed.message.find("long_clat_hist.1.log: the query would hold 78750001 quanta of 1000 ms (13.2 GB), "
                                    "over its memory limit of 2.15 GB: use a coarser quantum"),
            std::string::npos)
      << r.streamed.message;
}

TEST(QueryBounds, ATinyQuantumIsRefusedBeforeAllocatingNamingTheFile) {
  // 20 s of windows at 0.001 ms: 20 million quanta, each at least a cell and
  // a row (the review's repro took over 12 GB).
  const std::string text = text_of("local/local_clat_hist.1.log");
  const std::string twenty = text + shifted(text, 10000);
  QueryOptions o;
  o.quantum_ms = 0.001;
  Engine one;
  StreamingQuery q(o);
  const Status st = q.add(testing::feed(&one, "long_clat_hist.1.log", twenty));
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message.find("long_clat_hist.1.log: the query would hold 19002000 quanta of 0.001 ms"),
            std::string::npos)
      << st.message;
  EXPECT_NE(st.message.find("use a coarser quantum, a shorter time range (from/to), or raise the limit (--max-memory)"),
            std::string::npos);

  // Under a smaller stated limit the grid's growth is what stops it, still
  // before the allocation, and the stored-model query says so of its rows.
  o.quantum_ms = 1;
  o.max_query_bytes = 2 << 20;
  StreamingQuery small(o);
  const Status st2 = small.add(testing::feed(&one, "long_clat_hist.1.log", twenty));
  ASSERT_FALSE(st2.ok());
  EXPECT_NE(st2.message.find("long_clat_hist.1.log: the query would hold "), std::string::npos) << st2.message;
  Engine all;
  testing::feed(&all, "long_clat_hist.1.log", twenty);
  QueryResult r;
  const Status st3 = all.query(o, &r);
  ASSERT_FALSE(st3.ok());
  EXPECT_NE(st3.message.find("the answer: the query would hold up to "), std::string::npos) << st3.message;
  // The default limit answers it.
  o.max_query_bytes = kDefaultQueryBytes;
  EXPECT_TRUE(all.query(o, &r).ok());
}

TEST(QueryBounds, APerIoLogHasOneClock) {
  // One epoch-stamped line among relative ones: skipped and named, not a
  // decades-long axis.
  std::string text = text_of("local/local_clat.1.log");
  const size_t cut = text.find('\n', text.size() / 2) + 1;
  text = text.substr(0, cut) + "1764000000000, 5000, 0, 4096, 0\n" + text.substr(cut);
  Engine e;
  const Source& s = testing::feed(&e, "m_clat.1.log", text);
  ASSERT_TRUE(s.status.ok());
  EXPECT_FALSE(s.absolute_time);
  EXPECT_EQ(s.diag.count(Issue::kTimeBaseChange), 1u);
  QueryResult r;
  ASSERT_TRUE(e.query(QueryOptions(), &r).ok());
  ASSERT_FALSE(r.rows.empty());
  EXPECT_LT(r.rows.back().t_ms, 1e6);
}

TEST(QueryBounds, ATableHasOneClock) {
  std::string t = "t_ms\tquantum_ms\tlayout\tbin\tcount\n";
  for (int j = 0; j < 5; ++j) t += std::to_string(j * 1000) + "\t1000\tfio3\t300\t2\n";
  t += "1764000000000\t1000\tfio3\t300\t7\n";
  Engine e;
  const Source& s = testing::feed(&e, "m.tsv", t);
  ASSERT_TRUE(s.status.ok()) << s.status.message;
  EXPECT_FALSE(s.absolute_time);
  EXPECT_EQ(s.diag.count(Issue::kTimeBaseChange), 1u);
  QueryResult r;
  ASSERT_TRUE(e.query(QueryOptions(), &r).ok());
  EXPECT_EQ(r.rows.size(), 5u);
}

TEST(QueryBounds, AHeatMapOfAMostlyEmptyGridCountsEveryIO) {
  // Two lines 40 million quanta apart at one row (the review's 60 s case):
  // every I/O lands, and the empty quanta in between are zero.
  std::string text = testing::hist_line(1000, 0, {{300, 3}});
  text += testing::hist_line(40000000000, 0, {{700, 4}});
  Engine e;
  testing::feed(&e, "two_clat_hist.1.log", text);
  HeatmapOptions h;
  h.rows = 1;
  HeatmapResult hm;
  ASSERT_TRUE(e.heatmap(h, &hm).ok());
  double sum = hm.below + hm.above;
  for (double c : hm.counts) sum += c;
  EXPECT_DOUBLE_EQ(sum, 7);
}

}  // namespace
}  // namespace latscope
