// The one registry of input formats (reader.h). Adding a format: a folder
// under formats/ with a sniff and a reader, and one line in kFormats.
//
// Files that are no latency log are named, not failed: a results folder holds
// job files, READMEs and fio's IOPS/bandwidth logs beside the latency logs,
// and each is reported once as ignored with what it looks like. So do the
// folders benchmark tools leave (pbench-fio, CBT, PerfKitBenchmarker,
// fio-plot's bench-fio): their own outputs are named as what they are
// (docs/formats.md, "Folders that benchmark tools leave").
#include <algorithm>
#include <cctype>

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
SniffResult sniff_archive(const SniffInput& in);  // archive_sniff.cc

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

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool has(std::string_view s, std::string_view p) { return s.find(p) != std::string_view::npos; }

std::string_view trimmed_start(std::string_view b) {
  size_t i = 0;
  while (i < b.size() && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t')) ++i;
  return b.substr(i);
}

// A header line: two or more comma-separated fields, none a number, some
// with a letter ("timestamp_ms,client_hostname:all,...").
bool csv_header(std::string_view l) {
  const std::vector<std::string_view> f = sniffing::fields(l);
  if (f.size() < 2) return false;
  bool letter = false;
  for (std::string_view x : f) {
    if (sniffing::is_number(x)) return false;
    for (char c : x) letter = letter || std::isalpha(static_cast<unsigned char>(c));
  }
  return letter;
}

// A CSV table: a header line, then rows of as many fields starting with a
// number ("timestamp_ms,..." over "1000,2087983.8,...").
bool csv_table(const std::vector<std::string_view>& ls) {
  if (ls.size() < 2 || !csv_header(ls[0])) return false;
  const std::vector<std::string_view> h = sniffing::fields(ls[0]), r = sniffing::fields(ls[1]);
  return r.size() == h.size() && sniffing::is_number(r[0]);
}

// Outputs that tools write beside fio's logs and that a reader would claim
// by their shape: each is named for what it is, above that reader's
// confidence. Every rule keys on text the tool writes (docs/formats.md).
SniffResult sniff_known_output(const SniffInput& in) {
  SniffResult r{FileFormat::kIgnored, 0, ""};
  const std::string_view b = sniffing::body(in);
  const std::vector<std::string_view> ls = sniffing::lines(in, 16);
  for (std::string_view l : ls) {
    // HdrHistogram's percentile distribution (outputPercentileDistribution,
    // HistogramLogProcessor; .hgrm by custom): its "#[StartTime:" line
    // would make it an interval log (hdr sniff, 90).
    const std::string_view t = trimmed_start(l);
    if ((starts_with(t, "Value") && has(t, "Percentile") && has(t, "TotalCount")) ||
        starts_with(t, "\"Value\",\"Percentile\",\"TotalCount\"")) {
      r.what = "HdrHistogram percentile distribution (.hgrm): an output, not a log";
      r.confidence = 99;
      return r;
    }
    // fio's tools/hist/fio-histo-log-pctiles.py (pbench-fio's hist/hist.csv):
    // 9 numeric columns with pbench's 7 percentiles, which the fio
    // histogram sniff would take for a log of unknown bins (70).
    if (starts_with(t, "msec-since-start, samples,") || starts_with(t, "time (millisec), percentiles") ||
        starts_with(t, "end-time, samples,")) {
      r.what = "percentiles over time from fio-histo-log-pctiles.py (pbench-fio's hist.csv): an output, not a log";
      r.confidence = 99;
      return r;
    }
  }
  // pbench-fio's fio-postprocess-viz.py: one series of hist.csv per file,
  // "#LABEL:<column>" then "<ms> <value>" lines.
  if (!ls.empty() && starts_with(ls[0], "#LABEL:")) {
    r.what = "pbench-fio plot series (a column of hist.csv): not a log";
    r.confidence = 99;
    return r;
  }
  // JSON that is not fio's: fio's own json always names "fio version" first
  // (json_source.cc takes any '{' at 90).
  const std::string_view j = trimmed_start(b);
  // '[' only as a JSON array opens ("[global]" opens a fio job file).
  const std::string_view after = j.empty() ? j : trimmed_start(j.substr(1));
  const bool array = !j.empty() && j[0] == '[' && !after.empty() && has("{[\"-0123456789]", after.substr(0, 1));
  if (!j.empty() && (j[0] == '{' || array) && !has(b, "\"fio version\"") && !has(b, "\"jobs\"") &&
      !has(b, "\"client_stats\"")) {
    r.confidence = 95;
    if (has(b, "\"product_name\": \"PerfKitBenchmarker\"") || (has(b, "\"metric\":") && has(b, "\"sample_uri\":")))
      r.what = "PerfKitBenchmarker samples (JSON lines): its results, not a log";
    else if (has(b, "\"client_hostname\"") && has(b, "\"timeseries\""))
      r.what = "pbench-fio result summary (result.json): not a log";
    else
      r.what = "JSON, not fio's output";
    return r;
  }
  // A CSV table with a header (pbench-fio's csv/*.csv: timestamp_ms and one
  // column per client and job): wide numeric rows the fio histogram sniff
  // would take for a log of unknown bins (70); fio never writes a header.
  if (csv_table(ls)) {
    r.what = "CSV table with a header: not a log";
    r.confidence = 75;
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
      {FileFormat::kIgnored, &sniff_archive, nullptr},
      {FileFormat::kIgnored, &sniff_not_latency_log, nullptr},
      {FileFormat::kIgnored, &sniff_known_output, nullptr},
  };
  return kFormats;
}

// fio's text outputs that hold no latency log, named so a user knows what
// to run instead (docs/formats.md, "Files that are not latency logs"):
// the I/O log of write_iolog (its first line "fio version 2 iolog" or
// "fio version 3 iolog"), terse output ("3;fio-3.33;..." : the terse
// version, then fio's), and the normal output (a "fio-3.33" line beside a
// job's "(groupid=" or "(g=" line). Empty when it is none of them.
std::string fio_text_output(const std::vector<std::string_view>& ls) {
  constexpr const char* kNoBins = ": percentiles of the whole run, no histogram; fio --output-format=json+ writes its bins";
  if (ls.empty()) return "";
  const std::string_view first = ls.front();
  const auto ends_with = [](std::string_view s, std::string_view t) {
    return s.size() >= t.size() && s.substr(s.size() - t.size()) == t;
  };
  if (starts_with(first, "fio version ") && ends_with(first, " iolog"))
    return "fio I/O log of write_iolog: the I/Os issued, for replay; no latencies";
  if (first.size() > 6 && first[0] >= '1' && first[0] <= '9' && first.substr(1, 5) == ";fio-")
    return std::string("fio terse output") + kNoBins;
  bool version = false, job = false;
  for (std::string_view l : ls) {
    version = version || (starts_with(l, "fio-") && l.size() > 4 && l[4] >= '1' && l[4] <= '9');
    job = job || l.find(": (groupid=") != std::string_view::npos || l.find(": (g=") != std::string_view::npos;
  }
  return version && job ? std::string("fio normal output") + kNoBins : "";
}

// What bytes no format claims look like.
std::string describe_unclaimed(const SniffInput& in) {
  const std::string_view b = sniffing::body(in);
  if (b.size() >= 2 && static_cast<unsigned char>(b[0]) == 0x1f && static_cast<unsigned char>(b[1]) == 0x8b)
    return "gzip data inside the file (compressed twice?)";
  // RFC 1950: deflate (8) with a window up to 32 KiB, and a header that is a multiple of 31.
  if (b.size() >= 2 && (static_cast<unsigned char>(b[0]) & 0x0f) == 8 && (static_cast<unsigned char>(b[0]) >> 4) <= 7 &&
      ((static_cast<unsigned char>(b[0]) << 8) | static_cast<unsigned char>(b[1])) % 31 == 0)
    return kZlibData;
  size_t control = 0;
  for (char ch : b) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c == 0 || (c < 0x20 && c != '\n' && c != '\r' && c != '\t')) ++control;
  }
  // PNG: the signature, then the IHDR chunk every PNG starts with.
  if (starts_with(b, std::string_view("\x89PNG\r\n\x1a\n", 8)) && b.size() >= 16 && b.substr(12, 4) == "IHDR")
    return "PNG image";
  if (starts_with(b, "%PDF-")) return "PDF document";
  if (control * 20 > b.size() || (!b.empty() && b.find('\0') != std::string_view::npos)) return "binary data";
  // Reports: pbench-fio's results.html and fio.html, fio-plot's charts.
  const std::string_view t = trimmed_start(b);
  std::string low(t.substr(0, 256));
  for (char& c : low) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (starts_with(low, "<!doctype html") || starts_with(low, "<html") || (starts_with(low, "<?xml") && has(low, "<html")))
    return "HTML page (a report): not a log";
  if (starts_with(low, "<svg") || (starts_with(low, "<?xml") && has(low, "<svg"))) return "SVG image";
  const std::vector<std::string_view> ls = sniffing::lines(in, 2);
  if (csv_table(ls)) return "CSV table with a header: not a log";
  std::string fio_text = fio_text_output(sniffing::lines(in, 64));
  if (!fio_text.empty()) return fio_text;
  // A fio job file: "[section]" lines and key=value lines (fio's ini format).
  size_t sections = 0, keys = 0;
  for (std::string_view l : sniffing::lines(in, 64)) {
    if (l.front() == ';' || l.front() == '#') continue;
    if (l.front() == '[' && l.back() == ']') ++sections;
    else if (l.find('=') != std::string_view::npos || l.find_first_of(" \t") == std::string_view::npos) ++keys;
  }
  if (sections && keys) return "fio job file";
  // The engine read up to kMaxSniffBytes looking for a line end (reader.h).
  if (!in.complete && b.find('\n') == std::string_view::npos)
    return "text with no line end in its first " + std::to_string(b.size() >> 10) + " KiB: no log has such lines";
  return "text";
}

