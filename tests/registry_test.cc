// The reader registry (reader.h, docs/formats.md): readers own their Source
// until finish(), so files may be opened and fed in any interleaving (this
// was a use-after-free under ASan when a reader pointed into the engine's
// vector); the sniff decides the same format the reader is forced to; files
// that are no latency log are named, not failed.
#include "latscope/reader.h"

#include <gtest/gtest.h>

#include "fixture_util.h"
#include "latscope/engine.h"
#include "latscope/report.h"
#include "test_util.h"

namespace latscope {
namespace {

std::string fixture(const std::string& rel) {
  std::string text;
  EXPECT_TRUE(fixtures::read_file(std::string(LATSCOPE_FIXTURES) + "/" + rel, &text)) << rel;
  return text;
}

// Many files open at once, fed round-robin in small chunks, finished in
// reverse order: each Source equals the one read alone. Under ASan (npm test
// builds the suite with LATSCOPE_SANITIZE) a dangling reader fails here.
TEST(Registry, InterleavedOpensGiveTheSameSourcesAsOneAtATime) {
  const std::vector<std::string> names = {"local/local_clat_hist.1.log", "local/local_clat_hist.2.log",
                                          "local/local.json", "fio-s1/s1_clat_hist.1.log.127.0.0.1"};
  std::vector<std::string> texts, alone;
  for (const std::string& n : names) {
    texts.push_back(fixture(n));
    Engine e;
    alone.push_back(source_json(testing::feed(&e, n, texts.back())));
  }
  Engine e;
  std::vector<int> h;
  for (const std::string& n : names) h.push_back(e.open_file(n));
  std::vector<size_t> pos(names.size(), 0);
  for (bool more = true; more;) {
    more = false;
    for (size_t i = 0; i < names.size(); ++i) {
      const size_t n = std::min<size_t>(977, texts[i].size() - pos[i]);
      if (!n) continue;
      e.append(h[i], texts[i].data() + pos[i], n);
      pos[i] += n;
      more = true;
    }
  }
  for (size_t i = names.size(); i-- > 0;) {
    const Source& s = e.finish(h[i]);
    EXPECT_EQ(source_json(s), alone[i]) << names[i];
  }
  for (size_t i = 0; i < names.size(); ++i) {
    const int at = e.source_index(h[i]);
    ASSERT_GE(at, 0);
    EXPECT_EQ(source_json(e.sources()[static_cast<size_t>(at)]), alone[i]);
  }
}

TEST(Registry, SniffedEqualsForced) {
  struct Case {
    const char* file;
    FileFormat format;
  } cases[] = {
      {"local/local_clat_hist.1.log", FileFormat::kFioHist},
      {"local/local.json", FileFormat::kFioJson},
      {"fio-s1/s1.json", FileFormat::kFioJson},
      {"coarse/c2_clat_hist.1.log", FileFormat::kFioHist},
  };
  for (const Case& c : cases) {
    const std::string text = fixture(c.file);
    Engine a, b;
    const Source& sniffed = testing::feed(&a, c.file, text, 100);
    FileOptions fo;
    fo.format = c.format;
    const Source& forced = testing::feed(&b, c.file, text, 0, fo);
    EXPECT_TRUE(sniffed.format == c.format) << c.file;
    EXPECT_EQ(source_json(sniffed), source_json(forced)) << c.file;
  }
}

TEST(Registry, FilesThatAreNoLatencyLogAreNamed) {
  struct Case {
    const char* name;
    std::string text;
    const char* what;
  } cases[] = {
      {"job.fio", "[global]\nioengine=libaio\ndirect=1\n\n[job1]\nrw=randread\n", "fio job file"},
      {"README", "These are the logs of the run on 2026-11-20.\nSee the job file.\n", "text"},
      {"x_iops.1.log", "1000, 512, 0, 4096, 0\n2000, 498, 0, 4096, 0\n", "fio IOPS log: not latency"},
      {"x_bw.1.log.10.0.0.1", "1000, 2048, 1, 4096, 0\n", "fio bandwidth log: not latency"},
      {"blob.bin", std::string("\x00\x01\x02\x03 binary\x00", 12), "binary data"},
      // The heads of fio 3.33's own outputs (--write_iolog, --output-format=terse, normal).
      {"io.log", "fio version 3 iolog\n28 /tmp/ex3/data add\n330 /tmp/ex3/data open\n",
       "fio I/O log of write_iolog: the I/Os issued, for replay; no latencies"},
      {"terse.txt",
       "3;fio-3.33;t;0;0;800;799;199;1001;0;0;0.000000;0.000000;50;3997;145.879220;286.643888;1.000000%=74;"
       "5.000000%=82;10.000000%=85\n",
       "fio terse output: percentiles of the whole run, no histogram; fio --output-format=json+ writes its bins"},
      {"fio.out",
       "t: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=psync, iodepth=1\n"
       "fio-3.33\nStarting 1 process\n\nt: (groupid=0, jobs=1): err= 0: pid=19446: Sat Nov 28 00:49:08 2026\n"
       "  read: IOPS=199, BW=799KiB/s (818kB/s)(800KiB/1001msec)\n",
       "fio normal output: percentiles of the whole run, no histogram; fio --output-format=json+ writes its bins"},
      {"notes.txt", "fio-3.33 was used; see the results below.\n", "text"},
  };
  for (const Case& c : cases) {
    Engine e;
    const Source& s = testing::feed(&e, c.name, c.text, 3);
    EXPECT_TRUE(s.status.ok()) << c.name << ": " << s.status.message;
    EXPECT_TRUE(s.format == FileFormat::kIgnored) << c.name << " read as " << format_name(s.format);
    EXPECT_EQ(s.ignored, c.what) << c.name;
    EXPECT_TRUE(s.series.empty());
  }
}

// A damaged first line costs that line, not the file; a BOM costs nothing.
TEST(Registry, DamagedFirstLineAndBomKeepTheFormat) {
  const std::string log = fixture("local/local_clat_hist.1.log");
  for (const std::string& head : {std::string("-5, 0, 4096, 1\n"), std::string("nan, 0, 4096\n")}) {
    Engine e;
    const Source& s = testing::feed(&e, "x_clat_hist.1.log", head + log);
    EXPECT_TRUE(s.format == FileFormat::kFioHist) << head;
    EXPECT_TRUE(s.status.ok()) << s.status.message;
    EXPECT_EQ(s.diag.skipped_lines(), 1u) << head;
  }
  const std::string json = fixture("local/local.json");
  const SniffResult r = sniff({"local.json", ("\xEF\xBB\xBF" + json).data(), std::min<size_t>(json.size() + 3, kSniffBytes), false});
  EXPECT_TRUE(r.format == FileFormat::kFioJson);
}

// Labels replace fio's file-name parts downstream: group by any of them,
// and a typo names the labels that exist.
TEST(Registry, LabelsDriveGrouping) {
  Engine e;
  testing::feed(&e, "local/local_clat_hist.1.log", fixture("local/local_clat_hist.1.log"));
  testing::feed(&e, "fio-s1/s1_clat_hist.1.log.127.0.0.1", fixture("fio-s1/s1_clat_hist.1.log.127.0.0.1"));
  QueryOptions q;
  q.group_by = {"host", "kind"};
  QueryResult r;
  ASSERT_TRUE(e.query(q, &r).ok());
  EXPECT_EQ(r.groups, (std::vector<std::string>{"host=127.0.0.1;kind=clat", "host=local;kind=clat"}));
  q.group_by = {"hots"};
  const Status st = e.query(q, &r);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message.find("group by 'hots': no selected series has that label (labels: account, dir, file, host, job, kind, prefix)"),
            std::string::npos)
      << st.message;
}

// Offsets keyed "(local)" (as the page names logs without a host) move them.
TEST(Registry, LocalHostOffsetMovesLocalLogs) {
  Engine e;
  testing::feed(&e, "local_clat_hist.1.log", fixture("local/local_clat_hist.1.log"));
  QueryOptions q;
  QueryResult a, b;
  ASSERT_TRUE(e.query(q, &a).ok());
  q.sel.offsets_ms["(local)"] = 5000;
  ASSERT_TRUE(e.query(q, &b).ok());
  ASSERT_FALSE(a.rows.empty());
  ASSERT_FALSE(b.rows.empty());
  double first_a = -1, first_b = -1;
  for (const Row& r : a.rows)
    if (first_a < 0 && r.stats.samples > 0) first_a = r.t_ms;
  for (const Row& r : b.rows)
    if (first_b < 0 && r.stats.samples > 0) first_b = r.t_ms;
  EXPECT_EQ(first_b - first_a, 5000);
}

}  // namespace
}  // namespace latscope
