// The streaming fold's state (stream.h, StreamingQuery): its cells, what it
// folded, and the Impl the fold (stream_fold.cc), the query parts
// (stream.cc) and the routing by latency kind, time base and folder
// (stream_routes.cc) share.
#pragma once

#include <cmath>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "latscope/result.h"
#include "latscope/stream.h"
#include "query/aligner.h"
#include "query/axis.h"
#include "query/budget.h"
#include "query/interval.h"
#include "query/placement.h"
#include "query/sparse_counts.h"
#include "query/tail.h"
#include "query/time_base.h"

namespace latscope {
namespace stream_detail {

// Counts of one (quantum, group): over a contiguous range of bins, or for a
// wide target layout the bins that have counts (sparse_counts.h).
struct Cell {
  uint32_t lo = 0;
  std::vector<double> v;
  SparseCounts sp;           // Impl::sparse: the counts, instead of lo/v
  std::vector<uint64_t> io;  // Method::kExact: the cell's per-I/O values (ns)
  ExtremeBins ext;           // where the row's extremes may come from (query/extremes.h)
  // What a result cell records: the bins of the windows whose midpoint lies
  // in the quantum, whatever the series (docs/extremes.md, "Results").
  ExtremeBins mid;

  void cover(uint32_t a, uint32_t b) {  // bins [a, b] inclusive
    if (v.empty()) {
      lo = a;
      v.assign(b - a + 1, 0.0);
      return;
    }
    if (a < lo) {
      v.insert(v.begin(), lo - a, 0.0);
      lo = a;
    }
    if (b >= lo + v.size()) v.resize(b - lo + 1, 0.0);
  }

  // Every bin with a count, ascending: f(bin, count).
  template <class F>
  void each(F&& f) const {
    for (size_t i = 0; i < v.size(); ++i)
      if (v[i] != 0) f(lo + static_cast<uint32_t>(i), v[i]);
    for (size_t i = 0; i < sp.size(); ++i)
      if (sp.v[i] != 0) f(sp.bins[i], sp.v[i]);
  }

  double bytes() const;
};

inline double Cell::bytes() const {
  return kCellBytes + 8.0 * static_cast<double>(v.size()) + 12.0 * static_cast<double>(sp.size());
}

// What partial flags and the quantum range need of a folded series.
struct Coverage {
  uint32_t group;
  double start, end;
  bool absolute;
  double full_start, full_end;  // for the partial flag (Selected::full_*)
  double interval;              // for the finer flag (Selected::interval_ms)
  size_t serial;                // the series folded (its corrected copy shares it): TimeRun::owner
};

// A series' group: the key rows show (group_key) and, for finish_result, its
// label set: the group_by labels it has, or every label for {"*"}.
inline std::string result_group(const Source& src, const Series& s, const GroupBy& by, Labels* kept) {
  if (by.size() == 1 && by[0] == "*") {
    for (const Labels* l : {&src.labels, &s.labels})
      for (const auto& kv : l->items()) kept->set(kv.first, label_of(src, s, kv.first));
    kept->set("host", label_of(src, s, "host"));
    return labels_text(*kept);
  }
  for (const std::string& name : by) kept->set(name, label_of(src, s, name));
  return group_key(src, s, by);
}

// One series held for the fold by quanta (StreamingQuery::Impl::holding):
// what fold takes, and the first of its windows a later quantum can reach.
struct Job {
  const Series* series;
  double offset;
  uint32_t group;
  CoCorrector* co;
  const std::string* name;  // its file, for the budget's message
  size_t next = 0;
};

// The quanta a fold adds to: [lo, hi), and the series' first window that
// can reach them (advanced past the windows wholly before lo). All by default.
struct Span {
  double lo = -HUGE_VAL, hi = HUGE_VAL;
  size_t* from = nullptr;
};

// A source given to StreamingQuery::add(Source&&): held without a copy by the
// part that keeps it (stream_routes.cc passes one source on by reference
// through the kind and time-base parts).
inline const std::shared_ptr<const Source>*& donated_source() {
  thread_local const std::shared_ptr<const Source>* given = nullptr;
  return given;
}

// The memory a parsed source's series take (stream_hold.cc).
double source_model_bytes(const Source& src);

struct PendingTail {
  Series tail;
  TailKey key;
  uint32_t group;
  CoCorrector* co = nullptr;
  double offset;
  size_t coverage;  // index into Impl::coverage, extended when the tail is kept
  std::string json_name;
  std::string log_name;  // the log whose tail it is
};

}  // namespace stream_detail

struct StreamingQuery::Impl {
  using Cell = stream_detail::Cell;
  using Coverage = stream_detail::Coverage;
  using PendingTail = stream_detail::PendingTail;
  QueryOptions opts;
  // Method::kExact (query/per_io.h): series folded without per-I/O values,
  // values held, past the budget.
  size_t io_missing = 0;
  uint64_t io_kept = 0;
  bool io_over = false;
  Status error;
  std::deque<Source> json_sources;  // small: whole-run histograms; stable addresses for the index
  JsonIndex json;
  std::map<TailKey, int> logs_per_key;
  std::vector<PendingTail> tails;
  TailTally tally;
  FinerTally finer;  // query/interval.h
  PlacementTally placed;  // query/placement.h
  LateStartCheck late;
  TimeBaseTally time_bases;             // the outer query: selected series per time base
  std::vector<std::string> time_notes;  // the part shown: what the other time base left out
  Diagnostics time_diag;

