// fio per-I/O logs through the queries (docs/formats-fio-lat.md): exact
// percentiles against an independent sort, the stored query against the
// streaming fold, latency kinds, agreement with the same run's histogram
// logs, heat maps by bs / offset, the per-I/O budget and the worker encoding.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>

#include "fixture_util.h"
#include "latscope/model_io.h"
#include "latscope/options_json.h"
#include "latscope/report.h"
#include "latscope/stream.h"
#include "latscope/text.h"
#include "test_util.h"

namespace latscope {
namespace {

namespace fs = std::filesystem;

std::string fx(const std::string& rel) { return std::string(LATSCOPE_FIXTURES) + "/" + rel; }

std::string text_of(const std::string& path) {
  std::string t;
  EXPECT_TRUE(fixtures::read_file(path, &t)) << path;
  return t;
}

const std::vector<std::string> kLabels{"p50", "p90", "p99", "p99.9", "p100"};

// Engine::query and StreamingQuery on the same files: CSV and notes.
void both(const std::vector<std::string>& files, const QueryOptions& o, std::string* stored, std::string* streamed) {
  Engine all;
  StreamingQuery stream(o);
  for (const std::string& f : files) testing::feed(&all, f, text_of(f));
  // The folder first, as the CLI plans it before reading (folder.h).
  std::vector<FolderFile> folder;
  for (const Source& src : all.sources()) folder.push_back(folder_file_of(src));
  stream.set_folder(folder);
  for (const std::string& f : files) {
    Engine one;
    ASSERT_TRUE(stream.add(testing::feed(&one, f, text_of(f))).ok());
  }
  QueryResult a, b;
  ASSERT_TRUE(all.query(o, &a).ok());
  ASSERT_TRUE(stream.finish(&b).ok());
  *stored = pctiles_csv(a, kLabels, Unit::kNs);
  *streamed = pctiles_csv(b, kLabels, Unit::kNs);
  for (const std::string& n : a.notes) *stored += "note: " + n + "\n";
  for (const std::string& n : b.notes) *streamed += "note: " + n + "\n";
}

std::vector<std::string> s1_lat_logs() {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(fx("fio-s1"))) {
    const std::string p = e.path().string();
    if (p.find("s1_clat.") != std::string::npos) out.push_back(p);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Nearest rank by counting, independent of exact_rank's integer rule: the
// smallest value v with count(<= v) * 100 >= p * n (p with <= 6 decimals).
double nearest_rank(std::vector<uint64_t> v, double p) {
  std::sort(v.begin(), v.end());
  const long double need = static_cast<long double>(std::llround(p * 1e6)) * v.size();
  for (size_t i = 0; i < v.size(); ++i)
    if (static_cast<long double>(i + 1) * 1e8L >= need) return static_cast<double>(v[i]);
  return static_cast<double>(v.back());
}

TEST(FioLatQuery, ExactPercentilesEqualAnIndependentSort) {
  std::mt19937_64 rng(12345);
  for (int round = 0; round < 30; ++round) {
    // Random I/Os over 0..9999 ms, random quantum, random percentiles.
    const int n = 1 + static_cast<int>(rng() % 3000);
    std::vector<std::pair<uint64_t, uint64_t>> ios;  // (t, ns)
    for (int i = 0; i < n; ++i) {
      const uint64_t t = rng() % 10000;
      uint64_t ns = 1 + (rng() % 5000000);
      if (rng() % 50 == 0) ns = rng() % 30000000000ull;  // some huge, some tiny
      ios.push_back({t, ns});
    }
    std::sort(ios.begin(), ios.end(), [](auto& a, auto& b) { return a.first < b.first; });
    std::string text;
    for (auto& io : ios) text += std::to_string(io.first) + ", " + std::to_string(io.second) + ", 0, 4096, 0\n";
    QueryOptions q;
    q.quantum_ms = 1 + static_cast<double>(rng() % 3000);
    q.method = Method::kExact;
    q.percentiles = {0, 1, 50, 90, 99, 99.9, 99.99, 100, static_cast<double>(rng() % 100000) / 1000};
    Engine e;
    testing::feed(&e, "r_clat.1.log", text);
    QueryResult r;
    ASSERT_TRUE(e.query(q, &r).ok());
    ASSERT_TRUE(r.notes.empty());
    uint64_t seen = 0;
    for (const Row& row : r.rows) {
      std::vector<uint64_t> v;
      for (auto& io : ios)
        if (io.first >= row.t_ms && io.first < row.t_ms + q.quantum_ms) v.push_back(io.second);
      ASSERT_EQ(static_cast<double>(v.size()), (row.flags & kFlagEmpty) ? 0.0 : row.stats.samples);
      if (v.empty()) continue;
      seen += v.size();
      EXPECT_EQ(row.stats.min_ns, static_cast<double>(*std::min_element(v.begin(), v.end())));
      EXPECT_EQ(row.stats.max_ns, static_cast<double>(*std::max_element(v.begin(), v.end())));
      long double sum = 0;
      for (uint64_t x : v) sum += x;
      EXPECT_NEAR(row.stats.mean_ns, static_cast<double>(sum / v.size()), 1e-9 * row.stats.mean_ns);
      for (size_t k = 0; k < q.percentiles.size(); ++k) {
        EXPECT_EQ(row.p[k].value_ns, nearest_rank(v, q.percentiles[k])) << "p" << q.percentiles[k] << " n " << v.size();
        EXPECT_EQ(row.p[k].err_ns, 0.0);
      }
    }
    EXPECT_EQ(seen, ios.size());
  }
}

TEST(FioLatQuery, ExactRankIsNearestRank) {
  EXPECT_EQ(exact_rank(99.9, 1000), 999u);
  EXPECT_EQ(exact_rank(50, 2), 1u);
  EXPECT_EQ(exact_rank(50, 3), 2u);
  EXPECT_EQ(exact_rank(0, 7), 1u);
  EXPECT_EQ(exact_rank(100, 7), 7u);
  EXPECT_EQ(exact_rank(99.99, 10000), 9999u);
  EXPECT_EQ(exact_rank(60, 3200), 1920u);
}

TEST(FioLatQuery, StoredAndStreamingQueriesAgree) {
  std::vector<std::vector<std::string>> sets = {
      s1_lat_logs(),
      {fx("local/local_clat.1.log"), fx("local/local_clat.2.log"), fx("local/local.json")},
      {fx("fio_lat/fl_clat.1.log"), fx("fio_lat/fl_lat.1.log"), fx("fio_lat/fl_slat.1.log"), fx("fio_lat/fl.json"),
       fx("fio_lat/fl_clat_hist.1.log")},
      {fx("local/local_clat.1.log"), fx("local/local_clat_hist.1.log")},
  };
  std::vector<QueryOptions> opts(8);
  opts[1].method = Method::kExact;
  opts[2].method = Method::kExact;
  opts[2].quantum_ms = 250;
  opts[2].group_by = GroupBy{"host", "dir"};
  opts[3].method = Method::kExact;
  opts[3].sel.kinds = {"lat", "slat"};
  opts[3].group_by = GroupBy{"kind"};
  opts[4].method = Method::kFio;
  opts[4].sel.from_ms = 1000;
  opts[4].sel.to_ms = 3500;
  opts[4].quantum_ms = 700;
  opts[5].method = Method::kExact;
  opts[5].sel.offsets_ms["127.0.0.2"] = -41.5;
  opts[5].percentiles = {0, 1, 99.99};
  opts[6].method = Method::kExact;
  opts[6].max_per_io_samples = 100;  // the stream's budget: falls back to bins
  opts[7].sel.kinds = {"clat"};
  opts[7].method = Method::kExact;
  for (size_t s = 0; s < sets.size(); ++s)
    for (size_t i = 0; i < opts.size(); ++i) {
      SCOPED_TRACE("set " + std::to_string(s) + " options " + std::to_string(i));
      std::string a, b;
      both(sets[s], opts[i], &a, &b);
      EXPECT_EQ(a, b);
      if (i != 3 || s == 2) {
        EXPECT_GT(a.size(), 100u);
      }
    }
}

TEST(FioLatQuery, KindsAreNeverMergedSilently) {
  const std::vector<std::string> files = {fx("fio_lat/fl_clat.1.log"), fx("fio_lat/fl_lat.1.log"),
                                          fx("fio_lat/fl_slat.1.log")};
  Engine e;
  uint64_t clat_ios = 0, lat_ios = 0;
  for (const std::string& f : files) testing::feed(&e, f, text_of(f));
  for (const Source& s : e.sources()) {
    ASSERT_TRUE(s.status.ok()) << s.status.message;
    if (s.id.kind == "clat") clat_ios = s.records;
    if (s.id.kind == "lat") lat_ios = s.records;
  }
  QueryOptions q;
  q.quantum_ms = 1e6;
  QueryResult r;
  ASSERT_TRUE(e.query(q, &r).ok());
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("latency kinds lat, slat left out"), std::string::npos) << r.notes[0];
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0].stats.samples, static_cast<double>(clat_ios));
  q.sel.kinds = {"lat"};
  ASSERT_TRUE(e.query(q, &r).ok());
  EXPECT_TRUE(r.notes.empty());
  EXPECT_EQ(r.rows[0].stats.samples, static_cast<double>(lat_ios));
  // lat = slat + clat for every I/O: its exact mean is the larger.
  QueryResult c, l;
  q.method = Method::kExact;
  q.sel.kinds = {"clat"};
  ASSERT_TRUE(e.query(q, &c).ok());
  q.sel.kinds = {"lat"};
  ASSERT_TRUE(e.query(q, &l).ok());
  EXPECT_GT(l.rows[0].stats.mean_ns, c.rows[0].stats.mean_ns);
  q.sel.kinds = {"clat", "lat"};  // chosen explicitly: merged, no note
  ASSERT_TRUE(e.query(q, &r).ok());
  EXPECT_TRUE(r.notes.empty());
  EXPECT_EQ(r.rows[0].stats.samples, static_cast<double>(clat_ios + lat_ios));
}

