#include "latscope/model.h"

#include "latscope/tool_layouts.h"

#include <algorithm>
#include <cctype>

namespace latscope {

std::string time_too_late(uint64_t time_ms) {
  return "time_ms " + std::to_string(time_ms) +
         " is past 2^53 ms (285,000 years), where ms are no longer exact and its I/Os would fall out of every "
         "time query; line skipped";
}


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
    case FileFormat::kFioLat: return "fio-lat";
    case FileFormat::kIgnored: return "ignored";
    case FileFormat::kResult: return "result";
    case FileFormat::kTsv: return "tsv";
    case FileFormat::kUnknown: break;
  }
  return "unknown";
}

void Labels::set(const std::string& name, const std::string& value) {
  auto it = std::lower_bound(kv_.begin(), kv_.end(), name,
                             [](const std::pair<std::string, std::string>& a, const std::string& n) { return a.first < n; });
  if (it != kv_.end() && it->first == name) {
    if (value.empty()) kv_.erase(it);
    else it->second = value;
  } else if (!value.empty()) {
    kv_.insert(it, {name, value});
  }
}

const std::string* Labels::find(const std::string& name) const {
  auto it = std::lower_bound(kv_.begin(), kv_.end(), name,
                             [](const std::pair<std::string, std::string>& a, const std::string& n) { return a.first < n; });
  return it != kv_.end() && it->first == name ? &it->second : nullptr;
}

void json_host_job(const Source& src, const Series& s, std::string* host, std::string* job) {
  const size_t slash = s.job.rfind('/');
  if (slash == std::string::npos) {
    *host = src.id.host;
    *job = s.job;
  } else {
    *host = s.job.substr(0, slash);
    *job = s.job.substr(slash + 1);
  }
}

// FNV-1a, 64 bits: a fingerprint of a file's first bytes, not a guard
// against anyone (two files are one only when their names say so too).
uint64_t head_hash_of(const char* data, size_t n) {
  uint64_t h = 14695981039346656037ull;
  const size_t k = n < kHeadHashBytes ? n : kHeadHashBytes;
  for (size_t i = 0; i < k; ++i) {
    h ^= static_cast<unsigned char>(data[i]);
    h *= 1099511628211ull;
  }
  return k ? h : 0;
}

std::string label_of(const Source& src, const Series& s, const std::string& name) {
  if (const std::string* v = s.labels.find(name)) return *v;
  if (const std::string* v = src.labels.find(name)) return *v;
  if (name == "host") return "local";
  return "";
}

Labels labels_from_identity(const std::string& name, const FileIdentity& id) {
  Labels l;
  const size_t slash = name.find_last_of("/\\");
  l.set("file", slash == std::string::npos ? name : name.substr(slash + 1));
  l.set("prefix", id.prefix);
  l.set("kind", id.kind);
  l.set("job", id.job);
  l.set("host", id.host);
  return l;
}

void complete_series_labels(Series* s) {
  if (!s->labels.find("dir")) s->labels.set("dir", dir_name(s->dir));
  if (!s->labels.find("job")) s->labels.set("job", s->job);
}

void Series::add_window(double start_ms, double end_ms, const uint32_t* bins,
                        const uint64_t* counts, uint32_t n) {
  Window w;
  w.start_ms = start_ms;
  w.end_ms = end_ms;
  w.offset = static_cast<uint32_t>(data.size());
  w.n = n;
  // Encoded through a small buffer and appended in blocks: a push_back per
  // byte was a fifth of the fio histogram reader's time (docs/benchmarks.md, "Window blocks").
  constexpr size_t kMaxPair = 5 + 10;  // a bin gap and a count, LEB128
  uint8_t buf[4096];
  size_t len = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (len > sizeof buf - kMaxPair) {
      data.insert(data.end(), buf, buf + len);
      len = 0;
    }
    len += varint::put(buf + len, i == 0 ? bins[0] : bins[i] - bins[i - 1] - 1);
    len += varint::put(buf + len, counts[i]);
    w.total += counts[i];
  }
  data.insert(data.end(), buf, buf + len);
  windows.push_back(w);
}

void Series::decode(const Window& w, std::vector<uint32_t>* bins, std::vector<uint64_t>* counts) const {
  // Sized once and filled by pointer: decode runs over every window in the
  // fio reader's repair (docs/benchmarks.md, "Window blocks").
  bins->resize(w.n);
  counts->resize(w.n);
  uint32_t* b = bins->data();
  uint64_t* c = counts->data();
  for_each_bin(w, [&](uint32_t bin, uint64_t count) {
    *b++ = bin;
    *c++ = count;
  });
}

Status Series::decode_at(size_t wi, std::vector<uint32_t>* bins, std::vector<uint64_t>* counts) const {
  const Window& w = windows[wi];
  if (wi >= line_at.size() || line_at[wi] == kBinsInData || !elsewhere) {
    decode(w, bins, counts);
    return Status::Ok();
  }
  return elsewhere->bins(line_at[wi], w.n, w.total, bins, counts);
}

