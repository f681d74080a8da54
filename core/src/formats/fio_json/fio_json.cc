// fio json / json+ reader. A client-mode file (fio-s1/s1.json) looks like:
//
//   <vm> randrw: (g=0): rw=randrw, bs=(R) 4096B-4096B, ... iodepth=4
//   <vm> Starting 2 processes
//   {
//     "fio version" : "fio-3.33",
//     "global options" : { "ioengine" : "libaio", ..., "ioengine" : "libaio", ... },
//     "client_stats" : [
//       { "jobname" : "randrw", "groupid" : 0, ...,
//         "read" : { "total_ios" : 8000, ...,
//           "clat_ns" : { "min" : 601, "max" : 88530312, "mean" : 138175.380375,
//                         "stddev" : ..., "N" : 8000,
//                         "percentile" : { "1.000000" : 30848, ..., "99.990000" : 88604672 },
//                         "bins" : { "604" : 1, "620" : 1, ... } } },
//         "write" : {...}, "trim" : {...}, "sync" : {...}, ...,
//         "hostname" : "127.0.0.2", "port" : 18766 },
//       ...,
//       { "jobname" : "All clients", ... no percentile, no bins ... } ] }
//
// Local mode has "jobs" instead of "client_stats" and no text lines (unless
// fio printed warnings). Note "hostname" comes AFTER the job's data.
#include "latscope/fio_json.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <cstdlib>
#include <cstring>
#include <map>
#include <utility>

#include "json/json.h"

namespace latscope {

bool parse_fio_seconds(const std::string& text, double* ms) {
  size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
  if (i == 0) return false;
  char* end = nullptr;
  const std::string num = text.substr(0, i);
  const double v = std::strtod(num.c_str(), &end);
  if (end != num.c_str() + num.size() || !(v >= 0) || !std::isfinite(v)) return false;
  std::string unit;
  for (size_t k = i; k < text.size(); ++k) unit += static_cast<char>(std::tolower(static_cast<unsigned char>(text[k])));
  static const struct {
    const char* name;
    double ms;
  } kUnits[] = {{"", 1000},      {"s", 1000},   {"sec", 1000},     {"ms", 1},       {"msec", 1},
                {"us", 1e-3},    {"usec", 1e-3}, {"m", 60000},     {"min", 60000},  {"h", 3600000},
                {"hour", 3600000}, {"d", 86400000}, {"day", 86400000}};
  for (const auto& u : kUnits)
    if (unit == u.name) {
      *ms = v * u.ms;
      return true;
    }
  return false;
}

std::vector<uint64_t> FioJsonDir::dense(size_t nbins) const {
  std::vector<uint64_t> d(nbins, 0);
  for (size_t i = 0; i < bin_index.size(); ++i) {
    if (bin_index[i] < nbins) d[bin_index[i]] += bin_count[i];
  }
  return d;
}

std::vector<double> FioJsonDir::dense_double(size_t nbins) const {
  std::vector<double> d(nbins, 0.0);
  for (size_t i = 0; i < bin_index.size(); ++i) {
    if (bin_index[i] < nbins) d[bin_index[i]] += static_cast<double>(bin_count[i]);
  }
  return d;
}

const FioJsonDir* FioJsonJob::find(Dir d) const {
  for (const auto& x : dirs) {
    if (x.dir == d) return &x;
  }
  return nullptr;
}

namespace {

// fio's own literal for the client-mode aggregate (client.c).
const char kAllClients[] = "All clients";
const size_t kExampleChars = 100;

// The file-name prefix one log option of a job gives (fio_json.h,
// FioJsonJob::log_prefix): the job's own option, else the global one; its
// last path component; the job name when given empty; false when neither
// sets it. fio prints the options as given: "write_hist_log" : "a"
// (tests/fixtures/ab/a/a.json).
bool option_prefix(const json::Value* job_opts, const json::Value* global, const char* key, const std::string& jobname,
                   std::string* out) {
  if (job_opts && !job_opts->is_object()) job_opts = nullptr;
  for (const json::Value* o : {job_opts, global}) {
    const json::Value* v = o ? o->find(key) : nullptr;
    if (!v || !v->is_string()) continue;
    const std::string text = v->as_string();
    const size_t slash = text.find_last_of('/');
    *out = text.empty() ? jobname : slash == std::string::npos ? text : text.substr(slash + 1);
    return true;
  }
  return false;
}

// fio's numjobs of an entry ("job options", else "global options"; 1 when
// neither says or the text is no whole number).
double numjobs_of(const json::Value* job_opts, const json::Value* global) {
  if (job_opts && !job_opts->is_object()) job_opts = nullptr;
  for (const json::Value* o : {job_opts, global}) {
    const json::Value* v = o ? o->find("numjobs") : nullptr;
    if (!v || !v->is_string()) continue;
    char* end = nullptr;
    const double n = std::strtod(v->as_string().c_str(), &end);
    return end && *end == '\0' && n >= 1 && n <= 1e6 && n == std::floor(n) ? n : 1;
  }
  return 1;
}

struct Reader {
  std::string name;
  FioJsonReport* out;
  int version = 0;  // 0: not known yet
  // The last document's entries (from prev_first on), where it began, and
  // when each entry's run began by that document: a later report of the
  // same run replaces them (replace_earlier_report).
  size_t prev_first = 0;
  uint64_t prev_line = 0;
  int64_t prev_elapsed = 0;
  std::vector<double> prev_began;

