// What the two table exports share (docs/export-formats.md): the long table
// (tsv_export.cc) and the compact table (compact_export.cc) have one column
// per label name, the sorted union over the result's label sets, and list
// cells quantum-major.
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "latscope/result.h"
#include "latscope/status.h"

namespace latscope::table_rows {

// The label names of r, sorted; an error when a label is named like one of
// the table's own columns (the reader could not tell them apart).
Status label_names(const Result& r, std::set<std::string>* names);

struct CellRef {
  int64_t quantum;
  size_t series, cell;
};
// Every cell of r, by quantum (stable: series order within a quantum). Any
// order reads back the same; quantum-major keeps a time range together.
std::vector<CellRef> quantum_major(const Result& r);

// ClickHouse's TSV escaping: backslash escapes for the bytes that would end
// a field or a row, and for the backslash itself.
void append_escaped(std::string* o, const std::string& s);

}  // namespace latscope::table_rows
