// Compatibility mode: the numbers of fio's tools/hist/fio-histo-log-pctiles.py
// computed from the model (Source / Series / Window), for users who compare
// against that script or have scripts around its output. Engine::query calls
// this when QueryOptions::compat_fio_histo_log_pctiles is set.
//
// The script's semantics, reproduced exactly (to the last bit where the
// summation order is known, see compat.cc):
//  * each log record's time_ms is taken as the START of its window; the next
//    record of the same direction in the same file is its end; a direction's
//    last record ends at the "test end rounded to a second" (end_time below);
//  * a file starts at 0 (relative timestamps, first < 1e6) or at
//    first - (second - first) (epoch timestamps); it ends at its last record;
//    test start = max of the file starts, test end = min of the file ends;
//  * quanta [start + jQ, start + (j+1)Q), Q whole seconds, count
//    ((end/1000 - start/1000) + Q) / Q (integer seconds);
//  * each record's counts are weighted by overlap(quantum, record) / record
//    length and summed over all files and directions;
//  * percentile p: first non-empty bin whose cumulative percentage exceeds p
//    (for p = 100: reaches 99.9999), linearly interpolated inside that bin.
//
// Not reproduced (a sentence in QueryResult::notes says where the script
// would do it): its crashes (trim records, timestamps going backwards as in
// per_job_logs=0 files, more than two records of other directions between
// two of one direction, zero-length records, coarse bins), its wrap-around of
// records before the common start into the last quanta (negative list
// index), and its dropping of duplicate (time, direction) records.
// per_job_logs=0 segments are treated as separate files (what the script
// does when given the jobs' logs split into files).
//
// Output (QueryResult), one group "all":
//   rows[j].t_ms          j * Q ms: the script's "msec-since-start" (relative
//                         to the test start even for epoch logs)
//   rows[j].stats.samples the script's "samples" before it truncates it with
//                         %d (overlap-weighted, may be fractional)
//   rows[j].stats.min_ns  its p0: lower edge of the first non-empty bin
//   rows[j].stats.max_ns  its p100 rule (may extrapolate past a bin's edge,
//                         as the script does when the last bins hold < 1e-4 %)
//   rows[j].stats.mean_ns bin midpoints weighted by counts (the script has none)
//   rows[j].p[i]          the script's value for opts.percentiles[i], in ns
//                         (the script prints microseconds); err_ns = width of
//                         the bin it was interpolated in
//   rows[j].flags         kFlagEmpty when the script prints blank fields
#pragma once

#include <vector>

#include "latscope/engine.h"
#include "latscope/model.h"
#include "latscope/status.h"

namespace latscope {

// sources: as parsed, in the order the script would get them on its command
// line (the order only affects the last bits of the sums). Honours
// opts.quantum_ms (a whole number of seconds), opts.percentiles,
// opts.sel.dirs, exclude_sources, exclude_hosts and from_ms/to_ms (applied to
// msec-since-start); other selection and grouping options are ignored with a
// note. Errors: kInvalidArgument for a quantum that is not a whole number of
// seconds, a percentile outside [0, 100], non-fio or mixed bin layouts, no
// usable file, or files whose time ranges do not overlap.
Status compat_fio_histo_log_pctiles(const std::vector<const Source*>& sources,
                                    const QueryOptions& opts, QueryResult* out);

}  // namespace latscope
