// StreamingQuery (stream.h): Engine::query's arithmetic, folded per source.
//
// Engine::query sweeps quanta and, for each, adds every selected series'
// overlapping windows in series order. Here each series is folded as it
// arrives: for each window, for each quantum it overlaps, the same
// weight * count is added to the (quantum, group) cell. Per cell that is the
// same sequence of additions (series in the same order, windows in order,
// json+ tails last), so the sums are bit for bit the same; quantum edges are
// index * Q in both.
#include "latscope/stream.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <map>
#include <set>
#include <utility>

#include "latscope/result.h"
#include "latscope/text.h"
#include "query/aligner.h"
#include "query/axis.h"
#include "query/budget.h"
#include "query/interval.h"
#include "query/layout_merge.h"
#include "query/one_account.h"
#include "query/per_io.h"
#include "query/placement.h"
#include "query/sparse_counts.h"
#include "query/tail.h"
#include "query/time_base.h"
#include "query/window_values.h"

namespace latscope {
namespace {

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

double Cell::bytes() const {
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
std::string result_group(const Source& src, const Series& s, const GroupBy& by, Labels* kept) {
  if (by.size() == 1 && by[0] == "*") {
    for (const Labels* l : {&src.labels, &s.labels})
      for (const auto& kv : l->items()) kept->set(kv.first, label_of(src, s, kv.first));
    kept->set("host", label_of(src, s, "host"));
    return labels_text(*kept);
  }
  for (const std::string& name : by) kept->set(name, label_of(src, s, name));
  return group_key(src, s, by);
}

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

}  // namespace

struct StreamingQuery::Impl {
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
  std::vector<uint32_t> cbins;   // scratch for corrected windows
  std::vector<uint64_t> ccounts;  // to name an unknown group_by label at finish
  bool any_series = false;
  std::vector<Coverage> coverage;
  std::vector<TimeRun> runs;  // query/axis.h: what decides the axis when it would be too long
  size_t serials = 0;         // Coverage::serial
  double held = 0;            // bytes of cells (query/budget.h), counted before each allocation
  std::string folding;        // the file being folded, for the budget's message
  bool sparse = false;        // cells hold SparseCounts: the target is a wide layout (aligner.h)
  Increments inc;             // scratch: one window's parts in one quantum (sparse cells)
  std::map<std::string, LayoutPtr> layouts;  // every layout seen, by id
  LayoutPtr target;
  std::map<std::string, std::unique_ptr<RebinMap>> rebin;  // onto target, by source layout id
  std::map<std::pair<int64_t, uint32_t>, Cell> cells;      // (quantum index, group)
  double skip_before = -HUGE_VAL, skip_after = HUGE_VAL;   // quantum indices outside from/to
  std::vector<uint32_t> bins;
  std::vector<uint64_t> counts;

  // The common layout, chosen as make_plan does over the layouts seen so far;
  // cells already folded move onto a new target (a coarsening is exact).
  void use_layout(const LayoutPtr& l) {
    layouts[l->id] = l;
    const LayoutPtr next = merge_layout(layouts);  // query/layout_merge.h
    if (target && next->id != target->id) {
      std::unique_ptr<RebinMap> m = make_rebin(*target, *next);
      const bool to_sparse = next->size() >= kWideLayoutBins;
      for (auto& kv : cells) {
        Cell moved;
        const Cell& old = kv.second;
        inc.clear();
        old.each([&](uint32_t b, double x) {
          if (to_sparse) {
            rebinned(*m, b, x, [this](uint32_t t, double part) { inc.emplace_back(t, part); });
            return;
          }
          for (uint32_t r = m->start[b]; r < m->start[b + 1]; ++r) moved.cover(m->to[r], m->to[r]);
          add_rebinned(*m, b, x, moved.v.data() - moved.lo);
        });
        if (to_sparse) {
          SparseCounts::order(&inc);
          moved.sp.add(inc, moved.sp.fresh_bins(inc));
        }
        moved.io.swap(kv.second.io);  // per-I/O values do not depend on the layout
        // every target bin the old extreme bins spread into, as Sweep adds them
        for (auto [from, to] : {std::pair{&old.ext, &moved.ext}, std::pair{&old.mid, &moved.mid}})
          if (from->any())
            for (uint32_t b : {from->lo, from->hi})
              for (uint32_t r = m->start[b]; r < m->start[b + 1]; ++r) to->add(m->to[r]);
        kv.second = std::move(moved);
      }
      held = 0;
      for (const auto& kv : cells) held += kv.second.bytes();
      rebin.clear();
    }
    target = next;
    sparse = target->size() >= kWideLayoutBins;
  }

