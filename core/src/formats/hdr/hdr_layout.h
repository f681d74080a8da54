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

// The layout of the first n bucket indexes of c, values scaled by unit_ns
// (ns per HdrHistogram value unit), id "hdr:<key>:u<unit>:n<n>".
LayoutPtr make_layout(const Config& c, double unit_ns, size_t n);

// Inverse of make_layout's id. False when id is not such an id, or its
// numbers are out of HdrHistogram's ranges (digits 0..5, lowest >= 1,
// unit > 0, n >= 1 and within the configuration's index range).
bool parse_layout_id(const std::string& id, Config* c, double* unit_ns, size_t* n);

}  // namespace latscope::hdr