  std::string where(const json::Value& v) const {
    return name + ":" + std::to_string(v.line()) + ":" + std::to_string(v.column()) + ": ";
  }
  Status unusable(const json::Value& v, const std::string& what) const {
    return Status::Error(ErrorCode::kUnusableFile, where(v) + what);
  }
  void skipped(Issue issue, const json::Value& v, const std::string& what) {
    out->diag.add(issue, v.line(), v.column(), what);
  }

  static bool get_u64(const json::Value* v, uint64_t* x) { return v && v->get_u64(x); }
  static double get_double(const json::Value* v) {
    return v && v->is_number() ? v->as_double() : 0.0;
  }

  // "99.950000" -> 99.95; the whole key must be a number in [0, 100].
  static bool parse_pct_key(const std::string& k, double* p) {
    if (k.empty() || k.size() > 64) return false;
    for (char c : k) {
      if (!((c >= '0' && c <= '9') || c == '.')) return false;
    }
    char* end = nullptr;
    double v = std::strtod(k.c_str(), &end);
    if (end != k.c_str() + k.size() || !(v >= 0 && v <= 100)) return false;
    *p = v;
    return true;
  }

  // Bin keys are decimal plat_idx_to_val values.
  static bool parse_bin_key(const std::string& k, uint64_t* v) {
    if (k.empty() || k.size() > 20) return false;
    uint64_t x = 0;
    for (char c : k) {
      if (c < '0' || c > '9') return false;
      uint64_t d = static_cast<uint64_t>(c - '0');
      if (x > (UINT64_MAX - d) / 10) return false;
      x = x * 10 + d;
    }
    *v = x;
    return true;
  }

  static bool has_pct_or_bins(const json::Value* b) {
    return b && b->is_object() && (b->find("percentile") || b->find("bins"));
  }

  // Scales a fio value to ns (fio 2.x wrote us), refusing overflow.
  bool to_ns(uint64_t v, uint64_t* ns) const {
    uint64_t scale = version == 2 ? 1000 : 1;
    if (v > UINT64_MAX / scale) return false;
    *ns = v * scale;
    return true;
  }

