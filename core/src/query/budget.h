// What a query may hold (docs/input-robustness.md, "Query budget"): its grid
// of open cells and the rows it answers with, bounded by
// QueryOptions::max_query_bytes and checked before allocating, so a small
// log asked at a tiny quantum fails in milliseconds with a message instead
// of taking the machine's memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "latscope/model.h"

namespace latscope {

// One cell of the streaming fold beyond its bins: its map node, vectors and
// extremes (stream.cc Cell), rounded up.
constexpr double kCellBytes = 160;

// One answer row with np percentiles (engine.h Row).
double row_bytes(size_t np);

// The quanta of quantum_ms that series s's windows (shifted by offset_ms)
// reach, each counted once: every one becomes at least a cell and a row (or a
// result cell) of any query holding the series. Gaps between windows cost
// nothing, so a corrupt far line does not count its distance.
double distinct_quanta(const Series& s, double offset_ms, double quantum_ms);

// The least those quanta cost, with np percentiles per row.
double least_bytes(double quanta, size_t np);

// "<input>: the query would hold <what> (N GB), over its memory limit of L GB: ..."
std::string over_budget(const std::string& input, const std::string& what, double bytes, uint64_t limit);

}  // namespace latscope
