// fio-histo-log-pctiles.py compatibility (see compat.h for the semantics).
//
// To match the script to the last bit, the floating-point operations are done
// in its order: per file, records in file order add weight * count into that
// file's aligned histogram; the files' histograms are then added in command
// line order; totals and cumulative sums run over ascending bins. The model
// keeps a file's records per direction, so "file order" is rebuilt by sorting
// on time (fio writes each job's log in time order). Only the order of a read
// and a write record with equal timestamps is unknown (taken as read first):
// it can change the last bit of a sum, never which bin a percentile is in
// unless a cumulative percentage lands exactly on the percentile.
#include "query/compat.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace latscope {
namespace {

constexpr int64_t kMsPerSec = 1000;

// Python's // on integers: rounds toward minus infinity.
int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// The script's bucket ranges (its time_ranges()): fine bin i covers
// [lo, lo + width) with width 1 in groups 0 and 1, doubling per group after.
// fio 3 bins are ns, fio 2 bins us (returned here in ns). A coarse bin j spans
// fine bins [j << c, (j + 1) << c).
struct BinRange {
  double lo_ns;
  double hi_ns;
};

double fine_lo(uint32_t i) {
  if (i < 128) return i;
  const uint32_t e = (i >> 6) - 1;
  const uint32_t k = i & 63;
  return std::ldexp(1.0, static_cast<int>(e + 6)) + k * std::ldexp(1.0, static_cast<int>(e));
}

double fine_hi(uint32_t i) {
  if (i < 128) return i + 1.0;
  const uint32_t e = (i >> 6) - 1;
  return fine_lo(i) + std::ldexp(1.0, static_cast<int>(e));
}

std::vector<BinRange> script_ranges(const BinLayout& layout) {
  const double scale = layout.kind == LayoutKind::kFio2 ? 1000.0 : 1.0;
  const uint32_t c = static_cast<uint32_t>(layout.coarseness);
  std::vector<BinRange> r(layout.size());
  for (uint32_t j = 0; j < r.size(); ++j) {
    r[j].lo_ns = fine_lo(j << c) * scale;
    r[j].hi_ns = fine_hi(((j + 1) << c) - 1) * scale;
  }
  return r;
}

// One record as the script sees it: a window of one direction.
struct Record {
  int64_t t;      // time_ms (the script's record start)
  int64_t end;    // next record of the same direction, or -1: the test end
  Dir dir;
  const Series* series;
  uint32_t window;
};

// One "file" of the script: a source, or one job segment of a per_job_logs=0
// source.
struct Log {
  const Source* src;
  int segment;
  std::vector<Record> records;  // file order
  int64_t start = 0;
  int64_t end = 0;
};

struct Contribution {
  uint32_t quantum;
  uint32_t log;
  uint32_t record;
  double weight;
};

bool excluded(const std::vector<std::string>& list, const std::string& s) {
  return !s.empty() && std::find(list.begin(), list.end(), s) != list.end();
}

// Builds the script's view of one log: its records in file order, each with
// the time of its direction's next record (-1 for the last).
void build_records(Log* log, const std::vector<const Series*>& series) {
  for (const Series* s : series) {
    for (uint32_t w = 0; w < s->windows.size(); ++w) {
      const Window& win = s->windows[w];
      log->records.push_back({static_cast<int64_t>(std::llround(win.end_ms)), -1, s->dir, s, w});
    }
  }
  std::stable_sort(log->records.begin(), log->records.end(),
                   [](const Record& a, const Record& b) {
                     if (a.t != b.t) return a.t < b.t;
                     return static_cast<int>(a.dir) < static_cast<int>(b.dir);
                   });
  // Next record of the same direction: the model's next window of the series.
  int64_t next_time[kDirCount] = {-1, -1, -1};
  for (size_t k = log->records.size(); k-- > 0;) {
    Record& r = log->records[k];
    const int d = static_cast<int>(r.dir);
    r.end = next_time[d];
    next_time[d] = r.t;
  }
}

}  // namespace