bool all_blank(const SniffInput& in) {
  const std::string_view b = sniffing::body(in);
  return std::all_of(b.begin(), b.end(), [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; });
}

}  // namespace

// What a file name promises, one constant each, so empty_log_reason asks
// the same question name_claims_log answers, not a copy of its wording.
constexpr const char* kClaimPerIo = "a fio per-I/O latency log";
constexpr const char* kClaimHist = "a fio histogram log";
constexpr const char* kClaimHlog = "an HdrHistogram interval log";

std::string empty_log_reason(const std::string& name) {
  const std::string claim = name_claims_log(name);
  if (claim.empty()) return "empty file";
  if (claim == kClaimHlog) return "empty HdrHistogram log: nothing was logged in it";
  std::string head = "empty fio log: fio logged nothing in it";
  if (name_has(sniffing::base_name(name), "_slat.")) return head + ", as a synchronous ioengine has no submission latency";
  if (claim == kClaimHist)
    return head + ", as it writes a histogram line when a log_hist_msec interval ends and none for the last, partial "
                  "one: a job shorter than one interval leaves it empty";
  return head;
}

std::string name_claims_log(const std::string& name) {
  const std::string b = sniffing::base_name(name);
  const FileIdentity id = parse_fio_file_name(name);
  for (const char* k : {"_lat.", "_clat.", "_slat."})
    if (name_has(b, k) && name_has(b, ".log")) return kClaimPerIo;
  if (!id.kind.empty()) return kClaimHist;
  if (b.size() > 5 && b.compare(b.size() - 5, 5, ".hlog") == 0) return kClaimHlog;
  return "";
}

std::string stored_compressed_message(const std::string& name, const std::string& what) {
  const std::string b = sniffing::base_name(name);
  if (what != kZlibData || b.size() < 4 || b.compare(b.size() - 3, 3, ".fz") != 0) return "";
  const std::string promised = name_claims_log(name);
  // fio compresses its in-memory samples (iolog.c gz_work); a histogram
  // log's samples hold the address of each window's bins, and the bins are
  // not written (checked with fio 3.33 and fio master of 2026-08).
  if (promised == "a fio histogram log")
    return name + ": a fio histogram log stored compressed (log_store_compressed=1): not read; fio stores such a log "
                  "without its histograms (each line holds a memory address, not bins), so no tool can recover "
                  "them: write histogram logs without log_store_compressed (docs/folders.md, \"Compressed fio logs\")";
  const std::string text = b.substr(0, b.size() - 3);
  return name + ": a fio log stored compressed (log_store_compressed=1): not read; 'fio --inflate-log=" + b + " > " +
         text + "' writes the text log latscope reads (docs/folders.md, \"Compressed fio logs\")";
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