// Whole-run percentiles from binned per-I/O values and from the same run's
// histogram log agree within a bin: the log's windows hold the same I/Os
// (up to ms ties at window edges), so the histograms are nearly equal.
void agree_with_hist(const std::string& lat, const std::string& hist) {
  Engine e;
  testing::feed(&e, lat, text_of(lat));
  testing::feed(&e, hist, text_of(hist));
  const Source& l = e.sources()[0];  // (a reference from feed() moves when sources() grows)
  const Source& h = e.sources()[1];
  ASSERT_TRUE(l.status.ok() && h.status.ok());
  const BinLayout& L = *fio_layout(3, 0);
  for (const Series& hs : h.series) {
    const Series* ls = nullptr;
    for (const Series& x : l.series)
      if (x.dir == hs.dir) ls = &x;
    ASSERT_NE(ls, nullptr);
    ASSERT_EQ(hs.layout->id, "fio3");
    std::vector<double> a(L.size(), 0), b(L.size(), 0);
    for (const Window& w : hs.windows) hs.for_each_bin(w, [&](uint32_t bin, uint64_t c) { a[bin] += c; });
    const double end = hs.windows.back().end_ms;
    for (const Window& w : ls->windows)
      if (w.end_ms <= end) ls->for_each_bin(w, [&](uint32_t bin, uint64_t c) { b[bin] += c; });
    const double ps[] = {50, 90, 99};
    PercentileValue pa[3], pb[3];
    ASSERT_TRUE(compute_percentiles(L, a.data(), ps, 3, Method::kInterp, pa));
    ASSERT_TRUE(compute_percentiles(L, b.data(), ps, 3, Method::kInterp, pb));
    for (int k = 0; k < 3; ++k)
      EXPECT_LE(std::fabs(pa[k].value_ns - pb[k].value_ns), std::max(pa[k].err_ns, pb[k].err_ns))
          << lat << " " << dir_name(hs.dir) << " p" << ps[k] << ": hist " << pa[k].value_ns << " per-I/O "
          << pb[k].value_ns;
  }
}

