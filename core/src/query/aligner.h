// Alignment of stored windows onto time quanta and their merge into groups.
//
//   window (s, e] of a series, shifted by its offset, spreads its counts over
//   quanta [t0 + jQ, t0 + (j+1)Q) in proportion to the overlap:
//
//        s        e
//   -----(========]-----      weight in quantum j = |(s,e] n [a,b)| / (e - s)
//   |  a    |    b    |
//
// Quanta are swept in time order with one cursor per series, so memory is
// groups x bins, whatever the number of windows or quanta.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "latscope/engine.h"
#include "latscope/result.h"
#include "query/co.h"
#include "query/extremes.h"

namespace latscope {

// For each source bin: the target bins it overlaps and the fraction of its
// width in each. Exact (fraction 1) when the target is a coarsening of the
// source, proportional (uniform density inside a bin) otherwise.
struct RebinMap {
  std::vector<uint32_t> start;  // per source bin, offset into to/frac; size n+1
  std::vector<uint32_t> to;
  std::vector<double> frac;
};

// std::round's value, bit for bit (halves away from zero, the sign of zero
// kept, NaN and infinities as they are), inline: std::round is a libm call
// (no SSE4.1 in the baseline, none in WebAssembly), and a query rounds
// every bin of every window that straddles a quantum (hosts200 by host at
// 1 s: 9% of the query before add_window's lean path took the unsigned
// form below; docs/page-speed.md "The query's inner loop").
inline double round_half_away(double x) {
  if (!(std::fabs(x) < 4503599627370496.0)) return x;  // >= 2^52: whole already; NaN
  const double t = static_cast<double>(static_cast<int64_t>(x));  // toward zero, exact
  const double f = x - t;                                         // exact
  const double r = f >= 0.5 ? t + 1 : (f <= -0.5 ? t - 1 : t);
  return std::copysign(r, x);
}

// Counts in a quantum are whole result units (2^-28 I/O; docs/result-format.md,
// "Counts: fixed point"). A window's share of a quantum is its cumulative
// share up to the quantum's end minus that up to its start, each rounded to
// a unit, so the shares of any split of a window add up exactly to its count,
// and every sum of shares is exact whatever its order: the logs, their
// result files and any merge of those give the same counts, bit for bit.
inline double on_result_grid(double io) { return round_half_away(io * kResultOne) / kResultOne; }

// on_result_grid for io >= +0 (a count times a share): the same bits
// without the sign's two cases. add_window's lean path rounds every bin of
// every window that straddles a quantum with it.
inline double on_result_grid_unsigned(double io) {
  const double x = io * kResultOne;
  if (!(x < 4503599627370496.0)) return x / kResultOne;  // >= 2^52: whole already; NaN
  const double t = static_cast<double>(static_cast<int64_t>(x));  // toward zero, exact
  return (x - t >= 0.5 ? t + 1 : t) / kResultOne;
}

struct Share {
  double before = 0, upto = 1;  // fractions of the window before the quantum's start, end
  // Share of the window (s, e] in the quantum [a, b), s < e; false: none.
  bool set(double s, double e, double a, double b) {
    if (!(std::min(e, b) > std::max(s, a))) return false;
    before = a > s ? (a - s) / (e - s) : 0;
    upto = b < e ? (b - s) / (e - s) : 1;
    return true;
  }
  // The share up to the end, less that up to the start. A window's part from
  // its start (before 0) has nothing to subtract: on_result_grid(n * 0) is 0,
  // so it is left out, the same bits for half the rounding (every window
  // straddles two quanta when they are as long as the logging interval).
  double of(double n) const {
    if (before == 0) return upto == 1 ? n : on_result_grid(n * upto);
    return on_result_grid(n * upto) - on_result_grid(n * before);
  }
};

// Splits x (whole units) over the target bins of source bin `bin` by m's
// fractions in a telescoping way (exact in total), handing each part to
// add(target bin, part) in order.
template <class Add>
void rebinned(const RebinMap& m, uint32_t bin, double x, Add&& add) {
  double cum = 0, done = 0;
  const uint32_t first = m.start[bin], end = m.start[bin + 1];
  for (uint32_t r = first; r < end; ++r) {
    cum += m.frac[r];
    const double upto = r + 1 == end ? x : on_result_grid(x * cum);
    add(m.to[r], upto - done);
    done = upto;
  }
}

// rebinned into dst, dense over the target layout.
inline void add_rebinned(const RebinMap& m, uint32_t bin, double x, double* dst) {
  rebinned(m, bin, x, [dst](uint32_t t, double part) { dst[t] += part; });
}

struct Selected {
  const Source* src = nullptr;
  const Series* series = nullptr;
  double offset_ms = 0;
  uint32_t group = 0;
  const RebinMap* rebin = nullptr;  // null: same layout as the target
  CoCorrector* co = nullptr;        // set: add the coordinated-omission correction (co.h)
  double cover_start = 0, cover_end = 0;  // shifted coverage of its windows
  double full_start = 0, full_end = 0;    // where it has data for the partial flag (Series::full_*)
  double unit = 1;                        // one count in I/Os (Series::count_frac_bits)
  double interval_ms = 0;                 // logging interval (query/interval.h); 0: instants
  bool offset_named = false;  // the selection names an offset for its file or job (not only its host)
  bool placed = false;        // shifted by its job's startdelay (placement.h)
};

struct Plan {
  std::vector<Selected> series;
  std::deque<Series> extra;  // synthesized windows (the json+ tails), owned here
  std::vector<std::string> notes;
  std::map<std::string, double> placed;  // file (base name) -> ms it was shifted by its job's startdelay
  std::vector<std::string> groups;
  LayoutPtr layout;  // common layout of the merge
  std::vector<std::unique_ptr<RebinMap>> maps;
  std::vector<std::unique_ptr<CoCorrector>> correctors;  // one per source layout
  bool absolute_time = false;
  double first = 0;   // index of the first quantum (its start is first * quantum_ms)
  double t0 = 0;      // start of the first quantum
  size_t quanta = 0;
  double quantum_ms = 1000;
  Diagnostics diag;
};

// The series of one source that a selection keeps, with offsets applied to
// their coverage (group left 0); of `role` (time series by default).
void select_series(const Source& src, const Selection& sel, std::vector<Selected>* out,
                   Role role = Role::kTimeSeries);
std::unique_ptr<RebinMap> make_rebin(const BinLayout& from, const BinLayout& to);
bool natural_less(const std::string& a, const std::string& b);
std::string group_key(const Source& src, const Series& s, const GroupBy& group_by);
// With coordinated-omission correction on, a group's key gains co=corrected
// or co=uncorrected (every group appears twice, side by side).
std::string co_key(const std::string& key, bool corrected);
// The expected interval of Selection::co_interval_ms in ns; false when off.
bool co_interval_ns(const Selection& sel, double* ns);

// Error naming the labels that exist when a group_by name matches no series.
Status check_group_by(const std::vector<Selected>& series, const GroupBy& group_by);
// That error for `name`, listing `known` (sorted) as the labels that exist.
Status unknown_group_label(const std::string& name, const std::vector<std::string>& known);
// What a query's answer takes from its plan: groups, time base, layout,
// diagnostics, notes, placement (Engine::query, adaptive_query).
void take_plan_facts(const Plan& plan, QueryResult* out);

// The sources a query reads, in order: the Engine's stored ones, or those
// the CLI's fold holds (stream.h); none is copied.
using SourceRefs = std::vector<const Source*>;
SourceRefs refs_of(const std::vector<Source>& sources);

// Chooses series, groups, the common layout and the quantum grid.
// group_by: label names (empty = everything in one group "all").
Status make_plan(const SourceRefs& sources, const Selection& sel, const GroupBy& group_by, double quantum_ms,
                 Plan* plan);
Status make_plan(const std::vector<Source>& sources, const Selection& sel, const GroupBy& group_by,
                 double quantum_ms, Plan* plan);

// The one fold (docs/ARCHITECTURE.md, "The fold"): the rows of a query of
// fixed quanta over `sources`, quanta swept in time order (Sweep), each
// finished quantum made rows and handed to sink (kept in out when null).
// Not for the compat mode, adaptive quanta or columns (Engine::query).
// feed: where series held with a WindowDigest are read again (model.h).
Status query_sources(const SourceRefs& sources, const QueryOptions& opts, QueryResult* out, RowSink* sink,
                     WindowFeed* feed = nullptr);

// Adds the unlogged last window of each log series that fio's json+ output
// in `sources` accounts for (Selection::complete_tail). Called by make_plan.
// json+ sources the selection excludes add no tails.
void add_json_tails(const SourceRefs& sources, const Selection& sel, Plan* plan);

// The selection leaves this file out (Selection::exclude_sources, by path or
// base name): none of its series, and, for fio json+, no tails or placement.
bool source_excluded(const Source& src, const Selection& sel);
// The same for a file's name (as given, or its base name).
bool name_excluded(const std::string& name, const Selection& sel);

// Runs of at least this many quanta in which no selected window has a count
// are left out of a query's rows, with a note (docs/time-gaps.md): a clock
// jump or a long idle stretch never costs a row per empty quantum.
constexpr size_t kSkipEmptyQuanta = 1000;
std::string skipped_quanta_note(double from_ms, double to_ms, size_t quanta);

// At least as many quanta as a query over the plan gives rows for (per
// group), and at most plan.quanta: each series' windows with a count make
// runs of quanta (joined across gaps shorter than kSkipEmptyQuanta), each
// run counted with the empty quanta that may precede it. One pass over the
// windows; what a row sink may reserve without being fooled by a clock jump
// (a 50-million-quantum plan with a few windows).
size_t row_quanta_bound(const Plan& plan);

// When no time series is selected but fio json+ output is, queries show its
// whole-run histograms, one window (startdelay, startdelay + runtime] each
// (docs/whole-run.md); this note says so.
std::string whole_run_note();

// A heat map holds at most this many cells (quanta x rows): beyond, an error
// saying the size before anything is allocated.
constexpr double kMaxHeatmapCells = 50e6;

// Stats, percentiles and flags of one quantum and group (counts dense over
// layout; null when the cell is empty). row->p is sized for opts.percentiles.
// ext: the bins the quantum's extremes may come from (extremes.h). span:
// where counts may be non-zero (percentiles.h BinSpan). bands: compute the
// sampling bands (RowSink::wants_bands). occupied (optional): the only bins
// that may be non-zero, ascending, each once (Sweep::occupied).
void fill_row(const BinLayout& layout, const double* counts, const ExtremeBins& ext, const QueryOptions& opts,
              Row* row, BinSpan span = {}, bool bands = true, const std::vector<uint32_t>* occupied = nullptr);

// A window whose bins are decoded again from its file (Series::line_at),
// kept while the fold may come back to it: a window straddling two quanta
// is read from the file once, not once per quantum.
struct DecodedWindow {
  const Series* series = nullptr;
  size_t wi = 0;
  std::vector<uint32_t> bins;
  std::vector<uint64_t> counts;
};

// Scratch for decoding and correcting one window (add_window).
struct WindowScratch {
  std::vector<uint32_t> bins, cbins;
  std::vector<uint64_t> counts, ccounts;
  DecodedWindow* kept = nullptr;  // set: where a window read again from its file is kept
  DecodedWindow once;             // where it goes otherwise
  Status error;                   // the first window that no longer reads as it did
  // A window of a fed series (Sweep, WindowFeed): its index among all the
  // series' windows and the byte of its line, not the series' own.
  bool fed = false;
  size_t fed_wi = 0;
  uint64_t fed_line = 0;
  const WindowBins* fed_bins = nullptr;  // as the second reading decoded them: not decoded again
};

// Adds share of window w of series x (coordinated-omission correction and
// re-binning applied as x says) to g, one group's dense counts over the
// plan's layout; a default Share adds the whole window. Returns the count added.
// xb (optional): the window counts for the quantum's extremes (docs/extremes.md).
// touched (optional): widened to every bin of g the window adds to.
// occupied (optional): gets every bin of g the window adds to that was zero
// before (a bin may appear more than once; see Sweep::occupied).
double add_window(const Selected& x, const Window& w, const Share& share, double* g, WindowScratch* s,
                  ExtremeBins* xb = nullptr, ExtremeBins* touched = nullptr,
                  std::vector<uint32_t>* occupied = nullptr);

// From this many bins on, a layout is read through the bins a quantum
// occupies rather than through the span between its lowest and highest:
// an HdrHistogram layout has tens of thousands of bins, of which a quantum
// fills a few hundred (docs/formats-hdr.md, "Wide layouts"). fio's layouts
// have 1,856 bins at most, and a quantum's span is mostly filled.
constexpr size_t kWideLayoutBins = 4096;

// Streams quanta in order: acc is resized to groups x bins and holds quantum
// j's merged counts after next(); flags[g] holds kFlagPartial when a series
// of group g does not cover all of it and kFlagFiner when the quantum is
// finer than the logging interval of a series covering it (interval.h); ext[g] the bins its extremes may come from
// (extremes.h).
class Sweep {
 public:
  // feed: where the windows of series held with a WindowDigest come from
  // (model.h); each is read once, in time order, and dropped once passed.
  explicit Sweep(const Plan& plan, WindowFeed* feed = nullptr);
  // Before next_busy(j) and next(j): the fed series' windows read up to the
  // end of quantum j (and one past it), those wholly before it dropped.
  void fill(size_t j);
  // raw (optional, Method::kExact): per group, the per-I/O values (ns) of
  // the quantum's instant windows of series that keep them.
  void next(size_t j, std::vector<double>* acc, std::vector<uint32_t>* flags, std::vector<ExtremeBins>* ext,
            std::vector<std::vector<uint64_t>>* raw = nullptr);
  // The first quantum index >= j that a remaining window with a count
  // overlaps (plan.quanta when none): where next() has something to add.
  size_t next_busy(size_t j) const;
  // Per group, the lowest and highest bin the last next() added to (none:
  // the group's counts are all zero). acc is zero outside them: the query
  // reads only that span (percentiles.h BinSpan), and the next call clears
  // only that span, so callers must not write to acc between calls.
  const std::vector<ExtremeBins>& touched() const { return touched_; }
  // Per group, for a layout of kWideLayoutBins or more: the bins the last
  // next() added to, ascending, each once; every other bin of acc is zero
  // (a listed bin may be zero too). Empty vectors for narrower layouts. The
  // next call clears only these bins.
  const std::vector<std::vector<uint32_t>>& occupied() const { return occupied_; }
  // Not ok when a window's bins, read again from its file (Series::line_at),
  // no longer read as they did: the quanta after it are not to be trusted.
  const Status& status() const { return scratch_.error; }
  // Per group, the bins of the last next()'s windows whose midpoint lies in
  // the quantum (docs/extremes.md): what a result's cell records. Kept only
  // after keep_own() (the fold by file; the page's query does not ask).
  void keep_own() { keep_own_ = true; }
  const std::vector<ExtremeBins>& own() const { return own_; }
  // Series si starts from its window wi (none before it reaches a quantum
  // still to come: the streaming fold's slices).
  void start_at(size_t si, size_t wi);

