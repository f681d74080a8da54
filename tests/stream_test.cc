// StreamingQuery (the CLI's memory-bounded path) gives exactly Engine::query's
// output on real runs, for every kind of option, while holding only the grid.
#include "latscope/stream.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

#include "fixture_util.h"
#include "latscope/report.h"
#include "latscope/result.h"
#include "test_util.h"

namespace latscope {
namespace {

using fixtures::files_of;

const std::vector<std::string> kLabels{"p50", "p90", "p99", "p99.9", "p100"};

const StreamingQuery::Fold kFolds[] = {StreamingQuery::Fold::kChoose, StreamingQuery::Fold::kByFile,
                                       StreamingQuery::Fold::kByQuanta};
const char* const kFoldNames[] = {"chosen fold", "fold by file", "fold by quanta"};

// Parses each text (named as its file), feeds the stream and keeps a copy
// for Engine::query.
std::string both_texts(const std::vector<std::string>& files, const std::vector<std::string>& texts,
                       const QueryOptions& o, std::string* streamed, StreamingQuery::Fold how) {
  Engine all;
  StreamingQuery stream(o);
  stream.set_fold(how);
  for (size_t i = 0; i < files.size(); ++i) testing::feed(&all, files[i], texts[i]);
  // The folder first, as the CLI plans it before reading (folder.h).
  std::vector<FolderFile> folder;
  for (const Source& src : all.sources()) folder.push_back(folder_file_of(src));
  stream.set_folder(folder);
  for (size_t i = 0; i < files.size(); ++i) {
    Engine one;  // a file's own engine, dropped after folding (as the CLI does)
    EXPECT_TRUE(stream.add(testing::feed(&one, files[i], texts[i])).ok());
  }
  QueryResult a, b;
  EXPECT_TRUE(all.query(o, &a).ok());
  EXPECT_TRUE(stream.finish(&b).ok());
  std::string na, nb;  // every note, in order
  for (const std::string& n : a.notes) na += n + "\n";
  for (const std::string& n : b.notes) nb += n + "\n";
  *streamed = pctiles_csv(b, kLabels, Unit::kNs) + "notes:" + std::to_string(b.notes.size()) + nb;
  return pctiles_csv(a, kLabels, Unit::kNs) + "notes:" + std::to_string(a.notes.size()) + na;
}

// The same on the files as they are.
std::string both(const std::vector<std::string>& files, const QueryOptions& o, std::string* streamed,
                 StreamingQuery::Fold how = StreamingQuery::Fold::kChoose) {
  std::vector<std::string> texts(files.size());
  for (size_t i = 0; i < files.size(); ++i) EXPECT_TRUE(fixtures::read_file(files[i], &texts[i])) << files[i];
  return both_texts(files, texts, o, streamed, how);
}

// A fio histogram log mangled as logs get mangled (copied by hand, cut by a
// full disk, edited): one to four of two lines swapped, a line repeated or
// dropped, a byte changed, a line cut short, a time moved, a block of lines
// moved later. The same for a seed on every platform (raw mt19937 output).
std::string mangled(const std::string& text, uint32_t seed) {
  std::vector<std::string> l;
  for (size_t at = 0; at < text.size();) {
    size_t nl = text.find('\n', at);
    if (nl == std::string::npos) nl = text.size();
    l.push_back(text.substr(at, nl - at));
    at = nl + 1;
  }
  std::mt19937 r(seed);
  const auto pick = [&r](size_t n) { return static_cast<size_t>(r() % n); };
  for (size_t ops = 1 + pick(4); ops > 0; --ops) {
    const size_t i = pick(l.size());
    switch (pick(7)) {
      case 0: std::swap(l[i], l[pick(l.size())]); break;
      case 1: l.insert(l.begin() + static_cast<std::ptrdiff_t>(i), l[i]); break;
      case 2: l.erase(l.begin() + static_cast<std::ptrdiff_t>(i)); break;
      case 3:
        if (!l[i].empty()) l[i][pick(l[i].size())] = "0123456789, -x."[pick(15)];
        break;
      case 4: l[i].resize(pick(l[i].size() + 1)); break;
      case 5: {  // the time field moved back, a little or far ahead
        const size_t comma = l[i].find(',');
        if (comma == std::string::npos) break;
        const long long t = std::atoll(l[i].substr(0, comma).c_str());
        const long long by[] = {-3000, -1, 250, 7000, 100000000};
        l[i] = std::to_string(std::max(0LL, t + by[pick(5)])) + l[i].substr(comma);
        break;
      }
      default: {
        const size_t n = std::min<size_t>(5, l.size() - i);
        std::vector<std::string> block(l.begin() + static_cast<std::ptrdiff_t>(i),
                                       l.begin() + static_cast<std::ptrdiff_t>(i + n));
        l.erase(l.begin() + static_cast<std::ptrdiff_t>(i), l.begin() + static_cast<std::ptrdiff_t>(i + n));
        const size_t to = pick(l.size() + 1);
        l.insert(l.begin() + static_cast<std::ptrdiff_t>(to), block.begin(), block.end());
      }
    }
    if (l.empty()) l.emplace_back();
  }
  std::string out;
  for (size_t i = 0; i < l.size(); ++i) out += l[i] + (i + 1 < l.size() ? "\n" : "");
  return out;
}

TEST(Stream, SameOutputAsTheStoredModelOnRealRuns) {
  struct Set {
    const char* name;
    std::vector<std::string> files;
  };
  std::vector<Set> sets = {
      {"fio-s1 + json", files_of("fio-s1", "s1.json")},
      {"local + json", files_of("local", "local.json")},
      {"cs", files_of("cs", "_clat_hist.")},
      {"epoch", files_of("epoch", "_clat_hist.")},
      {"pjl0", files_of("pjl0", "_clat_hist.")},
      {"coarse", files_of("coarse", "c2_clat_hist.")},
      // a late-start job placed from json+ (docs/placement.md), hist and per-I/O logs
      {"place", files_of("place", "place.json")},
      // the same on a client/server run, one delay per host
      {"place-cs", files_of("place-cs", "place-cs.json")},
  };
  for (const auto& f : files_of("place", "place_clat")) sets[6].files.push_back(f);
  for (const auto& f : files_of("place-cs", "pcs_clat")) sets[7].files.push_back(f);
  for (const auto& f : files_of("fio-s1", "_clat_hist.")) sets[0].files.push_back(f);
  for (const auto& f : files_of("local", "_clat_hist.")) sets[1].files.push_back(f);

  std::vector<QueryOptions> opts(8);
  opts[1].quantum_ms = 250;
  opts[2].group_by = GroupBy{"host", "dir"};
  opts[3].sel.dirs = kDirWrite;
  opts[3].method = Method::kFio;
  opts[4].sel.from_ms = 3000;
  opts[4].sel.to_ms = 7500;
  opts[4].quantum_ms = 700;
  opts[5].sel.offsets_ms["127.0.0.2"] = -41.5;
  opts[5].group_by = GroupBy{"job"};
  opts[6].sel.complete_tail = false;
  opts[6].percentiles = {0, 1, 99.99};
  opts[7].sel.co_interval_ms = 0.25;  // coordinated-omission correction: groups doubled
  opts[7].group_by = GroupBy{"dir"};
  for (const Set& s : sets) {
    ASSERT_FALSE(s.files.empty()) << s.name;
    for (size_t i = 0; i < opts.size() * 3; ++i) {
      SCOPED_TRACE(std::string(s.name) + ", options " + std::to_string(i % opts.size()) + ", " + kFoldNames[i / opts.size()]);
      std::string streamed;
      const std::string stored = both(s.files, opts[i % opts.size()], &streamed, kFolds[i / opts.size()]);
      EXPECT_EQ(stored, streamed);
      // (epoch logs hold no quanta in a relative 3-7.5 s range: both empty)
      // (and place/, place-cs/ hold reads only: nothing for writes only)
      if (!(i % opts.size() == 4 && std::string(s.name) == "epoch") &&
          !(i % opts.size() == 3 && std::string(s.name).rfind("place", 0) == 0)) {
        EXPECT_GT(stored.size(), 100u);
      }
    }
  }
}

// Mangled logs, one at a time, 30 ways a set, beside the run's json+: every
// fold gives the stored model's rows and notes, whatever the damage. The
// sets: client/server histogram logs; one log of several jobs
// (per_job_logs=0); late-start jobs' histogram and per-I/O logs.
TEST(Stream, MangledLogsGiveTheStoredModelsRowsWhateverTheFold) {
  struct Set {
    const char* dir;
    const char* json;
    std::vector<const char*> logs;
  };
  const Set sets[] = {{"cs", "cs.json", {"_clat_hist."}},
                      {"pjl0", "pjl0.json", {"_clat_hist."}},
                      {"place", "place.json", {"place_clat_hist.", "place_clat."}}};
  std::vector<QueryOptions> opts(2);
  opts[1].quantum_ms = 700;
  opts[1].group_by = GroupBy{"host", "job", "dir"};
  for (const Set& set : sets) {
    // json+ first, as the CLI reads it (cli_common.cc; stream.h)
    std::vector<std::string> files = files_of(set.dir, set.json);
    for (const char* l : set.logs)
      for (const auto& f : files_of(set.dir, l)) files.push_back(f);
    ASSERT_GT(files.size(), 1u) << set.dir;
    std::vector<std::string> texts(files.size());
    for (size_t i = 0; i < files.size(); ++i) ASSERT_TRUE(fixtures::read_file(files[i], &texts[i]));
    for (uint32_t seed = 1; seed <= 30; ++seed) {
      std::vector<std::string> t = texts;
      const size_t which = 1 + seed % (files.size() - 1);  // a log, not the json+
      t[which] = mangled(texts[which], seed);
      for (size_t k = 0; k < opts.size() * 3; ++k) {
        SCOPED_TRACE(files[which] + ", seed " + std::to_string(seed) + ", options " +
                     std::to_string(k % opts.size()) + ", " + kFoldNames[k / opts.size()]);
        std::string streamed;
        const std::string stored = both_texts(files, t, opts[k % opts.size()], &streamed, kFolds[k / opts.size()]);
        EXPECT_EQ(stored, streamed);
        EXPECT_GT(stored.size(), 100u);
      }
    }
  }
}

// A log whose clock jumps a year and a half (a broken host clock), asked at
// 1 ms: the fold by file sweeps each stretch of quanta on its own, never
// one sweep of 5 x 10^10 quanta across the jump (past a 32-bit size_t under
// WebAssembly), and gives the stored model's rows and notes (the far
// stretch left out of the axis, named) whatever the fold.
TEST(Stream, AClockJumpIsFoldedAsTwoStretches) {
  std::string text;
  for (int part = 0; part < 2; ++part)
    for (int w = 1; w <= 20; ++w) {
      const double t = (part ? 5e10 : 0) + w * 1000.0;
      char head[64];
      std::snprintf(head, sizeof head, "%.0f, 0, 4096", t);
      std::string line = head;
      for (int i = 0; i < 1856; ++i) line += i == 300 + w ? ", 7" : ", 0";
      text += line + "\n";
    }
  const std::string dir = ::testing::TempDir() + "/jump";
  std::filesystem::create_directories(dir);
  const std::string f = dir + "/jump_clat_hist.1.log";
  std::ofstream(f, std::ios::binary) << text;
  QueryOptions o;
  o.quantum_ms = 1;
  for (size_t k = 0; k < 3; ++k) {
    SCOPED_TRACE(kFoldNames[k]);
    std::string streamed;
    const std::string stored = both({f}, o, &streamed, kFolds[k]);
    EXPECT_EQ(stored, streamed);
    EXPECT_NE(stored.find("too far from the rest"), std::string::npos);
    EXPECT_GT(stored.size(), 100u);
  }
}

TEST(Stream, MixedLayoutsMergeToTheSameNumbers) {
  std::vector<std::string> files = files_of("local", "_clat_hist.");
  for (const auto& f : files_of("coarse", "c4_clat_hist.")) files.push_back(f);
  std::string streamed;
  QueryOptions o;
  QueryResult a, b;
  Engine all;
  StreamingQuery stream(o);
  for (const std::string& f : files) {
    std::string text;
    ASSERT_TRUE(fixtures::read_file(f, &text));
    Engine one;
    ASSERT_TRUE(stream.add(testing::feed(&one, f, text)).ok());
    testing::feed(&all, f, text);
  }
  ASSERT_TRUE(all.query(o, &a).ok());
  ASSERT_TRUE(stream.finish(&b).ok());
  EXPECT_EQ(b.layout_id, "fio3/c4");
  EXPECT_EQ(b.diag.count(Issue::kMixedLayouts), 1u);
  ASSERT_EQ(a.rows.size(), b.rows.size());
  for (size_t r = 0; r < a.rows.size(); ++r) {
    EXPECT_NEAR(a.rows[r].stats.samples, b.rows[r].stats.samples, 1e-9 * (1 + a.rows[r].stats.samples));
    for (size_t p = 0; p < a.rows[r].p.size(); ++p)
      EXPECT_NEAR(a.rows[r].p[p].value_ns, b.rows[r].p[p].value_ns, 1e-9 * a.rows[r].p[p].value_ns);
  }
}

// Wide layouts (HdrHistogram) are folded into sparse cells (query/sparse_counts.h):
// the same rows, bit for bit, as the stored model's sweep over dense counts,
// with tags as groups, HdrHistogram's percentiles, quanta that cut
// intervals, a file of several configurations, and a coarser file re-binned
// onto the finest.
TEST(Stream, WideLayoutsGiveTheStoredModelsRowsBitForBit) {
  const std::string dir = fixtures::path("hdr-processor");
  for (const std::vector<std::string>& files :
       {std::vector<std::string>{dir + "/sig3-tagged.hlog"},
        std::vector<std::string>{dir + "/mixed-config.hlog"},
        std::vector<std::string>{dir + "/sig3-tagged.hlog", dir + "/sig1-rel.hlog"}}) {
    for (const Method method : {Method::kHdr, Method::kInterp}) {
      for (const double q : {1000.0, 2500.0, 300.0}) {
        QueryOptions o;
        o.method = method;
        o.quantum_ms = q;
        if (files.front().find("tagged") != std::string::npos) o.group_by = GroupBy{"tag"};
        for (size_t f = 0; f < 3; ++f) {
          std::string streamed;
          const std::string stored = both(files, o, &streamed, kFolds[f]);
          EXPECT_EQ(stored, streamed) << files.size() << " files, the last " << files.back() << ", quantum " << q
                                      << ", " << kFoldNames[f];
          EXPECT_GT(stored.size(), 200u);
        }
      }
    }
  }
}

// The grid as a result file (reduce): the same bytes whether the sources are
// folded by file or held and folded a slice of quanta at a time, with json+
// tails, tags and several files into one group.
TEST(Stream, ResultsAreTheSameBytesWhateverTheFold) {
  const std::string hdr = fixtures::path("hdr-processor");
  std::vector<std::string> s1 = files_of("fio-s1", "s1.json");
  for (const auto& f : files_of("fio-s1", "_clat_hist.")) s1.push_back(f);
  for (const std::vector<std::string>& files :
       {s1, files_of("cs", "_clat_hist."), std::vector<std::string>{hdr + "/sig3-tagged.hlog", hdr + "/sig1-rel.hlog"}}) {
    for (const GroupBy& by : {GroupBy{"*"}, GroupBy{"kind"}}) {
      std::vector<std::vector<uint8_t>> bytes;
      for (const StreamingQuery::Fold how : kFolds) {
        QueryOptions o;
        o.group_by = by;
        o.quantum_ms = 100;  // many slices of 64 quanta
        StreamingQuery stream(o);
        stream.set_fold(how);
        for (const std::string& f : files) {
          std::string text;
          ASSERT_TRUE(fixtures::read_file(f, &text));
          Engine one;
          ASSERT_TRUE(stream.add(testing::feed(&one, f, text)).ok());
        }
        Result r;
        std::vector<std::string> notes;
        Diagnostics diag;
        ASSERT_TRUE(stream.finish_result(&r, &notes, &diag).ok());
        bytes.emplace_back();
        ASSERT_TRUE(encode_result(r, deflate_zlib, &bytes.back()).ok());
        EXPECT_GT(r.series.size(), 0u);
      }
      EXPECT_EQ(bytes[0], bytes[1]) << files.front();
      EXPECT_EQ(bytes[1], bytes[2]) << files.front();
    }
  }
}

// Rows handed to a sink as quanta are made (the CLI's CSV) are the rows
// finish keeps, and the CSV written piece by piece is pctiles_csv's, each
// piece whole lines.
TEST(Stream, RowsHandedOnAreTheRowsKept) {
  const std::string hdr = fixtures::path("hdr-processor");
  const std::vector<std::string> files{hdr + "/sig3-tagged.hlog", hdr + "/sig1-rel.hlog"};
  for (const StreamingQuery::Fold how : kFolds) {
    QueryOptions o;
    o.quantum_ms = 5;  // 15,006 rows: pieces of about 1 MiB
    o.group_by = GroupBy{"tag"};
    o.method = Method::kHdr;
    std::vector<std::string> texts(files.size());
    StreamingQuery kept(o), handed(o);
    kept.set_fold(how);
    handed.set_fold(how);
    for (size_t i = 0; i < files.size(); ++i) {
      ASSERT_TRUE(fixtures::read_file(files[i], &texts[i]));
      Engine a, b;
      ASSERT_TRUE(kept.add(testing::feed(&a, files[i], texts[i])).ok());
      ASSERT_TRUE(handed.add(testing::feed(&b, files[i], texts[i])).ok());
    }
    QueryResult rk, rh;
    const Status st = kept.finish(&rk);
    ASSERT_TRUE(st.ok()) << st.message;
    std::vector<std::string> pieces;
    PctilesCsvWriter w(rh, kLabels, Unit::kUs, true, [&pieces](const std::string& p) { pieces.push_back(p); });
    ASSERT_TRUE(handed.finish(&rh, &w).ok());
    w.finish();
    EXPECT_TRUE(rh.rows.empty());
    EXPECT_EQ(rk.groups, rh.groups);
    EXPECT_EQ(rk.notes, rh.notes);
    EXPECT_GT(rk.rows.size(), 10000u);
    std::string joined;
    for (const std::string& p : pieces) {
      ASSERT_FALSE(p.empty());
      EXPECT_EQ(p.back(), '\n');
      joined += p;
    }
    EXPECT_GT(pieces.size(), 1u);
    EXPECT_EQ(joined, pctiles_csv(rk, kLabels, Unit::kUs, true));
  }
}

TEST(Stream, RejectsTheCompatModeAndBadOptions) {
  QueryOptions o;
  o.compat_fio_histo_log_pctiles = true;
  StreamingQuery s1(o);
  QueryResult r;
  EXPECT_FALSE(s1.finish(&r).ok());
  QueryOptions q;
  q.quantum_ms = 0;
  StreamingQuery s2(q);
  EXPECT_FALSE(s2.finish(&r).ok());
}

}  // namespace
}  // namespace latscope
