#include "latscope/report.h"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "query/interval.h"

namespace latscope {

bool parse_unit(const std::string& s, Unit* out) {
  if (s == "ns") *out = Unit::kNs;
  else if (s == "us") *out = Unit::kUs;
  else if (s == "ms") *out = Unit::kMs;
  else return false;
  return true;
}

const char* unit_name(Unit u) {
  switch (u) {
    case Unit::kNs: return "ns";
    case Unit::kUs: return "us";
    case Unit::kMs: return "ms";
  }
  return "?";
}

std::string percentile_label(const std::string& as_given) { return "p" + as_given; }


// Appends format_number(v), or `none` when it is empty (not finite).
void append_number(std::string* o, double v, const char* none) {
  char buf[kNumberChars];
  const size_t n = write_number(v, buf);
  if (n) o->append(buf, n);
  else o->append(none);
}


std::string flags_text(const Row& row, const std::vector<std::string>& labels) {
  std::string f;
  auto add = [&f](const std::string& t) {
    if (!f.empty()) f += ';';
    f += t;
  };
  if (row.flags & kFlagEmpty) add("empty");
  if (row.flags & kFlagFewSamples) {
    std::string few;
    for (size_t i = 0; i < row.p.size() && i < labels.size(); ++i)
      if (row.p[i].few_samples) few += (few.empty() ? "" : "|") + labels[i];
    add("few:" + few);
  }
  if (row.flags & kFlagSaturated) add("sat");
  if (row.flags & kFlagPartial) add("partial");
  if (row.flags & kFlagWindowValues) add("avg");
  if (row.flags & kFlagFiner) add("finer");
  if (row.flags & kFlagShort) add("short");
  return f;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

PctilesCsvWriter::PctilesCsvWriter(const QueryResult& r, std::vector<std::string> pct_labels, Unit unit,
                                   bool bounds, Write write)
    : r_(r), labels_(std::move(pct_labels)), unit_(unit), bounds_(bounds), write_(std::move(write)) {}

std::string PctilesCsvWriter::header() const {
  std::string out = r_.adaptive ? "time_ms,width_ms,group,samples,min,mean" : "time_ms,group,samples,min,mean";
  for (const auto& l : labels_) {
    out += "," + l;
    if (!bounds_) continue;
    out += "," + l;
    out += "_lo," + l;
    out += "_hi";
  }
  out += ",max,flags\n";
  return out;
}

void PctilesCsvWriter::start() {
  started_ = true;
  buf_ = edit_ ? edit_(header()) : header();
  for (const std::string& g : r_.groups) group_fields_.push_back(csv_field(g));
}

void PctilesCsvWriter::add(const Row& row) {
  if (!started_) start();
  std::string& out = buf_;
  const bool empty = row.flags & kFlagEmpty;
  const bool no_p = row.flags & kFlagWindowValues;  // window averages: no percentile
  // One field after a comma: the value in the unit, or nothing. Appended in
  // place, not built from temporaries: a per-host table has hundreds of
  // thousands of rows.
  const auto val = [&](double ns, bool none) {
    out += ',';
    if (!none) append_number(&out, ns_to_unit(ns, unit_), "");
  };
  append_number(&out, row.t_ms, "");
  out += ',';
  if (r_.adaptive) {
    append_number(&out, row.width_ms, "");
    out += ',';
  }
  out += group_fields_[row.group];
  out += ',';
  append_number(&out, empty ? 0 : row.stats.samples, "");
  val(row.stats.min_ns, empty);
  val(row.stats.mean_ns, empty);
  for (const auto& p : row.p) {
    val(p.value_ns, empty || no_p);
    if (!bounds_) continue;
    val(p.lo_ns, empty || no_p || !r_.bands);  // blank, not the defaults (QueryOptions::bands)
    val(p.hi_ns, empty || no_p || !r_.bands);
  }
  val(row.stats.max_ns, empty);
  out += ',';
  if (row.flags) out += flags_text(row, labels_);
  out += '\n';
  if (out.size() >= (1u << 20)) {
    write_(out);
    out.clear();
  }
}

void PctilesCsvWriter::finish() {
  if (!started_) start();
  if (!buf_.empty()) write_(buf_);
  buf_.clear();
}

std::string pctiles_csv(const QueryResult& r, const std::vector<std::string>& labels, Unit unit, bool bounds) {
  std::string out;
  out.reserve(r.rows.size() * (40 + 12 * labels.size() * (bounds ? 3 : 1)));
  PctilesCsvWriter w(r, labels, unit, bounds, [&out](const std::string& piece) { out += piece; });
  for (const Row& row : r.rows) w.add(row);
  w.finish();
  return out;
}

size_t bidi_control_len(const std::string& s, size_t i) {
  const auto b = [&](size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0; };
  if (b(0) == 0xD8 && b(1) == 0x9C) return 2;  // U+061C arabic letter mark
  if (b(0) != 0xE2) return 0;
  if (b(1) == 0x80 && (b(2) == 0x8E || b(2) == 0x8F || (b(2) >= 0xAA && b(2) <= 0xAE))) return 3;  // U+200E/F, U+202A..E
  if (b(1) == 0x81 && b(2) >= 0xA6 && b(2) <= 0xA9) return 3;  // U+2066..U+2069
  return 0;
}

std::string bidi_control_text(const std::string& s, size_t i, size_t len) {
  const auto b = [&](size_t k) { return static_cast<uint32_t>(static_cast<unsigned char>(s[i + k])); };
  const uint32_t cp = len == 2 ? ((b(0) & 0x1F) << 6 | (b(1) & 0x3F)) : ((b(0) & 0x0F) << 12 | (b(1) & 0x3F) << 6 | (b(2) & 0x3F));
  char out[16];
  std::snprintf(out, sizeof out, "\\u%04x", static_cast<unsigned>(cp));
  return out;
}


namespace {

std::string jnum(double v) {
  const std::string s = format_number(v);
  return s.empty() ? "null" : s;
}

const char* severity_name(Severity s) {
  switch (s) {
    case Severity::kInfo: return "info";
    case Severity::kWarning: return "warning";
    case Severity::kError: return "error";
  }
  return "?";
}

std::string diag_json(const Diagnostics& d) {
  std::string o = "\"issues\":[";
  bool first = true;
  for (int i = 0; i < static_cast<int>(Issue::kCount); ++i) {
    const Issue is = static_cast<Issue>(i);
    if (!d.count(is)) continue;
    const IssueInfo& info = issue_info(is);
    o += first ? "" : ",";
    first = false;
    o += "{\"name\":" + json_escape(info.name) + ",\"severity\":\"" + severity_name(info.severity) +
         "\",\"description\":" + json_escape(info.description) +
         ",\"count\":" + std::to_string(d.count(is)) + "}";
  }
  o += "],\"examples\":[";
  first = true;
  for (const IssueExample& e : d.examples()) {
    o += first ? "" : ",";
    first = false;
    o += "{\"issue\":" + json_escape(issue_info(e.issue).name) + ",\"line\":" + std::to_string(e.line) +
         ",\"column\":" + std::to_string(e.column) + ",\"text\":" + json_escape(e.text) + "}";
  }
  return o + "]";
}

// pctiles_json up to and including "rows":[ ...
std::string json_head(const QueryResult& r, const std::vector<std::string>& labels, Unit unit) {
  std::string o = "{\"quantum_ms\":" + jnum(r.quantum_ms) + (r.adaptive ? ",\"adaptive\":true" : "") +
                  (r.bands ? "" : ",\"bands\":false") +
                  ",\"absolute_time\":" + (r.absolute_time ? "true" : "false") + ",\"unit\":\"" +
                  unit_name(unit) + "\",\"layout\":" + json_escape(r.layout_id) + ",\"percentiles\":[";
  for (size_t i = 0; i < labels.size(); ++i)
    o += (i ? "," : "") + json_escape(labels[i].size() > 1 ? labels[i].substr(1) : labels[i]);
  o += "],\"groups\":[";
  for (size_t i = 0; i < r.groups.size(); ++i) o += (i ? "," : "") + json_escape(r.groups[i]);
  o += "],\"rows\":[";
  return o;
}

// ... and from the end of the rows on.
std::string json_tail(const QueryResult& r) {
  std::string o = "],\"notes\":[";
  for (size_t i = 0; i < r.notes.size(); ++i) o += (i ? "," : "") + json_escape(r.notes[i]);
  o += "],\"placed\":{";
  bool first = true;
  for (const auto& [file, ms] : r.placed) {
    o += (first ? "" : ",") + json_escape(file) + ":" + jnum(ms);
    first = false;
  }
  o += "}," + diag_json(r.diag) + "}";
  return o;
}

}  // namespace

std::string pctiles_meta_json(const QueryResult& r, const std::vector<std::string>& labels, Unit unit) {
  return json_head(r, labels, unit) + json_tail(r);
}

std::string pctiles_json(const QueryResult& r, const std::vector<std::string>& labels, Unit unit) {
  std::string o = json_head(r, labels, unit);
  // Appended in place, not built from temporaries: the page's worker posts
  // this for every regroup, hundreds of thousands of rows with many groups.
  o.reserve(o.size() + r.rows.size() * (120 + 48 * labels.size()));
  std::vector<std::string> group_json;
  for (const std::string& g : r.groups) group_json.push_back(json_escape(g));
  for (size_t i = 0; i < r.rows.size(); ++i) {
    const Row& row = r.rows[i];
    const bool empty = row.flags & kFlagEmpty;
    const bool no_p = row.flags & kFlagWindowValues;  // window averages: no percentile
    const auto val = [&](double ns, bool none) {
      if (none) o += "null";
      else append_number(&o, ns_to_unit(ns, unit), "null");
    };
    // "key":[v,v,...] of one PercentileValue member.
    const auto list = [&](const char* key, double PercentileValue::*m) {
      o += key;
      for (size_t j = 0; j < row.p.size(); ++j) {
        if (j) o += ',';
        val(row.p[j].*m, empty || no_p);
      }
      o += ']';
    };
    o += i ? ",{\"t_ms\":" : "{\"t_ms\":";
    append_number(&o, row.t_ms, "null");
    if (r.adaptive) {
      o += ",\"width_ms\":";
      append_number(&o, row.width_ms, "null");
    }
    o += ",\"group\":";
    o += group_json[row.group];
    o += ",\"samples\":";
    append_number(&o, empty ? 0 : row.stats.samples, "null");
    o += ",\"min\":";
    val(row.stats.min_ns, empty);
    o += ",\"mean\":";
    val(row.stats.mean_ns, empty);
    o += ",\"max\":";
    val(row.stats.max_ns, empty);
    list(",\"p\":[", &PercentileValue::value_ns);
    if (r.bands) {  // else left out, not written as the defaults (QueryOptions::bands)
      list(",\"err\":[", &PercentileValue::err_ns);
      list(",\"lo\":[", &PercentileValue::lo_ns);
      list(",\"hi\":[", &PercentileValue::hi_ns);
    }
    o += ",\"flags\":";
    o += row.flags ? json_escape(flags_text(row, labels)) : std::string("\"\"");
    o += '}';
  }
  return o + json_tail(r);
}

// {"name":"value",...} in the labels' (sorted) order.
static std::string labels_json(const Labels& l) {
  std::string o = "{";
  for (const auto& kv : l.items()) o += (o.size() > 1 ? "," : "") + json_escape(kv.first) + ":" + json_escape(kv.second);
  return o + "}";
}

std::string source_json(const Source& s) {
  std::string o = "{\"name\":" + json_escape(s.name) + ",\"format\":\"" + format_name(s.format) +
                  "\",\"layout\":" + json_escape(s.layout ? s.layout->id : "") +
                  ",\"prefix\":" + json_escape(s.id.prefix) + ",\"job\":" + json_escape(s.id.job) +
                  ",\"host\":" + json_escape(s.id.host) +
                  ",\"absolute_time\":" + (s.absolute_time ? "true" : "false") +
                  ",\"lines\":" + std::to_string(s.lines) + ",\"records\":" + std::to_string(s.records) +
                  ",\"bytes\":" + std::to_string(s.bytes) + ",\"labels\":" + labels_json(s.labels) +
                  ",\"ignored\":" + json_escape(s.ignored) + ",\"status\":{\"ok\":" +
                  (s.status.ok() ? "true" : "false") + ",\"message\":" + json_escape(s.status.message) +
                  "},\"series\":[";
  for (size_t i = 0; i < s.series.size(); ++i) {
    const Series& x = s.series[i];
    o += i ? "," : "";
    o += "{\"dir\":\"" + std::string(dir_name(x.dir)) + "\",\"job\":" + json_escape(x.job) +
         ",\"segment\":" + std::to_string(x.segment) + ",\"windows\":" + std::to_string(x.windows.size()) +
         ",\"samples\":" + std::to_string(x.total()) + ",\"repaired\":" + (x.repaired ? "true" : "false") +
         ",\"saturated\":" + std::to_string(x.saturated) + ",\"start_ms\":" +
         jnum(x.windows.empty() ? 0 : x.windows.front().start_ms) +
         ",\"end_ms\":" + jnum(x.windows.empty() ? 0 : x.windows.back().end_ms) +
         // The page's default quantum is the logs' interval (docs/page-views.md).
         ",\"interval_ms\":" + jnum(logging_interval_ms(x)) +
         ",\"role\":\"" + (x.role == Role::kWholeRun ? "whole-run" : "time") + "\",\"labels\":" + labels_json(x.labels) +
         "}";
  }
  o += "]," + diag_json(s.diag) + "}";
  return o;
}

std::string heatmap_json(const HeatmapResult& h) {
  std::string o = "{\"t0_ms\":" + jnum(h.t0_ms) + ",\"quantum_ms\":" + jnum(h.quantum_ms) +
                  ",\"absolute_time\":" + (h.absolute_time ? "true" : "false") +
                  ",\"quanta\":" + std::to_string(h.quanta) + ",\"rows\":" + std::to_string(h.rows) +
                  (h.y == "latency" ? std::string() : ",\"y\":\"" + h.y + "\"") + ",\"edges_ns\":[";
  for (size_t i = 0; i < h.edges_ns.size(); ++i) o += (i ? "," : "") + jnum(h.edges_ns[i]);
  o += "],\"below\":" + jnum(h.below) + ",\"above\":" + jnum(h.above);
  // A density (HeatmapOptions::density_by) counts groups: how many there are.
  if (h.groups) o += ",\"groups\":" + std::to_string(h.groups) + ",\"max_column\":" + std::to_string(h.max_column);
  // Its own notes: a heat map by block size leaves out histogram logs, and
  // shows what was recorded whatever the CO correction; the percentiles
  // query's notes would say other things.
  o += ",\"notes\":[";
  for (size_t i = 0; i < h.notes.size(); ++i) o += (i ? "," : "") + json_escape(h.notes[i]);
  o += "],\"counts\":[";
  for (size_t i = 0; i < h.counts.size(); ++i) o += (i ? "," : "") + jnum(h.counts[i]);
  return o + "]}";
}

std::string density_cell_json(const std::vector<DensityMember>& members, Unit unit) {
  std::string o = std::string("{\"unit\":\"") + unit_name(unit) + "\",\"members\":[";
  for (size_t i = 0; i < members.size(); ++i)
    o += std::string(i ? "," : "") + "{\"group\":" + json_escape(members[i].group) +
         ",\"value\":" + jnum(ns_to_unit(members[i].value_ns, unit)) + "}";
  return o + "]}";
}

std::string heatmap_csv(const HeatmapResult& h, Unit unit, const HeatmapCsvOptions& o) {
  // Rows by bs or offset are bytes whatever the unit (docs/formats-fio-lat.md).
  const bool bytes = h.y != "latency";
  const std::string y = bytes ? h.y : "lat";
  const std::string u = o.header_units ? std::string("_") + (bytes ? "bytes" : unit_name(unit)) : "";
  std::string out = "time_ms," + y + "_lo" + u + "," + y + "_hi" + u + ",count\n";
  for (uint32_t q = 0; q < h.quanta; ++q) {
    const double t = h.t0_ms + q * h.quantum_ms;
    if (t + h.quantum_ms <= o.from_ms || t >= o.to_ms) continue;
    for (uint32_t r = 0; r < h.rows; ++r) {
      const double c = h.counts[static_cast<size_t>(q) * h.rows + r];
      if (c <= 0) continue;
      const double lo = bytes ? h.edges_ns[r] : ns_to_unit(h.edges_ns[r], unit);
      const double hi = bytes ? h.edges_ns[r + 1] : ns_to_unit(h.edges_ns[r + 1], unit);
      out += format_number(t) + "," + format_number(lo) + "," + format_number(hi) + "," + format_number(c) + "\n";
    }
  }
  return out;
}

}  // namespace latscope
