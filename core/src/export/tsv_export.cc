// A Result as the long table, ClickHouse TSVWithNames (docs/export-formats.md):
//
//   t_ms	quantum_ms	dir	host	kind	layout	extreme	bin	count
//   0	1000	read	a	clat	fio3	0	1033	12.5
//   0	1000	read	a	clat	fio3	1	1033	0
//
// One row per non-empty bin (extreme 0), and one per bin a cell's extremes
// may come from (extreme 1, count 0); counts are exact decimals of the fixed-point
// value, so reading the table back gives the same result, bit for bit.
#include <set>

#include "export/table_rows.h"
#include "latscope/export.h"
#include "latscope/report.h"

namespace latscope {

using table_rows::append_escaped;

Status export_tsv(const Result& r, std::string* out) {
  out->clear();
  std::set<std::string> names;
  if (Status st = table_rows::label_names(r, &names); !st.ok()) return st;
  std::string& o = *out;
  o += "t_ms\tquantum_ms";
  for (const std::string& n : names) {
    o += '\t';
    append_escaped(&o, n);
  }
  o += "\tlayout\textreme\tbin\tcount\n";
  const std::string quantum = format_number(r.quantum_ms);
  for (const table_rows::CellRef& ref : table_rows::quantum_major(r)) {
    const ResultSeries& s = r.series[ref.series];
    const ResultCell& c = s.cells[ref.cell];
    std::string prefix = format_number(static_cast<double>(c.quantum) * r.quantum_ms) + '\t' + quantum;
    for (const std::string& n : names) {
      prefix += '\t';
      if (const std::string* v = s.labels.find(n)) append_escaped(&prefix, *v);
    }
    prefix += '\t';
    append_escaped(&prefix, s.layout->id);
    prefix += '\t';
    for (size_t k = 0; k < c.bins.size(); ++k)
      o += prefix + "0\t" + std::to_string(c.bins[k]) + '\t' + format_fixed_count(c.counts[k]) + '\n';
    // The bins the cell's extremes may come from, count 0 so that a sum of
    // count stays the I/Os (docs/export-formats.md, "Extremes").
    if (c.extremes.any()) {
      o += prefix + "1\t" + std::to_string(c.extremes.lo) + "\t0\n";
      if (c.extremes.hi != c.extremes.lo) o += prefix + "1\t" + std::to_string(c.extremes.hi) + "\t0\n";
    }
  }
  return Status::Ok();
}

}  // namespace latscope
