// The report's static layer (docs/ci-reports.md, "The static layer"): what
// a viewer that runs no script and applies no inline style still shows.
// Only elements and attributes: a Content-Security-Policy without
// 'unsafe-inline' (Jenkins' `style-src 'self'`) drops every style attribute
// and <style> element, but never presentation attributes (fill, stroke,
// border, align).
#include <cstdio>

#include "latscope/report_page.h"
#include "report/svg_util.h"

namespace latscope {
namespace {

// The chart without its XML declaration: inside HTML it would be a bogus comment.
std::string inline_svg(const std::string& svg) {
  const size_t at = svg.find("<svg");
  return at == std::string::npos ? std::string() : svg.substr(at);
}

}  // namespace

std::string url_path(const std::string& path) {
  std::string o;
  for (char ch : path) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
        c == '_' || c == '~' || c == '/') {
      o += ch;
    } else {
      char b[4];
      std::snprintf(b, sizeof b, "%%%02X", c);
      o += b;
    }
  }
  return o;
}

std::string report_static_html(const ReportStatic& s) {
  std::string o =
      "<div id=\"latscope-static\" data-testid=\"static-layer\">\n<h1>" + svg::text(s.title) + "</h1>\n";
  if (!s.context.empty()) o += "<p>" + svg::text(s.context) + "</p>\n";
  o += "<p>The verdict and charts below are plain HTML and SVG: they show where this file's scripts do not "
       "run "
       "(an artifact viewer's Content-Security-Policy, a mail client). Where scripts run, the interactive "
       "page "
       "replaces them.</p>\n";
  o += s.verdict_html;
  if (!s.pctiles_svg.empty()) o += "<h2>Percentiles over time</h2>\n" + inline_svg(s.pctiles_svg);
  if (!s.heatmap_svg.empty()) o += "<h2>Heat map</h2>\n" + inline_svg(s.heatmap_svg);
  if (!s.links.empty()) {
    o += "<p>The same charts as files:";
    for (size_t i = 0; i < s.links.size(); ++i)
      o += std::string(i ? "," : "") + " <a href=\"" + svg::text(url_path(s.links[i].first)) + "\">" +
           svg::text(s.links[i].second) + "</a>";
    o += "</p>\n";
  }
  o += "<hr />\n<p>Below: the interactive page, which needs scripts.</p>\n</div>";
  return o;
}

}  // namespace latscope
