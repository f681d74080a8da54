// Helpers of the .hlog tests (hdr_*_test.cc): where the golden files and the
// public sample logs are, and a small readable dump of a Source.
#pragma once

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "latscope/engine.h"

namespace latscope::hdrtest {

inline std::string golden_dir() { return std::string(LATSCOPE_FIXTURES) + "/../golden/hdr"; }
// The public HdrHistogram sample logs: ../shared/data/hdr beside the repository.
inline std::string samples_dir() { return std::string(LATSCOPE_FIXTURES) + "/../../../shared/data/hdr"; }

inline bool slurp(const std::string& p, std::string* out) {
  std::ifstream f(p, std::ios::binary);
  if (!f) return false;
  std::ostringstream s;
  s << f.rdbuf();
  *out = s.str();
  return true;
}

inline std::vector<std::string> files(const std::string& dir, const std::string& prefix, const std::string& ext) {
  std::vector<std::string> v;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string n = e.path().filename().string();
    if (n.rfind(prefix, 0) == 0 && n.size() > ext.size() && n.compare(n.size() - ext.size(), ext.size(), ext) == 0)
      v.push_back(e.path().string());
  }
  std::sort(v.begin(), v.end());
  return v;
}

inline std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

// One line per fact, for golden files (tests/golden/hdr/*.expected):
//   status ok | status error: <message>
//   source format=hdr-log absolute_time=0 lines=8 records=4
//   series tag=read dir=read layout=hdr:d3:l1:u1e0:n1234 windows=3 total=270
//   window (0.000000, 1000.000000] total=90 bins=23 first=1010 last=1830
//   issue hdr-malformed-line 1
inline std::string dump(const Source& s) {
  std::string o = s.status.ok() ? "status ok\n" : "status error: " + s.status.message + "\n";
  o += std::string("source format=") + format_name(s.format) + " absolute_time=" + (s.absolute_time ? "1" : "0") +
       " lines=" + std::to_string(s.lines) + " records=" + std::to_string(s.records) + "\n";
  for (const Series& se : s.series) {
    const std::string* tag = se.labels.find("tag");
    const std::string* dir = se.labels.find("dir");
    o += "series tag=" + (tag ? *tag : std::string()) + " dir=" + (dir ? *dir : std::string()) +
         " layout=" + (se.layout ? se.layout->id : "-") + " windows=" + std::to_string(se.windows.size()) +
         " total=" + std::to_string(se.total()) + "\n";
    for (const Window& w : se.windows) {
      std::vector<uint32_t> b;
      std::vector<uint64_t> c;
      se.decode(w, &b, &c);
      o += "window (" + fmt("%.6f", w.start_ms) + ", " + fmt("%.6f", w.end_ms) + "] total=" + std::to_string(w.total) +
           " bins=" + std::to_string(w.n);
      if (!b.empty()) o += " first=" + std::to_string(b.front()) + " last=" + std::to_string(b.back());
      o += "\n";
    }
  }
  for (int i = 0; i < static_cast<int>(Issue::kCount); ++i)
    if (uint64_t n = s.diag.count(static_cast<Issue>(i))) o += std::string("issue ") + issue_info(static_cast<Issue>(i)).name + " " + std::to_string(n) + "\n";
  return o;
}

// Loads text into a fresh engine in chunks (0: whole) and dumps it.
inline std::string load_dump(const std::string& name, const std::string& text, size_t chunk, const FileOptions& opts = {}) {
  Engine e;
  const int h = e.open_file(name, opts);
  if (chunk == 0) chunk = text.size() ? text.size() : 1;
  for (size_t i = 0; i < text.size(); i += chunk) e.append(h, text.data() + i, std::min(chunk, text.size() - i));
  return dump(e.finish(h));
}

}  // namespace latscope::hdrtest
