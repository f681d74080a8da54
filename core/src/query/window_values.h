// Queries over fio log_avg_msec logs (Role::kWindowValues, model.h;
// docs/formats-fio-lat.md, "log_avg_msec logs"): each logged line is a window's
// average (or max) latency, not an I/O, so no percentile can be computed.
// Rows show, per quantum and group, the mean and max of the window values
// stamped in it (samples: how many), flagged kFlagWindowValues, percentiles
// blank, with a note. Shared by Engine::query and StreamingQuery so that both
// print the same.
#pragma once

#include <string>
#include <vector>

#include "latscope/engine.h"
#include "query/aligner.h"

namespace latscope {

// The window-value series of src the selection keeps.
void select_window_values(const Source& src, const Selection& sel, std::vector<Selected>* out);
// The query's result over window-value series only (when nothing else is
// selected).
Status window_value_query(std::vector<Selected> series, const QueryOptions& opts, QueryResult* out);
// When other data is selected too: the note saying the window values are
// left out (they cannot be merged with I/O counts).
std::string window_values_left_out_note(size_t n);

}  // namespace latscope
