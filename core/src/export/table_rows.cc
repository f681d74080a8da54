// Shared parts of the table exports (table_rows.h).
#include "export/table_rows.h"

#include <algorithm>

namespace latscope::table_rows {

Status label_names(const Result& r, std::set<std::string>* names) {
  names->clear();
  for (const ResultSeries& s : r.series)
    for (const auto& kv : s.labels.items()) names->insert(kv.first);
  // The columns of both tables (docs/export-formats.md): a label of one of
  // these names would be read back as the column.
  for (const char* fixed : {"t_ms", "quantum_ms", "layout", "extreme", "bin", "count", "span_start_ms",
                            "span_end_ms", "full_start_ms", "full_end_ms", "binsMap.bin", "binsMap.units",
                            "extremesMap.bin", "extremesMap.n"})
    if (names->count(fixed))
      return Status::Error(ErrorCode::kUnusableFile,
                           std::string("export: a label is named '") + fixed + "', a column of the table");
  return Status::Ok();
}

std::vector<CellRef> quantum_major(const Result& r) {
  std::vector<CellRef> refs;
  refs.reserve(static_cast<size_t>(r.cells()));
  for (size_t si = 0; si < r.series.size(); ++si)
    for (size_t ci = 0; ci < r.series[si].cells.size(); ++ci) refs.push_back({r.series[si].cells[ci].quantum, si, ci});
  std::stable_sort(refs.begin(), refs.end(), [](const CellRef& a, const CellRef& b) { return a.quantum < b.quantum; });
  return refs;
}

void append_escaped(std::string* o, const std::string& s) {
  for (char c : s) {
    switch (c) {
      case '\t': *o += "\\t"; break;
      case '\n': *o += "\\n"; break;
      case '\r': *o += "\\r"; break;
      case '\\': *o += "\\\\"; break;
      case '\0': *o += "\\0"; break;
      default: *o += c;
    }
  }
}

}  // namespace latscope::table_rows
