// fio per-I/O latency logs in the registry: sniff and reader
// (docs/formats-fio-lat.md).
#include <cctype>

#include "formats/fio_lat/fio_lat_reader.h"
#include "formats/owning_reader.h"
#include "formats/sniff_util.h"
#include "latscope/engine.h"
#include "latscope/reader.h"

namespace latscope {
namespace {

bool name_has(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

bool is_hex(std::string_view f) { return f.size() > 2 && f[0] == '0' && (f[1] == 'x' || f[1] == 'X'); }

// A field of a per-I/O line: an unsigned decimal, or fio's 0x%04x priority.
bool is_field(std::string_view f) {
  if (is_hex(f)) {
    for (size_t i = 2; i < f.size(); ++i)
      if (!std::isxdigit(static_cast<unsigned char>(f[i]))) return false;
    return true;
  }
  if (f.empty() || f.size() > 20) return false;
  for (char c : f)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// "time_ms, value, ddir, bs[, offset][, prio][, issue_time]": 4 to 7 unsigned
// fields, ddir 0..2. Histogram logs have >= 9 columns (3 + at least 19
// bins), HdrHistogram lines end in a base64 payload, fio json starts with
// '{': none of them has this shape. fio's IOPS and bandwidth logs do: their
// names (_iops., _bw.) are claimed by the registry's ignore rule, so a name
// saying so makes this sniff step aside.
SniffResult sniff_fio_lat(const SniffInput& in) {
  SniffResult r{FileFormat::kFioLat, 0, "fio per-I/O latency log"};
  const std::string base = sniffing::base_name(in.name);
  if (name_has(base, "_iops.") || name_has(base, "_bw.")) return r;
  const std::vector<std::string_view> ls = sniffing::lines(in, 16);
  size_t good = 0, bad = 0, ncols = 0;
  for (std::string_view l : ls) {
    const std::vector<std::string_view> f = sniffing::fields(l);
    bool ok = f.size() >= 4 && f.size() <= 7;
    // fio writes a priority in hex (0x%04x) only in its last columns (5 to 7).
    for (size_t i = 0; ok && i < f.size(); ++i) ok = is_field(f[i]) && (i >= 4 || !is_hex(f[i]));
    const auto ddir = [](std::string_view x) { return x.size() == 1 && x[0] >= '0' && x[0] <= '2'; };
    // Or a log_window_value=both line (fio >= 3.37): "time, avg, max, ddir,
    // bs 0[, offset], prio" (fio_lat_reader.cc window_value_both_shape).
    if (ok) ok = ddir(f[2]) || (f.size() >= 6 && !is_hex(f[2]) && ddir(f[3]) && f[4] == "0");
    if (ok && ncols && f.size() != ncols) ok = false;
    if (ok) {
      ncols = f.size();
      ++good;
    } else {
      ++bad;
    }
  }
  // Named as fio names these logs: one good line among damaged ones decides
  // (the reader counts the others). Unnamed: most lines must have the shape.
  const bool named = name_has(base, "_clat.") || name_has(base, "_lat.") || name_has(base, "_slat.");
  if (good == 0 || (!named && good < 2 * bad)) return r;
  r.confidence = named ? 97 : 60;
  return r;
}

std::unique_ptr<Reader> create_fio_lat(Source src, const FileOptions& opts) {
  return create_owning_reader<FioLatReader>(std::move(src), opts);
}

}  // namespace

FormatEntry fio_lat_format() { return {FileFormat::kFioLat, &sniff_fio_lat, &create_fio_lat}; }

}  // namespace latscope
