// The per-host percentile matrix made and concatenated (docs/result-format.md,
// "Per-host percentile matrix (version 4)"): reduce runs the query
// `pctiles --group-by host --quantum L` on its result, read back as a result
// file reads, once per level, and keeps each row exactly; merge concatenates
// the hosts' rows block by block and never derives a percentile from
// percentiles.
#include <algorithm>
#include <map>
#include <string>

#include "formats/result/result_source.h"
#include "latscope/result_matrix.h"
#include "latscope/stream.h"
#include "query/aligner.h"

namespace latscope {
namespace {

bool row_before(const MatrixRow& a, const MatrixRow& b) {
  return a.t_ms < b.t_ms || (a.t_ms == b.t_ms && a.group < b.group);
}

// The rows of one time block of a level, bucketed by group chunk, written in
// index order.
Status flush(const MatrixHead& head, uint32_t level, int64_t tb, std::map<uint32_t, std::vector<MatrixRow>>* chunks,
             MatrixWriter* w) {
  for (auto& [first, rows] : *chunks) {
    std::sort(rows.begin(), rows.end(), row_before);
    const auto groups = std::min<uint32_t>(head.groups_per_block, static_cast<uint32_t>(head.groups.size()) - first);
    Status st = w->add(level, tb, first, groups, rows);
    if (!st.ok()) return st;
  }
  chunks->clear();
  return Status::Ok();
}

}  // namespace

Status write_matrix_level(const MatrixHead& head, uint32_t level, const QueryResult& q, MatrixWriter* w) {
  std::vector<uint32_t> to_head(q.groups.size());
  for (size_t g = 0; g < q.groups.size(); ++g) {
    const auto it = std::lower_bound(head.groups.begin(), head.groups.end(), q.groups[g], natural_less);
    if (it == head.groups.end() || *it != q.groups[g])
      return Status::Error(ErrorCode::kInternal, "result: matrix: group " + q.groups[g] + " is not the header's");
    to_head[g] = static_cast<uint32_t>(it - head.groups.begin());
  }
  std::map<uint32_t, std::vector<MatrixRow>> chunks;
  int64_t tb = INT64_MIN;
  for (const Row& row : q.rows) {
    const int64_t b = matrix_time_block(head, level, row.t_ms);
    if (b != tb) {
      Status st = flush(head, level, tb, &chunks, w);
      if (!st.ok()) return st;
      tb = b;
    }
    MatrixRow m;
    m.t_ms = row.t_ms;
    m.group = to_head[row.group];
    m.flags = row.flags;
    m.samples = row.stats.samples;
    m.min_ns = row.stats.min_ns;
    m.mean_ns = row.stats.mean_ns;
    m.max_ns = row.stats.max_ns;
    for (size_t i = 0; i < row.p.size() && i < 64; ++i) {
      m.p.push_back(row.p[i].value_ns);
      if (row.p[i].few_samples) m.few |= uint64_t{1} << i;
    }
    chunks[m.group - m.group % head.groups_per_block].push_back(std::move(m));
  }
  return flush(head, level, tb, &chunks, w);
}

Status build_result_matrix(const Result& r, QueryOptions q, const std::vector<std::string>& labels,
                           const std::vector<double>& levels, MatrixHead* head, MatrixWriter* w) {
  if (q.percentiles.size() > 64 || labels.size() != q.percentiles.size())
    return Status::Error(ErrorCode::kInvalidArgument, "result: matrix: at most 64 percentiles, each with its label");
  // The result read back as a result file reads (formats/result), so each
  // row is what a query of the written file prints.
  Source src;
  src.name = "result";
  src.format = FileFormat::kResult;
  result_to_source(r, &src);
  head->absolute_time = r.absolute_time;
  head->group_by = "host";
  head->labels = labels;
  head->percentiles = q.percentiles;
  head->method = method_name(q.method);
  head->levels = levels;
  q.group_by = {"host"};
  // The reduce already moved each host's clock: its windows are in r.
  q.sel.offsets_ms.clear();
  q.bands = false;  // the matrix keeps what pctiles prints without --bounds
  for (size_t i = 0; i < levels.size(); ++i) {
    q.quantum_ms = levels[i];
    StreamingQuery sq(q);
    QueryResult qr;
    Status st = sq.add(src);
    if (st.ok()) st = sq.finish(&qr);
    if (!st.ok()) return st;
    if (i == 0) {
      head->absolute_time = qr.absolute_time;
      head->groups = qr.groups;  // natural order, as every query lists them
      st = w->begin(*head);
      if (!st.ok()) return st;
    }
    st = write_matrix_level(*head, static_cast<uint32_t>(i), qr, w);
    if (!st.ok()) return st;
  }
  if (levels.empty()) {
    Status st = w->begin(*head);
    if (!st.ok()) return st;
  }
  return w->finish();
}

void matrix_query_result(const MatrixHead& head, uint32_t level, std::vector<MatrixRow>* rows, QueryResult* out) {
  *out = QueryResult();
  out->groups = head.groups;
  out->quantum_ms = head.levels[level];
  out->absolute_time = head.absolute_time;
  out->bands = false;
  std::sort(rows->begin(), rows->end(), row_before);
  out->rows.reserve(rows->size());
  for (const MatrixRow& m : *rows) {
    Row row;
    matrix_row_to_row(m, &row);
    out->rows.push_back(std::move(row));
  }
}

void matrix_row_to_row(const MatrixRow& m, Row* row) {
  row->t_ms = m.t_ms;
  row->group = m.group;
  row->flags = m.flags;
  row->stats = Stats();
  row->stats.samples = m.samples;
  row->stats.min_ns = m.min_ns;
  row->stats.mean_ns = m.mean_ns;
  row->stats.max_ns = m.max_ns;
  row->p.resize(m.p.size());
  for (size_t i = 0; i < m.p.size(); ++i) {
    row->p[i] = PercentileValue();
    row->p[i].value_ns = m.p[i];
    row->p[i].few_samples = (m.few >> i) & 1;
  }
}

}  // namespace latscope
