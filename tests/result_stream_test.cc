// The merge in time order (latscope/result_stream.h; docs/result-format.md,
// "Merging in time order"): block by block, from files read by ranges, it
// writes exactly the bytes of encode_result(merge() of the whole decoded
// inputs), for any order, quanta that nest, block sizes that straddle, files
// of several levels and version 1 files; a damaged index or block is named,
// never trusted. Blocks by host (docs/result-format.md, "Blocks by host
// (version 5)"): hosts held by one input each are copied as stored, never
// deflated again, and still the same bytes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fixture_util.h"
#include "result_contents.h"
#include "latscope/result.h"
#include "latscope/result_stream.h"

namespace latscope {
namespace {

using fixtures::files_of;

// Blocks deflated so far (the header is one too): a copied block is not.
int g_deflates = 0;
bool counting_deflate(const uint8_t* in, size_t n, std::vector<uint8_t>* out) {
  ++g_deflates;
  return deflate_zlib(in, n, out);
}

std::vector<uint8_t> encode(const Result& r, uint32_t qpb) {
  std::vector<uint8_t> b;
  EXPECT_TRUE(encode_result(r, &counting_deflate, &b, qpb).ok());
  return b;
}

ReadAtFn reader_of(const std::vector<uint8_t>* bytes, int* reads = nullptr) {
  return [bytes, reads](uint64_t off, uint64_t n, std::vector<uint8_t>* out, std::string* err) {
    if (reads) ++*reads;
    if (off > bytes->size() || n > bytes->size() - off) {
      *err = "past the end";
      return false;
    }
    out->assign(bytes->begin() + static_cast<std::ptrdiff_t>(off), bytes->begin() + static_cast<std::ptrdiff_t>(off + n));
    return true;
  };
}

// The streamed merge of files at quantum q (0: the plan's), qpb output quanta a block.
Status streamed(const std::vector<std::vector<uint8_t>>& files, double q, uint32_t qpb, std::vector<uint8_t>* out,
                MergePlan* plan_out = nullptr) {
  std::vector<ResultBlockReader> in(files.size());
  std::vector<const Result*> heads;
  for (size_t i = 0; i < files.size(); ++i) {
    Status st = in[i].open(reader_of(&files[i]), files[i].size());
    if (!st.ok()) return st;
    heads.push_back(&in[i].head());
  }
  MergePlan plan;
  size_t bad = 0;
  Status st = plan_merge(heads, &plan, &bad);
  if (!st.ok()) return st;
  if (q == 0) q = plan.head.quantum_ms;
  out->clear();
  ResultEncoder enc(&counting_deflate, vector_writer(out), qpb);
  Result head = plan.head;
  head.quantum_ms = q;
  st = enc.begin(head);
  if (st.ok()) st = write_merge(plan, &in, q, &enc, &bad);
  if (st.ok()) st = enc.finish();
  if (plan_out) *plan_out = std::move(plan);
  return st;
}

// The reference: every input decoded whole, merge() in order, encoded.
std::vector<uint8_t> whole(const std::vector<std::vector<uint8_t>>& files, double q, uint32_t qpb,
                           std::vector<std::string>* notes = nullptr) {
  Result acc;
  for (size_t i = 0; i < files.size(); ++i) {
    Result r;
    EXPECT_TRUE(decode_result(files[i].data(), files[i].size(), &r).ok());
    if (i == 0) {
      acc = std::move(r);
    } else {
      EXPECT_TRUE(merge(&acc, r).ok());
    }
  }
  if (notes) *notes = acc.notes;
  if (q != 0) {
    EXPECT_TRUE(requantize(&acc, q).ok());
  }
  return encode(acc, qpb);
}

struct Inputs {
  std::vector<std::vector<uint8_t>> files;
};

// Hosts of three fixtures at three nesting quanta, each encoded with its own
// block size, so output blocks straddle input blocks both ways.
Inputs mixed() {
  Inputs in;
  const auto add = [&](const std::vector<std::string>& f, double q, GroupBy keep, uint32_t qpb) {
    in.files.push_back(encode(fixtures::reduce_files(f, q, std::move(keep)), qpb));
  };
  add(files_of("fio-s1", "_clat_hist.1.log.127.0.0.1"), 500, {"host", "dir"}, 3);
  add(files_of("fio-s1", "_clat_hist.2."), 1000, {"*"}, 600);
  add(files_of("cs", "_clat_hist."), 250, {"host", "dir"}, 7);
  add(files_of("fio-s1", "_clat_hist.1.log.127.0.0.2"), 500, {"host", "dir"}, 1);
  add(files_of("local", "_clat_hist."), 1000, {"dir"}, 5);
  return in;
}

TEST(ResultStream, MergeInTimeOrderIsByteForByteTheWholeMerge) {
  const Inputs in = mixed();
  for (uint32_t qpb : {1u, 4u, 600u}) {
    std::vector<uint8_t> got;
    MergePlan plan;
    ASSERT_TRUE(streamed(in.files, 0, qpb, &got, &plan).ok());
    std::vector<std::string> notes;
    EXPECT_EQ(got, whole(in.files, 0, qpb, &notes)) << "qpb " << qpb;
    EXPECT_EQ(plan.head.quantum_ms, 1000);
    EXPECT_EQ(plan.notes, notes);  // the same notes, in the same order
  }
  // Any order: the same bytes (integer sums).
  std::vector<std::vector<uint8_t>> rev(in.files.rbegin(), in.files.rend());
  std::vector<uint8_t> a, b;
  ASSERT_TRUE(streamed(in.files, 0, 600, &a).ok());
  ASSERT_TRUE(streamed(rev, 0, 600, &b).ok());
  EXPECT_EQ(a, b);
}

TEST(ResultStream, ACoarserLevelIsTheRequantizedMerge) {
  const Inputs in = mixed();
  for (double q : {5000.0, 60000.0}) {
    std::vector<uint8_t> got;
    ASSERT_TRUE(streamed(in.files, q, 600, &got).ok());
    EXPECT_EQ(got, whole(in.files, q, 600)) << q;
  }
}

TEST(ResultStream, ReadsTheFinestLevelOfAFileOfSeveralAndVersion1Files) {
  const Result r = fixtures::reduce_files(files_of("cs", "_clat_hist."), 500, {"host", "dir"});
  std::vector<uint8_t> levels;
  ASSERT_TRUE(encode_result_levels(r, {5000, 60000}, &deflate_zlib, &levels).ok());
  std::string text;
  ASSERT_TRUE(fixtures::read_file(std::string(LATSCOPE_FIXTURES) + "/result/v1-local.lsr", &text));
  const std::vector<uint8_t> v1(text.begin(), text.end());
  const std::vector<std::vector<uint8_t>> files{levels, v1};
  ResultBlockReader one;
  ASSERT_TRUE(one.open(reader_of(&levels), levels.size()).ok());
  EXPECT_EQ(one.level_quanta(), (std::vector<double>{500, 5000, 60000}));
  EXPECT_EQ(one.head().quantum_ms, 500);
  std::vector<uint8_t> got;
  ASSERT_TRUE(streamed(files, 0, 600, &got).ok());
  EXPECT_EQ(got, whole(files, 0, 600));
}

TEST(ResultStream, ReadingARangeInflatesOnlyItsBlocks) {
  const Result r = fixtures::reduce_files(files_of("fio-s1", "_clat_hist."), 100, {"dir"});
  const std::vector<uint8_t> file = encode(r, 10);  // 1 s a block: ~20 blocks
  int reads = 0;
  ResultBlockReader in;
  ASSERT_TRUE(in.open(reader_of(&file, &reads), file.size()).ok());
  const int opening = reads;  // head, header, trailer, index
  Result part = in.head();
  ASSERT_TRUE(in.read(50, 70, &part).ok());  // quanta 50..69: blocks 5 and 6
  EXPECT_EQ(reads - opening, 2);
  for (const ResultSeries& s : part.series)
    for (const ResultCell& c : s.cells) EXPECT_TRUE(c.quantum >= 50 && c.quantum < 70) << c.quantum;
  EXPECT_GT(part.cells(), 0u);
}

TEST(ResultStream, ADamagedIndexOrBlockIsNamed) {
  const std::vector<uint8_t> good = encode(fixtures::reduce_files(files_of("local", "_clat_hist.1"), 1000), 4);
  // Every truncation fails to open, with the decoder's words.
  for (size_t n = 0; n < good.size(); ++n) {
    std::vector<uint8_t> cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n));
    ResultBlockReader in;
    const Status st = in.open(reader_of(&cut), cut.size());
    ASSERT_FALSE(st.ok()) << n;
    EXPECT_EQ(st.message.rfind("result: ", 0), 0u) << st.message;
  }
  // The first index entry's offset moved by one: refused before any block is read.
  std::vector<uint8_t> bad = good;
  uint64_t index_at = 0;
  for (int k = 0; k < 8; ++k) index_at |= static_cast<uint64_t>(bad[bad.size() - 16 + k]) << (8 * k);
  bad[static_cast<size_t>(index_at) + 8 + 16] ^= 1;
  ResultBlockReader in;
  Status st = in.open(reader_of(&bad), bad.size());
  EXPECT_EQ(st.message, "result: index: entry 0 does not match block 0");
  // A block's cells changed: found when the block is read (and the same
  // flips never crash the streamed merge: any verdict).
  for (size_t i = 12; i < index_at; i += 5) {
    std::vector<uint8_t> flip = good;
    flip[i] ^= 0x5a;
    std::vector<uint8_t> out;
    (void)streamed({flip, good}, 0, 600, &out);
  }
}

