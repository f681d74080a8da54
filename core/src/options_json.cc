// Options objects sent by the page (see options_json.h for the fields).
#include "latscope/options_json.h"

#include <cmath>
#include <cstdlib>
#include <functional>
#include <utility>

#include "json/json.h"
#include "latscope/folder.h"
#include "latscope/percentile_list.h"
#include "latscope/percentiles.h"
#include "latscope/quanta.h"

namespace latscope {
namespace {

const char kName[] = "options";

std::string pos(const json::Value& v) {
  return std::string(kName) + ":" + std::to_string(v.line()) + ":" + std::to_string(v.column()) + ": ";
}

Status bad(const json::Value& v, const std::string& what) {
  return Status::Error(ErrorCode::kInvalidArgument, pos(v) + what);
}

// A field handler: returns an error naming the field, or Ok.
using Handler = std::function<Status(const std::string& field, const json::Value& v)>;
struct Field {
  const char* name;
  Handler handle;
};

Status walk(const std::string& text, const std::vector<Field>& fields) {
  json::Value root;
  json::ParseLimits limits;
  limits.max_depth = 16;  // options are shallow; anything deeper is not ours
  limits.max_bytes = size_t{16} << 20;
  Status st = json::parse(text, kName, &root, limits);
  if (!st.ok()) return st;
  if (!root.is_object()) return bad(root, "options must be a JSON object, not " + std::string(json::type_name(root.type())));
  for (size_t i = 0; i < root.size(); ++i) {
    const std::string& key = root.key(i);
    const json::Value& v = root.items()[i];
    const Field* f = nullptr;
    for (const Field& x : fields) {
      if (key == x.name) f = &x;
    }
    if (!f) {
      std::string known;
      for (const Field& x : fields) known += (known.empty() ? "" : ", ") + std::string(x.name);
      return bad(v, std::string("unknown field \"").append(key).append("\" (known: ").append(known).append(")"));
    }
    if (v.is_null()) continue;  // null: keep the default (JSON has no Infinity)
    st = f->handle(key, v);
    if (!st.ok()) return st;
  }
  return Status::Ok();
}

Status get_number(const std::string& field, const json::Value& v, double* out) {
  if (!v.is_number() || !std::isfinite(v.as_double())) return bad(v, "\"" + field + "\" must be a finite number");
  *out = v.as_double();
  return Status::Ok();
}

Status get_bool(const std::string& field, const json::Value& v, bool* out) {
  if (!v.is_bool()) return bad(v, "\"" + field + "\" must be true or false");
  *out = v.as_bool();
  return Status::Ok();
}

Status get_string(const std::string& field, const json::Value& v, std::string* out) {
  if (!v.is_string()) return bad(v, "\"" + field + "\" must be a string");
  *out = v.as_string();
  return Status::Ok();
}

Status get_string_list(const std::string& field, const json::Value& v, std::vector<std::string>* out) {
  if (!v.is_array()) return bad(v, "\"" + field + "\" must be an array of strings");
  out->clear();
  for (const json::Value& x : v.items()) {
    if (!x.is_string()) return bad(x, "\"" + field + "\" must be an array of strings");
    out->push_back(x.as_string());
  }
  return Status::Ok();
}

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  size_t a = 0;
  for (;;) {
    size_t b = s.find(',', a);
    std::string part = s.substr(a, b == std::string::npos ? std::string::npos : b - a);
    size_t x = part.find_first_not_of(" \t");
    size_t y = part.find_last_not_of(" \t");
    out.push_back(x == std::string::npos ? std::string() : part.substr(x, y - x + 1));
    if (b == std::string::npos) break;
    a = b + 1;
  }
  return out;
}

// A string field or an array of strings, both read as one comma list.
Status get_list(const std::string& field, const json::Value& v, std::vector<std::string>* out) {
  if (v.is_string()) {
    *out = split_list(v.as_string());
    return Status::Ok();
  }
  if (v.is_array()) {
    out->clear();
    for (const json::Value& x : v.items()) {
      if (!x.is_string()) return bad(x, "\"" + field + "\" items must be strings");
      for (std::string& s : split_list(x.as_string())) out->push_back(std::move(s));
    }
    return Status::Ok();
  }
  return bad(v, "\"" + field + "\" must be a string like \"a,b\" or an array of strings");
}

Status get_group_by(const std::string& field, const json::Value& v, GroupBy* out) {
  std::vector<std::string> parts;
  Status st = get_list(field, v, &parts);
  if (!st.ok()) return st;
  std::string joined;
  for (const std::string& p : parts) joined += (joined.empty() ? "" : ",") + p;
  GroupBy g;
  if (!parts.empty() && !parse_group_by(joined, &g))
    return bad(v, std::string("\"").append(field).append("\": \"").append(joined).append(
                      "\" is not a list of label names (all, host, job, dir, file, tag, run, kind, ...)"));
  *out = std::move(g);
  return Status::Ok();
}

Status get_dirs(const std::string& field, const json::Value& v, unsigned* out) {
  std::vector<std::string> parts;
  Status st = get_list(field, v, &parts);
  if (!st.ok()) return st;
  unsigned d = 0;
  for (const std::string& p : parts) {
    if (p == "r" || p == "read") d |= kDirRead;
    else if (p == "w" || p == "write") d |= kDirWrite;
    else if (p == "t" || p == "trim") d |= kDirTrim;
    else return bad(v, std::string("\"").append(field).append("\": unknown direction \"").append(p).append("\" (r, w, t)"));
  }
  if (d == 0) return bad(v, "\"" + field + "\" selects no direction");
  *out = d;
  return Status::Ok();
}

Status get_unit(const std::string& field, const json::Value& v, Unit* out) {
  std::string s;
  Status st = get_string(field, v, &s);
  if (!st.ok()) return st;
  if (!parse_unit(s, out)) return bad(v, "\"" + field + "\" must be \"ns\", \"us\" or \"ms\"");
  return Status::Ok();
}

// A percentile as the user wrote it: digits with at most one '.', in [0, 100].
bool plain_percentile(const std::string& s, double* out) {
  if (!plain_percentile_number(s)) return false;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || !(v >= 0 && v <= 100)) return false;
  *out = v;
  return true;
}