  void read_percentiles(const json::Value& obj, FioJsonDir* d) {
    for (size_t i = 0; i < obj.size(); ++i) {
      const json::Value& v = obj.items()[i];
      FioJsonPercentile fp;
      fp.key = obj.key(i);
      uint64_t raw = 0;
      if (!parse_pct_key(fp.key, &fp.p)) {
        skipped(Issue::kNotANumber, v, "percentile key \"" + fp.key.substr(0, kExampleChars) +
                                           "\" is not a number in [0, 100]; entry skipped");
        continue;
      }
      if (!v.get_u64(&raw) || !to_ns(raw, &fp.value_ns)) {
        skipped(Issue::kNotANumber, v, "percentile " + fp.key + " value is not an unsigned integer; entry skipped");
        continue;
      }
      d->percentiles.push_back(std::move(fp));
    }
  }

  void read_bins(const json::Value& obj, FioJsonDir* d) {
    const size_t nbins = out->layout ? out->layout->size() : 0;
    // fio 2.2.12 - 2.19 keyed every bin by its index ("0" .. "1215") and
    // added FIO_IO_U_PLAT_BITS/VAL/NR; later versions key the non-empty
    // bins by latency (docs/fio-versions.md section 4).
    const bool by_index = obj.find("FIO_IO_U_PLAT_NR") != nullptr;
    std::vector<std::pair<uint32_t, uint64_t>> pairs;
    pairs.reserve(obj.size());
    for (size_t i = 0; i < obj.size(); ++i) {
      const json::Value& v = obj.items()[i];
      const std::string& k = obj.key(i);
      if (by_index && k.rfind("FIO_IO_U_PLAT_", 0) == 0) continue;
      uint64_t val = 0;
      uint32_t idx = 0;
      const bool key_ok = parse_bin_key(k, &val) &&
                          (by_index ? (idx = static_cast<uint32_t>(val), val < nbins) : fio_plat_val_to_idx(val, &idx));
      if (!key_ok || idx >= nbins) {
        skipped(Issue::kNotANumber, v, "bin key \"" + k.substr(0, kExampleChars) +
                                           "\" is no fio bin value; bin skipped");
        continue;
      }
      uint64_t c = 0;
      if (!v.get_u64(&c)) {
        int64_t s = 0;
        bool neg = v.get_i64(&s) && s < 0;
        skipped(neg ? Issue::kNegativeValue : Issue::kNotANumber, v,
                "bin " + k + " count is not an unsigned integer; bin skipped");
        continue;
      }
      if (c == 0) continue;
      // Sums stay within kMaxCount (2^53) as in the logs (docs/input-robustness.md).
      if (c > kMaxCount - d->bins_total) {
        skipped(Issue::kOverflow, v, "bin " + k + ": the direction's bin counts sum past 2^53; bin skipped");
        continue;
      }
      d->bins_total += c;
      pairs.emplace_back(idx, c);
    }
    std::sort(pairs.begin(), pairs.end());
    for (const auto& pr : pairs) {
      // Equal keys (a duplicated member) add up.
      if (!d->bin_index.empty() && d->bin_index.back() == pr.first) {
        d->bin_count.back() += pr.second;
      } else {
        d->bin_index.push_back(pr.first);
        d->bin_count.push_back(pr.second);
      }
    }
    d->has_bins = true;
  }

