// The fold in time order (docs/quanta.md, "Memory: windows read twice"):
// HdrHistogram logs read once for a digest of their windows (model.h
// DigestSink), then again in time order through a WindowFeed as the sweep
// reaches each quantum, give the rows of the windows held whole, bit for
// bit; and the sweep asks for windows only as far as the quantum it makes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "fixture_util.h"
#include "latscope/report.h"
#include "latscope/stream.h"
#include "test_util.h"
#include "time_order_feed.h"
#include "file_lines.h"

namespace latscope {
namespace {

using testing::TextLines;

// The CLI's TimeOrderFeed over texts: each text read again by an engine
// whose reader hands its windows on, a block at a time.
class TextFeed : public WindowFeed {
 public:
  explicit TextFeed(std::map<std::string, const std::string*> texts) : texts_(std::move(texts)) {}
  void want(const Source& src, size_t series) override {
    One& o = files_[src.name];
    if (!o.q) o.q = std::make_shared<Queues>();
    if (o.q->q.size() <= series) o.q->q.resize(series + 1);
  }
  bool more(const Source& src, size_t series, double until_ms, std::vector<Window>* w,
            std::vector<uint64_t>* line_at, std::vector<WindowBins>* bins) override {
    One& o = files_.at(src.name);
    const std::string& t = *texts_.at(src.name);
    auto& q = o.q->q[series];
    while (q.empty() || std::get<0>(q.back()).start_ms < until_ms) {
      if (!o.e) {
        o.e = std::make_unique<Engine>();
        FileOptions f;
        f.reread = std::make_shared<TextLines>(&t);
        f.hand_on = o.q;
        o.h = o.e->open_file(src.name, f);
      }
      if (o.at >= t.size()) {
        if (!o.finished) o.e->finish(o.h);
        o.finished = true;
        break;
      }
      const size_t n = std::min<size_t>(4096, t.size() - o.at);
      o.e->append(o.h, t.data() + o.at, n);
      o.at += n;
    }
    asked.push_back(until_ms);
    if (q.empty()) return false;
    for (auto& [win, at, b] : q) {
      w->push_back(win);
      line_at->push_back(at);
      // Every other window without its bins: the sweep reads those from their lines.
      bins->push_back(handed_start.size() % 2 ? WindowBins{} : std::move(b));
      handed_start.push_back(win.start_ms);
    }
    q.clear();
    return true;
  }
  Status status() const override { return Status::Ok(); }
  std::vector<double> asked, handed_start;

