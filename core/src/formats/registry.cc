// The one registry of input formats (reader.h). Adding a format: a folder
// under formats/ with a sniff and a reader, and one line in kFormats.
//
// Files that are no latency log are named, not failed: a results folder holds
// job files, READMEs and fio's IOPS/bandwidth logs beside the latency logs,
// and each is reported once as ignored with what it looks like.
#include <algorithm>

#include "formats/sniff_util.h"
#include "latscope/engine.h"
#include "latscope/reader.h"

namespace latscope {

FormatEntry fio_hist_format();
FormatEntry fio_json_format();
FormatEntry fio_lat_format();
FormatEntry hdr_log_format();
FormatEntry result_format();
FormatEntry tsv_format();

namespace {

bool name_has(const std::string& base, const char* part) { return base.find(part) != std::string::npos; }

// fio's write_iops_log / write_bw_log files have the per-I/O log's shape but
// carry no latency: recognised by fio's own names.
SniffResult sniff_not_latency_log(const SniffInput& in) {
  const std::string b = sniffing::base_name(in.name);
  SniffResult r{FileFormat::kIgnored, 0, ""};
  if (name_has(b, "_iops.") && name_has(b, ".log")) r.what = "fio IOPS log: not latency";
  else if (name_has(b, "_bw.") && name_has(b, ".log")) r.what = "fio bandwidth log: not latency";
  else return r;
  // Only when the content has that shape (numbers): a file so named that is
  // a histogram log is still read as one.
  const std::vector<std::string_view> ls = sniffing::lines(in, 4);
  if (!ls.empty()) {
    const std::vector<std::string_view> f = sniffing::fields(ls[0]);
    if (f.size() >= 4 && f.size() <= 8 && sniffing::is_number(f[0])) r.confidence = 99;
  }
  return r;
}

const std::vector<FormatEntry>& table() {
  static const std::vector<FormatEntry> kFormats = {
      fio_hist_format(),
      fio_json_format(),
      fio_lat_format(),
      hdr_log_format(),
      result_format(),
      tsv_format(),
      {FileFormat::kIgnored, &sniff_not_latency_log, nullptr},
  };
  return kFormats;
}

// What bytes no format claims look like.
std::string describe_unclaimed(const SniffInput& in) {
  const std::string_view b = sniffing::body(in);
  if (b.size() >= 2 && static_cast<unsigned char>(b[0]) == 0x1f && static_cast<unsigned char>(b[1]) == 0x8b)
    return "gzip data inside the file (compressed twice?)";
  size_t control = 0;
  for (char ch : b) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c == 0 || (c < 0x20 && c != '\n' && c != '\r' && c != '\t')) ++control;
  }
  if (control * 20 > b.size() || (!b.empty() && b.find('\0') != std::string_view::npos)) return "binary data";
  // A fio job file: "[section]" lines and key=value lines (fio's ini format).
  size_t sections = 0, keys = 0;
  for (std::string_view l : sniffing::lines(in, 64)) {
    if (l.front() == ';' || l.front() == '#') continue;
    if (l.front() == '[' && l.back() == ']') ++sections;
    else if (l.find('=') != std::string_view::npos || l.find_first_of(" \t") == std::string_view::npos) ++keys;
  }
  if (sections && keys) return "fio job file";
  return "text";
}

bool all_blank(const SniffInput& in) {
  const std::string_view b = sniffing::body(in);
  return std::all_of(b.begin(), b.end(), [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; });
}

}  // namespace

std::string name_claims_log(const std::string& name) {
  const std::string b = sniffing::base_name(name);
  const FileIdentity id = parse_fio_file_name(name);
  for (const char* k : {"_lat.", "_clat.", "_slat."})
    if (name_has(b, k) && name_has(b, ".log")) return "a fio per-I/O latency log";
  if (!id.kind.empty()) return "a fio histogram log";
  if (b.size() > 5 && b.compare(b.size() - 5, 5, ".hlog") == 0) return "an HdrHistogram interval log";
  return "";
}

const std::vector<FormatEntry>& registered_formats() { return table(); }

SniffResult sniff(const SniffInput& in) {
  SniffResult best;
  for (const FormatEntry& f : table()) {
    SniffResult r = f.sniff(in);
    if (r.confidence > best.confidence) best = r;
  }
  if (best.confidence > 0) return best;
  if (all_blank(in)) return {};  // nothing to judge yet (or an empty file)
  return {FileFormat::kIgnored, 1, describe_unclaimed(in)};
}

std::unique_ptr<Reader> create_reader(FileFormat f, Source src, const FileOptions& opts) {
  for (const FormatEntry& e : table())
    if (e.format == f && e.create) return e.create(std::move(src), opts);
  return nullptr;
}

}  // namespace latscope