  Status read_dir(const json::Value& dv, Dir dir, FioJsonDir* d) {
    d->dir = dir;
    if (version == 0) {
      // fio >= 3.0 writes clat_ns in ns; fio 2.x wrote clat in us.
      if (dv.find("clat_ns")) version = 3;
      else if (dv.find("clat")) version = 2;
      if (version != 0) {
        out->version = version;
        out->layout = fio_layout(version, 0);
        if (!out->layout) return unusable(dv, "no fio bin layout for version " + std::to_string(version));
      }
    }
    get_u64(dv.find("total_ios"), &d->total_ios);
    get_u64(dv.find("runtime"), &d->runtime_ms);
    const bool v3 = version != 2;
    const json::Value* clat = dv.find(v3 ? "clat_ns" : "clat");
    const json::Value* lat = dv.find(v3 ? "lat_ns" : "lat");
    const json::Value* block = clat;
    if (!has_pct_or_bins(clat) && has_pct_or_bins(lat)) {
      block = lat;
      d->kind = "lat";
    }
    if (!block || !block->is_object()) return Status::Ok();
    uint64_t raw = 0;
    if (get_u64(block->find("min"), &raw)) to_ns(raw, &d->min_ns);
    if (get_u64(block->find("max"), &raw)) to_ns(raw, &d->max_ns);
    const double scale = version == 2 ? 1000.0 : 1.0;
    d->mean_ns = get_double(block->find("mean")) * scale;
    d->stddev_ns = get_double(block->find("stddev")) * scale;
    const bool has_n = get_u64(block->find("N"), &d->n);
    if (const json::Value* p = block->find("percentile")) {
      if (p->is_object()) read_percentiles(*p, d);
      else skipped(Issue::kNotANumber, *p, "\"percentile\" is not an object; ignored");
    }
    if (const json::Value* b = block->find("bins")) {
      if (b->is_object()) read_bins(*b, d);
      else skipped(Issue::kNotANumber, *b, "\"bins\" is not an object; ignored");
    }
    if (!has_n) d->n = d->has_bins ? d->bins_total : d->total_ios;  // fio 2.x has no N
    return Status::Ok();
  }