bool Series::valid(size_t nbins) const {
  size_t pos = 0;
  for (const Window& w : windows) {
    if (w.offset != pos || !(w.end_ms >= w.start_ms)) return false;
    uint64_t bin = 0, total = 0;
    for (uint32_t i = 0; i < w.n; ++i) {
      uint64_t v[2];
      for (uint64_t& x : v) {  // bounds-checked LEB128
        x = 0;
        for (int shift = 0;; shift += 7) {
          if (pos >= data.size() || shift > 63) return false;
          const uint8_t byte = data[pos++];
          x |= static_cast<uint64_t>(byte & 0x7f) << shift;
          if (!(byte & 0x80)) break;
        }
      }
      // Check the gap before adding it: a huge gap must not wrap around.
      if (v[0] >= nbins || (i > 0 && v[0] >= nbins - bin - 1)) return false;
      bin = i == 0 ? v[0] : bin + 1 + v[0];
      if (v[1] == 0 || total + v[1] < total) return false;
      total += v[1];
    }
    if (total != w.total) return false;
  }
  if (!extremes.empty()) {  // result windows' recorded extremes (model.h)
    if (extremes.size() != windows.size()) return false;
    for (const ExtremeBins& x : extremes)
      if (x.any() && (x.lo > x.hi || x.hi >= nbins)) return false;
  }
  if (role == Role::kWindowValues) {  // one value per window, nothing else per I/O
    if (per_io || io_ns.size() != windows.size() || !io_bs.empty() || !io_offset.empty()) return false;
    if (!window_max_ns.empty() && window_max_ns.size() != windows.size()) return false;
    for (size_t i = 0; i < window_max_ns.size(); ++i)
      if (window_max_ns[i] < io_ns[i]) return false;  // a window's maximum is at least its average
  } else if (!window_max_ns.empty()) {
    return false;
  } else if (!io_ns.empty() || !io_bs.empty() || !io_offset.empty()) {
    uint64_t ios = 0;
    for (const Window& w : windows) ios += w.total;
    if (!per_io || io_ns.size() != ios || io_bs.size() != ios || (!io_offset.empty() && io_offset.size() != ios))
      return false;
  }
  return pos == data.size();
}

uint64_t Series::total() const {
  if (digest) return digest->total;  // its windows are not all here (WindowDigest)
  uint64_t t = 0;
  for (const Window& w : windows) t += w.total;
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

namespace {
FileIdentity fio_name_identity(const std::string& path);
}  // namespace

// A fio log's identity from its name, and its host from the folders when a
// tool moved the log there and took the host off its name (pbench-fio's
// clients/<host>/, latscope/tool_layouts.h): those logs were written by fio's
// client like any `.log.<host>` file, so they are the same logs to every
// reader (labels, runs, the client/server repair; docs/formats.md).
FileIdentity parse_fio_file_name(const std::string& path) {
  FileIdentity id = fio_name_identity(path);
  if (!id.kind.empty() && id.host.empty()) id.host = tool_place_of(path).host;
  return id;
}

namespace {
// fio names: <prefix>_<kind>_hist.<job>.log[.<host>] (client mode appends the
// server's host), per_job_logs=0: <prefix>_<kind>_hist.log; archives add .gz.
FileIdentity fio_name_identity(const std::string& path) {
  FileIdentity id;
  std::string base = path.substr(path.find_last_of("/\\") == std::string::npos ? 0 : path.find_last_of("/\\") + 1);
  if (base.size() > 3 && base.compare(base.size() - 3, 3, ".gz") == 0) {
    id.gz = true;
    base.resize(base.size() - 3);
  }
  // log_store_compressed=1 writes NAME.log.fz: fio's own compression, not a
  // host (docs/folders.md, "Compressed fio logs").
  if (base.size() > 7 && base.compare(base.size() - 7, 7, ".log.fz") == 0) base.resize(base.size() - 3);
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
  // fio per-I/O logs (docs/formats-fio-lat.md): <prefix>_<kind>.<job>.log[.<host>],
  // per_job_logs=0: <prefix>_<kind>.log.
  for (const char* kind : {"clat", "slat", "lat"}) {
    const std::string marker = std::string("_") + kind + ".";
    const size_t m = base.rfind(marker);
    if (m == std::string::npos) continue;
    std::string rest = base.substr(m + marker.size());  // "2.log.127.0.0.1" or "log"
    const size_t dot = rest.find('.');
    const std::string first = rest.substr(0, dot);
    std::string job;
    if (all_digits(first)) {
      job = first;
      rest = dot == std::string::npos ? "" : rest.substr(dot + 1);
    }
    if (rest.compare(0, 3, "log") != 0 || (rest.size() > 3 && rest[3] != '.')) continue;
    id.prefix = base.substr(0, m);
    id.kind = kind;
    id.job = job;
    if (rest.size() > 4) id.host = rest.substr(4);
    return id;
  }
  // Not a fio log name: keep the base name as the prefix for grouping.
  id.prefix = base;
  return id;
}
}  // namespace

}  // namespace latscope