  std::map<std::string, uint32_t> group_ids;
  std::vector<std::string> group_names;
  std::vector<Labels> group_labels;  // finish_result: each group's label set
  std::set<std::string> labels_seen{"host"};
  std::map<const BinLayout*, std::unique_ptr<CoCorrector>> correctors;  // by source layout
  bool any_series = false;
  std::vector<Coverage> coverage;
  std::vector<TimeRun> runs;  // query/axis.h: what decides the axis when it would be too long
  size_t serials = 0;         // Coverage::serial
  double held = 0;            // bytes of cells (query/budget.h), counted before each allocation
  std::string folding;        // the file being folded, for the budget's message
  bool sparse = false;        // cells hold SparseCounts: the target is a wide layout (aligner.h)
  Increments inc;             // scratch: one quantum's counts of a series (sparse cells)
  std::map<std::string, LayoutPtr> layouts;  // every layout seen, by id
  LayoutPtr target;
  std::map<std::string, std::unique_ptr<RebinMap>> rebin;  // onto target, by source layout id
  std::map<std::pair<int64_t, uint32_t>, Cell> cells;      // (quantum index, group)
  double skip_before = -HUGE_VAL, skip_after = HUGE_VAL;   // quantum indices outside from/to

  // The fold by quanta (docs/quanta.md, "Memory: the fold by quanta"):
  // sources are held as parsed (a few hundred bytes a window) and folded at
  // finish a slice of quanta at a time, each slice's cells turned into rows
  // before the next is made, while that holds less than the cells the
  // fold by file would (holding_pays); else what is held is folded by file
  // (flush_held) and every later source with it.
  bool holding = true;
  Fold how = Fold::kChoose;
  std::vector<std::shared_ptr<const Source>> kept_sources;
  std::vector<stream_detail::Job> jobs;  // in the order the fold by file adds them: series, then tails
  double kept_bytes = 0;                 // model bytes of kept
  std::map<uint32_t, double> cell_estimate;  // per group: the least its cells would take folded by file
  double horizon = 0;                    // quanta before it are folded
  double slice = 64;                     // quanta per slice

  void hold(const Series& s, double offset, uint32_t group, CoCorrector* co, const std::string* name);
  bool holding_pays() const;
  void flush_held();
  // Folds the next slice of the held jobs, from the horizon or, past a gap
  // no window reaches, from the first quantum a window does; false when no
  // window is left before `last`.
  bool fold_slice(double last);

  // The common layout, chosen as make_plan does over the layouts seen so far;
  // cells already folded move onto a new target (a coarsening is exact).
  void use_layout(const LayoutPtr& l);
  const RebinMap* map_for(const BinLayout& l);
  void fold_selected(const Source& src, const std::vector<Selected>& sel);
  // The grid quantized once into a result (result.h): one series per group.
  Status to_result(Result* r);
  Status cells_to_result(std::vector<ResultSeries>* out);
  CoCorrector* corrector_for(const LayoutPtr& l, double interval_ns);
  void fold(const Series& s, double offset, uint32_t group, CoCorrector* co, stream_detail::Span span = {});
  // One quantum j of a series' sweep (fold) into cell (j, group); false,
  // with error set, when the cells would go over the query's memory limit.
  bool add_quantum(const Sweep& sweep, const std::vector<double>& acc, const ExtremeBins& ext,
                   const std::vector<uint64_t>* io, double j, uint32_t group);
};

}  // namespace latscope