  Status read_document(const json::Value& root) {
    if (!root.is_object()) return unusable(root, "the JSON document is not an object: not fio output");
    ++out->documents;
    if (const json::Value* v = root.find("fio version")) {
      if (v->is_string() && out->fio_version.empty()) out->fio_version = v->as_string();
    }
    const json::Value* jobs = root.find("client_stats");
    bool client = jobs != nullptr;
    if (!jobs) jobs = root.find("jobs");
    if (!jobs) {
      return unusable(root, "the document has neither \"jobs\" nor \"client_stats\": not fio "
                            "--output-format=json or json+ output");
    }
    if (!jobs->is_array()) return unusable(*jobs, std::string(client ? "\"client_stats\"" : "\"jobs\"") + " is not an array");
    if (client) out->client_mode = true;
    // startdelay: fio writes every option as a string ("2", "500ms").
    const json::Value* global = root.find("global options");
    if (global && !global->is_object()) global = nullptr;
    std::string global_delay;
    if (const json::Value* v = global ? global->find("startdelay") : nullptr)
      if (v->is_string()) global_delay = v->as_string();
    std::map<std::string, int> per_host;  // job numbers restart per host (one fio process each)
    for (const FioJsonJob& j : out->jobs) {
      if (!j.aggregate) per_host[j.host] = std::max(per_host[j.host], j.job_index);
    }
    const size_t first_entry = out->jobs.size();
    // When each entry's run began, by this document's clock: its
    // timestamp_ms less the entry's elapsed (whole seconds; fio >= 2.14).
    int64_t stamp_ms = 0, elapsed_s = 0;
    const json::Value* stamp = root.find("timestamp_ms");
    const bool stamped = stamp && stamp->get_i64(&stamp_ms);
    std::vector<double> began;
    std::map<std::pair<std::string, std::string>, std::pair<int, double>> per_name;  // (host, name) -> entries, numjobs
    for (const json::Value& jv : jobs->items()) {
      if (!jv.is_object()) return unusable(jv, "a job entry is not an object");
      FioJsonJob job;
      job.line = jv.line();
      job.column = jv.column();
      if (const json::Value* v = jv.find("jobname")) {
        if (v->is_string()) job.jobname = v->as_string();
      }
      if (const json::Value* v = jv.find("hostname")) {
        if (v->is_string()) job.host = v->as_string();
      }
      int64_t gid = 0;
      if (const json::Value* v = jv.find("groupid")) {
        if (v->get_i64(&gid) && gid >= INT32_MIN && gid <= INT32_MAX) job.groupid = static_cast<int>(gid);
      }
      job.aggregate = client && job.jobname == kAllClients;
      const json::Value* el = jv.find("elapsed");
      const bool timed = stamped && el && el->get_i64(&elapsed_s) && elapsed_s >= 0 && elapsed_s < (int64_t{1} << 40);
      began.push_back(timed ? static_cast<double>(stamp_ms) - 1000.0 * static_cast<double>(elapsed_s)
                            : std::numeric_limits<double>::quiet_NaN());
      if (!job.aggregate) job.job_index = ++per_host[job.host];
      job.start_delay = global_delay;
      if (const json::Value* o = jv.find("job options"))
        if (const json::Value* v = o->is_object() ? o->find("startdelay") : nullptr)
          if (v->is_string()) job.start_delay = v->as_string();
      if (!job.start_delay.empty() && !parse_fio_seconds(job.start_delay, &job.start_delay_ms))
        job.start_delay_ms = std::numeric_limits<double>::quiet_NaN();
      if (const json::Value* v = jv.find("job_start")) {
        int64_t ms = 0;
        if (v->get_i64(&ms) && ms > 0) job.job_start_ms = ms;
      }
      if (!job.aggregate) {
        const json::Value* opts = jv.find("job options");
        job.options_listed = (opts && opts->is_object()) || global;
        static const struct {
          const char* key;
          bool latency;  // a latency log's option: its prefix may be the job's log_prefix
        } kLogOptions[] = {
            {"write_hist_log", true}, {"write_lat_log", true}, {"write_bw_log", false}, {"write_iops_log", false}};
        bool named = false;
        for (const auto& lo : kLogOptions) {
          std::string p;
          if (!option_prefix(opts, global, lo.key, job.jobname, &p)) continue;
          if (lo.latency && !named) job.log_prefix = p;
          named = named || lo.latency;
          if (std::find(job.log_prefixes.begin(), job.log_prefixes.end(), p) == job.log_prefixes.end())
            job.log_prefixes.push_back(p);
        }
      }
      if (!job.aggregate) {
        auto& [entries, numjobs] = per_name[{job.host, job.jobname}];
        ++entries;
        numjobs = std::max(numjobs, numjobs_of(jv.find("job options"), global));
      }
      static const struct {
        const char* key;
        Dir dir;
      } kDirs[] = {{"read", Dir::kRead}, {"write", Dir::kWrite}, {"trim", Dir::kTrim}};
      for (const auto& kd : kDirs) {
        const json::Value* dv = jv.find(kd.key);
        if (!dv || !dv->is_object()) continue;
        FioJsonDir d;
        Status st = read_dir(*dv, kd.dir, &d);
        if (!st.ok()) return st;
        job.dirs.push_back(std::move(d));
      }
      if (job.dirs.empty() && jv.find("mixed")) out->mixed_only = true;
      out->jobs.push_back(std::move(job));
    }
    // group_reporting merges a job's numjobs threads (and any jobs of one
    // group) into one entry; fio's json says so nowhere (a bare
    // group_reporting is not even listed among the options), but a job
    // name with fewer entries than its numjobs cannot be one entry per
    // thread. Then no entry's place is a log's job number.
    place_by_job_start(first_entry);
    bool grouped = false;
    for (const auto& kv : per_name) grouped = grouped || kv.second.first < kv.second.second;
    if (grouped)
      for (size_t i = first_entry; i < out->jobs.size(); ++i)
        if (!out->jobs[i].aggregate) {
          out->jobs[i].group = true;
          out->jobs[i].job_index = 0;
        }
    replace_earlier_report(first_entry, root.line(), elapsed_s, std::move(began));
    return Status::Ok();
  }