  const RebinMap* map_for(const BinLayout& l) {
    if (l.id == target->id) return nullptr;
    auto& m = rebin[l.id];
    if (!m) m = make_rebin(l, *target);
    return m.get();
  }

  void fold_selected(const Source& src, const std::vector<Selected>& sel);

  // The grid quantized once into a result (result.h): one series per group.
  Status to_result(Result* r) {
    *r = Result();
    r->quantum_ms = opts.quantum_ms;
    bool any_abs = false, any_rel = false;
    for (const Coverage& c : coverage) (c.absolute ? any_abs : any_rel) = true;
    r->absolute_time = any_abs && !any_rel;
    if (!target) return Status::Ok();
    std::vector<ResultSeries> s(group_names.size());
    std::vector<uint8_t> seen(group_names.size(), 0);
    for (const Coverage& c : coverage) {
      ResultSeries& x = s[c.group];
      if (!seen[c.group]) {
        x.span_start_ms = c.start;
        x.span_end_ms = c.end;
        x.full_start_ms = c.full_start;
        x.full_end_ms = c.full_end;
        seen[c.group] = 1;
      }
      x.span_start_ms = std::min(x.span_start_ms, c.start);
      x.span_end_ms = std::max(x.span_end_ms, c.end);
      x.full_start_ms = std::max(x.full_start_ms, c.full_start);
      x.full_end_ms = std::min(x.full_end_ms, c.full_end);
    }
    for (size_t g = 0; g < s.size(); ++g) {
      s[g].labels = group_labels[g];
      s[g].layout = target;
    }
    for (auto& kv : cells) {
      ResultCell cell;
      cell.quantum = kv.first.first;
      const Cell& c = kv.second;
      bool too_large = false;
      c.each([&](uint32_t b, double x) {
        const double units = result_units(x);
        if (!(units >= 1)) return;
        if (!(units < 18446744073709551616.0)) too_large = true;
        if (too_large) return;
        cell.bins.push_back(b);
        cell.counts.push_back(static_cast<uint64_t>(units));
      });
      if (too_large)
        return Status::Error(ErrorCode::kInvalidArgument, "a count too large for a result (over 2^36 I/Os in one cell)");
      cell.extremes = c.mid;  // docs/extremes.md, "Results"
      if (!cell.bins.empty()) s[kv.first.second].cells.push_back(std::move(cell));
    }
    r->series = std::move(s);
    r->normalize();
    return Status::Ok();
  }

  CoCorrector* corrector_for(const LayoutPtr& l, double interval_ns) {
    std::unique_ptr<CoCorrector>& c = correctors[l.get()];
    if (!c) c = std::make_unique<CoCorrector>(l, interval_ns);
    return c.get();
  }

