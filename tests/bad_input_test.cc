// The bad-input corpus: each malformed input gets its documented counter or
// message, the good lines around it survive, and nothing crashes.
#include <gtest/gtest.h>

#include <random>

#include "latscope/engine.h"
#include "test_util.h"

namespace latscope {
namespace {

using testing::feed;
using testing::hist_line;

const std::string kGood1 = hist_line(1000, 0, {{150, 10}});
const std::string kGood2 = hist_line(2000, 0, {{150, 10}});

struct Case {
  const char* name;
  std::string text;
  Issue issue;
  uint64_t line;  // line of the first example
  uint64_t records;
};

std::string replace_first_bin(const std::string& line, const std::string& with) {
  std::string s = line;
  const size_t p = s.find(", 4096, ") + 8;
  return s.replace(p, 1, with);
}

TEST(BadInput, EachDefectHasItsCounterAndGoodLinesSurvive) {
  std::string crlf = kGood1;
  crlf.insert(crlf.size() - 1, "\r");
  std::string trailing = kGood1;
  trailing.insert(trailing.size() - 1, "   ");
  const std::vector<Case> cases = {
      {"truncated", kGood1 + kGood2.substr(0, 200), Issue::kTruncatedLine, 2, 1},
      {"column-count", kGood1 + hist_line(2000, 0, {}, 1) + kGood2, Issue::kColumnCount, 2, 2},
      {"not-a-number", kGood1 + replace_first_bin(kGood2, "x"), Issue::kNotANumber, 2, 1},
      {"negative", kGood1 + replace_first_bin(kGood2, "-5"), Issue::kNegativeValue, 2, 1},
      {"overflow", kGood1 + replace_first_bin(kGood2, "99999999999999999999"), Issue::kOverflow, 2, 1},
      {"bad-ddir", kGood1 + hist_line(2000, 7, {}), Issue::kBadDirection, 2, 1},
      {"nul-bytes", kGood1 + replace_first_bin(kGood2, std::string("\0\0", 2)), Issue::kBinaryGarbage, 2, 1},
      {"crlf", crlf + kGood2, Issue::kCarriageReturn, 1, 2},
      {"blank-line", kGood1 + "   \n" + kGood2, Issue::kEmptyLine, 2, 2},
  };
  for (const Case& c : cases) {
    Engine e;
    const Source& s = feed(&e, "bad_clat_hist.1.log", c.text);
    SCOPED_TRACE(c.name);
    ASSERT_TRUE(s.status.ok()) << s.status.message;
    EXPECT_EQ(s.records, c.records);
    EXPECT_EQ(s.diag.count(c.issue), 1u);
    bool found = false;
    for (const IssueExample& ex : s.diag.examples())
      if (ex.issue == c.issue) {
        EXPECT_EQ(ex.line, c.line);
        EXPECT_GT(ex.column, 0u);
        EXPECT_FALSE(ex.text.empty());
        found = true;
      }
    EXPECT_TRUE(found);
    const Severity sev = issue_info(c.issue).severity;
    EXPECT_EQ(s.diag.skipped_lines(), sev == Severity::kError ? 1u : 0u);
  }
}

TEST(BadInput, TrailingSpacesAreAccepted) {
  std::string t = kGood1;
  t.insert(t.size() - 1, "  \t ");
  Engine e;
  const Source& s = feed(&e, "t_clat_hist.1.log", t + kGood2);
  ASSERT_TRUE(s.status.ok());
  EXPECT_EQ(s.records, 2u);
  EXPECT_TRUE(s.diag.empty());
}

// fio leaves empty logs itself (a slat log of a synchronous ioengine:
// tests/fixtures/fio-versions/*/v_slat.1.log): named as ignored, no error.
// Blank characters only are a broken file.
TEST(BadInput, EmptyFileIsIgnoredAndNamed) {
  Engine e;
  const Source& s = feed(&e, "empty_clat_hist.1.log", "");
  EXPECT_TRUE(s.status.ok());
  EXPECT_EQ(s.format, FileFormat::kIgnored);
  EXPECT_NE(s.ignored.find("empty fio log: fio logged nothing in it"), std::string::npos) << s.ignored;
  // The reason that fits the name: a histogram log's job was shorter than
  // one log_hist_msec interval; a slat log's ioengine was synchronous.
  EXPECT_NE(s.ignored.find("a job shorter than one interval leaves it empty"), std::string::npos) << s.ignored;
  EXPECT_EQ(feed(&e, "x_slat.1.log", "").ignored,
            "empty fio log: fio logged nothing in it, as a synchronous ioengine has no submission latency");
  EXPECT_EQ(feed(&e, "x_clat.1.log", "").ignored, "empty fio log: fio logged nothing in it");
  EXPECT_EQ(feed(&e, "x.hlog", "").ignored, "empty HdrHistogram log: nothing was logged in it");
  const Source& t = feed(&e, "notes.txt", "");
  EXPECT_EQ(t.ignored, "empty file");
  const Source& b = feed(&e, "blank_clat_hist.1.log", "  \n\n");
  EXPECT_FALSE(b.status.ok());
  EXPECT_NE(b.status.message.find("only blank characters"), std::string::npos) << b.status.message;
}

// Binary data is no latency log: ignored and named, unless its name says it
// should have been one; then it is a broken log with its own message.
TEST(BadInput, BinaryGarbageIsIgnoredOrBrokenByName) {
  std::string junk;
  std::mt19937 rng(1);
  for (int i = 0; i < 5000; ++i) junk += static_cast<char>(rng() & 0xff);
  junk[0] = '\x89';
  Engine e;
  const Source& a = feed(&e, "junk.bin", junk);
  EXPECT_TRUE(a.status.ok());
  EXPECT_TRUE(a.format == FileFormat::kIgnored);
  EXPECT_EQ(a.ignored, "binary data");
  const Source& b = feed(&e, "x_clat_hist.1.log", junk);
  EXPECT_FALSE(b.status.ok());
  EXPECT_EQ(b.status.message, "x_clat_hist.1.log: named like a fio histogram log but holds binary data; not read")
      << b.status.message;
}

// A file whose head shows it is no latency log wants no more bytes: readers
// stop there (a fio data file of gigabytes in a results folder), and the
// Source says the same as after every byte.
TEST(BadInput, AFileThatIsNoLogWantsNoMoreBytesAfterItsHead) {
  std::string junk(size_t{1} << 20, '\0');
  std::mt19937 rng(2);
  for (char& c : junk) c = static_cast<char>(rng() & 0xff);
  for (const std::string name : {"fio.0.0", "x_clat_hist.1.log"}) {
    Engine whole, head;
    const int hw = whole.open_file(name), hh = head.open_file(name);
    EXPECT_TRUE(head.wants_bytes(hh)) << "nothing seen yet";
    size_t fed = 0;
    while (fed < junk.size() && head.wants_bytes(hh)) {
      head.append(hh, junk.data() + fed, 4096);
      fed += 4096;
    }
    EXPECT_LT(fed, junk.size() / 8) << name << ": decided from its head";
    whole.append(hw, junk.data(), junk.size());
    const Source& a = whole.finish(hw);
    const Source& b = head.finish(hh);
    EXPECT_EQ(a.format, b.format) << name;
    EXPECT_EQ(a.ignored, b.ignored) << name;
    EXPECT_EQ(a.status.message, b.status.message) << name;
  }
  // A log wants every byte.
  Engine e;
  const int h = e.open_file("a_clat_hist.1.log");
  const std::string line = "1000, 0, 4096" + std::string(", 0") + "\n";
  e.append(h, line.data(), line.size());
  EXPECT_TRUE(e.wants_bytes(h));
  EXPECT_FALSE(e.wants_bytes(h + 1)) << "no such file";
}

TEST(BadInput, TextThatIsNoLayoutIsUnusable) {
  Engine e;
  const Source& s = feed(&e, "short.log", "1000, 0, 4096, 1, 2, 3, 4, 5, 6, 7\n2000, 0, 4096, 1, 2, 3, 4, 5, 6, 7\n");
  EXPECT_FALSE(s.status.ok());
  EXPECT_NE(s.status.message.find("short.log:1:1: not a fio histogram log: 7 bin columns match no fio layout"),
            std::string::npos)
      << s.status.message;
}

TEST(BadInput, OverlongLineIsCutAndCounted) {
  std::string longline(3u << 20, '1');
  Engine e;
  const Source& s = feed(&e, "l_clat_hist.1.log", kGood1 + longline + "\n" + kGood2, 65536);
  ASSERT_TRUE(s.status.ok());
  EXPECT_EQ(s.records, 2u);
  EXPECT_EQ(s.diag.count(Issue::kBinaryGarbage), 1u);
}

TEST(BadInput, MixedLayoutsAcrossFilesAreMergedAndReported) {
  Engine e;
  feed(&e, "a_clat_hist.1.log", hist_line(1000, 0, {{200, 8}}));
  feed(&e, "b_clat_hist.1.log", hist_line(1000, 0, {{50, 8}}, 2));
  QueryResult r;
  ASSERT_TRUE(e.query({}, &r).ok());
  EXPECT_EQ(r.layout_id, "fio3/c2");
  EXPECT_EQ(r.diag.count(Issue::kMixedLayouts), 1u);
  EXPECT_EQ(r.rows[0].stats.samples, 16);  // nothing lost in the re-binning
}

// Random damage to a real log never crashes or hangs, and every line is
// either accepted or counted.
TEST(BadInput, RandomMutationsNeverCrash) {
  std::string base;
  for (int k = 1; k <= 6; ++k) base += hist_line(k * 1000, k % 2, {{150, 10}, {300, 2}});
  std::mt19937 rng(42);
  for (int iter = 0; iter < 300; ++iter) {
    std::string t = base;
    const int edits = 1 + static_cast<int>(rng() % 20);
    for (int i = 0; i < edits; ++i) {
      const size_t pos = rng() % t.size();
      switch (rng() % 4) {
        case 0: t[pos] = static_cast<char>(rng() & 0xff); break;
        case 1: t.erase(pos, 1 + rng() % 50); break;
        case 2: t.insert(pos, 1, static_cast<char>("0123456789,- \n\r"[rng() % 15])); break;
        case 3: t.resize(pos); break;
      }
      if (t.empty()) t = "\n";
    }
    Engine e;
    const Source& s = feed(&e, "m_clat_hist.1.log", t, 1 + rng() % 300);
    if (s.status.ok()) {
      uint64_t blank = s.diag.count(Issue::kEmptyLine);
      EXPECT_EQ(s.records + s.diag.skipped_lines() + blank, s.lines) << iter;
      QueryResult r;
      EXPECT_TRUE(e.query({}, &r).ok());
    } else {
      EXPECT_FALSE(s.status.message.empty());
    }
  }
}

}  // namespace
}  // namespace latscope