  // fio --status-interval writes a whole report every interval into the
  // same output, each counting the run so far, the final one last
  // (docs/whole-run.md, "Status reports"): the same jobs, begun at the same
  // time, none counting fewer I/Os. Kept together they counted each I/O
  // once per report, so a report of the same run replaces the one before
  // it. Documents of other jobs (older clients printed one per server) or
  // of another run (begun at another time, or counting fewer) are kept.
  void replace_earlier_report(size_t first, uint64_t line, int64_t elapsed_s, std::vector<double> began) {
    const size_t n = out->jobs.size() - first;
    bool same = out->documents > 1 && first - prev_first == n && n > 0 && prev_began.size() == n;
    for (size_t i = 0; same && i < n; ++i) {
      const FioJsonJob& a = out->jobs[prev_first + i];
      const FioJsonJob& b = out->jobs[first + i];
      // elapsed is rounded up to whole seconds, and the stamp taken after
      // the report is made: one run's begins agree within two seconds.
      same = a.host == b.host && a.jobname == b.jobname && a.groupid == b.groupid && a.aggregate == b.aggregate &&
             std::fabs(prev_began[i] - began[i]) <= 2000.0;
      for (const FioJsonDir& d : a.dirs) {
        const FioJsonDir* e = same ? b.find(d.dir) : nullptr;
        same = e && e->total_ios >= d.total_ios && e->n >= d.n && e->bins_total >= d.bins_total;
      }
    }
    if (!same) {
      prev_first = first;
      prev_line = line;
      prev_elapsed = elapsed_s;
      prev_began = std::move(began);
      return;
    }
    // The new report's entries were numbered after the old one's, per host.
    std::map<std::string, int> before;
    for (size_t i = prev_first; i < first; ++i)
      if (!out->jobs[i].aggregate) ++before[out->jobs[i].host];
    for (size_t i = first; i < out->jobs.size(); ++i)
      if (out->jobs[i].job_index > 0) out->jobs[i].job_index -= before[out->jobs[i].host];
    out->jobs.erase(out->jobs.begin() + static_cast<std::ptrdiff_t>(prev_first),
                    out->jobs.begin() + static_cast<std::ptrdiff_t>(first));
    out->diag.add(Issue::kStatusReports, prev_line, 1,
                  "a report of the run at " + std::to_string(prev_elapsed) + " s left out: the report at line " +
                      std::to_string(line) + " (" + std::to_string(elapsed_s) +
                      " s) counts the same jobs' I/Os since their start");
    prev_line = line;
    prev_elapsed = elapsed_s;
    prev_began = std::move(began);
  }

  // fio >= 3.36 stamps each job's start (job_start, ms): where its log
  // times begin. A host whose every entry has one places each entry at its
  // start less the host's earliest: every late start, whatever made it
  // (startdelay, stonewall, wait_for; docs/placement.md "fio's job_start").
  void place_by_job_start(size_t first) {
    std::map<std::string, int64_t> earliest;
    std::map<std::string, bool> all;
    for (size_t i = first; i < out->jobs.size(); ++i) {
      const FioJsonJob& j = out->jobs[i];
      if (j.aggregate) continue;
      bool& every = all.emplace(j.host, true).first->second;
      every = every && j.job_start_ms > 0;
      int64_t& e = earliest.emplace(j.host, j.job_start_ms).first->second;
      if (j.job_start_ms > 0 && (e <= 0 || j.job_start_ms < e)) e = j.job_start_ms;
    }
    for (size_t i = first; i < out->jobs.size(); ++i) {
      FioJsonJob& j = out->jobs[i];
      if (j.aggregate || !all[j.host]) continue;
      j.start_delay_ms = static_cast<double>(j.job_start_ms - earliest[j.host]);
      j.placed_by_start = true;
    }
  }

