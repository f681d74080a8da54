// The model's bin layout for one HdrHistogram configuration, and its id
// ("hdr:d3:l1:u1e0:n2048", docs/formats-hdr.md). The .hlog reader builds
// layouts with it; the TSV reader and the .hlog writer (docs/export-formats.md)
// go from an id back to the configuration, so an id is all a table needs to
// carry.
#pragma once

#include <cstddef>
#include <string>

#include "formats/hdr/hdr_histogram.h"
#include "latscope/layout.h"

namespace latscope::hdr {

// "d3:l1" (":r<ratio>" for a DoubleHistogram): the configuration part of an id.
std::string config_key(const Config& c);

// The highest bin edge latscope accepts, in ns (about 3 * 10^13 years): a unit
// or DoubleHistogram value ratio that puts a bucket beyond it (a TSV id's
// "u1e308") made edges infinite and percentiles blank
// (docs/input-robustness.md, "Layouts").
constexpr double kMaxEdgeNs = 1e30;
// The units (ns per value unit) a layout id may name: 10^-9 .. 10^12 ns.
constexpr double kMinUnitNs = 1e-9;
constexpr double kMaxUnitNs = 1e12;

// The upper edge (ns) of bucket index i of c at unit_ns.
double upper_edge_ns(const Config& c, double unit_ns, int64_t i);

// The layout of the first n bucket indexes of c, values scaled by unit_ns
// (ns per HdrHistogram value unit), id "hdr:<key>:u<unit>:n<n>".
LayoutPtr make_layout(const Config& c, double unit_ns, size_t n);

// Inverse of make_layout's id. False when id is not such an id, or its
// numbers are out of HdrHistogram's ranges (digits 0..5, lowest >= 1,
// unit within kMinUnitNs..kMaxUnitNs, n >= 1 and within the configuration's
// index range, the top edge within kMaxEdgeNs). *why, when given, says which.
bool parse_layout_id(const std::string& id, Config* c, double* unit_ns, size_t* n, std::string* why);
bool parse_layout_id(const std::string& id, Config* c, double* unit_ns, size_t* n);

}  // namespace latscope::hdr
