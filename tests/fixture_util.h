// Helpers shared by the tests that run on the real fio fixtures
// (tests/fixtures/, see its README.md): loading files into an Engine, reading
// the reference outputs of fio's tools/hist/fio-histo-log-pctiles.py, and
// reading fio's per-I/O latency logs (the exact ground truth). Header-only
// (inline) because tests/CMakeLists.txt compiles only *_test.cc files.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "latscope/engine.h"
#include "latscope/result.h"
#include "latscope/stream.h"
#include "test_util.h"

namespace latscope {
namespace fixtures {

// The files of fixture set `set` whose path contains `needle`, sorted;
// .gz copies left out.
inline std::vector<std::string> files_of(const std::string& set, const std::string& needle) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(std::string(LATSCOPE_FIXTURES) + "/" + set)) {
    const std::string p = e.path().string();
    if (p.find(needle) != std::string::npos && p.find(".gz") == std::string::npos) out.push_back(p);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// One output of fio-histo-log-pctiles.py as stored in <set>/reference/:
//   # python3 fio-histo-log-pctiles.py <args>     (our first line: the command)
//   time quantum = 1 sec
//   percentiles = 0.0,50.0,95.0,99.0,100.0
//   msec-since-start, samples, min, median, 95.0, 99.0, max,
//          0,        0, , , , , ,
//       1000,     3189, 0.584, 72.91416045230064, ..., 89128.96
struct ScriptRow {
  int64_t t_ms = 0;
  int64_t samples = 0;          // the script prints int(samples)
  bool empty = false;           // blank value fields
  std::vector<double> values;   // microseconds, in increasing percentile order
};

struct ScriptReference {
  std::string command;
  int quantum_s = 0;
  std::vector<double> percentiles;
  std::vector<std::string> file_args;  // file names from the command line
  std::vector<ScriptRow> rows;
};

// fio per-I/O log line (write_lat_log, no log_avg_msec):
//   time_ms, value_ns, ddir, bs, offset[, prio]
struct IoSample {
  double t_ms = 0;    // completion time, ms since the job's start (whole ms)
  uint64_t ns = 0;    // latency
  int dir = 0;        // 0 read, 1 write, 2 trim
};

// Text helpers for the parsers below.
// A Diagnostics as text, one line per issue kind with its count, then each
// kept example with its line and column: what two sources' diagnostics are
// compared by.
inline std::string diag_text(const Diagnostics& d) {
  std::string o;
  for (int i = 0; i < static_cast<int>(Issue::kCount); ++i)
    if (d.count(static_cast<Issue>(i)))
      o += std::string("issue ") + issue_info(static_cast<Issue>(i)).name + " " +
           std::to_string(d.count(static_cast<Issue>(i))) + "\n";
  for (const IssueExample& e : d.examples())
    o += "example " + std::string(issue_info(e.issue).name) + " " + std::to_string(e.line) + ":" +
         std::to_string(e.column) + " " + e.text + "\n";
  return o;
}

// A series' per-I/O values (latency ns, block size, offset) as text, each
// list on a line of its own after `indent`, then a line break.
inline std::string io_text(const Series& x, const std::string& indent) {
  std::string o = "\n" + indent + "ns";
  for (uint64_t v : x.io_ns) o += " " + std::to_string(v);
  o += "\n" + indent + "bs";
  for (uint32_t v : x.io_bs) o += " " + std::to_string(v);
  o += "\n" + indent + "offset";
  for (uint64_t v : x.io_offset) o += " " + std::to_string(v);
  return o + "\n";
}

inline std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return "";
  size_t b = s.find_last_not_of(" \t\r");
  return s.substr(a, b - a + 1);
}

inline std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep)) parts.push_back(cur);
  if (!s.empty() && s.back() == sep) parts.push_back("");
  return parts;
}

inline bool parse_double(const std::string& s, double* out) {
  const std::string t = trim(s);
  if (t.empty()) return false;
  char* end = nullptr;
  *out = std::strtod(t.c_str(), &end);
  return end == t.c_str() + t.size();
}


// LATSCOPE_FIXTURES + "/" + rel (the folder is set by tests/CMakeLists.txt).
inline std::string path(const std::string& rel) { return std::string(LATSCOPE_FIXTURES) + "/" + rel; }

inline bool exists(const std::string& p) { return std::filesystem::exists(p); }

inline bool read_file(const std::string& p, std::string* out) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  *out = ss.str();
  return true;
}

// Files in dir whose names start with prefix, sorted by name (the order a
// shell glob gives the reference script).
inline std::vector<std::string> list(const std::string& dir, const std::string& prefix) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (e.is_regular_file() && name.compare(0, prefix.size(), prefix) == 0) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  for (std::string& n : names) n = dir + "/" + n;
  return names;
}