  // "All clients" has fio's exact N/min/max/mean but neither percentiles nor
  // bins. When every job has bins for a direction and their totals add up to
  // the aggregate's N, the aggregate's bins are their sum: the whole-cluster
  // histogram fio would have reported.
  void fill_aggregate_bins() {
    const size_t nbins = out->layout ? out->layout->size() : 0;
    for (FioJsonJob& agg : out->jobs) {
      if (!agg.aggregate) continue;
      for (FioJsonDir& ad : agg.dirs) {
        if (ad.has_bins || ad.n == 0) continue;
        std::vector<uint64_t> sum(nbins, 0);
        uint64_t total = 0;
        bool usable = nbins > 0;
        for (const FioJsonJob& j : out->jobs) {
          if (j.aggregate || !usable) continue;
          const FioJsonDir* d = j.find(ad.dir);
          if (!d || d->n == 0) continue;
          if (!d->has_bins || d->bins_total != d->n) {
            usable = false;
            continue;
          }
          if (d->bins_total > kMaxCount - total) {  // the jobs' sum would pass 2^53: no aggregate bins
            usable = false;
            continue;
          }
          for (size_t i = 0; i < d->bin_index.size(); ++i) sum[d->bin_index[i]] += d->bin_count[i];
          total += d->bins_total;
        }
        if (!usable || total != ad.n) continue;
        for (size_t i = 0; i < nbins; ++i) {
          if (sum[i] == 0) continue;
          ad.bin_index.push_back(static_cast<uint32_t>(i));
          ad.bin_count.push_back(sum[i]);
        }
        ad.bins_total = total;
        ad.has_bins = true;
        ad.bins_summed = true;
      }
    }
  }
};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

std::string example_text(const char* b, const char* e) {
  std::string s(b, static_cast<size_t>(std::min<ptrdiff_t>(e - b, static_cast<ptrdiff_t>(kExampleChars))));
  while (!s.empty() && is_space(s.back())) s.pop_back();
  for (char& c : s) {
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  }
  return "text outside the JSON document: \"" + s + "\"";
}

uint32_t clamp32(uint64_t v) { return v > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(v); }

}  // namespace

Status parse_fio_json(const std::string& name, const char* data, size_t size, FioJsonReport* out) {
  *out = FioJsonReport();
  out->layout = fio_layout(3, 0);
  Reader r;
  r.name = name;
  r.out = out;
  size_t pos = 0;
  uint64_t line = 1;
  // A UTF-8 byte-order mark before the document (an editor's or PowerShell's
  // save) is skipped, as the sniff does (docs/input-robustness.md).
  if (size >= 3 && static_cast<unsigned char>(data[0]) == 0xEF && static_cast<unsigned char>(data[1]) == 0xBB &&
      static_cast<unsigned char>(data[2]) == 0xBF)
    pos = 3;
  while (pos < size) {
    const char* nl = static_cast<const char*>(std::memchr(data + pos, '\n', size - pos));
    size_t eol = nl ? static_cast<size_t>(nl - data) : size;
    size_t first = pos;
    while (first < eol && is_space(data[first])) ++first;
    if (first == eol) {  // blank line
      pos = eol + 1;
      ++line;
      continue;
    }
    if (data[first] != '{') {
      out->diag.add(Issue::kJsonNoise, line, clamp32(first - pos + 1), example_text(data + first, data + eol));
      pos = eol + 1;
      ++line;
      continue;
    }
    json::ParseInput in;
    in.data = data;
    in.size = size;
    in.offset = first;
    in.line = clamp32(line);
    in.column = clamp32(first - pos + 1);
    in.name = name;
    in.allow_trailing = true;
    json::Value root;
    size_t end = first;
    Status st = json::parse(in, &root, &end);
    if (!st.ok()) return Status::Error(ErrorCode::kUnusableFile, st.message);
    st = r.read_document(root);
    if (!st.ok()) return st;
    // Continue on the document's last line, after its closing brace.
    for (const char* p = data + first; (p = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(data + end - p)))) != nullptr; ++p) {
      ++line;
      pos = static_cast<size_t>(p - data) + 1;
    }
    nl = static_cast<const char*>(std::memchr(data + end, '\n', size - end));
    eol = nl ? static_cast<size_t>(nl - data) : size;
    size_t rest = end;
    while (rest < eol && is_space(data[rest])) ++rest;
    if (rest < eol) {
      out->diag.add(Issue::kJsonNoise, line, clamp32(rest - pos + 1), example_text(data + rest, data + eol));
    }
    pos = eol + 1;
    ++line;
  }
  if (out->documents == 0) {
    return Status::Error(ErrorCode::kUnusableFile,
                         name + ":1:1: no JSON document found (expected the output of fio "
                                "--output-format=json or json+)");
  }
  r.fill_aggregate_bins();
  return Status::Ok();
}

}  // namespace latscope