// One host's result under another host name (the fixtures have two hosts).
Result as_host(Result r, const std::string& host) {
  for (ResultSeries& s : r.series) s.labels.set("host", host);
  return r;
}

// Four hosts, one file each (as reduced on the hosts), 500 ms, 4 quanta a block.
std::vector<std::vector<uint8_t>> four_hosts() {
  const GroupBy keep{"host", "dir"};
  return {encode(fixtures::reduce_files(files_of("fio-s1", "_clat_hist.1.log.127.0.0.1"), 500, keep), 4),
          encode(fixtures::reduce_files(files_of("fio-s1", "_clat_hist.1.log.127.0.0.2"), 500, keep), 4),
          encode(as_host(fixtures::reduce_files(files_of("cs", "_clat_hist.1.log.127.0.0.1"), 500, keep), "node03"), 4),
          encode(as_host(fixtures::reduce_files(files_of("cs", "_clat_hist.2.log.127.0.0.2"), 500, keep), "node04"), 4)};
}

TEST(ResultStream, HostsOfOneInputEachAreCopiedAsStored) {
  const std::vector<std::vector<uint8_t>> hosts = four_hosts();
  for (const std::vector<uint8_t>& f : hosts) EXPECT_EQ(f[8], 2);  // one host: version 2 as before
  std::vector<uint8_t> got;
  g_deflates = 0;
  ASSERT_TRUE(streamed(hosts, 0, 4, &got).ok());
  EXPECT_EQ(g_deflates, 1);  // the header; every block copied
  g_deflates = 0;
  const std::vector<uint8_t> ref = whole(hosts, 0, 4);
  EXPECT_GT(g_deflates, 8);  // the reference deflates each block
  EXPECT_EQ(got, ref);
  EXPECT_EQ(got[8], 5);  // several hosts: blocks by host
  // A merged file's hosts are copied again (version 5 input), in any order.
  std::vector<uint8_t> two;
  ASSERT_TRUE(streamed({hosts[2], hosts[3]}, 0, 4, &two).ok());
  std::vector<uint8_t> again;
  g_deflates = 0;
  ASSERT_TRUE(streamed({hosts[1], two, hosts[0]}, 0, 4, &again).ok());
  EXPECT_EQ(g_deflates, 1);
  EXPECT_EQ(again, ref);
  // A copied block is checked as any block read is: a damaged one is named, never copied.
  std::vector<std::vector<uint8_t>> damaged = hosts;
  const size_t z0 = 12 + 4 + (damaged[1][12] | damaged[1][13] << 8 | damaged[1][14] << 16 | damaged[1][15] << 24);
  const uint32_t zlen = damaged[1][z0] | damaged[1][z0 + 1] << 8 | damaged[1][z0 + 2] << 16 | damaged[1][z0 + 3] << 24;
  damaged[1][z0 + 4 + zlen / 2] ^= 0x5a;  // inside block 0's zlib stream
  EXPECT_EQ(streamed(damaged, 0, 4, &got).message.rfind("result: block 0: ", 0), 0u);
  // Another block size or a coarser quantum: decoded and added, same bytes as the whole merge.
  ASSERT_TRUE(streamed(hosts, 0, 600, &got).ok());
  EXPECT_EQ(got, whole(hosts, 0, 600));
  ASSERT_TRUE(streamed(hosts, 5000, 4, &got).ok());
  EXPECT_EQ(got, whole(hosts, 5000, 4));
}

