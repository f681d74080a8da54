// pctiles.svg: percentiles over time from a QueryResult (docs/ci-reports.md).
#include <algorithm>
#include <cmath>
#include <set>

#include "latscope/report.h"
#include "latscope/svg.h"
#include "report/svg_util.h"

namespace latscope {
namespace {

// Okabe & Ito's eight colours, told apart with colour-blind vision too; past
// eight series the palette repeats with a dotted line.
const char* const kColours[] = {"#0072b2", "#e69f00", "#009e73", "#cc79a7",
                                "#56b4e9", "#d55e00", "#f0e442", "#000000"};

constexpr double kWidth = 960, kLeft = 80, kRight = 930, kTop = 74, kBottom = 394;
constexpr double kLegendTop = 456, kLegendRow = 18, kLegendCol = 280;

}  // namespace

std::string pctiles_svg(const QueryResult& r, const std::vector<std::string>& labels, const SvgContext& ctx,
                        const std::vector<SlaRule>& rules, const SlaReport* sla) {
  const size_t np = labels.size(), ng = r.groups.size();
  const double q = r.quantum_ms;
  double t0 = 0, t1 = q;
  if (!r.rows.empty()) {
    t0 = r.rows.front().t_ms;
    t1 = r.rows.back().t_ms + q;
  }
  // The y range: every drawn value (> 0 on a log axis) and every threshold.
  double lo = HUGE_VAL, hi = 0;
  auto extend = [&](double ns) {
    if (!(ns > 0) || !std::isfinite(ns)) return;
    lo = std::min(lo, ns);
    hi = std::max(hi, ns);
  };
  for (const Row& row : r.rows) {
    if (row.flags & (kFlagEmpty | kFlagWindowValues)) continue;
    for (size_t i = 0; i < np && i < row.p.size(); ++i) extend(row.p[i].value_ns);
  }
  for (const SlaRule& rule : rules) extend(rule.threshold_ns);
  if (!(hi > 0)) {  // nothing to draw: 1 us ... 1 ms
    lo = 1e3;
    hi = 1e6;
  }
  lo = std::pow(10.0, std::floor(std::log10(lo)));
  hi = std::pow(10.0, std::ceil(std::log10(hi)));
  if (hi <= lo) hi = lo * 10;
  const auto x = [&](double ms) { return kLeft + (kRight - kLeft) * (ms - t0) / (t1 - t0); };
  const auto y = [&](double ns) {
    return kBottom - (kBottom - kTop) * std::log(std::max(ns, lo) / lo) / std::log(hi / lo);
  };

  const size_t nseries = np * ng;
  const size_t legend_rows = (nseries + rules.size() + 2) / 3;
  const double height = kLegendTop + kLegendRow * static_cast<double>(legend_rows) + 12;
  std::string groups_text;
  for (size_t g = 0; g < ng && g < 4; ++g) groups_text += (g ? ", " : "") + r.groups[g];
  if (ng > 4) groups_text += " and " + std::to_string(ng - 4) + " more";
  std::string o = svg::open(kWidth, height, "latscope: latency percentiles over time");
  o += "<text x=\"" + svg::num(kLeft) + "\" y=\"22\" font-size=\"16\" font-weight=\"bold\">Latency percentiles over time" +
       std::string(sla ? (sla->pass() ? " — SLA passed" : " — SLA violated") : "") + "</text>\n";
  o += "<text x=\"" + svg::num(kLeft) + "\" y=\"40\">" +
       svg::text(svg::context_line(ctx.inputs, q, t0, t1, r.absolute_time)) + "</text>\n";
  o += "<text x=\"" + svg::num(kLeft) + "\" y=\"56\">" +
       svg::text("groups: " + (groups_text.empty() ? std::string("none") : groups_text)) + "</text>\n";

  // Quanta where some rule is violated, shaded under everything else.
  if (sla) {
    std::set<double> bad;
    for (const SlaViolation& v : sla->violations) bad.insert(r.rows[v.row].t_ms);
    for (double t : bad)
      o += "<rect class=\"violation\" x=\"" + svg::num(x(t)) + "\" y=\"" + svg::num(kTop) + "\" width=\"" +
           svg::num(std::max(x(t + q) - x(t), 1.0)) + "\" height=\"" + svg::num(kBottom - kTop) +
           "\" fill=\"#d62728\" fill-opacity=\"0.15\"/>\n";
  }

  // Axes: latency ticks in a readable unit, time in s (or UTC clock time).
  o += "<g stroke=\"#dddddd\">\n";
  const std::vector<double> yt = svg::log_ticks(lo, hi), xt = svg::linear_ticks(t0 / 1000, t1 / 1000);
  for (double v : yt)
    o += "<line x1=\"" + svg::num(kLeft) + "\" x2=\"" + svg::num(kRight) + "\" y1=\"" + svg::num(y(v)) + "\" y2=\"" +
         svg::num(y(v)) + "\"/>\n";
  o += "</g>\n<g text-anchor=\"end\">\n";
  for (double v : yt)
    o += "<text x=\"" + svg::num(kLeft - 6) + "\" y=\"" + svg::num(y(v) + 4) + "\">" +
         svg::text(svg::latency_label(v)) + "</text>\n";
  o += "</g>\n<g text-anchor=\"middle\">\n";
  for (double s : xt)
    o += "<line x1=\"" + svg::num(x(s * 1000)) + "\" x2=\"" + svg::num(x(s * 1000)) + "\" y1=\"" +
         svg::num(kBottom) + "\" y2=\"" + svg::num(kBottom + 5) + "\" stroke=\"#333333\"/>\n<text x=\"" +
         svg::num(x(s * 1000)) + "\" y=\"" + svg::num(kBottom + 18) + "\">" +
         svg::text(svg::time_label(s * 1000, r.absolute_time)) + "</text>\n";
  o += "<text x=\"" + svg::num((kLeft + kRight) / 2) + "\" y=\"" + svg::num(kBottom + 36) + "\">" +
       (r.absolute_time ? "time (UTC)" : "time (s since run start)") + "</text>\n</g>\n";
  o += "<text transform=\"translate(16 " + svg::num((kTop + kBottom) / 2) +
       ") rotate(-90)\" text-anchor=\"middle\">latency (log scale)</text>\n";
  o += "<rect x=\"" + svg::num(kLeft) + "\" y=\"" + svg::num(kTop) + "\" width=\"" + svg::num(kRight - kLeft) +
       "\" height=\"" + svg::num(kBottom - kTop) + "\" fill=\"none\" stroke=\"#333333\"/>\n";

  // One path per percentile x group; a quantum without a value breaks it.
  std::vector<std::string> paths(nseries);
  std::vector<bool> pen_down(nseries, false);
  double last_t = -HUGE_VAL;
  for (const Row& row : r.rows) {
    if (row.t_ms != last_t) {
      // A group missing from this quantum's rows also breaks its lines.
      for (size_t g = 0; g < ng && last_t > -HUGE_VAL && row.t_ms - last_t > q * 1.5; ++g)
        for (size_t i = 0; i < np; ++i) pen_down[g * np + i] = false;
      last_t = row.t_ms;
    }
    const bool blank = row.flags & (kFlagEmpty | kFlagWindowValues);
    for (size_t i = 0; i < np && i < row.p.size(); ++i) {
      const size_t s = row.group * np + i;
      if (blank) {
        pen_down[s] = false;
        continue;
      }
      paths[s] += (pen_down[s] ? " L" : (paths[s].empty() ? "M" : " M")) + svg::num(x(row.t_ms + q / 2)) + " " +
                  svg::num(y(row.p[i].value_ns));
      pen_down[s] = true;
    }
  }
  for (size_t s = 0; s < nseries; ++s) {
    const std::string dash = s >= 8 ? "\" stroke-dasharray=\"2 2" : "";
    o += "<path class=\"series\" fill=\"none\" stroke-width=\"1.5\" stroke=\"" + std::string(kColours[s % 8]) + dash +
         "\" d=\"" + (paths[s].empty() ? std::string("M0 0") : paths[s]) + "\"><title>" +
         svg::text(labels[s % np] + " " + r.groups[s / np]) + "</title></path>\n";
  }

  // SLA thresholds: dashed, labelled at the right end.
  for (const SlaRule& rule : rules) {
    const double yy = y(rule.threshold_ns);
    o += "<line class=\"threshold\" x1=\"" + svg::num(kLeft) + "\" x2=\"" + svg::num(kRight) + "\" y1=\"" +
         svg::num(yy) + "\" y2=\"" + svg::num(yy) + "\" stroke=\"#d62728\" stroke-width=\"1.2\" stroke-dasharray=\"6 4\"/>\n";
    o += "<text x=\"" + svg::num(kRight - 4) + "\" y=\"" + svg::num(yy - 4) +
         "\" text-anchor=\"end\" fill=\"#d62728\">" + svg::text(rule.text) + "</text>\n";
  }

  // Legend: three columns below the plot.
  size_t item = 0;
  auto legend = [&](const std::string& swatch, const std::string& label) {
    const size_t col = item % 3, row = item / 3;  // three entries per legend line
    const double lx = kLeft + kLegendCol * static_cast<double>(col);
    const double ly = kLegendTop + kLegendRow * static_cast<double>(row);
    o += "<line x1=\"" + svg::num(lx) + "\" x2=\"" + svg::num(lx + 24) + "\" y1=\"" + svg::num(ly - 4) + "\" y2=\"" +
         svg::num(ly - 4) + "\" stroke-width=\"2\" " + swatch + "/>\n<text x=\"" + svg::num(lx + 30) + "\" y=\"" +
         svg::num(ly) + "\">" + svg::text(label) + "</text>\n";
    ++item;
  };
  for (size_t s = 0; s < nseries; ++s)
    legend(std::string("stroke=\"") + kColours[s % 8] + (s >= 8 ? "\" stroke-dasharray=\"2 2\"" : "\""),
           labels[s % np] + (ng > 1 || r.groups[0] != "all" ? "  " + r.groups[s / np] : ""));
  for (const SlaRule& rule : rules) legend("stroke=\"#d62728\" stroke-dasharray=\"6 4\"", "SLA " + rule.text);
  return o + "</svg>\n";
}

}  // namespace latscope
