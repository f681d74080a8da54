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
#include <utility>
#include <vector>

#include "latscope/status.h"

namespace latscope {

constexpr const char* kReportDataMarker = "<script type=\"application/json\" id=\"latscope-data\">null</script>";

// A JSON string literal that is also safe inside an HTML <script> element:
// "</" becomes "<\/", any other '<' "\u003c" and '>' "\u003e", so no name
// can end the element, open an HTML comment in it or look like a tag.
std::string script_json_string(const std::string& s);

// The report's static layer (docs/ci-reports.md, "The static layer"): the
// template holds this element once, empty, as the first thing in <body>;
// the report fills it with the verdict and the charts as HTML and SVG that
// need no script and no style (attributes only), so a viewer serving the
// file under a policy that forbids both (Jenkins' default) still shows
// them. The page removes the element when its script runs
// (web/src/app/embedded-data.js removeStaticLayer).
constexpr const char* kReportStaticMarker = "<div id=\"latscope-static\"></div>";

struct ReportStatic {
  std::string title;         // "latscope report: SLA FAIL"
  std::string context;       // inputs, quantum, time range, groups
  std::string verdict_html;  // sla_html (sla.h); empty without rules
  std::string pctiles_svg, heatmap_svg;  // svg.h, as written to --svg DIR
  // Links to files beside the report (href relative to it, text): the SVG charts.
  std::vector<std::pair<std::string, std::string>> links;
};

// The filled element (kReportStaticMarker's id), every text escaped; the
// SVGs inline without their XML declaration.
std::string report_static_html(const ReportStatic& s);

// A relative path as a URL path: bytes other than unreserved ones and '/'
// percent-encoded (RFC 3986), so any file name makes a working href.
std::string url_path(const std::string& path);

// Replaces the marker's null with the data object. Errors (template without
// the marker, or with it more than once) name what is wrong. sla: the
// report's --sla rules ("p99<=5ms,p99.9<=20ms"; empty: none), given to the
// page's view so it shades and sums the same violations.
// trust: the inputs' trust summary as JSON (folder.h trust_json; empty:
// none), carried as "trust" for the page to show what the result came from.
// static_html (report_static_html; empty: none) replaces kReportStaticMarker,
// which the template must then hold exactly once. group_by: the report's
// --group-by labels, comma-joined ("host"; empty: none), given to the view
// as "group_by" so the page opens grouped as the verdict was judged.
Status embed_report(const std::string& page_template, const std::string& name, const uint8_t* result, size_t n,
                    std::string* out, const std::string& sla = std::string(), const std::string& trust = std::string(),
                    const std::string& static_html = std::string(), const std::string& group_by = std::string());

}  // namespace latscope
