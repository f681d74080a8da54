// A Result as the compact table (docs/export-formats.md, "The compact
// table"): one row per cell (quantum x label set x layout), its sparse bins
// as ClickHouse arrays of exact integer units (2^-28 I/O, the result's own
// fixed point: docs/result-format.md), named so that a SummingMergeTree
// adds rows of equal key as maps (columns ending in "Map"), and
// sumMap(binsMap.bin, binsMap.units) adds them in any query:
//
//   t_ms quantum_ms dir host kind layout span_start_ms span_end_ms full_start_ms full_end_ms
//        binsMap.bin binsMap.units extremesMap.bin extremesMap.n            (tab-separated)
//   0	1000	read	a	clat	fio3	0	20004	1002	20004	[441,452]	[268435456,134217728]	[441]	[1]
//
// The four coverage columns repeat the series' coverage on each of its rows
// (docs/result-format.md: span = union, full = intersection), so that
// min(span_start_ms), max(full_start_ms), ... over any rows is merge()'s
// coverage and the `partial` flag survives the table.
// extremesMap holds the bins the cell's min, max, p0 and p100 may come from
// (docs/extremes.md, "Results"), each with 1: summed as a map it is the
// union of every constituent's, whose lowest and highest the reader takes.
// Written as TSVWithNames, or as RowBinary (the same columns, no header:
// what `clickhouse-client ... FORMAT RowBinary` inserts without parsing
// text).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>

#include "export/table_rows.h"
#include "latscope/export.h"
#include "latscope/report.h"

namespace latscope {
namespace {

using table_rows::append_escaped;

// The extremes of a cell as the map's keys: lo, and hi when it differs.
std::vector<uint32_t> extreme_keys(const ResultCell& c) {
  std::vector<uint32_t> k;
  if (!c.extremes.any()) return k;
  k.push_back(c.extremes.lo);
  if (c.extremes.hi != c.extremes.lo) k.push_back(c.extremes.hi);
  return k;
}

// A coverage bound as text that reads back to the same double: whole ms as
// integers, anything else with 17 significant digits.
std::string exact_ms(double v) {
  if (v == std::floor(v) && std::fabs(v) < 9e15) return std::to_string(static_cast<int64_t>(v));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

template <typename T>
void append_array(std::string* o, const std::vector<T>& v) {
  *o += '[';
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) *o += ',';
    *o += std::to_string(v[i]);
  }
  *o += ']';
}

// RowBinary (ClickHouse's docs, "RowBinary"): integers little-endian, a
// String or an Array as its LEB128 length, then the bytes or elements.
void put_varint(std::string* o, uint64_t v) {
  while (v >= 0x80) {
    *o += static_cast<char>((v & 0x7F) | 0x80);
    v >>= 7;
  }
  *o += static_cast<char>(v);
}
template <typename T>
void put_le(std::string* o, T v) {
  auto u = static_cast<uint64_t>(v);
  for (size_t i = 0; i < sizeof(T); ++i, u >>= 8) *o += static_cast<char>(u & 0xFF);
}
void put_string(std::string* o, const std::string& s) {
  put_varint(o, s.size());
  *o += s;
}
template <typename T>
void put_array(std::string* o, const std::vector<T>& v) {
  put_varint(o, v.size());
  for (T x : v) put_le<T>(o, x);
}

}  // namespace

std::vector<std::string> compact_columns(const std::set<std::string>& label_names) {
  std::vector<std::string> c{"t_ms", "quantum_ms"};
  c.insert(c.end(), label_names.begin(), label_names.end());
  for (const char* f : {"layout", "span_start_ms", "span_end_ms", "full_start_ms", "full_end_ms", "binsMap.bin", "binsMap.units", "extremesMap.bin", "extremesMap.n"}) c.emplace_back(f);
  return c;
}

Status export_compact(const Result& r, CompactEncoding enc, std::string* out, std::vector<std::string>* columns) {
  out->clear();
  std::set<std::string> names;
  if (Status st = table_rows::label_names(r, &names); !st.ok()) return st;
  if (columns) *columns = compact_columns(names);
  const bool binary = enc == CompactEncoding::kRowBinary;
  // RowBinary has no text for a number: t_ms and quantum_ms are Int64 there,
  // which holds whole-ms quanta only.
  if (binary && (r.quantum_ms != std::floor(r.quantum_ms) || r.quantum_ms > 9e15))
    return Status::Error(ErrorCode::kUnusableFile, "export: quantum " + quantum_text(r.quantum_ms) +
                                                       " ms is not whole ms; RowBinary's t_ms and quantum_ms "
                                                       "are Int64 (use --format compact, or a whole-ms --quantum)");
  std::string& o = *out;
  if (!binary) {
    for (const std::string& c : compact_columns(names)) {
      if (!o.empty()) o += '\t';
      append_escaped(&o, c);
    }
    o += '\n';
  }
  const std::string quantum = format_number(r.quantum_ms);
  const auto q_int = static_cast<int64_t>(r.quantum_ms);
  for (const table_rows::CellRef& ref : table_rows::quantum_major(r)) {
    const ResultSeries& s = r.series[ref.series];
    const ResultCell& c = s.cells[ref.cell];
    const std::vector<uint32_t> xk = extreme_keys(c);
    const std::vector<uint64_t> xn(xk.size(), 1);
    if (binary) {
      put_le<int64_t>(&o, c.quantum * q_int);
      put_le<int64_t>(&o, q_int);
      for (const std::string& n : names) {
        const std::string* v = s.labels.find(n);
        put_string(&o, v ? *v : std::string());
      }
      put_string(&o, s.layout->id);
      for (double v : {s.span_start_ms, s.span_end_ms, s.full_start_ms, s.full_end_ms}) {
        uint64_t bits = 0;
        std::memcpy(&bits, &v, sizeof bits);
        put_le<uint64_t>(&o, bits);  // Float64: the double's bytes
      }
      put_array(&o, c.bins);
      put_array(&o, c.counts);
      put_array(&o, xk);
      put_array(&o, xn);
      continue;
    }
    o += format_number(static_cast<double>(c.quantum) * r.quantum_ms);
    o += '\t';
    o += quantum;
    for (const std::string& n : names) {
      o += '\t';
      if (const std::string* v = s.labels.find(n)) append_escaped(&o, *v);
    }
    o += '\t';
    append_escaped(&o, s.layout->id);
    for (double v : {s.span_start_ms, s.span_end_ms, s.full_start_ms, s.full_end_ms}) {
      o += '\t';
      o += exact_ms(v);
    }
    o += '\t';
    append_array(&o, c.bins);
    o += '\t';
    append_array(&o, c.counts);
    o += '\t';
    append_array(&o, xk);
    o += '\t';
    append_array(&o, xn);
    o += '\n';
  }
  return Status::Ok();
}

}  // namespace latscope