// Feeds each file into the engine in `chunk`-byte pieces, in order.
// handles (optional) receives one handle per file. Fails when a file cannot
// be read or its Source is not ok.
inline ::testing::AssertionResult load(Engine* engine, const std::vector<std::string>& files,
                                       const FileOptions& opts,
                                       std::vector<int>* handles = nullptr,
                                       size_t chunk = 1 << 16) {
  if (files.empty()) return ::testing::AssertionFailure() << "no files to load";
  for (const std::string& f : files) {
    std::string text;
    if (!read_file(f, &text)) return ::testing::AssertionFailure() << "cannot read " << f;
    const int h = engine->open_file(f, opts);
    for (size_t at = 0; at < text.size(); at += chunk) {
      engine->append(h, text.data() + at, std::min(chunk, text.size() - at));
    }
    const Source& src = engine->finish(h);
    if (!src.status.ok()) {
      return ::testing::AssertionFailure() << f << ": " << src.status.message;
    }
    if (handles) handles->push_back(h);
  }
  return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult parse_reference(const std::string& file, ScriptReference* out) {
  std::string text;
  if (!read_file(file, &text)) return ::testing::AssertionFailure() << "cannot read " << file;
  *out = ScriptReference{};
  std::istringstream in(text);
  std::string line;
  bool in_rows = false;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (lineno == 1) {
      if (line.rfind("# ", 0) != 0) {
        return ::testing::AssertionFailure() << file << ": first line is not the command";
      }
      out->command = line.substr(2);
      // File arguments: the words ending in ".log" or ".log.<host>".
      std::istringstream words(out->command);
      std::string w;
      while (words >> w) {
        if (w.find("_clat_hist.") != std::string::npos) out->file_args.push_back(w);
      }
      continue;
    }
    if (!in_rows) {
      if (line.rfind("time quantum = ", 0) == 0) {
        out->quantum_s = std::atoi(line.c_str() + 15);
      } else if (line.rfind("percentiles = ", 0) == 0) {
        for (const std::string& p : split(line.substr(14), ',')) {
          double v;
          if (!parse_double(p, &v)) return ::testing::AssertionFailure() << file << ": bad percentile list";
          out->percentiles.push_back(v);
        }
      } else if (line.rfind("msec-since-start", 0) == 0) {
        in_rows = true;
      }
      continue;
    }
    if (trim(line).empty()) continue;
    std::vector<std::string> f = split(line, ',');
    if (f.size() < 2) return ::testing::AssertionFailure() << file << ":" << lineno << ": short row";
    ScriptRow row;
    double t, n;
    if (!parse_double(f[0], &t) || !parse_double(f[1], &n)) {
      return ::testing::AssertionFailure() << file << ":" << lineno << ": bad row";
    }
    row.t_ms = static_cast<int64_t>(t);
    row.samples = static_cast<int64_t>(n);
    for (size_t i = 2; i < f.size(); ++i) {
      double v;
      if (parse_double(f[i], &v)) row.values.push_back(v);
    }
    row.empty = row.values.empty();
    if (!row.empty && row.values.size() != out->percentiles.size()) {
      return ::testing::AssertionFailure()
             << file << ":" << lineno << ": " << row.values.size() << " values for "
             << out->percentiles.size() << " percentiles";
    }
    out->rows.push_back(std::move(row));
  }
  if (!in_rows || out->quantum_s <= 0 || out->percentiles.empty()) {
    return ::testing::AssertionFailure() << file << ": no header or no rows";
  }
  return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult read_lat_log(const std::string& file, std::vector<IoSample>* out) {
  std::string text;
  if (!read_file(file, &text)) return ::testing::AssertionFailure() << "cannot read " << file;
  out->clear();
  std::istringstream in(text);
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (trim(line).empty()) continue;
    char* p = line.data();
    char* end = nullptr;
    IoSample s;
    s.t_ms = static_cast<double>(std::strtoll(p, &end, 10));
    if (end == p || *end != ',') return ::testing::AssertionFailure() << file << ":" << lineno;
    p = end + 1;
    s.ns = std::strtoull(p, &end, 10);
    if (end == p || *end != ',') return ::testing::AssertionFailure() << file << ":" << lineno;
    p = end + 1;
    s.dir = static_cast<int>(std::strtol(p, &end, 10));
    if (end == p) return ::testing::AssertionFailure() << file << ":" << lineno;
    out->push_back(s);
  }
  if (out->empty()) return ::testing::AssertionFailure() << file << ": no samples";
  return ::testing::AssertionSuccess();
}

// Relative difference |a - b| / max(|a|, |b|), 0 when both are 0.
inline double rel_diff(double a, double b) {
  const double m = std::max(std::fabs(a), std::fabs(b));
  return m == 0 ? 0 : std::fabs(a - b) / m;
}

// The files folded into one result at quantum q keeping the labels `keep`
// ({"*"}: every label), as `latscope reduce` does (docs/result-format.md).
inline Result reduce_files(const std::vector<std::string>& files, double q, GroupBy keep = {"*"}) {
  QueryOptions o;
  o.quantum_ms = q;
  o.group_by = std::move(keep);
  StreamingQuery s(o);
  for (const std::string& f : files) {
    std::string text;
    EXPECT_TRUE(read_file(f, &text)) << f;
    Engine one;
    EXPECT_TRUE(s.add(testing::feed(&one, f, text)).ok());
  }
  Result r;
  std::vector<std::string> notes;
  Diagnostics diag;
  EXPECT_TRUE(s.finish_result(&r, &notes, &diag).ok());
  return r;
}

}  // namespace fixtures
}  // namespace latscope
