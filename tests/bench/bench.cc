// Native speed and memory benchmark of the engine (docs/benchmarks.md).
//
//   latscope_bench [--chunk BYTES] [--repeat N] [--label TEXT] [--quantum MS] [--query-only] DIR_OR_FILE...
//
// Reads every file in 4 MiB chunks (fread, no zlib: the set is plain text) and
// feeds them to one latscope::Engine exactly as the CLI does (open_file,
// append per chunk, finish). Times only the engine calls for the parse rate,
// so the figure is the parser's, not the disk's; the set should be in the
// page cache (run_bench.sh reads it once first). Then runs Engine::query with
// default options and again grouped by host.
//
// Single-threaded: MB/s here is MB/s per core. MB = 10^6 bytes of log text.
// Memory: peak RSS (getrusage ru_maxrss, i.e. VmHWM) of this process, and the
// model's own size (sum over series of windows, bins and counts vectors,
// by size and by allocated capacity).
//
// Last line of output is one machine-readable record for run_bench.sh:
//   RESULT label files windows bytes parse_s mbps cpu_s cpu_mbps query_all_s
//          query_host_s model_bytes model_cap_bytes peak_rss_kb rss_after_parse_kb
//          compact_bytes finish_cpu_s
// Both rates are given because this 2-core machine is shared: wall time
// includes time the process waited for a core, CPU time does not.
#include <sys/resource.h>
#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "latscope/engine.h"
#include "latscope/report.h"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Current resident set (VmRSS) in KiB from /proc, for the "after parse" point;
// ru_maxrss only ever gives the peak.
long rss_kb_now() {
  FILE* f = std::fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  long kb = -1;
  while (std::fgets(line, sizeof line, f))
    if (std::strncmp(line, "VmRSS:", 6) == 0) kb = std::strtol(line + 6, nullptr, 10);
  std::fclose(f);
  return kb;
}

long peak_rss_kb() {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;  // KiB on Linux
}

double cpu_seconds() {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

// A directory expands to its regular files, sorted (hidden files skipped).
void expand(const std::string& arg, std::vector<std::string>* out) {
  struct stat st;
  if (stat(arg.c_str(), &st) != 0) {
    std::fprintf(stderr, "latscope_bench: %s: not found\n", arg.c_str());
    std::exit(2);
  }
  if (!S_ISDIR(st.st_mode)) {
    out->push_back(arg);
    return;
  }
  std::vector<std::string> names;
  DIR* d = opendir(arg.c_str());
  while (dirent* e = readdir(d)) {
    const std::string n = e->d_name;
    if (n.empty() || n[0] == '.') continue;  // ., .., the .complete marker
    names.push_back(arg + "/" + n);
  }
  closedir(d);
  std::sort(names.begin(), names.end());
  out->insert(out->end(), names.begin(), names.end());
}

struct ModelSize {
  uint64_t windows = 0, bins = 0, used = 0, cap = 0;
  uint64_t compact = 0;  // windows + varint data, as stored
};

ModelSize model_size(const latscope::Engine& e) {
  ModelSize m;
  for (const latscope::Source& s : e.sources())
    for (const latscope::Series& se : s.series) {
      m.windows += se.windows.size();
      for (const latscope::Window& w : se.windows) m.bins += w.n;
      m.used += se.windows.size() * sizeof(latscope::Window) + se.data.size();
      m.cap += se.windows.capacity() * sizeof(latscope::Window) + se.data.capacity();
      m.compact += se.windows.size() * sizeof(latscope::Window) + se.data.size();
    }
  return m;
}

// The page's per-host ask when its view cannot draw bands (a quantum under
// a few pixels): columns without the sampling bands. Seconds; rows in *rows.
double page_query(const latscope::Engine& engine, double quantum_ms, size_t* rows) {
  latscope::QueryOptions q;
  q.quantum_ms = quantum_ms;
  q.group_by = latscope::GroupBy{"host"};
  q.bands = false;
  // As the page's worker builds them (wasm/js_columns.h): no band columns.
  latscope::PctilesColumnsBuilder builder({"p50", "p90", "p99", "p99.9", "p100"}, latscope::Unit::kUs, false);
  latscope::QueryResult r;
  const auto t0 = Clock::now();
  const latscope::Status st = engine.query(q, &r, &builder);
  *rows = builder.take(false).t_ms.size();
  const double s = seconds_since(t0);
  if (!st.ok()) {
    std::fprintf(stderr, "latscope_bench: query by host, no bands: %s\n", st.message.c_str());
    std::exit(2);
  }
  return s;
}

void print_page_query(double seconds, size_t rows) {
  std::printf("no bands       %.3f s, %zu rows (by host as columns without the sampling bands: the page's ask)\n",
              seconds, rows);
}

}  // namespace

