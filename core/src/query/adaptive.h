// Adaptive quanta (QueryOptions::adaptive_accuracy, docs/uncertainty.md):
// per group, whole log windows in time order are added until the quantum
// holds enough I/Os for the highest requested percentile below 100.
#pragma once

#include <cstdint>
#include <vector>

#include "latscope/engine.h"

namespace latscope {

// True when n I/Os give the p-th percentile (p < 100) a 95% band whose rank
// half-width is at most `accuracy` times the n (1 - p/100) I/Os expected
// above it, with both ends bounded (latscope/uncertainty.h).
bool adaptive_enough(uint64_t n, double p, double accuracy);

Status adaptive_query(const std::vector<Source>& sources, const QueryOptions& opts, QueryResult* out);

}  // namespace latscope