Status get_percentiles(const std::string& field, const json::Value& v, std::vector<double>* ps,
                       std::vector<std::string>* labels) {
  if (!v.is_array() || v.size() == 0) {
    return bad(v, "\"" + field + "\" must be a non-empty array of numbers or strings in [0, 100]");
  }
  ps->clear();
  labels->clear();
  for (const json::Value& x : v.items()) {
    double p = 0;
    std::string text;
    if (x.is_number()) {
      text = x.number_text();  // the token as written: 99.90 stays "99.90"
      p = x.as_double();
      if (!(p >= 0 && p <= 100)) return bad(x, "percentile " + text + " is not in [0, 100]");
    } else if (x.is_string()) {
      text = x.as_string();
      if (!plain_percentile(text, &p)) return bad(x, "percentile \"" + text + "\" is not a number in [0, 100]");
    } else {
      return bad(x, "percentiles must be numbers or strings");
    }
    ps->push_back(p);
    labels->push_back(percentile_label(text));
  }
  return Status::Ok();
}

Status get_offsets(const std::string& field, const json::Value& v, std::map<std::string, double>* out) {
  if (!v.is_object()) return bad(v, "\"" + field + "\" must be an object {\"host or file\": ms}");
  out->clear();
  for (size_t i = 0; i < v.size(); ++i) {
    double ms = 0;
    Status st = get_number(field + "." + v.key(i), v.items()[i], &ms);
    if (!st.ok()) return st;
    (*out)[v.key(i)] = ms;  // a repeated name: the last one wins
  }
  return Status::Ok();
}