TEST(ResultStream, AHostInTwoInputsIsAddedTheOthersCopied) {
  const std::vector<std::vector<uint8_t>> hosts = four_hosts();
  // Host 127.0.0.1 again, its second job: its chunk is added, the others copied.
  const std::vector<uint8_t> job2 =
      encode(fixtures::reduce_files(files_of("fio-s1", "_clat_hist.2.log.127.0.0.1"), 500, {"host", "dir"}), 4);
  std::vector<std::vector<uint8_t>> in = hosts;
  in.push_back(job2);
  std::vector<uint8_t> got;
  g_deflates = 0;
  ASSERT_TRUE(streamed(in, 0, 4, &got).ok());
  const int streamed_deflates = g_deflates;
  g_deflates = 0;
  EXPECT_EQ(got, whole(in, 0, 4));
  EXPECT_GT(streamed_deflates, 1);
  EXPECT_LT(streamed_deflates, g_deflates);
  // An old file holding several hosts in one chunk (version 4 around version
  // 2, committed) merged with new ones: read once per time block, same bytes.
  std::string text;
  ASSERT_TRUE(fixtures::read_file(std::string(LATSCOPE_FIXTURES) + "/result/v4-cs.lsr", &text));
  const std::vector<uint8_t> old(text.begin(), text.end());
  const std::vector<std::vector<uint8_t>> mixed_old{hosts[2], old, hosts[3]};
  ASSERT_TRUE(streamed(mixed_old, 0, 600, &got).ok());
  // The committed file's blocks were deflated by the zlib that wrote it and
  // are copied as stored, while the reference deflates them again: under
  // WebAssembly (another deflate) the bytes differ, the contents do not.
  expect_same_contents(got, whole(mixed_old, 0, 600));
  EXPECT_EQ(got[8], 5);
}

