// The trust summary (latscope/folder.h, docs/folders.md "Trust summary"):
// per file what it is, the fio version and unit and how they are known, the
// account used for its jobs' I/Os, and its I/Os against fio's own count.
//
// The cross-check: fio's json+ output counts every I/O of a job and
// direction (its whole-run bins); a log holds them all but for what fio never
// logs. A per-I/O log holds every I/O; a histogram log misses the run's last,
// partial window (fio issue 490), at most about one window's I/Os. A
// shortfall beyond that, or more I/Os than fio counted, is a warning that
// names the numbers (docs/folders.md "Cross-check against fio's count").
#include <algorithm>
#include <cmath>
#include <limits>
#include <cstdio>
#include <map>
#include <tuple>

#include "latscope/folder.h"
#include "latscope/fio_json.h"
#include "latscope/reader.h"
#include "latscope/text.h"

namespace latscope {

TailFacts tail_facts_of(const Series& s) {
  TailFacts f;
  const auto whole = [&](uint64_t n) {
    return s.count_frac_bits ? (n + (uint64_t{1} << (s.count_frac_bits - 1))) >> s.count_frac_bits : n;
  };
  for (const Window& w : s.windows) {
    f.total += w.total;
    f.max_window = std::max(f.max_window, whole(w.total));
  }
  if (s.digest) {  // held without its windows (model.h WindowDigest): what they held
    f.total = s.digest->total;
    f.max_window = whole(s.digest->most);
  }
  f.total = whole(f.total);
  if (!s.windows.empty()) {
    f.first_ms = s.windows.front().start_ms;
    f.last_ms = s.windows.back().end_ms;
  }
  f.interval_ms = std::isfinite(s.interval_ms) ? s.interval_ms
                  : s.windows.empty()          ? 0
                                               : (f.last_ms - f.first_ms) / static_cast<double>(s.windows.size());
  return f;
}

double unlogged_tail_bound(const TailFacts& f, double runtime_ms) {
  // A busy last window (a burst: thinktime jobs) can hold up to about the
  // busiest window's I/Os whatever the mean rate says.
  const double burst = 2.0 * static_cast<double>(f.max_window) + 4;
  const double span = f.last_ms - f.first_ms;
  if (!std::isfinite(runtime_ms) || !(span > 0)) return burst;
  const double gap_ms = std::max(0.0, runtime_ms - f.last_ms);
  const double tail_ms = std::min(gap_ms, 1.5 * f.interval_ms);
  const double expect = static_cast<double>(f.total) / span * tail_ms;
  return std::max(burst, 2 * expect + 4 * std::sqrt(expect) + 4);
}

std::string count_text(uint64_t n) {
  std::string d = std::to_string(n), o;
  for (size_t i = 0; i < d.size(); ++i) {
    if (i && (d.size() - i) % 3 == 0) o += ',';
    o += d[i];
  }
  return o;
}

namespace {

std::string what_of(const Source& src, Account a) {
  if (src.format == FileFormat::kIgnored) return "not a latency log (" + src.ignored + ")";
  if (!src.status.ok()) return "unusable";
  const std::string kind = src.id.kind.empty() ? "clat" : src.id.kind;
  switch (src.format) {
    case FileFormat::kFioHist:
      return "fio histogram log" +
             (src.layout && src.layout->coarseness ? " (coarseness " + std::to_string(src.layout->coarseness) + ")"
                                                    : std::string());
    case FileFormat::kFioLat: return a == Account::kAvg ? "fio log_avg_msec log (" + kind + ")" : "fio per-I/O log (" + kind + ")";
    case FileFormat::kFioJson: return "fio json+ output";
    case FileFormat::kHdrLog: return "HdrHistogram interval log";
    case FileFormat::kResult: return "latscope result";
    case FileFormat::kTsv: return "latscope long table";
    default: return "unknown";
  }
}

int minor_of(const std::string& v, int* major) {
  int ma = 0, mi = -1;
  size_t i = 0;
  while (i < v.size() && !std::isdigit(static_cast<unsigned char>(v[i]))) ++i;
  if (std::sscanf(v.c_str() + i, "%d.%d", &ma, &mi) < 1) return -1;
  *major = ma;
  return mi;
}

}  // namespace

std::string fio_defect(const std::string& fio_version, Account account, bool* wrong) {
  if (wrong) *wrong = false;
  int major = 0;
  const int minor = minor_of(fio_version, &major);
  if (major != 3 || minor < 0) return "";
  // 6cc0e5aa (fio-3.6) widened the histogram counters but kept copying half
  // of them into each log entry; 1fb9250b (PR #840, fio-3.17) fixed it
  // (docs/fio-versions.md section 3). json+ and per-I/O logs are right.
  if (account == Account::kHist && minor >= 6 && minor <= 16) {
    if (wrong) *wrong = true;
    return fio_version +
           " wrote broken histogram logs: every I/O at or above 786.432 us is lost or counted as garbage "
           "(fio issues #715, #827, #828, #974; fixed in fio-3.17 by PR #840): use the per-I/O log or "
           "fio's json+ for this run (docs/fio-versions.md)";
  }
  return "";
}

TrustBuilder::TrustBuilder(std::vector<FolderFile> folder, std::vector<AccountChoice> choices)
    : folder_(std::move(folder)), choices_(std::move(choices)) {}

void TrustBuilder::add(const Source& src) {
  FileFacts f;
  TrustRow& r = f.row;
  r.file = src.name;
  const Account a = account_of(src);
  r.what = what_of(src, a);
  r.account = account_name(a);
  if (a != Account::kNone) r.kind = src.id.kind.empty() ? "clat" : src.id.kind;
  // A histogram log refused or cut by impossible counts (fio 3.6-3.16 with
  // ioengine=sync): rows() attributes it to the version once it is known.
  f.hist_named = name_claims_log(src.name) == "a fio histogram log" &&
                 (!src.status.ok() || src.diag.count(Issue::kOverflow) || src.diag.count(Issue::kNegativeValue) ||
                  src.diag.count(Issue::kNotANumber));
  r.ok = src.status.ok() || src.format == FileFormat::kIgnored;
  if (const std::string* run = src.labels.find("run")) f.run = *run;
  f.host = src.id.host;
  f.job = src.id.job;
  for (size_t i = 0; i < folder_.size(); ++i)
    if (folder_[i].run_file.name == src.name && i < choices_.size() && !choices_[i].used_instead.empty()) {
      r.used_instead = choices_[i].used_instead;
      r.notes.push_back("not added: " + choices_[i].why);
    }
  if (src.format == FileFormat::kFioJson) {
    if (const std::string* v = src.labels.find("fio")) r.fio_version = *v;
  } else if (src.format == FileFormat::kFioHist && src.layout) {
    r.fio_version = src.layout->kind == LayoutKind::kFio2 ? "fio 2 (1216 bins)" : "fio 3 (1856 bins)";
    r.unit = src.layout->kind == LayoutKind::kFio2 ? "us" : "ns";
  } else if (src.format == FileFormat::kFioLat) {
    const std::string* u = src.labels.find(kUnitLabel);
    r.unit = u ? *u : "ns";
    if (!u) r.fio_version = "fio 3 (priority column)";
  }
  if (src.format == FileFormat::kHdrLog) {
    // The unit its values were read in, as its layouts carry it
    // (hdr_layout.cc: ":u1e0" ns, ":u1e3" us, ":u1e6" ms; docs/formats-hdr.md "Units").
    for (const Series& s : src.series) {
      const std::string id = s.layout ? s.layout->id : "";
      r.unit = id.find(":u1e0:") != std::string::npos   ? "ns"
               : id.find(":u1e3:") != std::string::npos ? "us"
               : id.find(":u1e6:") != std::string::npos ? "ms"
                                                        : r.unit;
      if (!r.unit.empty()) break;
    }
  }
  for (const IssueExample& e : src.diag.examples())
    if (e.issue == Issue::kHdrUnitFromWriter || e.issue == Issue::kUnitDecided) r.notes.push_back(e.text);
    else if (e.issue == Issue::kUnitGuessed) r.warnings.push_back(e.text);
  size_t repaired = 0;
  for (const Series& s : src.series) {
    if (s.role == Role::kWindowValues) continue;
    SeriesFacts x;
    x.dir = static_cast<int>(s.dir);
    if (s.role == Role::kWholeRun) {
      x.json = true;
      x.run = label_of(src, s, "run");
      json_host_job(src, s, &x.host, &x.job);
    } else {
      x.run = label_of(src, s, "run");
      x.host = src.id.host;
      x.job = s.job;
    }
    // A result's counts are fixed point (model.h count_frac_bits): whole I/Os here.
    x.tail = tail_facts_of(s);
    x.total = x.tail.total;
    x.max_window = x.tail.max_window;
    x.first_ms = x.tail.first_ms;
    x.last_ms = x.tail.last_ms;
    x.epoch = src.absolute_time;
    x.interval_ms = x.tail.interval_ms;
    x.repaired = s.repaired;
    repaired += s.repaired;
    r.ios += x.total;
    f.series.push_back(std::move(x));
  }
  if (repaired) r.repairs = "client/server defect repaired (" + std::to_string(repaired) + " series)";
  files_.push_back(std::move(f));
}

std::vector<TrustRow> TrustBuilder::rows() const {
  // fio's own count per (run, host, job, direction), and its version per run.
  using Key = std::tuple<std::string, std::string, std::string, int>;
  std::map<Key, uint64_t> fio;
  std::map<Key, std::string> counted_by;  // the json+ file of each key; "" when several count it
  std::map<Key, double> runtime;          // fio's runtime of each key (ms)
  std::map<std::string, std::string> version;  // run -> fio version (json+)
  for (const FileFacts& f : files_) {
    if (!f.row.used_instead.empty()) continue;  // a json+ output's gzip copy (folder.h gzip_copies)
    for (const SeriesFacts& s : f.series) {
      if (!s.json) continue;
      const Key k{s.run, s.host, s.job, s.dir};
      const auto c = counted_by.find(k);
      // Two json+ outputs counting one job (runs merged on purpose,
      // --run-by none): no count to compare with, as no tail is added.
      if (c == counted_by.end()) counted_by[k] = f.row.file;
      else if (c->second != f.row.file) c->second.clear();
      runtime[k] = s.last_ms - s.first_ms;  // on the job's own clock, as its logs
      fio[k] += s.total;
    }
    if (!f.row.fio_version.empty() && f.row.fio_version.compare(0, 4, "fio-") == 0) version[f.run] = f.row.fio_version;
  }
  const Groups groups = group_counts();
  std::vector<TrustRow> out;
  // Files not read because another file accounts for their I/Os (the CLI
  // leaves them unread): named with the choice, from what their head said.
  for (size_t i = 0; i < folder_.size() && i < choices_.size(); ++i) {
    if (choices_[i].used_instead.empty()) continue;
    const std::string& name = folder_[i].run_file.name;
    if (std::any_of(files_.begin(), files_.end(), [&](const FileFacts& f) { return f.row.file == name; })) continue;
    TrustRow r;
    r.file = name;
    r.what = folder_[i].run_file.json                  ? "fio json+ output"
             : folder_[i].account == Account::kHist ? "fio histogram log"
                                                    : "fio per-I/O log";
    r.account = account_name(folder_[i].account);
    r.used_instead = choices_[i].used_instead;
    r.notes.push_back("not read: " + choices_[i].why);
    out.push_back(std::move(r));
  }
  for (const FileFacts& f : files_) {
    TrustRow r = f.row;
    const Account a = r.account == "hist" ? Account::kHist : r.account == "per-io" ? Account::kPerIo : Account::kNone;
    const auto v = version.find(f.run);
    if (f.hist_named && v != version.end() && !fio_defect(v->second, Account::kHist).empty()) {
      r.warnings.push_back("the counts this histogram log holds are impossible or cut, which is what " + v->second +
                           " writes (fio issues #827, #974; fixed in fio-3.17): the file is damaged by fio, not by "
                           "copying (docs/fio-versions.md)");
      r.doubtful = true;
    }
    if (a != Account::kNone && v != version.end()) {
      r.fio_version = v->second;
      bool wrong = false;
      const std::string d = fio_defect(v->second, a, &wrong);
      if (!d.empty()) r.warnings.push_back(d);
      r.doubtful = r.doubtful || (wrong && r.used_instead.empty());
    }
    // The cross-check, for logs in use (a file left out counts nothing).
    if (a != Account::kNone && r.ok && r.used_instead.empty() && !f.series.empty()) {
      uint64_t logged = 0, counted = 0;
      double slack = 0;
      std::string ends;  // a histogram log that stops early
      bool all = true;
      for (const SeriesFacts& s : f.series) {
        const Key k{s.run, s.host, s.job, s.dir};
        const auto it = fio.find(k);
        if (it == fio.end() || counted_by[k].empty()) {
          all = false;
          continue;
        }
        logged += s.total;
        counted += it->second;
        if (a != Account::kHist) continue;
        // What fio's unlogged last window may hold (unlogged_tail_bound);
        // an epoch log's records cannot be set against the relative runtime.
        const auto rt = runtime.find(k);
        const double runtime_ms = s.epoch || rt == runtime.end() ? std::numeric_limits<double>::quiet_NaN() : rt->second;
        slack += unlogged_tail_bound(s.tail, runtime_ms);
        // A log that stops well before fio's runtime was cut (or fio lost
        // records): said so.
        const double gap_ms = std::isfinite(runtime_ms) ? runtime_ms - s.last_ms : 0;
        if (gap_ms > 3 * s.interval_ms + 1000 && ends.empty())
          ends = "its " + std::string(dir_name(static_cast<Dir>(s.dir))) + " records end " +
                 std::to_string(static_cast<long long>(std::llround(gap_ms / 1000))) +
                 " s before fio's runtime of the job ends";
      }
      // A direction fio counted that the log holds nothing of (fio 3.6-3.16
      // lose every I/O above 786.432 us: a job of slow reads logs no read
      // window at all, docs/fio-versions.md section 3).
      if (!f.job.empty())
        for (const auto& kv : fio) {
          // (not a structured binding: clang 14, which Emscripten uses,
          // cannot capture one in the lambda below)
          const Key& k = kv.first;
          const uint64_t n = kv.second;
          if (std::get<0>(k) != f.run || std::get<1>(k) != f.host || std::get<2>(k) != f.job) continue;
          if (counted_by[k].empty()) continue;
          const bool seen = std::any_of(f.series.begin(), f.series.end(),
                                        [&](const SeriesFacts& x) { return x.dir == std::get<3>(k); });
          if (!seen) counted += n;
        }
      r.compared = all;
      r.fio_ios = counted;
      if (counted) {
        const std::string nums = "holds " + count_text(logged) + " of the " + count_text(counted) + " I/Os fio counted";
        if (logged > counted || static_cast<double>(counted - logged) > slack) r.doubtful = true;
        if (logged > counted)
          r.warnings.push_back(nums + ": more than fio counted (another run's json+, or a client/server log not repaired)");
        else if (static_cast<double>(counted - logged) > slack) {
          std::string w = nums;
          if (a != Account::kHist) {
            w += ": a per-I/O log holds every I/O, some are missing";
          } else {
            w += ": more missing than fio's unlogged last window explains";
            if (!ends.empty()) w += " (" + ends + ")";
          }
          r.warnings.push_back(std::move(w));
        }
      }
    }
    compare_with_groups(groups, f, &r);
    out.push_back(std::move(r));
  }
  return out;
}

TrustBuilder::Groups TrustBuilder::group_counts() const {
  // fio's json+ of group_reporting counts groups of jobs (fio_json.h
  // FioJsonJob::group): no log is one of its entries, so the run's logs in
  // use are set against the sum of its groups, per run and host.
  Groups g;
  for (const FileFacts& f : files_)
    for (const SeriesFacts& s : f.series)
      if (s.json && s.job.rfind(kGroupJobPrefix, 0) == 0) {
        GroupCount& c = g[{s.run, s.host}];
        c.counted += s.total;
        c.json = f.row.file;
      }
  for (auto& kv : g) {
    GroupCount* c = &kv.second;
    for (const FileFacts& f : files_) {
      if (f.run != kv.first.first || f.host != kv.first.second || f.row.account.empty() || f.row.account == "avg" ||
          f.row.kind != "clat" || !f.row.ok || !f.row.used_instead.empty() || f.series.empty())
        continue;
      ++c->logs;
      for (const SeriesFacts& s : f.series) {
        c->logged += s.total;
        if (f.row.account == "hist") c->slack += unlogged_tail_bound(s.tail, std::numeric_limits<double>::quiet_NaN());
      }
    }
  }
  return g;
}

void TrustBuilder::compare_with_groups(const Groups& groups, const FileFacts& f, TrustRow* r) const {
  for (const auto& [key, c] : groups) {
    if (c.json != f.row.file || c.logs == 0) continue;
    r->compared = true;
    r->kind = "clat";
    r->logs = c.logs;
    r->ios = c.logged;
    r->fio_ios = c.counted;
    const std::string nums = "fio reported groups of jobs (group_reporting), not jobs: the run's " +
                             std::to_string(c.logs) + " logs hold " + count_text(c.logged) + " of the " +
                             count_text(c.counted) + " I/Os its groups count";
    if (c.logged > c.counted || static_cast<double>(c.counted - c.logged) > c.slack) {
      r->doubtful = true;
      r->warnings.push_back(nums + (c.logged > c.counted ? ": more than fio counted" : ": some are missing"));
    } else {
      r->notes.push_back(nums);
    }
  }
}

std::string trust_json(const std::vector<TrustRow>& rows) {
  const auto list = [](const std::vector<std::string>& v) {
    std::string o = "[";
    for (size_t i = 0; i < v.size(); ++i) o += (i ? "," : "") + json_escape(v[i]);
    return o + "]";
  };
  std::string o = "[";
  for (size_t i = 0; i < rows.size(); ++i) {
    const TrustRow& r = rows[i];
    o += (i ? ",{" : "{") + std::string("\"file\":") + json_escape(r.file) + ",\"what\":" + json_escape(r.what) +
         ",\"fio_version\":" + json_escape(r.fio_version) + ",\"unit\":" + json_escape(r.unit) +
         ",\"account\":" + json_escape(r.account) + ",\"kind\":" + json_escape(r.kind) + ",\"used_instead\":" + json_escape(r.used_instead) +
         ",\"ios\":" + std::to_string(r.ios) + ",\"fio_ios\":" + std::to_string(r.fio_ios) +
         ",\"compared\":" + (r.compared ? "true" : "false") + ",\"repairs\":" + json_escape(r.repairs) +
         ",\"warnings\":" + list(r.warnings) + ",\"notes\":" + list(r.notes) + ",\"doubtful\":" + (r.doubtful ? "true" : "false") +
         ",\"ok\":" + (r.ok ? "true" : "false") + "}";
  }
  return o + "]";
}

FolderFile folder_file_of(const Source& src) {
  FolderFile f;
  f.run_file = run_file_of(src);
  if (const std::string* run = src.labels.find("run")) f.run = *run;
  f.format = src.format;
  f.account = account_of(src);
  if (src.format == FileFormat::kFioJson && src.status.ok()) {
    if (const std::string* v = src.labels.find("fio")) f.fio_version = *v;
    for (const Series& s : src.series) {
      if (s.role != Role::kWholeRun) continue;
      FolderFile::JobCount c;
      json_host_job(src, s, &c.host, &c.job);
      c.dir = static_cast<int>(s.dir);
      c.ios = s.total();
      c.version = s.layout && s.layout->kind == LayoutKind::kFio2 ? 2 : 3;
      for (const Window& w : s.windows) s.for_each_bin(w, [&](uint32_t b, uint64_t n) { c.bins.emplace_back(b, n); });
      f.json_counts.push_back(std::move(c));
    }
  }
  f.head_hash = src.head_hash;
  if (src.format == FileFormat::kFioHist && src.status.ok() && src.layout)
    f.hist_version = src.layout->kind == LayoutKind::kFio2 ? 2 : 3;
  return f;
}

}  // namespace latscope