TEST(FioLatQuery, BinnedPerIoAgreesWithTheHistogramLogWithinABin) {
  agree_with_hist(fx("local/local_clat.1.log"), fx("local/local_clat_hist.1.log"));
  agree_with_hist(fx("local/local_clat.2.log"), fx("local/local_clat_hist.2.log"));
  agree_with_hist(fx("fio_lat/fl_clat.1.log"), fx("fio_lat/fl_clat_hist.1.log"));
  // fio-s1: client mode; the histogram logs are repaired (accumulation defect).
  for (const std::string& f : s1_lat_logs()) {
    std::string h = f;
    h.replace(h.find("_clat."), 6, "_clat_hist.");
    agree_with_hist(f, h);
  }
}

TEST(FioLatQuery, HeatMapsByBsAndOffsetCountEveryIo) {
  Engine e;
  const Source& s = testing::feed(&e, fx("fio_lat/fl_clat.1.log"), text_of(fx("fio_lat/fl_clat.1.log")));
  ASSERT_TRUE(s.status.ok());
  for (auto y : {HeatmapOptions::Y::kBs, HeatmapOptions::Y::kOffset}) {
    HeatmapOptions h;
    h.y = y;
    h.rows = 16;
    h.quantum_ms = 500;
    HeatmapResult r;
    ASSERT_TRUE(e.heatmap(h, &r).ok());
    double total = r.below + r.above;
    for (double c : r.counts) total += c;
    EXPECT_EQ(total, static_cast<double>(s.records));
    EXPECT_EQ(r.below + r.above, 0.0);
    EXPECT_EQ(r.edges_ns.size(), r.rows + 1u);
    if (y == HeatmapOptions::Y::kBs) {
      EXPECT_EQ(r.y, "bs");
      EXPECT_EQ(r.edges_ns.front(), 4096.0);  // bsrange=4k-16k
      EXPECT_EQ(r.edges_ns.back(), 32768.0);
    } else {
      EXPECT_EQ(r.y, "offset");
      EXPECT_EQ(r.rows, 16u);
    }
  }
  // No per-I/O log selected: a clear error.
  Engine hist;
  testing::feed(&hist, fx("fio_lat/fl_clat_hist.1.log"), text_of(fx("fio_lat/fl_clat_hist.1.log")));
  HeatmapOptions h;
  h.y = HeatmapOptions::Y::kBs;
  HeatmapResult r;
  const Status st = hist.heatmap(h, &r);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message.find("no fio per-I/O latency log"), std::string::npos) << st.message;
  // A log without an offset column (no log_offset=1).
  Engine noff;
  testing::feed(&noff, fx("local/local_clat.1.log"), text_of(fx("local/local_clat.1.log")));
  h.y = HeatmapOptions::Y::kOffset;
  EXPECT_FALSE(noff.heatmap(h, &r).ok());
  h.y = HeatmapOptions::Y::kBs;
  ASSERT_TRUE(noff.heatmap(h, &r).ok());
  double total = 0;
  for (double c : r.counts) total += c;
  EXPECT_EQ(total, 8000.0);
}