  void fold(const Series& s, double offset, uint32_t group, CoCorrector* co) {
    const RebinMap* m = map_for(*s.layout);
    const double unit = std::ldexp(1.0, -static_cast<int>(s.count_frac_bits));  // model.h
    const double q = opts.quantum_ms;
    bool keep_io = false;
    if (opts.method == Method::kExact) {
      if (!s.has_io_values() || co) {  // corrected copies are no I/Os (co.h)
        ++io_missing;
      } else if (!io_over && (io_kept += s.io_ns.size()) > opts.max_per_io_samples) {
        io_over = true;  // the query would hold too many values: bins only
        for (auto& kv : cells) std::vector<uint64_t>().swap(kv.second.io);
      } else {
        keep_io = !io_over;
      }
    }
    uint64_t io_next = 0;
    const std::vector<ExtremeBins>& recorded = s.extremes;
    // Per quantum this series reaches: its cell, the bins of its windows
    // whose midpoint lies there (own) and every bin it adds there (seen),
    // which the cell's extremes take when it has no own (extremes.h,
    // own_or_seen). Windows come in time order, so a quantum before a
    // window's first is complete and leaves the list: it stays a few long,
    // searched from its end (a per-I/O log's instants hit the last entry).
    struct Reach {
      int64_t j;
      Cell* cell;
      ExtremeBins own, seen;
    };
    std::vector<Reach> reach;
    const auto settle = [&reach, &s](int64_t before) {
      size_t kept = 0;
      for (Reach& r : reach) {
        if (r.j >= before) {
          reach[kept++] = r;
          continue;
        }
        r.cell->mid.add(r.own);
        r.cell->ext.add(series_extremes(s, r.own, r.seen));
      }
      reach.resize(kept);
    };
    for (const Window& w : s.windows) {
      const uint64_t io_first = io_next;  // window w's first I/O in s.io_ns
      io_next += w.total;
      if (w.n == 0) continue;
      s.decode(w, &bins, &counts);
      if (co) {
        co->correct(bins, counts, &cbins, &ccounts);
        bins.swap(cbins);
        counts.swap(ccounts);
      }
      uint32_t bmin, bmax;
      if (!m) {
        bmin = bins.front();
        bmax = bins.back();
      } else {
        bmin = UINT32_MAX;
        bmax = 0;
        for (uint32_t b : bins)
          for (uint32_t r = m->start[b]; r < m->start[b + 1]; ++r) {
            bmin = std::min(bmin, m->to[r]);
            bmax = std::max(bmax, m->to[r]);
          }
      }
      const double st = w.start_ms + offset, e = w.end_ms + offset;
      // From one quantum before floor(st / Q) (in case the division rounded
      // up) to one past the end; times no grid can hold are skipped, so the
      // loop always ends (the query's own range check reports them).
      const double j0 = std::floor((e > st ? st : e) / q) - 1;
      const double j1 = std::floor(e / q) + 1;
      if (!std::isfinite(j0) || !std::isfinite(j1) || std::fabs(j1) > 9e15 || j1 - j0 > 50e6) continue;
      settle(static_cast<int64_t>(j0));
      for (double j = j0; j <= j1; ++j) {
        const double a = j * q;
        const double b = a + q;
        Share share;
        if (e > st) {
          if (!share.set(st, e, a, b)) continue;
        } else if (!(e >= a && e < b)) {
          continue;  // an instant
        }
        if (j < skip_before || j >= skip_after) continue;
        // What the cell grows by, checked before it is allocated (budget.h).
        const std::pair<int64_t, uint32_t> key{static_cast<int64_t>(j), group};
        auto it = cells.lower_bound(key);
        const bool fresh = it == cells.end() || it->first != key;
        double grow = kCellBytes + 8.0 * (static_cast<double>(bmax - bmin) + 1);
        size_t fresh_bins = 0;  // sparse cells: the bins this window adds to the cell
        if (sparse) {
          inc.clear();
          for (size_t i = 0; i < bins.size(); ++i) {
            const double x = share.of(static_cast<double>(counts[i]) * unit);
            if (!m) inc.emplace_back(bins[i], x);
            else rebinned(*m, bins[i], x, [this](uint32_t t, double part) { inc.emplace_back(t, part); });
          }
          SparseCounts::order(&inc);
          fresh_bins = fresh ? SparseCounts().fresh_bins(inc) : it->second.sp.fresh_bins(inc);
          grow = (fresh ? kCellBytes : 0) + 12.0 * static_cast<double>(fresh_bins);
        } else if (!fresh) {
          const Cell& o = it->second;
          const double had = static_cast<double>(o.v.size());
          const double hi = std::max(static_cast<double>(o.lo) + had, static_cast<double>(bmax) + 1);
          grow = 8.0 * (hi - static_cast<double>(std::min(o.lo, bmin)) - had);
        }
        if (held + grow > static_cast<double>(opts.max_query_bytes)) {
          error = Status::Error(ErrorCode::kInvalidArgument,
                                over_budget(folding, std::to_string(cells.size()) + " cells of " +
                                                         format_number(q) + " ms quanta and more",
                                            held + grow, opts.max_query_bytes));
          return;
        }
        held += grow;
        if (fresh) it = cells.emplace_hint(it, key, Cell());
        Cell& c = it->second;
        if (!sparse) c.cover(bmin, bmax);
        auto at = reach.rbegin();
        while (at != reach.rend() && at->j != static_cast<int64_t>(j)) ++at;
        if (at == reach.rend()) {
          reach.push_back({static_cast<int64_t>(j), &c, {}, {}});
          at = reach.rbegin();
        }
        Reach& r = *at;
        r.seen.add(bmin);
        r.seen.add(bmax);
        // docs/extremes.md: only the window's midpoint quantum carries its
        // extremes; a result's window brings what its cell recorded.
        if (counts_for_extremes(st, e, a, b)) {
          if (recorded.empty() || co) {
            r.own.add(bmin);
            r.own.add(bmax);
          } else {
            const ExtremeBins& rec = recorded[static_cast<size_t>(&w - s.windows.data())];
            if (rec.any())
              for (uint32_t rb : {rec.lo, rec.hi}) {
                if (!m) r.own.add(rb);
                else
                  for (uint32_t t = m->start[rb]; t < m->start[rb + 1]; ++t) r.own.add(m->to[t]);
              }
          }
        }
        if (keep_io && !(e > st)) {  // per-I/O windows are instants
          c.io.insert(c.io.end(), s.io_ns.begin() + static_cast<ptrdiff_t>(io_first),
                      s.io_ns.begin() + static_cast<ptrdiff_t>(io_first + w.total));
        }
        if (sparse) {
          c.sp.add(inc, fresh_bins);
          continue;
        }
        double* v = c.v.data() - c.lo;
        for (size_t i = 0; i < bins.size(); ++i) {
          const double x = share.of(static_cast<double>(counts[i]) * unit);
          if (!m) v[bins[i]] += x;
          else add_rebinned(*m, bins[i], x, v);
        }
      }
    }
    settle(INT64_MAX);
  }
};

StreamingQuery::StreamingQuery(const QueryOptions& opts) : StreamingQuery(opts, false) {
  epoch_.reset(new StreamingQuery(opts, true));  // NOLINT(modernize-make-unique): private constructor
}

StreamingQuery::StreamingQuery(const QueryOptions& opts, bool /*epoch_part*/) : impl_(std::make_unique<Impl>()) {
  impl_->opts = opts;
  const double q = opts.quantum_ms;
  if (!(q > 0) || !std::isfinite(q))
    impl_->error = Status::Error(ErrorCode::kInvalidArgument, "quantum must be a positive number of ms");
  for (double p : opts.percentiles)
    if (!(p >= 0 && p <= 100))
      impl_->error = Status::Error(ErrorCode::kInvalidArgument, "percentiles must be within [0, 100]");
  if (opts.compat_fio_histo_log_pctiles)
    impl_->error = Status::Error(ErrorCode::kInvalidArgument,
                                 "the compat mode needs every file first: use Engine::query");
  if (impl_->error.ok()) {
    if (opts.sel.from_ms > -HUGE_VAL) impl_->skip_before = std::floor(opts.sel.from_ms / q);
    if (opts.sel.to_ms < HUGE_VAL) impl_->skip_after = std::ceil(opts.sel.to_ms / q);
  }
}

StreamingQuery::~StreamingQuery() = default;

Status StreamingQuery::add_part(const Source& src) {
  Impl& I = *impl_;
  if (!I.error.ok()) return I.error;
  if (!src.status.ok()) return Status::Ok();
  if (src.format == FileFormat::kFioJson) {
    if (source_excluded(src, I.opts.sel)) return Status::Ok();  // as make_plan: no tails, no placement
    // Kept for tails and placement, and for queries of json+ alone
    // (docs/whole-run.md): whole-run histograms are small.
    I.json_sources.push_back(src);
    I.json.add(I.json_sources.back());
    return Status::Ok();
  }
  for (const Series& s : src.series) ++I.logs_per_key[tail_key_of_log(src, s)];
  std::vector<Selected> sel;
  select_series(src, I.opts.sel, &sel);
  if (I.opts.sel.place_jobs) place_series(I.json, sel.begin(), sel.end(), &I.placed);  // as make_plan
  for (const Selected& x : sel) I.late.see(x);
  I.fold_selected(src, sel);
  return I.error;
}

void StreamingQuery::Impl::fold_selected(const Source& src, const std::vector<Selected>& sel) {
  Impl& I = *this;
  double co_ns = 0;
  const bool co = co_interval_ns(I.opts.sel, &co_ns);
  I.folding = src.name;
  // Every layout of the source first: the target then moves at most once per
  // source. Cells moved onto a target that a later layout replaces were
  // re-binned twice (a file of several HdrHistogram configurations lost its
  // top values; Stream.WideLayoutsGiveTheStoredModelsRowsBitForBit).
  for (const Selected& x : sel) I.use_layout(x.series->layout);
  for (const Selected& x : sel) {
    if (!I.error.ok()) return;
    // Every quantum a series' windows reach costs at least a cell and a row:
    // a log asked at a tiny quantum is refused before anything is allocated.
    const double quanta = distinct_quanta(*x.series, x.offset_ms, I.opts.quantum_ms);
    const double least = least_bytes(quanta, I.opts.percentiles.size());
    if (least > static_cast<double>(I.opts.max_query_bytes)) {
      char what[120];
      std::snprintf(what, sizeof what, "%.17g quanta of %.17g ms", quanta, I.opts.quantum_ms);
      I.error = Status::Error(ErrorCode::kInvalidArgument, over_budget(src.name, what, least, I.opts.max_query_bytes));
      return;
    }
    I.any_series = true;
    const size_t serial = I.serials++;
    I.finer.count(x.interval_ms, I.opts.quantum_ms, src.name);
    for (const Labels* l : {&x.series->labels, &src.labels})
      for (const auto& kv : l->items()) I.labels_seen.insert(kv.first);
    // With coordinated-omission correction each series is folded twice, as
    // recorded and corrected, into groups co=uncorrected / co=corrected.
    for (int corrected = 0; corrected <= (co ? 1 : 0); ++corrected) {
      Labels kept;
      const std::string base = result_group(src, *x.series, I.opts.group_by, &kept);
      const std::string key = co ? co_key(base, corrected != 0) : base;
      auto it = I.group_ids.find(key);
      if (it == I.group_ids.end()) {
        it = I.group_ids.emplace(key, static_cast<uint32_t>(I.group_names.size())).first;
        I.group_names.push_back(key);
        I.group_labels.push_back(kept);
      }
      CoCorrector* cc = corrected ? I.corrector_for(x.series->layout, co_ns) : nullptr;
      I.use_layout(x.series->layout);
      I.coverage.push_back(
          {it->second, x.cover_start, x.cover_end, src.absolute_time, x.full_start, x.full_end, x.interval_ms, serial});
      if (!cc) add_time_runs(*x.series, x.offset_ms, src.name, serial, I.opts.quantum_ms, &I.runs);
      I.fold(*x.series, x.offset_ms, it->second, cc);
      if (I.opts.sel.complete_tail && !I.json.series.empty()) {
        PendingTail t;
        const TailOutcome o = json_tail_for(I.json, x, &t.tail);
        if (o == TailOutcome::kAdded) {
          t.key = tail_key_of_log(src, *x.series);
          t.group = it->second;
          t.co = cc;
          t.offset = x.offset_ms;
          t.coverage = I.coverage.size() - 1;
          t.json_name = I.json.source.at(t.key)->name;
          t.log_name = src.name;
          I.tails.push_back(std::move(t));
        } else {
          I.tally.count(o, "");
        }
      }
    }
  }
}

Status StreamingQuery::finish_part(QueryResult* out, Result* res) {
  Impl& I = *impl_;
  *out = QueryResult();
  out->quantum_ms = I.opts.quantum_ms;
  if (!I.error.ok()) return I.error;
  for (const std::string& name : I.opts.group_by)
    if (!res && I.any_series && !I.labels_seen.count(name)) {
      std::string list;
      for (const std::string& k : I.labels_seen) {
        list += list.empty() ? "" : ", ";
        list += k;
      }
      std::string msg = "group by '" + name;
      msg += "': no selected series has that label (labels: ";
      msg += list;
      msg += ")";
      return Status::Error(ErrorCode::kInvalidArgument, msg);
    }

  // fio json+ alone: its whole-run histograms, as make_plan falls back to
  // them (docs/whole-run.md).
  if (!I.any_series) {
    bool any = false;
    for (const Source& src : I.json_sources) {
      std::vector<Selected> sel;
      select_series(src, I.opts.sel, &sel, Role::kWholeRun);
      if (!sel.empty()) any = true;
      I.fold_selected(src, sel);
      if (!I.error.ok()) return I.error;
    }
    if (any) out->notes.push_back(whole_run_note());
  }
  // Tails last, as Engine::query appends them after every series.
  for (PendingTail& t : I.tails) {
    if (I.logs_per_key[t.key] != 1) {
      I.tally.count(TailOutcome::kAmbiguous, "");
      continue;
    }
    I.tally.count(TailOutcome::kAdded, t.json_name);
    I.folding = t.log_name;
    I.fold(t.tail, t.offset, t.group, t.co);
    if (!I.error.ok()) return I.error;
    if (!t.co) add_time_runs(t.tail, t.offset, t.log_name, I.coverage[t.coverage].serial, I.opts.quantum_ms, &I.runs);
    I.coverage[t.coverage].end = I.coverage[t.coverage].full_end = t.tail.windows.back().end_ms + t.offset;
  }
  out->notes.insert(out->notes.end(), I.time_notes.begin(), I.time_notes.end());
  I.placed.notes(&out->notes);
  for (const auto& [ms, files] : I.placed.shifted)
    for (const std::string& f : files) out->placed[f] = ms;
  I.late.notes(&out->notes);
  I.finer.notes(I.opts.quantum_ms, &out->notes);
  out->diag.merge(I.time_diag);
  I.tally.notes(&out->notes);
  bool exact = false;  // as exact_possible decides for Engine::query (per_io.h)
  if (I.opts.method == Method::kExact) {
    if (I.io_missing) out->notes.push_back(exact_fallback_note(I.io_missing));
    else if (I.io_over) out->notes.push_back(exact_budget_note(I.opts.max_per_io_samples));
    else exact = true;
  }

  if (I.layouts.size() > 1) {
    const std::string what = describe_layout_merge(I.layouts, *I.target);
    if (!what.empty()) out->diag.add(Issue::kMixedLayouts, 0, 0, what);
  }
  bool any_abs = false, any_rel = false;
  for (const Coverage& c : I.coverage) (c.absolute ? any_abs : any_rel) = true;
  out->absolute_time = any_abs && !any_rel;

  // Groups in natural order, as make_plan lists them.
  std::vector<std::string> names = I.group_names;
  std::sort(names.begin(), names.end(), natural_less);
  out->groups = names;
  if (res) return I.to_result(res);
  std::vector<uint32_t> order(names.size());  // output index -> folded group id
  for (size_t g = 0; g < names.size(); ++g) order[g] = I.group_ids[names[g]];
  if (!I.target || I.coverage.empty()) return Status::Ok();
  out->layout_id = I.target->id;

  const double q = I.opts.quantum_ms;
  std::vector<double> max_start(I.group_names.size(), -HUGE_VAL), min_end(I.group_names.size(), HUGE_VAL);
  double lo = HUGE_VAL, hi = -HUGE_VAL;
  for (const Coverage& c : I.coverage) {
    lo = std::min(lo, c.start);
    hi = std::max(hi, c.end);
  }
  double first = 0, last = 0;
  std::vector<TimeRun>& time_runs = I.runs;
  std::vector<size_t> gone;  // serials none of whose windows is on the axis (axis.h)
  Status ast = decide_axis(
      &lo, &hi, out->absolute_time, I.opts.sel, q, [&time_runs](std::vector<TimeRun>* r) { r->swap(time_runs); },
      &first, &last, &out->notes, &out->diag, &gone);
  if (!ast.ok()) return ast;
  std::vector<std::vector<std::pair<double, double>>> finer(I.group_names.size());  // spans of finer series
  for (const Coverage& c : I.coverage) {
    if (std::find(gone.begin(), gone.end(), c.serial) != gone.end()) continue;
    if (finer_than_interval(c.interval, q)) finer[c.group].emplace_back(c.start, c.end);
    max_start[c.group] = std::max(max_start[c.group], c.full_start);
    min_end[c.group] = std::min(min_end[c.group], c.full_end);
  }

  // Each group's finer spans as disjoint runs in time order, walked once as
  // the quanta go by: a per_job_logs=0 log restarting every other line has
  // a span per segment, and testing every span in every quantum was
  // quadratic.
  std::vector<size_t> finer_at(finer.size(), 0);
  for (std::vector<std::pair<double, double>>& spans : finer) {
    std::sort(spans.begin(), spans.end());
    std::vector<std::pair<double, double>> runs;
    for (const std::pair<double, double>& s : spans) {
      if (!runs.empty() && s.first <= runs.back().second) runs.back().second = std::max(runs.back().second, s.second);
      else runs.push_back(s);
    }
    spans.swap(runs);
  }
  const BinLayout& L = *I.target;
  const size_t np = I.opts.percentiles.size();
  std::vector<double> dense(L.size(), 0.0);
  for (double j = first; j < last; ++j) {
    // Long runs where no group has a count (as Sweep::next_busy sees them).
    const auto busy_it = I.cells.lower_bound({static_cast<int64_t>(j), 0});
    const double busy = busy_it == I.cells.end() ? last : std::min(last, static_cast<double>(busy_it->first.first));
    if (busy - j >= static_cast<double>(kSkipEmptyQuanta)) {
      out->notes.push_back(skipped_quanta_note(j * q, busy * q, static_cast<size_t>(busy - j)));
      j = busy - 1;
      continue;
    }
    const double a = j * q, b = a + q;
    for (size_t g = 0; g < names.size(); ++g) {
      const uint32_t id = order[g];
      Row row;
      row.t_ms = a;
      row.group = static_cast<uint32_t>(g);
      row.p.resize(np);
      if (a < max_start[id] || b > min_end[id]) row.flags |= kFlagPartial;
      // As Sweep::next decides it (aligner.cc): a quantum overlapping a finer series' span.
      const std::vector<std::pair<double, double>>& spans = finer[id];
      size_t& k = finer_at[id];
      while (k < spans.size() && spans[k].second <= a) ++k;
      if (k < spans.size() && a < spans[k].second && b > spans[k].first) row.flags |= kFlagFiner;
      auto it = I.cells.find({static_cast<int64_t>(j), id});
      const double* counts = nullptr;
      const std::vector<uint32_t>* occupied = nullptr;  // sparse cells: the only bins with counts
      std::vector<uint64_t> io;
      ExtremeBins ext;
      if (it != I.cells.end()) {
        Cell& c = it->second;
        ext = c.ext;
        io.swap(c.io);
        if (I.sparse) {  // dense is all zeros between rows: only these bins are set, then reset
          for (size_t i = 0; i < c.sp.size(); ++i) dense[c.sp.bins[i]] = c.sp.v[i];
          occupied = &c.sp.bins;
        } else {
          std::fill(dense.begin(), dense.end(), 0.0);
          std::copy(c.v.begin(), c.v.end(), dense.begin() + c.lo);
        }
        counts = dense.data();
      }
      if (exact) fill_row_exact(&io, I.opts, &row);
      else fill_row(L, counts, ext, I.opts, &row, BinSpan{}, true, occupied);
      if (it != I.cells.end()) {
        if (occupied)
          for (const uint32_t bin : *occupied) dense[bin] = 0;
        I.cells.erase(it);  // each cell is read once: free it as the rows go out
      }
      // The rows held count against the same budget as the grid (budget.h).
      if (static_cast<double>(out->rows.size() + 1) * row_bytes(np) > static_cast<double>(I.opts.max_query_bytes))
        return Status::Error(ErrorCode::kInvalidArgument,
                             over_budget("the answer", std::to_string(out->rows.size() + 1) + " rows and more",
                                         static_cast<double>(out->rows.size() + 1) * row_bytes(np),
                                         I.opts.max_query_bytes));
      out->rows.push_back(std::move(row));
    }
  }
  return Status::Ok();
}

// The outer query routes each log to the part of its time base; json+
// output serves both. Every log counts in both parts' tail ambiguity rule,
// as add_json_tails counts every loaded log (tail.cc).
void StreamingQuery::set_folder(const std::vector<FolderFile>& folder) {
  superseded_ = accounts_left_out(folder, impl_->opts.sel, impl_->opts.group_by, &accounts_note_);
}

// Where Engine::query has it: after the latency-kinds note, before the rest
// (make_plan: keep_default_kind, then keep_one_account).
void StreamingQuery::add_accounts_note(std::vector<std::string>* notes) const {
  if (!skipped_selected_ || accounts_note_.empty()) return;
  const bool kinds_note = impl_->opts.sel.kinds.empty() && kinds_present_.size() > 1;
  notes->insert(notes->begin() + (kinds_note && !notes->empty() ? 1 : 0), accounts_note_);
}

Status StreamingQuery::add(const Source& src) {
  if (superseded_.count(src.name)) {
    std::vector<Selected> sel;
    select_series(src, impl_->opts.sel, &sel);
    if (!sel.empty()) skipped_selected_ = true;
    return Status::Ok();
  }
  if (src.status.ok() && std::any_of(src.series.begin(), src.series.end(),
                                     [](const Series& s) { return s.role == Role::kWindowValues; })) {
    Source kept;  // what select_window_values and group keys read
    kept.name = src.name;
    kept.id = src.id;
    kept.format = src.format;
    kept.absolute_time = src.absolute_time;
    kept.labels = src.labels;
    for (const Series& s : src.series)
      if (s.role == Role::kWindowValues) kept.series.push_back(s);
    window_values_.push_back(std::move(kept));
  }
  return add_folded(src);
}

Status StreamingQuery::add_folded(const Source& src) {
  if (impl_->opts.sel.kinds.empty() && impl_->error.ok()) return add_by_kind(src);
  if (!epoch_) return add_part(src);
  Impl& I = *impl_;
  if (!I.error.ok()) return I.error;
  if (!src.status.ok()) return Status::Ok();
  if (src.format == FileFormat::kFioJson) {
    const Status st = epoch_->add_part(src);
    return st.ok() ? add_part(src) : st;
  }
  Impl& other = src.absolute_time ? I : *epoch_->impl_;
  for (const Series& s : src.series) ++other.logs_per_key[tail_key_of_log(src, s)];
  std::vector<Selected> sel;
  select_series(src, I.opts.sel, &sel);
  I.time_bases.count(src, sel.size());
  return src.absolute_time ? epoch_->add_part(src) : add_part(src);
}

Status StreamingQuery::finish(QueryResult* out) {
  if (impl_->opts.adaptive_accuracy > 0)  // quanta depend on every window: Engine::query (query/adaptive.h)
    return Status::Error(ErrorCode::kInvalidArgument, "adaptive quanta need Engine::query, not the streaming fold");
  std::vector<Selected> window_values;  // as Engine::query (query/window_values.h)
  for (const Source& src : window_values_) select_window_values(src, impl_->opts.sel, &window_values);
  Status st = finish_folded(out);
  if (st.ok()) add_accounts_note(&out->notes);
  if (!st.ok() || window_values.empty()) return st;
  if (out->groups.empty()) return window_value_query(std::move(window_values), impl_->opts, out);
  out->notes.push_back(window_values_left_out_note(window_values.size()));
  return st;
}

Status StreamingQuery::finish_folded(QueryResult* out) {
  if (impl_->opts.sel.kinds.empty() && impl_->error.ok() && !kinds_.empty()) return finish_by_kind(out);
  if (!epoch_) return finish_part(out);
  const TimeBaseTally& tb = impl_->time_bases;
  StreamingQuery& shown = tb.kept() == 1 ? *epoch_ : *this;
  tb.report(&shown.impl_->time_notes, &shown.impl_->time_diag);
  return shown.finish_part(out);
}

// Selection::kinds empty: each latency kind folds into a query of its own
// (kinds = {kind}), json+ output into every one; finish shows the default
// kind and names the others, as make_plan does (query/per_io.h).
Status StreamingQuery::add_by_kind(const Source& src) {
  if (!src.status.ok()) return Status::Ok();
  if (src.format == FileFormat::kFioJson) {
    // Into this query too: with no log at all, it answers from json+ alone.
    Status added = epoch_ ? epoch_->add_part(src) : Status::Ok();
    if (added.ok()) added = add_part(src);
    if (!added.ok()) return added;
    kinds_json_.push_back(src);
    for (auto& kv : kinds_) {
      Status st = kv.second->add_folded(src);
      if (!st.ok()) return st;
    }
    return Status::Ok();
  }
  // Unselected logs too: they count in the json+ tail ambiguity rule.
  if (src.series.empty()) return Status::Ok();
  const std::string kind = kind_of(src, src.series.front());
  std::vector<Selected> sel;
  select_series(src, impl_->opts.sel, &sel);
  if (!sel.empty()) kinds_present_.insert(kind);
  std::unique_ptr<StreamingQuery>& q = kinds_[kind];
  if (!q) {
    QueryOptions o = impl_->opts;
    o.sel.kinds = {kind};
    q = std::make_unique<StreamingQuery>(o);
    for (const Source& j : kinds_json_) {
      Status st = q->add_folded(j);
      if (!st.ok()) return st;
    }
  }
  return q->add_folded(src);
}

Status StreamingQuery::finish_result(Result* out, std::vector<std::string>* notes, Diagnostics* diag) {
  *out = Result();
  out->quantum_ms = impl_->opts.quantum_ms;
  QueryResult qr;
  Status st;
  if (impl_->opts.sel.kinds.empty() && impl_->error.ok() && !kinds_.empty()) {
    st = finish_by_kind(&qr, out);
  } else if (!epoch_) {
    st = finish_part(&qr, out);
  } else {
    const TimeBaseTally& tb = impl_->time_bases;
    StreamingQuery& shown = tb.kept() == 1 ? *epoch_ : *this;
    tb.report(&shown.impl_->time_notes, &shown.impl_->time_diag);
    st = shown.finish_part(&qr, out);
  }
  if (st.ok()) add_accounts_note(&qr.notes);
  notes->insert(notes->end(), qr.notes.begin(), qr.notes.end());
  diag->merge(qr.diag);
  return st;
}

Status StreamingQuery::finish_by_kind(QueryResult* out, Result* res) {
  if (res) {  // a result keeps every kind (label "kind" tells them apart)
    for (auto& kv : kinds_) {
      Result r;
      Status st = kv.second->finish_result(&r, &out->notes, &out->diag);
      if (st.ok()) st = merge(res, r);
      if (!st.ok()) return st;
    }
    return Status::Ok();
  }
  const std::string kept = default_kind(kinds_present_);
  auto it = kinds_present_.empty() ? kinds_.begin() : kinds_.find(kept);
  Status st = it->second->finish_folded(out);
  if (st.ok() && kinds_present_.size() > 1) out->notes.insert(out->notes.begin(), kinds_note(kinds_present_, kept));
  return st;
}

}  // namespace latscope