 private:
  const Plan& plan_;
  std::vector<ExtremeBins> touched_;
  std::vector<std::vector<uint32_t>> occupied_;
  std::vector<uint32_t> merged_;  // scratch of keep_ascending
  std::vector<DecodedWindow> decoded_;  // per series read again from its file: its last window
  std::vector<ExtremeBins> own_;
  bool keep_own_ = false;
  // Keeps *o ascending after a window appended its bins from index had on.
  void keep_ascending(std::vector<uint32_t>* o, size_t had);
  std::vector<size_t> cursor_;
  std::vector<uint64_t> io_at_;  // per series: index of window cursor_'s first I/O in io_ns
  WindowScratch scratch_;
  // A fed series' windows read so far and not yet passed (fill).
  struct Fed {
    bool on = false;
    std::vector<Window> w;
    std::vector<uint64_t> line;
    size_t base = 0;  // the index of w[0] among all the series' windows
    size_t seen = 0;  // windows the feed gave, those without counts too
    bool done = false;
    std::vector<WindowBins> bins;
    std::vector<Window> got;  // scratch of fill
    std::vector<uint64_t> got_line;
    std::vector<WindowBins> got_bins;
  };
  WindowFeed* feed_;
  std::vector<Fed> fed_;
  const std::vector<Window>& windows_of(size_t si) const {
    return fed_[si].on ? fed_[si].w : plan_.series[si].series->windows;
  }
};

// Why query_sources cannot sweep the plan's series held with a WindowDigest
// (model.h) through feed; empty when it can.
std::string unfed_series(const Plan& plan, const WindowFeed* feed);

}  // namespace latscope
