// The per-host percentile matrix (docs/result-format.md, "Per-host
// percentile matrix (version 4)"): each level's rows, read back from the
// file, print exactly what `pctiles --group-by host --quantum L` prints on
// the logs; a version 4 file's histograms decode as the file they are; a
// damaged matrix is named (block, level, what), never trusted.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "fixture_util.h"
#include "matrix_fixture.h"
#include "latscope/options_json.h"
#include "latscope/report.h"
#include "latscope/result.h"
#include "latscope/result_matrix.h"
#include "test_util.h"

namespace latscope {
namespace {

using fixtures::files_of;
using fixtures::host_query;
using fixtures::pctiles_of_files;
using fixtures::reader_of;
using fixtures::with_matrix;

// The level's rows read back and printed as pctiles prints them; the error otherwise.
std::string matrix_csv(const std::vector<uint8_t>& bytes, double level,
                       const std::vector<std::string>& labels = default_percentile_labels()) {
  MatrixReader m;
  bool has = false;
  Status st = m.open(reader_of(&bytes), bytes.size(), &has);
  if (!st.ok()) return st.message;
  if (!has) return "no matrix";
  uint32_t li = 0;
  while (li < m.head().levels.size() && m.head().levels[li] != level) ++li;
  if (li == m.head().levels.size()) return "no level";
  std::vector<MatrixRow> rows, block;
  for (size_t b = 0; b < m.blocks().size(); ++b) {
    if (m.blocks()[b].level != li) continue;
    st = m.read(b, &block);
    if (!st.ok()) return st.message;
    rows.insert(rows.end(), block.begin(), block.end());
  }
  QueryResult r;
  matrix_query_result(m.head(), li, &rows, &r);
  return pctiles_csv(r, labels, Unit::kUs);
}

struct Set {
  const char* name;
  std::vector<std::string> files;
  double quantum;
  std::vector<double> levels;
};

std::vector<Set> sets() {
  // fio-s1 and cs: two hosts each (client mode names them); epoch: the
  // epoch clock. Reduced finer than the logs' 1 s windows, each level at
  // least 1 s: a level finer than the logs' windows would not flag its rows
  // `finer` (a result is read as whole cells, docs/result-format.md).
  return {{"fio-s1", files_of("fio-s1", "_clat_hist."), 500, {1000, 5000, 10000}},
          {"cs", files_of("cs", "_clat_hist."), 250, {1000, 2000}},
          {"epoch", files_of("epoch", "_clat_hist."), 1000, {1000, 10000, 60000}}};
}

TEST(ResultMatrix, EachLevelPrintsWhatPctilesByHostPrintsOnTheLogs) {
  for (const Set& s : sets()) {
    SCOPED_TRACE(s.name);
    ASSERT_FALSE(s.files.empty());
    const std::vector<uint8_t> bytes = with_matrix(fixtures::reduce_files(s.files, s.quantum), s.levels);
    for (double l : s.levels) {
      SCOPED_TRACE(l);
      const std::string want = pctiles_of_files(s.files, host_query(l));
      ASSERT_GT(want.size(), 100u);
      EXPECT_EQ(matrix_csv(bytes, l), want);
    }
  }
}

TEST(ResultMatrix, SmallBlocksGiveTheSameRows) {
  // Several time blocks and group chunks per level: rows are reassembled in
  // (time, group) order whatever the blocking.
  const Set s = sets()[0];
  const Result r = fixtures::reduce_files(s.files, s.quantum);
  std::vector<uint8_t> first;  // for its head: groups, percentiles, levels
  MatrixWriter w(&deflate_zlib, vector_writer(&first));
  MatrixHead head;
  ASSERT_TRUE(build_result_matrix(r, QueryOptions(), default_percentile_labels(), {1000}, &head, &w).ok());
  QueryResult q;
  head.quanta_per_block = 3;
  head.groups_per_block = 1;
  std::vector<uint8_t> hist, small = result_matrix_head();
  ASSERT_TRUE(encode_result(r, &deflate_zlib, &hist).ok());
  small.insert(small.end(), hist.begin(), hist.end());
  const uint64_t mx = small.size();
  MatrixWriter w2(&deflate_zlib, vector_writer(&small));
  ASSERT_TRUE(w2.begin(head).ok());
  Engine e;
  std::string text;
  for (const std::string& f : s.files) {
    ASSERT_TRUE(fixtures::read_file(f, &text));
    testing::feed(&e, f, text);
  }
  QueryOptions o = host_query(1000);
  o.bands = false;
  ASSERT_TRUE(e.query(o, &q).ok());
  ASSERT_TRUE(write_matrix_level(head, 0, q, &w2).ok());
  ASSERT_TRUE(w2.finish().ok());
  const uint64_t parts = small.size();
  const std::vector<uint8_t> tail = result_parts_tail(12, hist.size(), mx, parts - mx, parts);
  small.insert(small.end(), tail.begin(), tail.end());
  MatrixReader m;
  bool has = false;
  ASSERT_TRUE(m.open(reader_of(&small), small.size(), &has).ok());
  EXPECT_GT(m.blocks().size(), 10u);
  EXPECT_EQ(matrix_csv(small, 1000), pctiles_of_files(s.files, host_query(1000)));
}

TEST(ResultMatrix, Version4HistogramsDecodeAsTheirOwnFile) {
  const Set s = sets()[1];
  const Result r = fixtures::reduce_files(s.files, s.quantum);
  std::vector<uint8_t> v2;
  ASSERT_TRUE(encode_result(r, &deflate_zlib, &v2).ok());
  const std::vector<uint8_t> v4 = with_matrix(r, s.levels);
  EXPECT_EQ(v4[8], 4);
  Result a, b;
  ASSERT_TRUE(decode_result(v2.data(), v2.size(), &a).ok());
  const Status st = decode_result(v4.data(), v4.size(), &b);
  ASSERT_TRUE(st.ok()) << st.message;
  std::vector<uint8_t> ea, eb;
  ASSERT_TRUE(encode_result(a, &deflate_zlib, &ea).ok());
  ASSERT_TRUE(encode_result(b, &deflate_zlib, &eb).ok());
  EXPECT_EQ(ea, eb);
  // Read by ranges, as merge reads it.
  ResultBlockReader br;
  ASSERT_TRUE(br.open(reader_of(&v4), v4.size()).ok());
  EXPECT_EQ(br.head().series.size(), r.series.size());
  // A file without a matrix says so, and is no error.
  MatrixReader m;
  bool has = true;
  ASSERT_TRUE(m.open(reader_of(&v2), v2.size(), &has).ok());
  EXPECT_FALSE(has);
}

TEST(ResultMatrix, CommittedVersion4FileMatchesItsLogs) {
  // latscope reduce --keep host --matrix 1000,2000 --percentiles 50,99
  //   cs/cs_clat_hist.1.log.127.0.0.1 -o tests/fixtures/result/v4-cs.lsr
  std::string text;
  ASSERT_TRUE(fixtures::read_file(std::string(LATSCOPE_FIXTURES) + "/result/v4-cs.lsr", &text));
  const std::vector<uint8_t> bytes(text.begin(), text.end());
  const std::vector<std::string> files{std::string(LATSCOPE_FIXTURES) + "/cs/cs_clat_hist.1.log.127.0.0.1"};
  for (double l : {1000.0, 2000.0}) {
    QueryOptions o = host_query(l);
    o.percentiles = {50, 99};
    EXPECT_EQ(matrix_csv(bytes, l, {"p50", "p99"}), pctiles_of_files(files, o, {"p50", "p99"}));
  }
  Result r;
  EXPECT_TRUE(decode_result(bytes.data(), bytes.size(), &r).ok());
  EXPECT_EQ(r.series.size(), 1u);
}

TEST(ResultMatrix, ADamagedMatrixIsNamed) {
  const Set s = sets()[0];
  const std::vector<uint8_t> good = with_matrix(fixtures::reduce_files(s.files, s.quantum), s.levels);
  MatrixReader m;
  bool has = false;
  ASSERT_TRUE(m.open(reader_of(&good), good.size(), &has).ok());
  ASSERT_TRUE(has);
  // The parts directory's own offset, then the matrix section's start.
  const uint64_t parts_at = good.size() - kResultPartsTail;
  uint64_t mx_at = 0;
  for (int k = 0; k < 8; ++k) mx_at |= uint64_t{good[static_cast<size_t>(parts_at + 24 + k)]} << (8 * k);
  // A block's deflate stream broken: that block, its level, what.
  {
    std::vector<uint8_t> bad = good;
    const MatrixBlock& b = m.blocks()[2];
    bad[static_cast<size_t>(mx_at + b.offset + 4)] ^= 0xff;
    EXPECT_EQ(matrix_csv(bad, s.levels[b.level]).rfind("result: matrix: block 2 (level " +
                                                        quantum_text(s.levels[b.level]) + " ms): ", 0), 0u)
        << matrix_csv(bad, s.levels[b.level]);
  }
  // Truncated: the parts directory is gone.
  {
    std::vector<uint8_t> cut(good.begin(), good.end() - 7);
    EXPECT_EQ(matrix_csv(cut, 1000), "result: parts: truncated or no LSPARTS directory at the end");
    Result r;
    EXPECT_EQ(decode_result(cut.data(), cut.size(), &r).message,
              "result: parts: truncated or no LSPARTS directory at the end");
  }
  // An index entry that does not follow its neighbour.
  {
    std::vector<uint8_t> bad = good;
    uint64_t ix = 0;
    const size_t trail = static_cast<size_t>(parts_at - 16);
    for (int k = 0; k < 8; ++k) ix |= uint64_t{bad[trail + k]} << (8 * k);
    bad[static_cast<size_t>(mx_at + ix + 12 + 36 + 24)] ^= 1;  // entry 1's offset (section version 2: 36-byte entries)
    EXPECT_EQ(matrix_csv(bad, 1000), "result: matrix: index: entry 1: does not follow the block before it");
  }
  // A level's time span beyond its blocks (a merge would list every quantum in it).
  {
    std::vector<uint8_t> bad = good;
    uint64_t ix = 0;
    const size_t trail = static_cast<size_t>(parts_at - 16);
    for (int k = 0; k < 8; ++k) ix |= uint64_t{bad[trail + k]} << (8 * k);
    const double far = 1e300;
    std::memcpy(&bad[static_cast<size_t>(mx_at + ix + 12 + 36 * m.blocks().size() + 8)], &far, 8);
    EXPECT_EQ(matrix_csv(bad, 1000), "result: matrix: index: level 0's time span is not its blocks'");
  }
  // Section version 2's entries say how many groups their block holds: none is refused.
  {
    std::vector<uint8_t> bad = good;
    uint64_t ix = 0;
    const size_t trail = static_cast<size_t>(parts_at - 16);
    for (int k = 0; k < 8; ++k) ix |= uint64_t{bad[trail + k]} << (8 * k);
    std::memset(&bad[static_cast<size_t>(mx_at + ix + 12 + 36 + 16)], 0, 4);  // entry 1's groups
    EXPECT_EQ(matrix_csv(bad, 1000).rfind("result: matrix: index: entry 1: 0 groups from group ", 0), 0u)
        << matrix_csv(bad, 1000);
  }
  // The section's end mark.
  {
    std::vector<uint8_t> bad = good;
    bad[static_cast<size_t>(parts_at - 2)] ^= 0xff;
    EXPECT_EQ(matrix_csv(bad, 1000), "result: matrix: trailer: no LSMXEND end mark");
  }
}

// The matrices of `inputs` merged as `latscope merge` merges them ("Merging
// the matrix"), in a version 4 file whose histograms are `hist`.
struct Merged {
  std::vector<uint8_t> bytes;
  uint64_t copied = 0, deflated = 0;
};
Merged merge_matrices(const std::vector<std::vector<uint8_t>>& inputs, const std::vector<uint8_t>& hist) {
  Merged m;
  std::vector<MatrixReader> readers(inputs.size());
  std::vector<const MatrixHead*> heads;
  std::vector<std::string> names;
  for (size_t i = 0; i < inputs.size(); ++i) {
    bool has = false;
    EXPECT_TRUE(readers[i].open(reader_of(&inputs[i]), inputs[i].size(), &has).ok());
    heads.push_back(&readers[i].head());
    names.push_back("input" + std::to_string(i));
  }
  MatrixMergePlan plan;
  std::string why;
  EXPECT_TRUE(plan_matrix_merge(heads, names, &plan, &why)) << why;
  m.bytes = result_matrix_head();
  m.bytes.insert(m.bytes.end(), hist.begin(), hist.end());
  const uint64_t mx = m.bytes.size();
  MatrixWriter w(&deflate_zlib, vector_writer(&m.bytes));
  size_t bad_input = 0;
  const Status st = write_matrix_merge(plan, &readers, &w, &bad_input);
  EXPECT_TRUE(st.ok()) << st.message;
  m.copied = w.copied();
  m.deflated = w.deflated();
  const uint64_t parts = m.bytes.size();
  const std::vector<uint8_t> tail = result_parts_tail(12, hist.size(), mx, parts - mx, parts);
  m.bytes.insert(m.bytes.end(), tail.begin(), tail.end());
  return m;
}

// Each block's compressed bytes as the file stores them.
std::vector<std::vector<uint8_t>> stored_blocks(const std::vector<uint8_t>& bytes) {
  MatrixReader m;
  bool has = false;
  EXPECT_TRUE(m.open(reader_of(&bytes), bytes.size(), &has).ok());
  std::vector<std::vector<uint8_t>> out(m.blocks().size());
  for (size_t b = 0; b < out.size(); ++b) EXPECT_TRUE(m.read_stored(b, &out[b]).ok());
  return out;
}

// The cs fixture's two hosts, each reduced alone with its matrix (as each host's reduce writes it).
struct OneHostEach {
  Set s = sets()[1];
  std::vector<std::vector<std::string>> files{{}, {}};
  std::vector<std::vector<uint8_t>> results;
  std::vector<uint8_t> hist;
  OneHostEach() {
    for (const std::string& f : s.files) files[f.find("127.0.0.1") != std::string::npos ? 0 : 1].push_back(f);
    for (const auto& one : files) results.push_back(with_matrix(fixtures::reduce_files(one, s.quantum), s.levels));
    EXPECT_TRUE(encode_result(fixtures::reduce_files(s.files, s.quantum), &deflate_zlib, &hist).ok());
  }
};

TEST(ResultMatrix, AMergeOfSingleHostsCopiesTheirBlocksAsStored) {
  // Section version 2 (docs/result-format.md, "Blocks copied as stored
  // (matrix section version 2)"): a host's block that already lists the
  // host at every quantum of the merge's span is copied byte for byte, not
  // inflated into rows and deflated again, and the merge still answers
  // exactly what the logs answer at every level.
  const OneHostEach h;
  ASSERT_FALSE(h.files[0].empty());
  ASSERT_FALSE(h.files[1].empty());
  const Merged m = merge_matrices(h.results, h.hist);
  EXPECT_GT(m.copied, 0u);
  for (double l : h.s.levels) {
    SCOPED_TRACE(l);
    EXPECT_EQ(matrix_csv(m.bytes, l), pctiles_of_files(h.s.files, host_query(l)));
  }
  // The copied blocks are the inputs' bytes.
  std::vector<std::vector<uint8_t>> in;
  for (const auto& r : h.results)
    for (auto& b : stored_blocks(r)) in.push_back(std::move(b));
  uint64_t same = 0;
  for (const auto& b : stored_blocks(m.bytes)) same += std::find(in.begin(), in.end(), b) != in.end() ? 1 : 0;
  EXPECT_EQ(same, m.copied);
}

TEST(ResultMatrix, AMergedMatrixMergesAgain) {
  // A merge's blocks are version 2 blocks like a host's: merged again (one
  // host's merge, then with the other host) they are copied again and the
  // answer is the logs' at every level.
  const OneHostEach h;
  const Merged first = merge_matrices({h.results[0]}, h.hist);
  EXPECT_EQ(first.deflated, 0u);  // one input: every block holds its whole span
  const Merged again = merge_matrices({first.bytes, h.results[1]}, h.hist);
  EXPECT_GT(again.copied, 0u);
  const Merged direct = merge_matrices(h.results, h.hist);
  EXPECT_EQ(again.bytes, direct.bytes);
  for (double l : h.s.levels) {
    SCOPED_TRACE(l);
    EXPECT_EQ(matrix_csv(again.bytes, l), pctiles_of_files(h.s.files, host_query(l)));
  }
}

TEST(ResultMatrix, AMergeSpanningMoreThanAQueryAxisIsRefused) {
  // Memory is one block whatever the span ("Merging the matrix"); what a
  // merge lists is bounded as a query's axis is (query/axis.h): a host
  // 600 days after the other would list 51.8 million quanta of 1 s for
  // every host, and is refused before anything is written.
  // Epoch-clock quanta, so each host's axis starts at its own data.
  const OneHostEach h;
  Result early_r = fixtures::reduce_files(h.files[0], h.s.quantum);
  early_r.absolute_time = true;
  const Result late_r = [&] {
    Result r = fixtures::reduce_files(h.files[1], h.s.quantum);
    r.absolute_time = true;
    const double shift_ms = 600.0 * 86400e3;
    for (ResultSeries& s : r.series) {
      for (ResultCell& c : s.cells) c.quantum += static_cast<int64_t>(shift_ms / r.quantum_ms);
      s.span_start_ms += shift_ms;
      s.span_end_ms += shift_ms;
      s.full_start_ms += shift_ms;
      s.full_end_ms += shift_ms;
    }
    return r;
  }();
  const std::vector<std::vector<uint8_t>> inputs = {with_matrix(early_r, h.s.levels), with_matrix(late_r, h.s.levels)};
  std::vector<MatrixReader> readers(inputs.size());
  std::vector<const MatrixHead*> heads;
  for (size_t i = 0; i < inputs.size(); ++i) {
    bool has = false;
    ASSERT_TRUE(readers[i].open(reader_of(&inputs[i]), inputs[i].size(), &has).ok());
    heads.push_back(&readers[i].head());
  }
  MatrixMergePlan plan;
  std::string why;
  ASSERT_TRUE(plan_matrix_merge(heads, {"a", "b"}, &plan, &why)) << why;
  std::vector<uint8_t> out;
  MatrixWriter w(&deflate_zlib, vector_writer(&out));
  size_t bad_input = 0;
  const Status st = write_matrix_merge(plan, &readers, &w, &bad_input);
  EXPECT_EQ(st.message.rfind("result: matrix: level 0 would list 518", 0), 0u) << st.message;
  EXPECT_NE(st.message.find(" quanta of 1000 ms, over the 50000000 of a query's axis"), std::string::npos) << st.message;
  EXPECT_TRUE(out.empty());
}

}  // namespace
}  // namespace latscope
