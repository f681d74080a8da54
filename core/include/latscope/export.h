// Exports of a Result for other tools (docs/export-formats.md):
//   * an HdrHistogram interval log (.hlog), as Java's HistogramLogWriter
//     writes it, values in ns, one tag per label set;
//   * the long table, ClickHouse TSVWithNames: one row per non-empty bin,
//     counts exact; read back by the "tsv" format (core/src/formats/tsv/);
//   * the compact table: one row per cell, its bins as arrays of integer
//     units (2^-28 I/O) named for ClickHouse's SummingMergeTree and sumMap,
//     as TSVWithNames (read back by the same reader) or RowBinary.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "latscope/result.h"
#include "latscope/status.h"

namespace latscope {

// What writing an .hlog changed: counts in an .hlog are integers, so a cell
// (quantum x label set) with fractional counts is rounded by largest
// remainder, keeping the cell's total rounded to the nearest integer.
struct HlogExportReport {
  uint64_t intervals = 0;       // interval lines written
  uint64_t cells_rounded = 0;   // cells with a count that was not whole
  double max_rounding = 0;      // largest |written - exact| of one bucket, I/Os (< 1)
  // Bins whose HdrHistogram bucket is not inside the bin (the layout's edges
  // are not bucket edges of any configuration tried: fio 2's us edges, hdr
  // logs in us): placed at the bucket of their representative value.
  uint64_t bins_inexact = 0;
  std::vector<std::string> notes;  // one per label set: tag and configuration chosen
};

// The tag of a label set: labels_text() with ',', whitespace, control bytes
// and '%' percent-encoded (HdrHistogram tags end at ',' and cannot hold
// whitespace). "" for the empty label set.
std::string hlog_tag(const Labels& l);

// Writes r as an interval log. A result with one label set is written
// untagged (what Java's HistogramLogProcessor shows without -tag) and names
// its labels in a "#[Labels: ...]" comment; several label sets get one tag
// each. deflate: zlib (deflate_zlib natively).
Status export_hlog(const Result& r, DeflateFn deflate, std::string* out, HlogExportReport* report);

// Writes r as TSVWithNames: t_ms, quantum_ms, one column per label name
// (sorted union), layout, bin, count.
Status export_tsv(const Result& r, std::string* out);

// The compact table (docs/export-formats.md, "The compact table"): text
// (TSVWithNames, header row first) or ClickHouse RowBinary (no header).
enum class CompactEncoding { kTsv, kRowBinary };
// Its columns: t_ms, quantum_ms, the label names (sorted), layout, the
// series' coverage (span_start_ms, span_end_ms, full_start_ms, full_end_ms),
// binsMap.bin, binsMap.units, extremesMap.bin, extremesMap.n.
std::vector<std::string> compact_columns(const std::set<std::string>& label_names);
// Writes r as the compact table, one row per cell, quantum-major; *columns
// (when not null) gets the column names in order (RowBinary has no header).
// RowBinary needs a whole-ms quantum (t_ms and quantum_ms are Int64).
Status export_compact(const Result& r, CompactEncoding enc, std::string* out, std::vector<std::string>* columns);

// A fixed-point count (kResultFracBits) as its exact decimal ("12.5",
// "0.000000003725290298461914062500" trimmed of trailing zeros).
std::string format_fixed_count(uint64_t units);
// A decimal ("12.5", "3", "1e-3") to the nearest fixed-point unit (ties
// away from zero); plain decimals are converted exactly, digit by digit.
// False for anything else, negatives, or values of 2^36 I/Os and more.
bool parse_fixed_count(std::string_view text, uint64_t* units);

}  // namespace latscope