 private:
  struct Queues : WindowSink {
    std::vector<std::deque<std::tuple<Window, uint64_t, WindowBins>>> q;
    void window(size_t series, const Window& w, uint64_t line_at, const uint32_t* bins,
                const uint64_t* counts) override {
      if (series < q.size())
        q[series].emplace_back(w, line_at, WindowBins{{bins, bins + w.n}, {counts, counts + w.n}});
    }
  };
  struct One {
    std::shared_ptr<Queues> q;
    std::unique_ptr<Engine> e;
    int h = -1;
    size_t at = 0;
    bool finished = false;
  };
  std::map<std::string, const std::string*> texts_;
  std::map<std::string, One> files_;
};

// text's interval lines replayed `copies` times, each copy `shift_s` later.
std::string replayed(const std::string& text, int copies, double shift_s) {
  std::string head, body, out;
  size_t at = 0;
  std::vector<std::string> lines;
  while (at < text.size()) {
    size_t nl = text.find('\n', at);
    if (nl == std::string::npos) nl = text.size();
    const std::string line = text.substr(at, nl - at);
    at = nl + 1;
    if (line.empty()) continue;
    if (line[0] == '#' || line[0] == '"') head += line + "\n";
    else lines.push_back(line);
  }
  out = head;
  for (int c = 0; c < copies; ++c)
    for (const std::string& l : lines) {
      const bool tagged = l.rfind("Tag=", 0) == 0;
      const size_t f0 = tagged ? l.find(',') + 1 : 0;
      const size_t f1 = l.find(',', f0);
      char t[64];
      std::snprintf(t, sizeof t, "%.3f", std::stod(l.substr(f0, f1 - f0)) + shift_s * c);
      out += l.substr(0, f0) + t + l.substr(f1) + "\n";
    }
  return out;
}

std::string rows(const std::vector<Row>& rs) {
  std::string s;
  for (const Row& row : rs) {
    s.append(reinterpret_cast<const char*>(&row.t_ms), sizeof row.t_ms);
    s.append(reinterpret_cast<const char*>(&row.flags), sizeof row.flags);
    for (const PercentileValue& p : row.p)
      for (const double v : {p.value_ns, p.err_ns}) s.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  return s;
}

struct Kept : RowSink {
  std::vector<Row> rows;
  void add(const Row& r) override { rows.push_back(r); }
};

TEST(TimeOrder, RowsAreThoseOfTheWindowsHeldWhole) {
  const std::string dir = fixtures::path("hdr-processor");
  std::string tagged, rel;
  ASSERT_TRUE(fixtures::read_file(dir + "/sig3-tagged.hlog", &tagged));
  ASSERT_TRUE(fixtures::read_file(dir + "/sig1-rel.hlog", &rel));
  const std::string longer = replayed(tagged, 40, 24);
  for (const std::vector<std::pair<std::string, const std::string*>>& files :
       {std::vector<std::pair<std::string, const std::string*>>{{"a.hlog", &tagged}},
        std::vector<std::pair<std::string, const std::string*>>{{"long.hlog", &longer}},
        std::vector<std::pair<std::string, const std::string*>>{{"long.hlog", &longer}, {"rel.hlog", &rel}}})
    for (const double q : {1000.0, 300.0, 2500.0, 60000.0}) {
      QueryOptions o;
      o.method = Method::kHdr;
      o.quantum_ms = q;
      o.group_by = GroupBy{"tag"};
      StreamingQuery whole(o), twice(o);
      whole.set_fold(StreamingQuery::Fold::kByQuanta);
      std::map<std::string, const std::string*> texts;
      for (const auto& f : files) texts[f.first] = f.second;
      TextFeed feed(texts);
      twice.set_feed(&feed);
      for (const auto& [name, text] : files) {
        Engine a, b;
        FileOptions lines, digest;
        lines.reread = digest.reread = std::make_shared<TextLines>(text);
        const std::shared_ptr<DigestSink> sink = digest_sink(q);
        digest.hand_on = sink;
        const Source& kept = testing::feed(&a, name, *text, 0, lines);
        const Source& d = testing::feed(&b, name, *text, 0, digest);
        ASSERT_TRUE(sink->complete()) << name;
        ASSERT_EQ(kept.series.size(), d.series.size());
        for (size_t i = 0; i < d.series.size(); ++i) {
          const Series& s = d.series[i];
          ASSERT_TRUE(s.digest) << name;
          EXPECT_LE(s.windows.size(), 2u) << name;  // the first and the last
          // What the plan and the folder read of the windows, as from all of them.
          EXPECT_EQ(s.total(), kept.series[i].total()) << name;
          EXPECT_EQ(s.interval_ms, kept.series[i].interval_ms) << name;
          EXPECT_EQ(s.windows.front().start_ms, kept.series[i].windows.front().start_ms) << name;
          EXPECT_EQ(s.windows.back().end_ms, kept.series[i].windows.back().end_ms) << name;
          EXPECT_EQ(s.digest->windows, kept.series[i].windows.size()) << name;
        }
        ASSERT_TRUE(whole.add(kept).ok());
        ASSERT_TRUE(twice.add(d).ok());
      }
      QueryResult x, y;
      Kept kx, ky;
      ASSERT_TRUE(whole.finish(&x, &kx).ok());
      ASSERT_TRUE(twice.finish(&y, &ky).ok()) << q;
      ASSERT_GT(kx.rows.size(), 0u);
      EXPECT_EQ(rows(kx.rows), rows(ky.rows)) << files.size() << " files at " << q;
      EXPECT_EQ(x.notes, y.notes);
      EXPECT_EQ(x.groups, y.groups);
      // Asked in time order, a quantum's end at a time: never for the whole
      // log at once.
      ASSERT_GT(feed.asked.size(), 3u) << "windows read in steps, not at once";
      for (size_t i = 1; i < feed.asked.size(); ++i) EXPECT_GE(feed.asked[i], feed.asked[i - 1]) << i;
    }
}

// The CLI's own feed (core/cli/time_order_feed.h) on a file that is still
// being written (a live HdrHistogram log): read again, it gives the bytes
// of the first reading, so the rows are those of the log as it was then;
// cut shorter, it is an error that names it.
TEST(TimeOrder, TheCliFeedReadsALiveLogAsItWasFirstRead) {
  std::string tagged;
  ASSERT_TRUE(fixtures::read_file(fixtures::path("hdr-processor") + "/sig3-tagged.hlog", &tagged));
  const std::string first = replayed(tagged, 3, 24), later = replayed(tagged, 5, 24);
  ASSERT_EQ(later.compare(0, first.size(), first), 0);
  const std::string path = ::testing::TempDir() + "latscope_live.hlog";
  const auto write = [&path](const std::string& text) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    ASSERT_EQ(std::fwrite(text.data(), 1, text.size(), f), text.size());
    std::fclose(f);
  };
  QueryOptions o;
  o.method = Method::kHdr;
  o.group_by = GroupBy{"tag"};
  // The first reading (72 s) ends inside its last quantum, which the
  // intervals written later reach.
  o.quantum_ms = 60000;
  StreamingQuery whole(o);
  whole.set_fold(StreamingQuery::Fold::kByQuanta);
  Engine held;
  FileOptions lines;
  lines.reread = std::make_shared<TextLines>(&first);
  ASSERT_TRUE(whole.add(testing::feed(&held, path, first, 0, lines)).ok());
  QueryResult x;
  Kept kx;
  ASSERT_TRUE(whole.finish(&x, &kx).ok());
  ASSERT_GT(kx.rows.size(), 0u);
  for (const bool grown : {true, false}) {
    write(first);
    StreamingQuery twice(o);
    const FileOptions as_read;  // the CLI's FileOptions of the first reading
    cli::TimeOrderFeed feed(as_read);
    twice.set_feed(&feed);
    Engine e;
    FileOptions digest = as_read;
    digest.reread = cli::FileLines::for_plain_file(path, false);
    digest.hand_on = digest_sink(o.quantum_ms);
    ASSERT_TRUE(twice.add(testing::feed(&e, path, first, 0, digest)).ok());
    // Written on (two more replays), or cut before its last interval.
    write(grown ? later : first.substr(0, first.rfind('\n', first.size() - 2) + 1));
    QueryResult y;
    Kept ky;
    const Status st = twice.finish(&y, &ky);
    if (grown) {
      ASSERT_TRUE(st.ok()) << st.message;
      EXPECT_EQ(rows(kx.rows), rows(ky.rows));
      EXPECT_EQ(x.notes, y.notes);
    } else {
      EXPECT_FALSE(st.ok());
      EXPECT_NE(st.message.find("latscope_live.hlog: changed since it was first read"), std::string::npos)
          << st.message;
    }
  }
  std::remove(path.c_str());
}

// A file that lost windows between the two readings: an error naming it,
// not rows of whatever the second reading found.
TEST(TimeOrder, AFileChangedBetweenTheReadingsIsAnError) {
  std::string t;
  ASSERT_TRUE(fixtures::read_file(fixtures::path("hdr-processor") + "/sig3-tagged.hlog", &t));
  const std::string cut = t.substr(0, t.rfind('\n', t.size() - 2) + 1);  // its last interval gone
  QueryOptions o;
  o.method = Method::kHdr;
  o.group_by = GroupBy{"tag"};
  StreamingQuery q(o);
  TextFeed feed({{"a.hlog", &cut}});
  q.set_feed(&feed);
  Engine e;
  FileOptions f;
  f.reread = std::make_shared<TextLines>(&t);
  f.hand_on = digest_sink(o.quantum_ms);
  ASSERT_TRUE(q.add(testing::feed(&e, "a.hlog", t, 0, f)).ok());
  QueryResult r;
  Kept rows;
  const Status st = q.finish(&r, &rows);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message.find("a.hlog: changed since it was first read"), std::string::npos) << st.message;
}

// A series a digest cannot stand for: an interval ending before the one
// before it merges into that window (its bins then kept in data).
TEST(TimeOrder, AMergedWindowLeavesTheDigestIncomplete) {
  std::string t;
  ASSERT_TRUE(fixtures::read_file(fixtures::path("hdr-processor") + "/sig3-tagged.hlog", &t));
  size_t at = 0;
  for (int k = 0; k < 8; ++k) at = t.find('\n', at) + 1;
  const std::string merged = t + t.substr(at, t.find('\n', at) - at + 1);
  Engine e;
  FileOptions f;
  f.reread = std::make_shared<TextLines>(&merged);
  const std::shared_ptr<DigestSink> sink = digest_sink(1000);
  f.hand_on = sink;
  testing::feed(&e, "m.hlog", merged, 0, f);
  EXPECT_FALSE(sink->complete());
}

// Engine::query cannot sweep a digested series: an error, not rows of its
// first and last windows.
TEST(TimeOrder, ADigestedSeriesWithoutAFeedIsRefused) {
  std::string t;
  ASSERT_TRUE(fixtures::read_file(fixtures::path("hdr-processor") + "/sig3-tagged.hlog", &t));
  QueryOptions o;
  o.method = Method::kHdr;
  StreamingQuery q(o);
  q.set_fold(StreamingQuery::Fold::kByQuanta);
  Engine e;
  FileOptions f;
  f.reread = std::make_shared<TextLines>(&t);
  f.hand_on = digest_sink(1000);
  ASSERT_TRUE(q.add(testing::feed(&e, "a.hlog", t, 0, f)).ok());
  QueryResult r;
  const Status st = q.finish(&r);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message.find("no feed reads them again"), std::string::npos) << st.message;
}

}  // namespace
}  // namespace latscope
