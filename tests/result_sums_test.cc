// Levels summed over hosts (docs/result-format.md, "Levels summed over
// hosts"): a file of several levels and several hosts also holds its coarser
// levels with the host label dropped. Each such level holds what
// `reduce --keep dir --quantum Q` of the same logs holds, whether written
// whole (encode_result_levels, the reduce) or block by block from the hosts'
// own results (plan_merge_summed + write_merge, the merge); a file of one
// host keeps its LSLEVELS directory byte for byte.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "fixture_util.h"
#include "result_contents.h"
#include "latscope/result.h"
#include "latscope/result_stream.h"

namespace latscope {
namespace {

using fixtures::files_of;

std::vector<uint8_t> encode(const Result& r) {
  std::vector<uint8_t> b;
  EXPECT_TRUE(encode_result(r, &deflate_zlib, &b).ok());
  return b;
}

std::vector<uint8_t> slice(const std::vector<uint8_t>& b, const ResultLevel& l) {
  const auto at = static_cast<std::ptrdiff_t>(l.offset), n = static_cast<std::ptrdiff_t>(l.length);
  return std::vector<uint8_t>(b.begin() + at, b.begin() + at + n);
}

ReadAtFn reader_of(const std::vector<uint8_t>* bytes) {
  return [bytes](uint64_t off, uint64_t n, std::vector<uint8_t>* out, std::string* err) {
    if (off > bytes->size() || n > bytes->size() - off) {
      *err = "past the end";
      return false;
    }
    out->assign(bytes->begin() + static_cast<std::ptrdiff_t>(off), bytes->begin() + static_cast<std::ptrdiff_t>(off + n));
    return true;
  };
}

// Same series, coverage and cells, whatever the compressed bytes, and no host label left.
void expect_summed(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  expect_same_contents(a, b);
  Result x;
  ASSERT_TRUE(decode_result(a.data(), a.size(), &x).ok());
  for (const ResultSeries& s : x.series) EXPECT_EQ(s.labels.find("host"), nullptr);
}

const GroupBy kHosts{"host", "dir", "kind"};
const GroupBy kCluster{"dir", "kind"};

struct Set {
  const char* name;
  std::vector<std::string> files;  // of two or more hosts
  double finest;
  std::vector<double> levels;
};

std::vector<Set> sets() {
  return {
      {"cs", files_of("cs", "_clat_hist."), 250, {250, 1000, 5000}},
      {"fio-s1", files_of("fio-s1", "_clat_hist."), 100, {100, 1000, 6000}},
  };
}

TEST(ResultSums, EachSummedLevelIsTheReduceWithoutHost) {
  for (const Set& s : sets()) {
    SCOPED_TRACE(s.name);
    std::vector<uint8_t> multi;
    ASSERT_TRUE(encode_result_levels(fixtures::reduce_files(s.files, s.finest, kHosts), s.levels, &deflate_zlib, &multi).ok());
    std::vector<ResultLevel> dir, summed;
    ASSERT_TRUE(read_result_levels(multi.data(), multi.size(), &dir, &summed).ok());
    ASSERT_EQ(dir.size(), s.levels.size());
    // Every level but the finest, summed (the finest stays per host: docs/result-format.md).
    ASSERT_EQ(summed.size(), s.levels.size() - 1);
    for (size_t i = 0; i < summed.size(); ++i) {
      SCOPED_TRACE(summed[i].quantum_ms);
      EXPECT_EQ(summed[i].quantum_ms, s.levels[i + 1]);
      EXPECT_TRUE(summed[i].summed);
      EXPECT_FALSE(dir[i].summed);
      expect_summed(slice(multi, summed[i]), encode(fixtures::reduce_files(s.files, summed[i].quantum_ms, kCluster)));
      // The levels as kept are those of the hosts, as before.
      EXPECT_EQ(slice(multi, dir[i + 1]), encode(fixtures::reduce_files(s.files, s.levels[i + 1], kHosts)));
    }
    // The reader that asks for no sums sees the levels as kept alone.
    std::vector<ResultLevel> only;
    ASSERT_TRUE(read_result_levels(multi.data(), multi.size(), &only).ok());
    EXPECT_EQ(only.size(), dir.size());
  }
}

// The merge's way: each host's own result, read by ranges and added block
// by block with the host label dropped.
TEST(ResultSums, TheMergeBlockByBlockWritesTheSameSums) {
  for (const Set& s : sets()) {
    SCOPED_TRACE(s.name);
    std::vector<std::vector<uint8_t>> files;
    for (const char* host : {"127.0.0.1", "127.0.0.2"}) {
      std::vector<std::string> mine;
      for (const std::string& f : s.files)
        if (f.size() >= std::strlen(host) && f.compare(f.size() - std::strlen(host), std::string::npos, host) == 0)
          mine.push_back(f);
      ASSERT_FALSE(mine.empty()) << host;
      files.push_back(encode(fixtures::reduce_files(mine, s.finest, kHosts)));
    }
    std::vector<ResultBlockReader> in(files.size());
    std::vector<const Result*> heads;
    for (size_t i = 0; i < files.size(); ++i) {
      ASSERT_TRUE(in[i].open(reader_of(&files[i]), files[i].size()).ok());
      heads.push_back(&in[i].head());
    }
    MergePlan sums;
    ASSERT_TRUE(plan_merge_summed(heads, &sums));
    for (size_t k = 1; k < s.levels.size(); ++k) {
      const double q = s.levels[k];
      SCOPED_TRACE(q);
      std::vector<uint8_t> out;
      ResultEncoder enc(&deflate_zlib, vector_writer(&out));
      Result head = sums.head;
      head.quantum_ms = q;
      size_t bad = 0;
      Status st = enc.begin(head);
      if (st.ok()) st = write_merge(sums, &in, q, &enc, &bad);
      if (st.ok()) st = enc.finish();
      ASSERT_TRUE(st.ok()) << st.message;
      expect_summed(out, encode(fixtures::reduce_files(s.files, q, kCluster)));
    }
  }
}

TEST(ResultSums, OneHostKeepsItsDirectoryAsBefore) {
  const std::vector<std::string> one = files_of("cs", "_clat_hist.1.log.127.0.0.1");
  const Result r = fixtures::reduce_files(one, 250, kHosts);
  std::vector<uint8_t> multi;
  ASSERT_TRUE(encode_result_levels(r, {250, 1000}, &deflate_zlib, &multi).ok());
  std::vector<ResultLevel> dir, summed;
  ASSERT_TRUE(read_result_levels(multi.data(), multi.size(), &dir, &summed).ok());
  EXPECT_EQ(dir.size(), 2u);
  EXPECT_TRUE(summed.empty());
  uint64_t dir_at = 0;
  for (int i = 0; i < 8; ++i) dir_at |= uint64_t{multi[multi.size() - 16 + static_cast<size_t>(i)]} << (8 * i);
  EXPECT_EQ(std::memcmp(multi.data() + dir_at, "LSLEVELS", 8), 0);
  MergePlan plan;
  EXPECT_FALSE(plan_merge_summed({&r}, &plan));
}

}  // namespace
}  // namespace latscope
