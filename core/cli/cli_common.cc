#include "cli_common.h"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "latscope/reader.h"

namespace latscope::cli {
namespace {
constexpr unsigned kChunk = 4u << 20;
}

bool parse_double(const std::string& s, double* out) {
  if (s.empty()) return false;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s.c_str(), &end);
  if (errno || *end || !std::isfinite(v)) return false;
  *out = v;
  return true;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t a = 0;
  for (;;) {
    const size_t b = s.find(sep, a);
    out.push_back(s.substr(a, b == std::string::npos ? std::string::npos : b - a));
    if (b == std::string::npos) break;
    a = b + 1;
  }
  return out;
}

void print_diagnostics(const Source& src) {
  if (src.format == FileFormat::kIgnored && src.status.ok()) {  // a note, not an error: exit code unchanged
    std::fprintf(stderr, "latscope: %s: ignored (%s)\n", src.name.c_str(), src.ignored.c_str());
    return;
  }
  if (!src.status.ok()) {
    std::fprintf(stderr, "latscope: %s\n", src.status.message.c_str());
    return;
  }
  for (int i = 0; i < static_cast<int>(Issue::kCount); ++i) {
    const Issue is = static_cast<Issue>(i);
    const uint64_t n = src.diag.count(is);
    if (!n) continue;
    const IssueInfo& info = issue_info(is);
    std::fprintf(stderr, "latscope: %s: %s x%llu: %s\n", src.name.c_str(), info.name,
                 static_cast<unsigned long long>(n), info.description);
    if (info.severity == Severity::kInfo) continue;  // harmless: the count is enough
    for (const IssueExample& e : src.diag.examples())
      if (e.issue == is) {
        if (e.line)
          std::fprintf(stderr, "  %s:%llu:%u: %s\n", src.name.c_str(),
                       static_cast<unsigned long long>(e.line), e.column, e.text.c_str());
        else
          std::fprintf(stderr, "  %s: %s\n", src.name.c_str(), e.text.c_str());
      }
  }
}

namespace {

// The engine's own sniff (reader.h) on a file's first bytes.
bool looks_like_json(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) return false;
  std::vector<char> buf(kSniffBytes);
  const int n = gzread(f, buf.data(), static_cast<unsigned>(buf.size()));
  const bool complete = n >= 0 && static_cast<size_t>(n) < buf.size();
  gzclose(f);
  return n > 0 && sniff({path, buf.data(), static_cast<size_t>(n), complete}).format == FileFormat::kFioJson;
}

// Reads one file into a new handle of engine; returns its exit code share.
int read_into(Engine* engine, const std::string& path, const FileOptions& fopts, std::vector<char>* buf,
              const Source** out);

}  // namespace

int for_each_file(const std::vector<std::string>& files, const FileOptions& fopts,
                  const std::function<void(const Source&)>& fn) {
  std::vector<std::string> ordered, logs;
  for (const std::string& f : files) (looks_like_json(f) ? ordered : logs).push_back(f);
  ordered.insert(ordered.end(), logs.begin(), logs.end());
  int rc = 0;
  std::vector<char> buf(kChunk);
  for (const std::string& path : ordered) {
    Engine engine;
    const Source* src = nullptr;
    rc = std::max(rc, read_into(&engine, path, fopts, &buf, &src));
    if (src) fn(*src);
  }
  return rc;
}

// gzopen reads plain files transparently, so one path serves .gz and text.
int load_files(Engine* engine, const std::vector<std::string>& files, const FileOptions& fopts) {
  int rc = 0;
  std::vector<char> buf(kChunk);
  for (const std::string& path : files) {
    const Source* src = nullptr;
    rc = std::max(rc, read_into(engine, path, fopts, &buf, &src));
  }
  return rc;
}

namespace {

int read_into(Engine* engine, const std::string& path, const FileOptions& fopts, std::vector<char>* bufp,
              const Source** out) {
  std::vector<char>& buf = *bufp;
  int rc = 0;
  {
    const int h = engine->open_file(path, fopts);
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f) {
      std::fprintf(stderr, "latscope: %s: cannot open: %s\n", path.c_str(), std::strerror(errno));
      engine->finish(h);
      return 2;
    }
    gzbuffer(f, 1u << 20);
    bool failed = false;
    for (;;) {
      const int n = gzread(f, buf.data(), kChunk);
      if (n < 0) {
        int errnum = 0;
        const char* msg = gzerror(f, &errnum);
        std::fprintf(stderr, "latscope: %s: read error: %s; the part read so far is used\n",
                     path.c_str(), msg);
        failed = true;
        break;
      }
      if (n == 0) break;
      engine->append(h, buf.data(), static_cast<size_t>(n));
    }
    gzclose(f);
    const Source& src = engine->finish(h);
    print_diagnostics(src);
    if (!src.status.ok() || failed) rc = 2;
    else if (src.diag.skipped_lines() && rc < 1) rc = 1;
    *out = &src;
  }
  return rc;
}

}  // namespace

bool read_whole_file(const std::string& path, std::string* out, std::string* err) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) {
    *err = path + ": cannot open: " + std::strerror(errno);
    return false;
  }
  std::vector<char> buf(kChunk);
  out->clear();
  for (;;) {
    const int n = gzread(f, buf.data(), kChunk);
    if (n < 0) {
      int e = 0;
      *err = path + ": read error: " + gzerror(f, &e);
      gzclose(f);
      return false;
    }
    if (n == 0) break;
    out->append(buf.data(), static_cast<size_t>(n));
  }
  gzclose(f);
  return true;
}

}  // namespace latscope::cli