Status compat_fio_histo_log_pctiles(const std::vector<const Source*>& sources,
                                    const QueryOptions& opts, QueryResult* out) {
  *out = QueryResult{};
  out->quantum_ms = opts.quantum_ms;
  out->absolute_time = false;
  std::vector<std::string>& notes = out->notes;
  const std::string tool = "fio-histo-log-pctiles.py";

  // The script's --time-quantum is an int number of seconds.
  if (!(opts.quantum_ms > 0) || std::fmod(opts.quantum_ms, 1000.0) != 0 ||
      opts.quantum_ms > 1e12) {
    return Status::Error(ErrorCode::kInvalidArgument,
                         "compat mode: the quantum must be a whole number of seconds (the script's "
                         "--time-quantum), got " + fmt("%g", opts.quantum_ms) + " ms");
  }
  const int64_t q_sec = static_cast<int64_t>(opts.quantum_ms / 1000.0);
  const int64_t q_ms = q_sec * kMsPerSec;
  for (double p : opts.percentiles) {
    if (!(p >= 0 && p <= 100)) {
      return Status::Error(ErrorCode::kInvalidArgument,
                           "compat mode: percentile " + fmt("%g", p) + " is outside [0, 100]");
    }
  }
  if (!std::is_sorted(opts.percentiles.begin(), opts.percentiles.end())) {
    notes.push_back(tool + " needs its percentiles in increasing order and gives wrong values "
                           "otherwise; latscope computes each percentile on its own");
  } else if (std::adjacent_find(opts.percentiles.begin(), opts.percentiles.end()) !=
             opts.percentiles.end()) {
    notes.push_back(tool + " prints a repeated percentile once (its columns shift); latscope "
                           "prints every requested column");
  }
  if (!opts.group_by.empty()) {
    notes.push_back("compat mode sums all files and directions into one group, as " + tool +
                    " does; grouping is ignored");
  }
  if (!opts.sel.offsets_ms.empty()) {
    notes.push_back("compat mode ignores clock offsets: " + tool + " has none");
  }

  // Collect the script's files.
  std::vector<Log> logs;
  LayoutPtr layout;
  size_t repaired = 0, trims = 0;
  for (const Source* src : sources) {
    if (src == nullptr) continue;
    if (excluded(opts.sel.exclude_sources, src->name) ||
        excluded(opts.sel.exclude_hosts, src->id.host)) {
      continue;
    }
    if (!src->status.ok() || src->series.empty()) {
      notes.push_back(src->name + ": not usable (" + src->status.message + "); " + tool +
                      " would stop on this file, latscope leaves it out");
      continue;
    }
    if (src->format != FileFormat::kFioHist) {
      return Status::Error(ErrorCode::kInvalidArgument,
                           "compat mode reads fio histogram logs only; " + src->name + " is " +
                               format_name(src->format));
    }
    int max_segment = 0;
    for (const Series& s : src->series) {
      if (!s.layout || (s.layout->kind != LayoutKind::kFio3 && s.layout->kind != LayoutKind::kFio2)) {
        return Status::Error(ErrorCode::kInvalidArgument,
                             "compat mode reads fio histogram logs only; " + src->name +
                                 " has a non-fio bin layout");
      }
      if (!layout) {
        layout = s.layout;
      } else if (layout->id != s.layout->id) {
        return Status::Error(ErrorCode::kInvalidArgument,
                             "compat mode needs one bin layout for all files (" + tool +
                                 " takes one bucket count): " + layout->id + " and " +
                                 s.layout->id + " (" + src->name + ")");
      }
      max_segment = std::max(max_segment, s.segment);
      if (s.repaired) ++repaired;
      if (s.dir == Dir::kTrim) ++trims;
    }
    if (max_segment > 0) {
      notes.push_back(src->name + " holds " + std::to_string(max_segment + 1) +
                      " job segments (per_job_logs=0): " + tool +
                      " stops at the first timestamp that goes backwards; latscope treats each "
                      "segment as a file of its own");
    }
    const uint64_t dups = src->diag.count(Issue::kDuplicateTimestamp);
    if (dups > 0) {
      notes.push_back(src->name + ": " + std::to_string(dups) +
                      " records repeat the previous timestamp of their direction; " + tool +
                      " drops such records and their counts when adjacent in the file, latscope "
                      "keeps the counts");
    }
    for (int seg = 0; seg <= max_segment; ++seg) {
      std::vector<const Series*> series;
      for (const Series& s : src->series) {
        if (s.segment == seg) series.push_back(&s);
      }
      Log log{src, seg, {}, 0, 0};
      build_records(&log, series);
      if (log.records.empty()) {
        notes.push_back(src->name + ": no records; " + tool + " would stop on this file");
        continue;
      }
      logs.push_back(std::move(log));
    }
  }
  if (logs.empty()) {
    return Status::Error(ErrorCode::kInvalidArgument, "compat mode: no usable fio histogram log");
  }
  if (trims > 0) {
    notes.push_back(tool + " stops on trim records (direction 2); latscope includes them");
  }
  if (repaired > 0) {
    notes.push_back(std::to_string(repaired) +
                    " series were repaired (client/server accumulation defect); " + tool +
                    " reads the raw counts: use repair off to get its numbers");
  }
  if (layout->coarseness > 0) {
    notes.push_back(tool + " rejects log_hist_coarseness > 0 (it needs " +
                    std::to_string(layout->kind == LayoutKind::kFio2 ? kFio2Bins : kFio3Bins) +
                    " bins per line); latscope applies its rules to the coarse bins' true ranges");
  }

  // Per-file start and end, then the test's (the script's parse_hist_file and
  // its max/min over files).
  int64_t test_start = 0;
  int64_t test_end = static_cast<int64_t>(1e18);
  for (Log& log : logs) {
    const int64_t first = log.records[0].t;
    if (first < 1000000) {
      log.start = 0;  // relative timestamps
    } else if (log.records.size() > 1) {
      log.start = first - (log.records[1].t - first);
    } else {
      // The script stops: "no way to estimate test start time".
      const Window& w = log.records[0].series->windows[log.records[0].window];
      log.start = static_cast<int64_t>(std::llround(w.start_ms));
      notes.push_back(log.src->name + " has one record: " + tool +
                      " cannot estimate its start and stops; latscope uses the window's start");
    }
    log.end = log.records.back().t;
    test_start = std::max(test_start, log.start);
    test_end = std::min(test_end, log.end);
  }
  if (test_start >= test_end) {
    return Status::Error(ErrorCode::kInvalidArgument,
                         "compat mode: no time interval when all files' logs overlap (" + tool +
                             " stops here too)");
  }
  if (test_start > 0) {
    notes.push_back("all files running as of unix epoch time " +
                    fmt("%.3f", static_cast<double>(test_start) / 1000.0) +
                    " s (msec-since-start counts from there)");
  }
  // get_time_intervals(): whole seconds, rounded up to whole quanta.
  const int64_t start_s = floor_div(test_start, kMsPerSec);
  const int64_t end_s = floor_div(test_end, kMsPerSec);
  const int64_t count = floor_div((end_s - start_s) + q_sec, q_sec);
  const int64_t end_time_ms = (start_s + count * q_sec) * kMsPerSec;
  if (count <= 0 || count > 100000000) {
    return Status::Error(ErrorCode::kInvalidArgument,
                         "compat mode: " + std::to_string(count) + " quanta is out of range");
  }

  // align_histo_log(): every record's overlap with every quantum it touches.
  std::vector<Contribution> contrib;
  uint64_t wrapped_records = 0, crash_records = 0, negative_weight = 0, zero_length = 0;
  double wrapped_samples = 0;
  size_t assert_crash = 0;
  for (uint32_t li = 0; li < logs.size(); ++li) {
    const Log& log = logs[li];
    for (uint32_t k = 0; k < log.records.size(); ++k) {
      const Record& r = log.records[k];
      // The script looks at most 3 records ahead for the same direction.
      if (k + 3 < log.records.size() && log.records[k + 1].dir != r.dir &&
          log.records[k + 2].dir != r.dir && log.records[k + 3].dir != r.dir) {
        ++assert_crash;
      }
      if (!(opts.sel.dirs & (1u << static_cast<unsigned>(r.dir)))) continue;
      const int64_t t = r.t;
      const int64_t t_end = r.end >= 0 ? r.end : end_time_ms;
      if (t_end == t) {
        ++zero_length;  // the script divides by zero here
        continue;
      }
      if (t_end < t) ++negative_weight;
      const int64_t offset = t - test_start;
      int64_t qs = test_start + floor_div(offset, q_ms) * q_ms;
      int64_t qe = test_start + floor_div(offset + q_ms, q_ms) * q_ms;
      int64_t qi = floor_div(offset, q_ms);
      const Series& s = *r.series;
      const Window& w = s.windows[r.window];
      double n = 0;
      s.for_each_bin(w, [&](uint32_t, uint64_t c) { n += static_cast<double>(c); });
      while (qs < t_end) {
        if (qi >= count) break;
        const int64_t ov_start = std::max(qs, t);
        const int64_t ov_end = std::min(qe, t_end);
        double weight = static_cast<double>(ov_end - ov_start);
        weight /= static_cast<double>(t_end - t);
        if (qi < 0) {
          // The script indexes its list with qi < 0: Python wraps to the end.
          if (qi < -count) {
            ++crash_records;
          } else {
            ++wrapped_records;
            wrapped_samples += weight * n;
          }
        } else {
          contrib.push_back({static_cast<uint32_t>(qi), li, k, weight});
        }
        qs += q_ms;
        qe += q_ms;
        ++qi;
      }
    }
  }
  if (assert_crash > 0) {
    notes.push_back(tool + " fails an assertion (" + std::to_string(assert_crash) +
                    " records are followed by three of other directions before their own "
                    "direction's next one); latscope uses each direction's next record");
  }
  if (zero_length > 0) {
    notes.push_back(tool + " divides by zero on " + std::to_string(zero_length) +
                    " records that start at the test end; latscope leaves them out");
  }
  if (negative_weight > 0) {
    notes.push_back(std::to_string(negative_weight) +
                    " records start after the script's rounded test end; like " + tool +
                    " latscope adds them whole to the last quantum");
  }
  if (wrapped_records > 0) {
    notes.push_back(tool + " would add " + fmt("%.6g", wrapped_samples) + " samples (" +
                    std::to_string(wrapped_records) +
                    " record parts before the common test start) into its last quanta through a "
                    "negative list index; latscope leaves them out");
  }
  if (crash_records > 0) {
    notes.push_back(tool + " would stop with an IndexError on records more than the test's length "
                           "before the common start; latscope leaves those parts out");
  }

  // Per quantum: each file's aligned histogram in record order, then the
  // files' sum in file order, then the script's get_pctiles().
  std::stable_sort(contrib.begin(), contrib.end(), [](const Contribution& a, const Contribution& b) {
    if (a.quantum != b.quantum) return a.quantum < b.quantum;
    return a.log < b.log;
  });
  const std::vector<BinRange> ranges = script_ranges(*layout);
  const size_t nbins = layout->size();
  std::vector<double> file_h(nbins, 0.0), total_h(nbins, 0.0);
  std::vector<uint32_t> file_touched, total_touched;
  std::vector<char> file_mark(nbins, 0), total_mark(nbins, 0);

  // Percentiles in increasing order, walked once like the script.
  const size_t np = opts.percentiles.size();
  std::vector<size_t> order(np);
  for (size_t i = 0; i < np; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return opts.percentiles[a] < opts.percentiles[b]; });

  out->groups = {"all"};
  out->layout_id = layout->id;
  const bool saturating = layout->last_saturates;
  size_t ci = 0;
  for (int64_t j = 0; j < count; ++j) {
    for (uint32_t b : total_touched) {
      total_h[b] = 0.0;
      total_mark[b] = 0;
    }
    total_touched.clear();
    while (ci < contrib.size() && contrib[ci].quantum == j) {
      const uint32_t li = contrib[ci].log;
      for (uint32_t b : file_touched) {
        file_h[b] = 0.0;
        file_mark[b] = 0;
      }
      file_touched.clear();
      for (; ci < contrib.size() && contrib[ci].quantum == j && contrib[ci].log == li; ++ci) {
        const Record& r = logs[li].records[contrib[ci].record];
        const Series& s = *r.series;
        const Window& w = s.windows[r.window];
        const double weight = contrib[ci].weight;
        s.for_each_bin(w, [&](uint32_t b, uint64_t c) {
          if (b >= nbins) return;  // the reader guarantees this; stay safe
          file_h[b] += weight * static_cast<double>(c);
          if (!file_mark[b]) {
            file_mark[b] = 1;
            file_touched.push_back(b);
          }
        });
      }
      for (uint32_t b : file_touched) {
        total_h[b] += file_h[b];
        if (!total_mark[b]) {
          total_mark[b] = 1;
          total_touched.push_back(b);
        }
      }
    }
    std::sort(total_touched.begin(), total_touched.end());

    Row row;
    row.t_ms = static_cast<double>(j * q_ms);
    row.group = 0;
    row.p.assign(np, PercentileValue{});
    double total = 0;
    for (uint32_t b : total_touched) total += total_h[b];
    if (total == 0.0) {
      row.flags |= kFlagEmpty;
    } else {
      row.stats.samples = total;
      double mean_acc = 0;
      bool have_min = false, have_max = false;
      size_t pi = 0;
      double cum = 0, pct = 0;
      for (uint32_t b : total_touched) {
        const double c = total_h[b];
        if (c == 0.0) continue;
        mean_acc += c * (ranges[b].lo_ns + ranges[b].hi_ns) / 2;
        cum += c;
        const double last_pct = pct;
        pct = 100.0 * cum / total;
        const double lo = ranges[b].lo_ns, hi = ranges[b].hi_ns;
        const bool sat = saturating && b + 1 == nbins;
        if (!have_min) {
          row.stats.min_ns = lo;  // p0: the script's interpolation gives lo
          have_min = true;
        }
        if (!have_max && pct >= 99.9999) {
          row.stats.max_ns = lo + ((100.0 - last_pct) / (pct - last_pct)) * (hi - lo);
          row.stats.saturated = sat;
          have_max = true;
        }
        while (pi < np) {
          const double p = opts.percentiles[order[pi]];
          if (!((p == 100.0 && pct >= 99.9999) || (p < 100.0 && pct > p))) break;
          PercentileValue& v = row.p[order[pi]];
          v.value_ns = lo + ((p - last_pct) / (pct - last_pct)) * (hi - lo);
          v.err_ns = hi - lo;
          v.saturated = sat;
          v.few_samples = p > 0 && p < 100 && total * (1.0 - p / 100.0) < 1.0;  // as compute_percentiles
          if (v.few_samples) row.flags |= kFlagFewSamples;
          if (sat) row.flags |= kFlagSaturated;
          ++pi;
        }
      }
      row.stats.mean_ns = mean_acc / total;
      if (row.stats.saturated) row.flags |= kFlagSaturated;
    }
    const double q_from = row.t_ms, q_to = row.t_ms + static_cast<double>(q_ms);
    if (q_to > opts.sel.from_ms && q_from < opts.sel.to_ms) out->rows.push_back(std::move(row));
  }
  return Status::Ok();
}

}  // namespace latscope