// Fields shared by queries and heat maps.
void selection_fields(Selection* sel, std::vector<Field>* f) {
  f->push_back({"directions", [sel](const std::string& k, const json::Value& v) { return get_dirs(k, v, &sel->dirs); }});
  f->push_back({"kinds", [sel](const std::string& k, const json::Value& v) {  // "clat" or ["clat", "lat"]
                  std::vector<std::string> kinds;
                  Status st = get_list(k, v, &kinds);
                  if (!st.ok()) return st;
                  for (const std::string& x : kinds)
                    if (x != "clat" && x != "lat" && x != "slat")
                      return bad(v, std::string("\"").append(k).append("\": unknown kind \"").append(x).append(
                                        "\" (clat, lat, slat)"));
                  sel->kinds = kinds;
                  return Status::Ok();
                }});
  f->push_back({"accounts", [sel](const std::string& k, const json::Value& v) {  // "hist" or ["per-io", "hist"]
                  std::vector<std::string> names;
                  Status st = get_list(k, v, &names);
                  if (!st.ok()) return st;
                  std::vector<Account> accounts;
                  for (const std::string& x : names) {
                    Account a = Account::kNone;
                    if (!parse_account(x, &a))
                      return bad(v, std::string("\"").append(k).append("\": unknown account \"").append(x).append(
                                        "\" (hist, per-io)"));
                    accounts.push_back(a);
                  }
                  sel->accounts = accounts;
                  return Status::Ok();
                }});
  f->push_back({"offsets", [sel](const std::string& k, const json::Value& v) { return get_offsets(k, v, &sel->offsets_ms); }});
  f->push_back({"exclude_sources", [sel](const std::string& k, const json::Value& v) {
                  return get_string_list(k, v, &sel->exclude_sources);
                }});
  f->push_back({"exclude_hosts", [sel](const std::string& k, const json::Value& v) {
                  return get_string_list(k, v, &sel->exclude_hosts);
                }});
  f->push_back({"from_ms", [sel](const std::string& k, const json::Value& v) { return get_number(k, v, &sel->from_ms); }});
  f->push_back({"to_ms", [sel](const std::string& k, const json::Value& v) { return get_number(k, v, &sel->to_ms); }});
  f->push_back({"complete_tail",
                [sel](const std::string& k, const json::Value& v) { return get_bool(k, v, &sel->complete_tail); }});
  f->push_back({"place_jobs",
                [sel](const std::string& k, const json::Value& v) { return get_bool(k, v, &sel->place_jobs); }});
  f->push_back({"co_interval_ms", [sel](const std::string& k, const json::Value& v) {
                  Status st = get_number(k, v, &sel->co_interval_ms);
                  if (st.ok() && !(sel->co_interval_ms >= 0))
                    return bad(v, "\"" + k + "\" must be 0 (off) or a positive number of ms");
                  return st;
                }});
}

Status positive(const std::string& field, const json::Value& v, double* out) {
  Status st = get_number(field, v, out);
  if (st.ok() && !(*out > 0)) return bad(v, "\"" + field + "\" must be a positive number");
  return st;
}