TEST(FioLatQuery, HeatMapsByBsNameTheHistogramIosTheyLeaveOut) {
  // A per-I/O log of one job beside another job's histogram log: the heat map
  // by bs counts the first's I/Os and names the second's, so the cells and
  // the note together hold every I/O the selection has (nothing silently
  // lost); the note reaches the page in the grid's own JSON.
  Engine e;
  const std::string lat = fx("local/local_clat.1.log"), hist = fx("local/local_clat_hist.2.log");
  // Each feed may move the sources already held: what is needed of one is
  // read before the next.
  const Source& a = testing::feed(&e, lat, text_of(lat));
  ASSERT_TRUE(a.status.ok());
  const uint64_t lat_ios = a.records;
  const Source& b = testing::feed(&e, hist, text_of(hist));
  ASSERT_TRUE(b.status.ok());
  uint64_t hist_ios = 0;
  for (const Series& s : b.series) hist_ios += s.total();
  ASSERT_GT(hist_ios, 0u);
  const size_t hist_series = b.series.size();
  HeatmapOptions h;
  h.y = HeatmapOptions::Y::kBs;
  h.quantum_ms = 1000;
  HeatmapResult r;
  ASSERT_TRUE(e.heatmap(h, &r).ok());
  double cells = r.below + r.above;
  for (double c : r.counts) cells += c;
  EXPECT_EQ(cells, static_cast<double>(lat_ios));
  const std::string note = std::to_string(hist_series) + " series (" + format_number(static_cast<double>(hist_ios)) +
                           " I/Os) left out of the heat map by bs: only fio's per-I/O logs (write_lat_log, values kept) "
                           "record each I/O's block size";
  EXPECT_NE(std::find(r.notes.begin(), r.notes.end(), note), r.notes.end()) << ::testing::PrintToString(r.notes);
  EXPECT_NE(heatmap_json(r).find(",\"notes\":[" + json_escape(note)), std::string::npos) << heatmap_json(r);
  // The per-I/O log alone: nothing left out, no note.
  Engine only;
  testing::feed(&only, lat, text_of(lat));
  ASSERT_TRUE(only.heatmap(h, &r).ok());
  EXPECT_TRUE(r.notes.empty()) << ::testing::PrintToString(r.notes);
  EXPECT_NE(heatmap_json(r).find(",\"notes\":[],"), std::string::npos);
}

