// Statistics and percentiles of one dense histogram (counts over a BinLayout).
// All values are in nanoseconds. One pass over the bins answers a whole list
// of percentiles without allocating.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "latscope/layout.h"

namespace latscope {

enum class Method {
  kInterp,  // linear interpolation inside the bin holding the rank
  kFio,     // fio's own: representative value of the first bin whose
            // cumulative count >= p/100 * N, compared as fio does (x87 80-bit)
  kExact,   // fio per-I/O logs: nearest rank over the exact values (see
            // exact_percentiles); on bins (no per-I/O values) as kInterp
  kHdr,     // HdrHistogram's getValueAtPercentile: first bin whose cumulative
            // count >= max(1, ceil(nextDown(p)/100 * N)), reported as the bin's
            // highest equivalent value hi - value_step_ns (lo for p = 0);
            // mean from rep (median equivalent). docs/formats-hdr.md.
};
// The one spelling of methods for the CLI and the options JSON:
// "interp", "fio", "hdr" (docs/formats-hdr.md), "exact" (docs/formats-fio-lat.md).
constexpr const char* kMethodNames = "interp, fio, hdr or exact";
bool parse_method(const std::string& name, Method* out);
// The name parse_method reads: "interp", "fio", "hdr", "exact".
const char* method_name(Method m);


struct Stats {
  double samples = 0;   // may be fractional after overlap weighting
  double min_ns = 0;    // lower edge of the first non-empty bin
  double max_ns = 0;    // upper edge of the last non-empty bin (lower edge if saturated)
  double mean_ns = 0;   // bin midpoints weighted by counts
  bool saturated = false;  // the last non-empty bin is a saturating bin
};

struct PercentileValue {
  double value_ns = 0;
  double err_ns = 0;         // width of the bin the percentile falls in
  bool few_samples = false;  // N * (1 - p/100) < 1: not enough I/Os to say
  bool saturated = false;    // falls in the saturating last bin: lower bound
  // 95% sampling band (latscope/uncertainty.h, docs/uncertainty.md): the
  // true percentile of the distribution the I/Os came from lies in
  // [lo_ns, hi_ns] with at least 95% confidence, bins included. hi_ns is
  // infinity when too few I/Os lie above the percentile to bound it.
  // Defaults (0, infinity): nothing known (fio-histo-log-pctiles compat rows).
  double lo_ns = 0;
  double hi_ns = std::numeric_limits<double>::infinity();
};

// The bins [begin, end) of a histogram that may hold counts; every other
// bin is zero. The functions below then skip the empty ends of a layout of
// thousands of bins (a query per host computes 72,000 histograms:
// docs/page-speed.md "Speed with many groups"). The answers are the same
// bits as over the whole layout: only zeros are left out of the sums.
struct BinSpan {
  size_t begin = 0;
  size_t end = std::numeric_limits<size_t>::max();  // clamped to the layout
};

// counts has layout.size() entries. Returns false (outputs untouched) when
// the histogram is empty.
// sum: if given, the sum of every count over the span in bin order (what
// compute_percentiles sums; samples adds only the positive ones).
bool compute_stats(const BinLayout& layout, const double* counts, Stats* out, BinSpan span = {},
                   double* sum = nullptr);

// ps: any order, each in [0, 100]. out has np entries. With Method::kFio the
// span must begin at bin 0: fio's p0 is bin 0's value, empty or not.
// total >= 0: the sum of the counts over the span, in bin order, as
// compute_stats gives it in `sum`; it is then not summed again (a query
// per host at 1 s does this for 720,000 histograms). Method::kFio sums
// anyway: it also asks whether the counts are whole.
bool compute_percentiles(const BinLayout& layout, const double* counts,
                         const double* ps, size_t np, Method method,
                         PercentileValue* out, BinSpan span = {}, double total = -1);

// fio's comparison of a cumulative count with the rank of percentile p, as
// fio's compiled code evaluates it on x87: threshold = (n * 0.01L) * p, each
// product rounded to a 64-bit significand (see percentiles.cc), independent
// of the platform's long double (binary128 in WebAssembly). p in [0, 100].
bool fio_threshold_reached(uint64_t sum, double p, uint64_t n);

// The smallest step between two values a layout's producer can record, in
// ns: the "1" in HdrHistogram's highestEquivalentValue = next bin's lowest - 1.
// HdrHistogram layouts carry it in their id (":u<ns per value unit>" times
// ":r<DoubleHistogram ratio>"); fio 3 layouts 1 ns, fio 2 layouts 1000 ns
// (fio's integer units); 0 for other layouts (then Method::kHdr reports hi).
double value_step_ns(const BinLayout& layout);
// Method::kHdr's statistics over stats computed by compute_stats: mean from
// each bin's rep (HdrHistogram's median equivalent value) and max = the
// highest equivalent value of the last non-empty bin (hi - value_step_ns).
void hdr_stats(const BinLayout& layout, const double* counts, Stats* stats, BinSpan span = {});

// Exact statistics of raw latencies (ns; sorted in place): samples = count,
// min/max/mean exact, percentile p = the smallest value with at least p% of
// the values at or below it (nearest rank: the k-th smallest, k =
// ceil(p/100 * N) >= 1, p taken as a decimal with up to 6 digits after the
// point so that 99.9 of 1000 is exactly rank 999). err_ns is 0. Returns
// false (outputs untouched) when values is empty.
bool exact_percentiles(std::vector<uint64_t>* values, const double* ps, size_t np, Stats* stats,
                       PercentileValue* out);
// The 1-based nearest rank k of percentile p among n values (as above).
uint64_t exact_rank(double p, uint64_t n);

}  // namespace latscope
