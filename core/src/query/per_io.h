// Query-side pieces for fio per-I/O logs (docs/formats-fio-lat.md): latency
// kinds (lat / clat / slat are never merged silently), Method::kExact over
// the kept per-I/O values, and the bs / offset heat-map rows. Shared by
// Engine::query, StreamingQuery and Engine::heatmap so that both query paths
// say and compute the same.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "latscope/engine.h"
#include "query/aligner.h"

namespace latscope {

// A series' latency kind: its "kind" label, "clat" when it has none (fio's
// histogram logs and json+ hold completion latency).
std::string kind_of(const Source& src, const Series& s);
// Of several kinds, the one a query keeps by default: clat, else lat, else
// slat, else the first by name.
std::string default_kind(const std::set<std::string>& present);
// The note saying which kinds were left out.
std::string kinds_note(const std::set<std::string>& present, const std::string& kept);
// Selection::kinds empty and several kinds selected: keeps the default kind
// only and adds kinds_note to notes.
void keep_default_kind(std::vector<Selected>* series, std::vector<std::string>* notes);

// Method::kExact needs every selected series to carry its per-I/O values:
// the notes when `without` series lack them, or when they pass the budget.
std::string exact_fallback_note(size_t without);
std::string exact_budget_note(uint64_t budget);
// True when every selected series keeps its per-I/O values and they fit the
// budget; else adds the note saying why percentiles come from bins.
bool exact_possible(const std::vector<Selected>& series, uint64_t budget, std::vector<std::string>* notes);
// Row of Method::kExact from a quantum's values (sorted in place).
void fill_row_exact(std::vector<uint64_t>* values, const QueryOptions& opts, Row* row);

// Heat-map rows by bs (powers of two from the smallest to the largest bs) or
// offset (`rows` equal ranges of [0, max offset + 1)): edges from the
// selected series' per-I/O values; error when none of them has any.
Status io_heatmap(const Plan& plan, const HeatmapOptions& opts, HeatmapResult* out);

}  // namespace latscope