TEST(FioLatQuery, BudgetKeepsBinsAndSaysSo) {
  Engine e;
  FileOptions o;
  o.max_per_io_samples = 6000;
  const Source& a = testing::feed(&e, fx("local/local_clat.1.log"), text_of(fx("local/local_clat.1.log")), 0, o);
  EXPECT_EQ(a.diag.count(Issue::kPerIoBudget), 1u);
  uint64_t kept = 0;
  for (const Series& s : a.series) kept += s.io_ns.size();
  EXPECT_EQ(kept, 0u);
  EXPECT_EQ(a.records, 8000u);
  // Engine-wide: the second file would pass the budget.
  Engine f;
  o.max_per_io_samples = 10000;
  testing::feed(&f, fx("local/local_clat.1.log"), text_of(fx("local/local_clat.1.log")), 0, o);
  testing::feed(&f, fx("local/local_clat.2.log"), text_of(fx("local/local_clat.2.log")), 0, o);
  const Source& b = f.sources()[1];
  EXPECT_EQ(b.diag.count(Issue::kPerIoBudget), 1u);
  QueryOptions q;
  q.method = Method::kExact;
  QueryResult r;
  ASSERT_TRUE(f.query(q, &r).ok());
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("method exact: 2 selected series carry no per-I/O values"), std::string::npos)
      << r.notes[0];
  EXPECT_EQ(r.rows[0].p[0].err_ns > 0, true);  // from bins
}

