// The self-contained HTML report (`latscope report`, docs/ci-reports.md): a
// result file embedded in the single-file page (web/dist/latscope.html).
//
// The page template holds exactly one
//   <script type="application/json" id="latscope-data">null</script>
// and the report replaces its null with
//   {"version":1,"name":"<display name>","result":"<base64 of the .lsr>","view":{}}
// which the page loads at start-up as if the result file had been opened.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "latscope/status.h"

namespace latscope {

constexpr const char* kReportDataMarker = "<script type=\"application/json\" id=\"latscope-data\">null</script>";

// A JSON string literal that is also safe inside an HTML <script> element:
// "</" becomes "<\/", any other '<' "\u003c" and '>' "\u003e", so no name
// can end the element, open an HTML comment in it or look like a tag.
std::string script_json_string(const std::string& s);

// Replaces the marker's null with the data object. Errors (template without
// the marker, or with it more than once) name what is wrong. sla: the
// report's --sla rules ("p99<=5ms,p99.9<=20ms"; empty: none), given to the
// page's view so it shades and sums the same violations.
// trust: the inputs' trust summary as JSON (folder.h trust_json; empty:
// none), carried as "trust" for the page to show what the result came from.
Status embed_report(const std::string& page_template, const std::string& name, const uint8_t* result, size_t n,
                    std::string* out, const std::string& sla = std::string(), const std::string& trust = std::string());

}  // namespace latscope
