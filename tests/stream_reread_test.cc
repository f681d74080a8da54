// HdrHistogram windows whose bins are left in the file (FileOptions::reread,
// model.h Series::line_at) and decoded again by the fold: the same windows,
// bins and rows, bit for bit, as the bins kept in memory (docs/quanta.md,
// "Memory: the fold by quanta").
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <memory>

#include "fixture_util.h"
#include "latscope/report.h"
#include "latscope/stream.h"
#include "test_util.h"

namespace latscope {
namespace {

using testing::TextLines;

std::vector<std::string> hlogs() {
  std::vector<std::string> out;
  for (const char* dir : {"hdr-processor", "../golden/hdr"})
    for (const auto& e : std::filesystem::directory_iterator(fixtures::path(dir))) {
      const std::string p = e.path().string();
      if (p.size() > 5 && p.compare(p.size() - 5, 5, ".hlog") == 0 && e.path().filename().string()[0] != 'n')
        out.push_back(p);
    }
  std::sort(out.begin(), out.end());
  return out;
}

// An interval ending before the one before it joins that window (format.cc):
// the copy of an early line at the end makes one, kept in data.
std::string with_merge(const std::string& text) {
  size_t at = 0;
  for (int k = 0; k < 8; ++k) at = text.find('\n', at) + 1;
  const size_t end = text.find('\n', at);
  return text + text.substr(at, end - at + 1);
}

std::string rows(const QueryResult& r) {
  std::string s = pctiles_csv(r, {"p50", "p99", "p99.9", "p100"}, Unit::kNs);
  for (const Row& row : r.rows)  // every bit, beyond the CSV's digits
    for (const PercentileValue& p : row.p)
      for (const double v : {p.value_ns, p.err_ns}) s.append(reinterpret_cast<const char*>(&v), sizeof v);
  return s;
}

TEST(StreamReread, WindowsAndBinsAreThoseKeptInMemory) {
  for (const std::string& f : hlogs()) {
    std::string text;
    ASSERT_TRUE(fixtures::read_file(f, &text));
    for (const bool merged : {false, true})
      for (const size_t chunk : {size_t{1}, size_t{100}, size_t{0}}) {
        const std::string t = merged ? with_merge(text) : text;
        Engine a, b;
        FileOptions by_ref;
        by_ref.reread = std::make_shared<TextLines>(&t);
        const Source& kept = testing::feed(&a, f, t, chunk);
        const Source& left = testing::feed(&b, f, t, chunk, by_ref);
        ASSERT_EQ(kept.series.size(), left.series.size()) << f;
        size_t in_file = 0;
        for (size_t i = 0; i < kept.series.size(); ++i) {
          const Series& x = kept.series[i];
          const Series& y = left.series[i];
          ASSERT_EQ(x.windows.size(), y.windows.size()) << f;
          ASSERT_EQ(y.line_at.size(), y.windows.size()) << f;
          std::vector<uint32_t> xb, yb;
          std::vector<uint64_t> xc, yc;
          for (size_t w = 0; w < x.windows.size(); ++w) {
            EXPECT_EQ(x.windows[w].start_ms, y.windows[w].start_ms);
            EXPECT_EQ(x.windows[w].end_ms, y.windows[w].end_ms);
            EXPECT_EQ(x.windows[w].total, y.windows[w].total);
            x.decode(x.windows[w], &xb, &xc);
            ASSERT_TRUE(y.decode_at(w, &yb, &yc).ok()) << f << " window " << w;
            EXPECT_EQ(xb, yb) << f << " window " << w;
            EXPECT_EQ(xc, yc) << f << " window " << w;
            in_file += y.line_at[w] != Series::kBinsInData;
          }
          EXPECT_LT(y.data.size(), x.data.size() / 2 + 64) << f;  // the bins were not kept
        }
        EXPECT_GT(in_file, 0u) << f;
        // sig3-tagged.hlog's copied line ends before its series' last
        // window: merged into it, that window's bins are kept in data.
        if (merged && f.find("sig3-tagged") != std::string::npos) {
          size_t in_data = 0;
          for (const Series& y : left.series)
            for (const uint64_t at : y.line_at) in_data += at == Series::kBinsInData;
          EXPECT_EQ(in_data, 1u) << f << " chunk " << chunk;
        }
      }
  }
}

TEST(StreamReread, FoldsToTheSameRowsBitForBit) {
  const std::string dir = fixtures::path("hdr-processor");
  for (const std::vector<std::string>& files :
       {std::vector<std::string>{dir + "/sig3-tagged.hlog"}, std::vector<std::string>{dir + "/mixed-config.hlog"},
        std::vector<std::string>{dir + "/sig3-tagged.hlog", dir + "/sig1-rel.hlog"}}) {
    std::vector<std::string> texts(files.size());
    for (size_t i = 0; i < files.size(); ++i) ASSERT_TRUE(fixtures::read_file(files[i], &texts[i]));
    texts[0] = with_merge(texts[0]);
    for (const double q : {1000.0, 300.0, 2500.0})
      for (const auto how : {StreamingQuery::Fold::kChoose, StreamingQuery::Fold::kByFile,
                             StreamingQuery::Fold::kByQuanta}) {
        QueryOptions o;
        o.method = Method::kHdr;
        o.quantum_ms = q;
        if (files.front().find("tagged") != std::string::npos) o.group_by = GroupBy{"tag"};
        StreamingQuery kept(o), left(o);
        kept.set_fold(how);
        left.set_fold(how);
        size_t reads = 0;
        std::vector<std::shared_ptr<TextLines>> lines;
        for (size_t i = 0; i < files.size(); ++i) {
          Engine a, b;
          FileOptions by_ref;
          lines.push_back(std::make_shared<TextLines>(&texts[i]));
          by_ref.reread = lines.back();
          ASSERT_TRUE(kept.add(testing::feed(&a, files[i], texts[i])).ok());
          ASSERT_TRUE(left.add(testing::feed(&b, files[i], texts[i], 0, by_ref)).ok());
        }
        QueryResult x, y;
        const Status sx = kept.finish(&x), sy = left.finish(&y);
        ASSERT_TRUE(sx.ok()) << sx.message;
        ASSERT_TRUE(sy.ok()) << sy.message;
        for (const auto& l : lines) reads += l->reads;
        EXPECT_GT(reads, 0u);  // the bins came from the text again
        EXPECT_GT(x.rows.size(), 2u);
        EXPECT_EQ(rows(x), rows(y)) << files.back() << ", quantum " << q;
        EXPECT_EQ(x.notes, y.notes);
      }
  }
}

TEST(StreamReread, AFileChangedSinceItWasReadIsAnError) {
  const std::string f = fixtures::path("hdr-processor/sig3-tagged.hlog");
  std::string text;
  ASSERT_TRUE(fixtures::read_file(f, &text));
  std::string shown = text;
  QueryOptions o;
  o.group_by = GroupBy{"tag"};
  StreamingQuery q(o);
  Engine e;
  FileOptions by_ref;
  by_ref.reread = std::make_shared<TextLines>(&shown);
  ASSERT_TRUE(q.add(testing::feed(&e, f, text, 0, by_ref)).ok());
  // Its interval lines now start one byte later: none reads where it was.
  shown = "\n" + text;
  QueryResult r;
  const Status st = q.finish(&r);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message.find("sig3-tagged.hlog: byte "), std::string::npos) << st.message;
  EXPECT_NE(st.message.find("changed"), std::string::npos) << st.message;
}

}  // namespace
}  // namespace latscope