TEST(FioLatQuery, MixedWithHistogramLogsFallsBackWithANote) {
  Engine e;
  testing::feed(&e, fx("local/local_clat.1.log"), text_of(fx("local/local_clat.1.log")));
  testing::feed(&e, fx("local/local_clat_hist.2.log"), text_of(fx("local/local_clat_hist.2.log")));
  QueryOptions q;
  q.method = Method::kExact;
  QueryResult r;
  ASSERT_TRUE(e.query(q, &r).ok());
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("percentiles from bins (interp) instead"), std::string::npos);
}

TEST(FioLatQuery, JsonTailsAreNeverAddedToPerIoLogs) {
  Engine e;
  testing::feed(&e, fx("local/local.json"), text_of(fx("local/local.json")));
  testing::feed(&e, fx("local/local_clat.1.log"), text_of(fx("local/local_clat.1.log")));
  const Source& s = e.sources()[1];
  QueryOptions q;
  q.quantum_ms = 1e6;
  q.sel.dirs = kDirRead;
  QueryResult r;
  ASSERT_TRUE(e.query(q, &r).ok());
  EXPECT_TRUE(r.notes.empty());
  uint64_t reads = 0;
  for (const Series& x : s.series)
    if (x.dir == Dir::kRead) reads += x.total();
  EXPECT_EQ(r.rows[0].stats.samples, static_cast<double>(reads));
  EXPECT_EQ(reads, 4000u);  // every I/O of json+'s total_ios: nothing unlogged
}

TEST(FioLatQuery, WorkerEncodingKeepsPerIoValues) {
  Engine e;
  const Source& s = testing::feed(&e, fx("fio_lat/fl_clat.1.log"), text_of(fx("fio_lat/fl_clat.1.log")));
  const std::vector<uint8_t> bytes = encode_source(s);
  Source d;
  ASSERT_TRUE(decode_source(bytes.data(), bytes.size(), &d).ok());
  ASSERT_EQ(d.series.size(), s.series.size());
  for (size_t i = 0; i < d.series.size(); ++i) {
    EXPECT_TRUE(d.series[i].per_io);
    EXPECT_EQ(d.series[i].io_ns, s.series[i].io_ns);
    EXPECT_EQ(d.series[i].io_bs, s.series[i].io_bs);
    EXPECT_EQ(d.series[i].io_offset, s.series[i].io_offset);
  }
  // Inconsistent values are refused.
  Source bad = s;
  bad.series[0].io_ns.pop_back();
  const std::vector<uint8_t> b2 = encode_source(bad);
  EXPECT_FALSE(decode_source(b2.data(), b2.size(), &d).ok());
  // Truncations never crash.
  for (size_t n = 0; n < bytes.size(); n += 97) EXPECT_FALSE(decode_source(bytes.data(), n, &d).ok());
}

TEST(FioLatQuery, OptionsJsonSpellings) {
  QueryOptions q;
  std::vector<std::string> labels;
  Unit u;
  ASSERT_TRUE(parse_query_options_json(R"({"method": "exact", "kinds": "clat,lat"})", &q, &labels, &u).ok());
  EXPECT_EQ(q.method, Method::kExact);
  EXPECT_EQ(q.sel.kinds, (std::vector<std::string>{"clat", "lat"}));
  EXPECT_FALSE(parse_query_options_json(R"({"kinds": ["hist"]})", &q, &labels, &u).ok());
  HeatmapOptions h;
  ASSERT_TRUE(parse_heatmap_options_json(R"({"y": "offset", "kinds": ["slat"]})", &h, &u).ok());
  EXPECT_EQ(h.y, HeatmapOptions::Y::kOffset);
  EXPECT_EQ(h.sel.kinds, (std::vector<std::string>{"slat"}));
  EXPECT_FALSE(parse_heatmap_options_json(R"({"y": "size"})", &h, &u).ok());
  FileOptions f;
  ASSERT_TRUE(parse_file_options_json(R"({"format": "fio-lat"})", &f).ok());
  EXPECT_EQ(f.format, FileFormat::kFioLat);
}

}  // namespace
}  // namespace latscope