TEST(ResultStream, ReadingSomeHostsInflatesOnlyTheirBlocks) {
  const std::vector<std::vector<uint8_t>> hosts = four_hosts();
  std::vector<uint8_t> file;
  ASSERT_TRUE(streamed(hosts, 0, 4, &file).ok());
  Result all;
  ASSERT_TRUE(decode_result(file.data(), file.size(), &all).ok());
  int reads = 0;
  ResultBlockReader in;
  ASSERT_TRUE(in.open(reader_of(&file, &reads), file.size()).ok());
  ASSERT_EQ(in.version(), 5u);
  ASSERT_EQ(in.chunk_count(), 4u);
  std::vector<bool> want(4, false);
  want[2] = true;  // node03
  const int opening = reads;
  Result part = in.head();
  ASSERT_TRUE(in.read(0, 8, &part, &want).ok());  // quanta 0..7: two time blocks
  EXPECT_LE(reads - opening, 2);
  EXPECT_GT(part.cells(), 0u);
  for (size_t s = 0; s < part.series.size(); ++s) {
    const bool mine = in.series_chunks()[s] == 2;
    EXPECT_EQ(*part.series[s].labels.find("host") == "node03", mine);
    std::vector<ResultCell> expect;
    if (mine)
      for (const ResultCell& c : all.series[s].cells)
        if (c.quantum < 8) expect.push_back(c);
    ASSERT_EQ(part.series[s].cells.size(), expect.size()) << s;
    for (size_t c = 0; c < expect.size(); ++c) {
      EXPECT_EQ(part.series[s].cells[c].quantum, expect[c].quantum);
      EXPECT_EQ(part.series[s].cells[c].counts, expect[c].counts);
    }
  }
}

