// A per-host question answered from a result's per-host percentile matrix
// (docs/result-format.md, "Per-host percentile matrix (version 4)";
// docs/page-views.md, "Groups from the matrix"): whether the matrix holds the
// answer, which level serves the range and quantum, which blocks that needs,
// and the rows, as `pctiles --group-by host --quantum L` gives them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "latscope/engine.h"
#include "latscope/result_matrix.h"
#include "latscope/status.h"

namespace latscope {

// What the matrix can answer of a query: the level, the percentiles' indexes
// in the matrix, the blocks to read. served is false (why says it) when the
// query asks what the matrix does not hold: another grouping, percentile,
// method, a selection (directions, kinds, exclusions, offsets, accounts),
// coordinated-omission, adaptive or fio-compatible rows, parts, pixel
// columns without a finite range. Pixel columns (QueryOptions::columns) are
// made of the matrix's rows as the engine makes them of the histograms'.
struct MatrixPlan {
  bool served = false;
  std::string why;
  uint32_t level = 0;
  std::vector<size_t> pct;     // per asked percentile, its index in MatrixHead::percentiles
  std::vector<size_t> blocks;  // MatrixReader::blocks() indexes, in index order
  uint64_t rows = 0;           // the rows those blocks hold
};

// The rows a plan may hold at once: beyond it the page asks the histograms
// (its memory budget applies there), about 0.5 GB of rows and matrix.
constexpr uint64_t kMaxMatrixAnswerRows = uint64_t{4} << 20;

// Why the matrix cannot stand for the histograms' query of a file whose
// histograms' head is `hist`, or "" when it can: each host's rows were made
// on its own bin layout, the query of the histograms folds every host onto
// the layout common to all; only when that is every host's own are the two
// the same bytes (hosts of other fio coarseness merged: docs/result-format.md,
// "Reading it"). The CLI's pctiles and the page's groups view both ask.
std::string matrix_layouts_differ(const Result& hist);

// The plan for q (its from_ms/to_ms: the time shown). The level: the one
// whose quantum is q.quantum_ms; when there is none and the quantum was not
// chosen by the user (quantum_chosen false), the finest level with at most
// two quanta per pixel column of `columns` over the range (as the page
// picks histogram levels, docs/page-loading.md §8), else not served.
// max_rows: the rows the caller may hold (the page holds an answer's rows;
// the CLI writes them as they come and passes UINT64_MAX).
MatrixPlan plan_matrix_answer(const MatrixReader& m, const QueryOptions& q, bool quantum_chosen, uint32_t columns,
                              uint64_t max_rows = kMaxMatrixAnswerRows);

// The plan's blocks read and their rows in the range as a QueryResult of
// the asked percentiles only (the order of q.percentiles), rows in time then
// group order: what the query on the histograms gives, for hosts of one bin
// layout (docs/result-format.md, "Reading it").
Status answer_from_matrix(MatrixReader* m, const MatrixPlan& plan, const QueryOptions& q, QueryResult* out);
// The same rows handed to sink one at a time (each valid during the call)
// instead of kept: *out gets the head (groups, quantum, clock) only. What
// the page's groups view takes (ValueMatrixBuilder): no second copy of
// every row.
Status answer_from_matrix(MatrixReader* m, const MatrixPlan& plan, const QueryOptions& q, RowSink* sink,
                          QueryResult* out);

}  // namespace latscope