int main(int argc, char** argv) {
  size_t chunk = size_t{4} << 20;
  int repeat = 1;
  std::string label = "set";
  double quantum_ms = 1000;  // of both queries
  // Parse, then only the page's query (no other query, no report): what
  // count_query.sh counts instructions of under callgrind.
  bool query_only = false;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--chunk" && i + 1 < argc) chunk = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--repeat" && i + 1 < argc) repeat = std::atoi(argv[++i]);
    else if (a == "--label" && i + 1 < argc) label = argv[++i];
    else if (a == "--quantum" && i + 1 < argc) quantum_ms = std::strtod(argv[++i], nullptr);
    else if (a == "--query-only") query_only = true;
    else expand(a, &files);
  }
  if (files.empty() || chunk == 0 || repeat < 1 || !(quantum_ms > 0)) {
    std::fprintf(stderr, "usage: latscope_bench [--chunk BYTES] [--repeat N] [--label TEXT] [--quantum MS] [--query-only] DIR_OR_FILE...\n");
    return 2;
  }

  std::vector<char> buf(chunk);
  double best_parse = 1e300, best_cpu = 1e300, best_finish = 0, best_finish_cpu = 0;
  uint64_t bytes = 0;
  long rss_after_parse = 0;
  latscope::Engine* engine = nullptr;
  // Each repetition parses into a fresh engine; the last one is kept for the
  // queries. Repetitions only take the best time (noise of a shared machine).
  for (int rep = 0; rep < repeat; ++rep) {
    delete engine;
    engine = new latscope::Engine;
    double parse = 0, finish = 0;  // finish: repair, window building (a part of parse)
    double finish_cpu = 0;
    const double cpu0 = cpu_seconds();
    double read_cpu = 0;  // fread's share of the CPU time, subtracted below
    bytes = 0;
    for (const std::string& path : files) {
      FILE* f = std::fopen(path.c_str(), "rb");
      if (!f) {
        std::fprintf(stderr, "latscope_bench: %s: cannot open\n", path.c_str());
        return 2;
      }
      auto t0 = Clock::now();
      const int h = engine->open_file(path);
      parse += seconds_since(t0);
      for (;;) {
        const double c0 = cpu_seconds();
        const size_t n = std::fread(buf.data(), 1, chunk, f);
        read_cpu += cpu_seconds() - c0;
        if (n == 0) break;
        bytes += n;
        t0 = Clock::now();
        engine->append(h, buf.data(), n);
        parse += seconds_since(t0);
      }
      std::fclose(f);
      t0 = Clock::now();
      const double fc0 = cpu_seconds();
      const latscope::Source& src = engine->finish(h);
      finish_cpu += cpu_seconds() - fc0;
      finish += seconds_since(t0);
      parse += seconds_since(t0);
      if (!src.status.ok()) {
        std::fprintf(stderr, "latscope_bench: %s\n", src.status.message.c_str());
        return 2;
      }
    }
    if (parse < best_parse) best_finish = finish;
    best_parse = std::min(best_parse, parse);
    const double cpu = cpu_seconds() - cpu0 - read_cpu;
    if (cpu < best_cpu) best_finish_cpu = finish_cpu;
    best_cpu = std::min(best_cpu, cpu);
    rss_after_parse = rss_kb_now();
  }

  uint64_t records = 0, repaired = 0;
  for (const latscope::Source& s : engine->sources()) {
    records += s.records;
    for (const latscope::Series& se : s.series) repaired += se.repaired;
  }
  if (query_only) {
    size_t rows = 0;
    const double s = page_query(*engine, quantum_ms, &rows);  // before rows is read
    print_page_query(s, rows);
    delete engine;
    return 0;
  }
  const ModelSize m = model_size(*engine);

  latscope::QueryOptions q;  // defaults: p50/90/99/99.9/100, all
  q.quantum_ms = quantum_ms;
  latscope::QueryResult r_all;
  auto t0 = Clock::now();
  latscope::Status st = engine->query(q, &r_all);
  const double q_all = seconds_since(t0);
  if (!st.ok()) {
    std::fprintf(stderr, "latscope_bench: query: %s\n", st.message.c_str());
    return 2;
  }
  q.group_by = latscope::GroupBy{"host"};
  latscope::QueryResult r_host;
  t0 = Clock::now();
  st = engine->query(q, &r_host);
  const double q_host = seconds_since(t0);
  if (!st.ok()) {
    std::fprintf(stderr, "latscope_bench: query by host: %s\n", st.message.c_str());
    return 2;
  }
  // The page's worker answers with this JSON text: its cost is part of every
  // regroup the page does.
  t0 = Clock::now();
  const size_t json_bytes = latscope::pctiles_json(r_host, {"p50", "p90", "p99", "p99.9", "p100"}, latscope::Unit::kUs).size();
  const double json_host = seconds_since(t0);
  // Rows kept, then made columns: what the page's worker did before.
  t0 = Clock::now();
  const size_t converted = latscope::pctiles_columns(r_host, {"p50", "p90", "p99", "p99.9", "p100"}, latscope::Unit::kUs).t_ms.size();
  const double q_convert = seconds_since(t0);
  // What the page's worker does since rows go straight into columns
  // (Engine::query's sink): the same query, no rows kept.
  latscope::PctilesColumnsBuilder builder({"p50", "p90", "p99", "p99.9", "p100"}, latscope::Unit::kUs);
  latscope::QueryResult r_sunk;
  t0 = Clock::now();
  st = engine->query(q, &r_sunk, &builder);
  const latscope::PctilesColumns cols = builder.take(false);
  const double q_cols = seconds_since(t0);
  if (!st.ok()) {
    std::fprintf(stderr, "latscope_bench: query by host into columns: %s\n", st.message.c_str());
    return 2;
  }
  size_t nb_rows = 0;
  const double q_nb = page_query(*engine, quantum_ms, &nb_rows);
  // Touch the results so the work cannot be judged dead, and show a sane row.
  double samples = 0;
  for (const latscope::Row& row : r_all.rows) samples += row.stats.samples;
  const long peak = peak_rss_kb();

  const double mb = static_cast<double>(bytes) / 1e6;
  std::printf("set            %s: %zu files, %.1f MB of log text, %llu records, %llu windows\n",
              label.c_str(), files.size(), mb, static_cast<unsigned long long>(records),
              static_cast<unsigned long long>(m.windows));
  std::printf("parse          %.3f s wall (engine calls only, best of %d; finish() %.3f s of it) -> %.0f MB/s\n",
              best_parse, repeat, best_finish, mb / best_parse);
  std::printf("parse CPU      %.3f s user+sys (fread excluded; finish() %.3f s of it) -> %.0f MB/s per core\n",
              best_cpu, best_finish_cpu, mb / best_cpu);
  std::printf("repair         %llu of the series were repaired (client/server defect)\n",
              static_cast<unsigned long long>(repaired));
  std::printf("query all      %.3f s, %zu rows, %.0f samples in all rows\n", q_all, r_all.rows.size(),
              samples);
  std::printf("query by host  %.3f s, %zu rows, %zu groups\n", q_host, r_host.rows.size(),
              r_host.groups.size());
  std::printf("as columns     %.3f s, %zu rows (the same query, rows handed to the columns, none kept;\n"
              "               before: the query above, then %.3f s making its %zu rows columns)\n",
              q_cols, cols.t_ms.size(), q_convert, converted);
  print_page_query(q_nb, nb_rows);
  std::printf("its JSON       %.3f s, %.1f MB (pctiles_json, what the page's worker posts)\n", json_host,
              static_cast<double>(json_bytes) / 1e6);
  std::printf("model          %.1f MB used (%.1f MB allocated): %llu windows, %.1f non-empty bins per window\n",
              static_cast<double>(m.used) / 1e6, static_cast<double>(m.cap) / 1e6,
              static_cast<unsigned long long>(m.windows),
              m.windows ? static_cast<double>(m.bins) / static_cast<double>(m.windows) : 0.0);
  std::printf("model          %.1f MB as stored (%.0f B per window; %.0f B if bins were uint32+uint64)\n",
              static_cast<double>(m.compact) / 1e6,
              m.windows ? static_cast<double>(m.compact) / static_cast<double>(m.windows) : 0.0,
              m.windows ? static_cast<double>(m.windows * sizeof(latscope::Window) + m.bins * 12) /
                              static_cast<double>(m.windows)
                        : 0.0);
  std::printf("memory         RSS after parse %.1f MB, peak RSS %.1f MB (ru_maxrss)\n",
              static_cast<double>(rss_after_parse) * 1024 / 1e6, static_cast<double>(peak) * 1024 / 1e6);
  std::printf("RESULT %s %zu %llu %llu %.4f %.1f %.4f %.1f %.4f %.4f %llu %llu %ld %ld %llu %.4f\n",
              label.c_str(), files.size(), static_cast<unsigned long long>(m.windows),
              static_cast<unsigned long long>(bytes), best_parse, mb / best_parse, best_cpu,
              mb / best_cpu, q_all, q_host,
              static_cast<unsigned long long>(m.used), static_cast<unsigned long long>(m.cap), peak,
              rss_after_parse, static_cast<unsigned long long>(m.compact), best_finish_cpu);
  delete engine;
  return 0;
}