Status int_in(const std::string& field, const json::Value& v, int64_t lo, int64_t hi, int64_t* out) {
  if (!v.get_i64(out) || *out < lo || *out > hi) {
    return bad(v, "\"" + field + "\" must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  }
  return Status::Ok();
}

}  // namespace

Status parse_query_options_json(const std::string& json, QueryOptions* out,
                                std::vector<std::string>* pct_labels, Unit* unit, std::string* sla) {
  // Work on copies: on error the caller's options stay untouched.
  QueryOptions q;
  std::string sla_text;
  std::vector<std::string> labels = default_percentile_labels();
  Unit u = kDefaultUnit;
  std::vector<Field> f;
  f.push_back({"quantum_ms", [&q](const std::string& k, const json::Value& v) { return positive(k, v, &q.quantum_ms); }});
  f.push_back({"percentiles", [&](const std::string& k, const json::Value& v) {
                 return get_percentiles(k, v, &q.percentiles, &labels);
               }});
  f.push_back({"group_by", [&q](const std::string& k, const json::Value& v) { return get_group_by(k, v, &q.group_by); }});
  f.push_back({"method", [&q](const std::string& k, const json::Value& v) {
                 std::string s;
                 Status st = get_string(k, v, &s);
                 if (!st.ok()) return st;
                 if (!parse_method(s, &q.method))
                   return bad(v, "\"" + k + "\" must be one of " + kMethodNames);
                 return Status::Ok();
               }});
  f.push_back({"unit", [&u](const std::string& k, const json::Value& v) { return get_unit(k, v, &u); }});
  // `pctiles --adaptive ACC` (docs/uncertainty.md): 0 keeps fixed quanta.
  f.push_back({"adaptive_accuracy", [&q](const std::string& k, const json::Value& v) {
                 Status st = get_number(k, v, &q.adaptive_accuracy);
                 if (st.ok() && !(q.adaptive_accuracy >= 0))
                   return bad(v, "\"" + k + "\" must be 0 (fixed quanta) or a positive accuracy (e.g. 0.5)");
                 return st;
               }});
  // false: rows without their error bands (QueryOptions::bands).
  f.push_back({"bands", [&q](const std::string& k, const json::Value& v) { return get_bool(k, v, &q.bands); }});
  // The chart's pixel columns (QueryOptions::columns).
  f.push_back({"columns", [&q](const std::string& k, const json::Value& v) {
                 int64_t n = 0;
                 if (!v.get_i64(&n) || n < 0 || n > 100000)
                   return bad(v, "\"" + k + "\" must be a whole number of pixel columns from 0 to 100000");
                 q.columns = static_cast<uint32_t>(n);
                 return Status::Ok();
               }});
  // [index, count]: one part of the rows (QueryOptions::part_index).
  f.push_back({"part", [&q](const std::string& k, const json::Value& v) {
                 const auto wrong = [&] { return bad(v, "\"" + k + "\" must be [index, count] with 0 <= index < count <= 64"); };
                 if (!v.is_array() || v.items().size() != 2) return wrong();
                 int64_t i = 0, n = 0;
                 if (!v.items()[0].get_i64(&i) || !v.items()[1].get_i64(&n) || n < 1 || n > 64 || i < 0 || i >= n)
                   return wrong();
                 q.part_index = static_cast<uint32_t>(i);
                 q.part_count = static_cast<uint32_t>(n);
                 return Status::Ok();
               }});
  f.push_back({"compat", [&q](const std::string& k, const json::Value& v) {
                 std::string s;
                 Status st = get_string(k, v, &s);
                 if (!st.ok()) return st;
                 if (s == "fio-histo-log-pctiles") q.compat_fio_histo_log_pctiles = true;
                 else if (s.empty() || s == "none") q.compat_fio_histo_log_pctiles = false;
                 else return bad(v, "\"" + k + "\" must be \"fio-histo-log-pctiles\" or \"none\"");
                 return Status::Ok();
               }});
  // The page's SLA field, judged on the same rows (docs/page-views.md, "SLA").
  f.push_back({"sla", [&sla_text](const std::string& k, const json::Value& v) { return get_string(k, v, &sla_text); }});
  selection_fields(&q.sel, &f);
  Status st = walk(json, f);
  if (!st.ok()) return st;
  *out = std::move(q);
  *pct_labels = std::move(labels);
  *unit = u;
  if (sla) *sla = std::move(sla_text);
  return Status::Ok();
}

Status parse_heatmap_options_json(const std::string& json, HeatmapOptions* out, Unit* unit) {
  HeatmapOptions h;
  Unit u = kDefaultUnit;
  std::vector<Field> f;
  f.push_back({"quantum_ms", [&h](const std::string& k, const json::Value& v) { return positive(k, v, &h.quantum_ms); }});
  f.push_back({"rows", [&h](const std::string& k, const json::Value& v) {
                 int64_t r = 0;
                 Status st = int_in(k, v, 1, 100000, &r);  // the CLI's --rows range
                 if (st.ok()) h.rows = static_cast<uint32_t>(r);
                 return st;
               }});
  auto bound = [](double* dst) {
    return [dst](const std::string& k, const json::Value& v) {
      Status st = get_number(k, v, dst);
      if (st.ok() && *dst < 0) return bad(v, "\"" + k + "\" must be >= 0 (0: from the data)");
      return st;
    };
  };
  f.push_back({"min_ns", bound(&h.min_ns)});
  f.push_back({"y", [&h](const std::string& k, const json::Value& v) {  // fio per-I/O logs: bs, offset
                 std::string s;
                 Status st = get_string(k, v, &s);
                 if (!st.ok()) return st;
                 if (s == "latency") h.y = HeatmapOptions::Y::kLatency;
                 else if (s == "bs") h.y = HeatmapOptions::Y::kBs;
                 else if (s == "offset") h.y = HeatmapOptions::Y::kOffset;
                 else return bad(v, "\"" + k + "\" must be \"latency\", \"bs\" or \"offset\"");
                 return Status::Ok();
               }});
  f.push_back({"max_ns", bound(&h.max_ns)});
  f.push_back({"unit", [&u](const std::string& k, const json::Value& v) { return get_unit(k, v, &u); }});
  // The density of groups (engine.h HeatmapOptions::density_by; docs/page-views.md, "Host density").
  f.push_back({"density_by", [&h](const std::string& k, const json::Value& v) { return get_group_by(k, v, &h.density_by); }});
  f.push_back({"density_percentile", [&h](const std::string& k, const json::Value& v) {
                 Status st = get_number(k, v, &h.density_percentile);
                 if (st.ok() && !(h.density_percentile >= 0 && h.density_percentile <= 100))
                   return bad(v, "\"" + k + "\" must be within 0..100");
                 return st;
               }});
  f.push_back({"density_method", [&h](const std::string& k, const json::Value& v) {
                 std::string s;
                 Status st = get_string(k, v, &s);
                 if (!st.ok()) return st;
                 if (!parse_method(s, &h.density_method)) return bad(v, "\"" + k + "\" must be one of " + kMethodNames);
                 return Status::Ok();
               }});
  selection_fields(&h.sel, &f);
  Status st = walk(json, f);
  if (!st.ok()) return st;
  *out = std::move(h);
  *unit = u;
  return Status::Ok();
}

Status parse_file_options_json(const std::string& json, FileOptions* out) {
  FileOptions o;
  std::vector<Field> f;
  f.push_back({"format", [&o](const std::string& k, const json::Value& v) {
                 std::string s;
                 Status st = get_string(k, v, &s);
                 if (!st.ok()) return st;
                 if (s == "auto" || s.empty()) o.format = FileFormat::kUnknown;
                 else if (s == format_name(FileFormat::kFioHist)) o.format = FileFormat::kFioHist;
                 else if (s == format_name(FileFormat::kFioJson)) o.format = FileFormat::kFioJson;
                 else if (s == format_name(FileFormat::kHdrLog)) o.format = FileFormat::kHdrLog;
                 else if (s == format_name(FileFormat::kFioLat)) o.format = FileFormat::kFioLat;
                 else return bad(v, "\"" + k + "\" must be \"auto\", \"fio-hist\", \"fio-json\" or \"hdr-log\"");
                 return Status::Ok();
               }});
  f.push_back({"fio_version", [&o](const std::string& k, const json::Value& v) {
                 int64_t x = 0;
                 if (!v.get_i64(&x) || (x != 0 && x != 2 && x != 3)) {
                   return bad(v, "\"" + k + "\" must be 0 (detect), 2 or 3");
                 }
                 o.fio_version = static_cast<int>(x);
                 return Status::Ok();
               }});
  f.push_back({"coarseness", [&o](const std::string& k, const json::Value& v) {
                 int64_t x = 0;
                 Status st = int_in(k, v, -1, 6, &x);
                 if (st.ok()) o.coarseness = static_cast<int>(x);
                 return st;
               }});
  f.push_back({"repair", [&o](const std::string& k, const json::Value& v) {
                 std::string s;
                 Status st = get_string(k, v, &s);
                 if (!st.ok()) return st;
                 if (s == "auto") o.repair = RepairMode::kAuto;
                 else if (s == "off") o.repair = RepairMode::kOff;
                 else if (s == "force") o.repair = RepairMode::kForce;
                 else return bad(v, "\"" + k + "\" must be \"auto\", \"off\" or \"force\"");
                 return Status::Ok();
               }});
  f.push_back({"host", [&o](const std::string& k, const json::Value& v) { return get_string(k, v, &o.host); }});
  f.push_back({"job", [&o](const std::string& k, const json::Value& v) { return get_string(k, v, &o.job); }});
  f.push_back({"run", [&o](const std::string& k, const json::Value& v) { return get_string(k, v, &o.run); }});
  // A result of several resolutions reads the coarsest level this divides.
  f.push_back({"query_quantum_ms", [&o](const std::string& k, const json::Value& v) {
                 return positive(k, v, &o.query_quantum_ms);
               }});
  // The page's memory budget, bounding a result file's decoded size.
  f.push_back({"max_result_bytes", [&o](const std::string& k, const json::Value& v) {
                 double x = 0;
                 Status st = positive(k, v, &x);
                 if (st.ok()) o.max_result_bytes = x >= static_cast<double>(SIZE_MAX) ? SIZE_MAX : static_cast<size_t>(x);
                 return st;
               }});
  f.push_back({"hdr_unit", [&o](const std::string& k, const json::Value& v) {  // HdrHistogram values carry no unit
                 std::string s;
                 Status st = get_string(k, v, &s);
                 if (!st.ok()) return st;
                 if (s == "ns") o.hdr_unit_ns = 1;
                 else if (s == "us") o.hdr_unit_ns = 1e3;
                 else if (s == "ms") o.hdr_unit_ns = 1e6;
                 else return bad(v, "\"" + k + "\" must be \"ns\", \"us\" or \"ms\"");
                 return Status::Ok();
               }});
  Status st = walk(json, f);
  if (!st.ok()) return st;
  *out = std::move(o);
  return Status::Ok();
}

// {"by": "auto"|"folder"|"prefix"|"json"|"none", "patterns": [{"name": N, "glob": G}, ...]}
// (latscope/runs.h, docs/runs.md).
Status parse_run_options_json(const std::string& json, RunOptions* out) {
  RunOptions o;
  std::vector<Field> f;
  f.push_back({"by", [&o](const std::string& k, const json::Value& v) {
                 std::string s;
                 Status st = get_string(k, v, &s);
                 if (!st.ok()) return st;
                 if (!parse_run_by(s, &o.by))
                   return bad(v, "\"" + k + "\" must be \"auto\", \"folder\", \"prefix\", \"json\" or \"none\"");
                 return Status::Ok();
               }});
  f.push_back({"patterns", [&o](const std::string& k, const json::Value& v) {
                 if (!v.is_array()) return bad(v, "\"" + k + "\" must be an array of {\"name\", \"glob\"}");
                 for (const json::Value& p : v.items()) {
                   const json::Value* n = p.is_object() ? p.find("name") : nullptr;
                   const json::Value* g = p.is_object() ? p.find("glob") : nullptr;
                   if (!n || !g || !n->is_string() || !g->is_string() || n->as_string().empty() ||
                       g->as_string().empty())
                     return bad(p, "a run pattern must be {\"name\": non-empty string, \"glob\": non-empty string}");
                   o.patterns.push_back({n->as_string(), g->as_string()});
                 }
                 return Status::Ok();
               }});
  Status st = walk(json, f);
  if (!st.ok()) return st;
  *out = std::move(o);
  return Status::Ok();
}

std::vector<std::string> default_percentile_labels() {
  std::vector<std::string> labels;
  for (double p : QueryOptions().percentiles) labels.push_back(percentile_label(format_number(p)));
  return labels;
}

std::string page_defaults_module() {
  const QueryOptions q;
  std::string ps;
  for (double p : q.percentiles) ps += (ps.empty() ? "'" : ", '") + format_number(p) + "'";
  std::string dirs;
  for (const auto& [bit, name] : {std::pair<unsigned, const char*>{kDirRead, "r"}, {kDirWrite, "w"}, {kDirTrim, "t"}})
    if (q.sel.dirs & bit) dirs += (dirs.empty() ? "" : ",") + std::string(name);
  std::string o;
  o += "// Generated from core (options_json.cc page_defaults_module): do not edit.\n";
  o += "// tests/options_schema_test.cc fails when this file differs from core's\n";
  o += "// defaults; LATSCOPE_REGENERATE=1 build/tests/latscope_tests\n";
  o += "// --gtest_filter='OptionsSchema.*' writes it again.\n\n";
  o += "/** The options `latscope pctiles` uses without flags, as the engine's JSON names them. */\n";
  o += "export const ENGINE_DEFAULTS = Object.freeze({\n";
  o += "  quantum_ms: " + format_number(q.quantum_ms) + ",\n";
  o += "  percentiles: Object.freeze([" + ps + "]),\n";
  std::string group_by;
  for (const std::string& g : q.group_by) group_by += (group_by.empty() ? "" : ",") + g;
  o += "  group_by: '" + (group_by.empty() ? std::string("all") : group_by) + "',\n";
  o += "  directions: '" + dirs + "',\n";
  o += std::string("  method: '") + method_name(q.method) + "',\n";
  o += std::string("  unit: '") + unit_name(kDefaultUnit) + "',\n";
  o += std::string("  account: '") + account_name(kDefaultAccounts[0]) + "',\n";
  o += "});\n\n";
  // The quantum selector's presets (latscope/quanta.h; docs/page-views.md, "Default quantum").
  std::string presets;
  for (double preset : kQuantumPresetsMs) presets += (presets.empty() ? "" : ", ") + format_number(preset);
  o += "/** The quantum selector's presets, ms, ascending (core quanta.h kQuantumPresetsMs). */\n";
  o += "export const QUANTUM_PRESETS_MS = Object.freeze([" + presets + "]);\n\n";
  // What a picked or dropped folder is read without (latscope/folder.h walk_left_out).
  const auto table = [](const std::vector<NamedReason>& t) {
    std::string m;
    for (const NamedReason& r : t) m += "  '" + std::string(r.name) + "': '" + r.reason + "',\n";
    return "Object.freeze({\n" + m + "})";
  };
  o += "/** Folders, by name, that a folder is read without, and why (core folder.h walk_left_out). */\n";
  o += "export const LEFT_OUT_FOLDERS = " + table(kLeftOutFolders) + ";\n";
  o += "/** Files, by name, that a folder is read without, and why. */\n";
  o += "export const LEFT_OUT_FILES = " + table(kLeftOutFiles) + ";\n";
  o += "/** Files whose name starts so are left out too. */\n";
  o += "export const LEFT_OUT_FILE_PREFIX = Object.freeze({ prefix: '" + std::string(kLeftOutFilePrefix.name) +
       "', reason: '" + kLeftOutFilePrefix.reason + "' });\n";
  return o;
}

}  // namespace latscope
