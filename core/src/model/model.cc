#include "latscope/model.h"

#include <cctype>

namespace latscope {

const char* dir_name(Dir d) {
  switch (d) {
    case Dir::kRead: return "read";
    case Dir::kWrite: return "write";
    case Dir::kTrim: return "trim";
  }
  return "?";
}

const char* format_name(FileFormat f) {
  switch (f) {
    case FileFormat::kFioHist: return "fio-hist";
    case FileFormat::kFioJson: return "fio-json";
    case FileFormat::kHdrLog: return "hdr-log";
    case FileFormat::kUnknown: break;
  }
  return "unknown";
}

uint64_t Series::total() const {
  uint64_t t = 0;
  for (uint64_t c : counts) t += c;
  return t;
}

namespace {
bool all_digits(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}
}  // namespace

// fio names: <prefix>_<kind>_hist.<job>.log[.<host>] (client mode appends the
// server's host), per_job_logs=0: <prefix>_<kind>_hist.log; archives add .gz.
FileIdentity parse_fio_file_name(const std::string& path) {
  FileIdentity id;
  std::string base = path.substr(path.find_last_of("/\\") == std::string::npos ? 0 : path.find_last_of("/\\") + 1);
  if (base.size() > 3 && base.compare(base.size() - 3, 3, ".gz") == 0) {
    id.gz = true;
    base.resize(base.size() - 3);
  }
  for (const char* kind : {"clat", "slat", "lat"}) {
    const std::string marker = std::string("_") + kind + "_hist.";
    const size_t m = base.rfind(marker);
    if (m == std::string::npos) continue;
    id.prefix = base.substr(0, m);
    id.kind = kind;
    std::string rest = base.substr(m + marker.size());  // "2.log.127.0.0.1" or "log"
    size_t dot = rest.find('.');
    std::string first = rest.substr(0, dot);
    if (all_digits(first)) {
      id.job = first;
      rest = dot == std::string::npos ? "" : rest.substr(dot + 1);
    }
    if (rest.compare(0, 3, "log") == 0) {
      if (rest.size() > 4 && rest[3] == '.') id.host = rest.substr(4);
    }
    return id;
  }
  // Not a fio histogram name: keep the base name as the prefix for grouping.
  id.prefix = base;
  return id;
}

}  // namespace latscope