TEST(ResultStream, ADamagedFileOfBlocksByHostIsNamed) {
  std::vector<uint8_t> good;
  ASSERT_TRUE(streamed(four_hosts(), 0, 4, &good).ok());
  uint64_t index_at = 0;
  for (int k = 0; k < 8; ++k) index_at |= static_cast<uint64_t>(good[good.size() - 16 + k]) << (8 * k);
  // The first entry's chunk (its last 4 bytes) changed: refused on opening.
  std::vector<uint8_t> bad = good;
  bad[static_cast<size_t>(index_at) + 8 + 32] = 0x7f;  // no such chunk
  ResultBlockReader in;
  EXPECT_EQ(in.open(reader_of(&bad), bad.size()).message, "result: index: entry 0 does not match block 0");
  Result r;
  EXPECT_EQ(decode_result(bad.data(), bad.size(), &r).message, "result: index: entry 0 does not match block 0");
  // A block's chunk prefix changed: named by the whole-file decoder, and the
  // block reader finds it when it reads that block.
  bad = good;
  const size_t first_block = 12 + 4 + (good[12] | good[13] << 8 | good[14] << 16 | good[15] << 24);
  bad[first_block + 4] = 0xff;
  EXPECT_EQ(decode_result(bad.data(), bad.size(), &r).message, "result: block 0: chunk 255 not in the table");
  ASSERT_TRUE(in.open(reader_of(&bad), bad.size()).ok());
  Result part = in.head();
  EXPECT_EQ(in.read(0, 4, &part).message, "result: index: entry 0 does not match block 0");
  // Any byte flipped: an error or a file, never a crash, both ways of reading.
  for (size_t i = 12; i < good.size(); i += good.size() / 400 + 1) {
    std::vector<uint8_t> flip = good;
    flip[i] ^= 0x5a;
    (void)decode_result(flip.data(), flip.size(), &r);
    std::vector<uint8_t> out;
    (void)streamed({flip, good}, 0, 4, &out);
    (void)streamed({flip}, 0, 4, &out);
  }
}

TEST(ResultStream, RefusesWhatMergeRefuses) {
  const std::vector<uint8_t> a = encode(fixtures::reduce_files(files_of("fio-s1", "_clat_hist.1.log.127.0.0.1"), 1000), 600);
  const std::vector<uint8_t> b = encode(fixtures::reduce_files(files_of("fio-s1", "_clat_hist.2.log.127.0.0.1"), 1500), 600);
  const std::vector<uint8_t> e = encode(fixtures::reduce_files(files_of("epoch", "_clat_hist."), 1000), 600);
  std::vector<uint8_t> out;
  EXPECT_NE(streamed({a, b}, 0, 600, &out).message.find("neither is a multiple"), std::string::npos);
  EXPECT_NE(streamed({a, e}, 0, 600, &out).message.find("epoch clock"), std::string::npos);
}

}  // namespace
}  // namespace latscope
