// heatmap.svg: the latency heat map from a HeatmapResult (docs/ci-reports.md).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "latscope/report.h"
#include "latscope/svg.h"
#include "report/svg_util.h"

namespace latscope {
namespace {

// Viridis at nine evenly spaced points: perceptually uniform and readable
// with colour-blind vision and in greyscale print.
const unsigned char kViridis[9][3] = {{68, 1, 84},    {71, 45, 123},  {59, 82, 139},   {44, 114, 142}, {33, 145, 140},
                                      {40, 174, 128}, {94, 201, 98},  {173, 220, 48},  {253, 231, 37}};

std::string colour(double f) {  // f in [0, 1]
  f = std::min(1.0, std::max(0.0, f)) * 8;
  const int i = std::min(7, static_cast<int>(f));
  const double w = f - i;
  char b[8];
  std::snprintf(b, sizeof b, "#%02x%02x%02x", static_cast<unsigned>(std::lround(kViridis[i][0] * (1 - w) + kViridis[i + 1][0] * w)),
                static_cast<unsigned>(std::lround(kViridis[i][1] * (1 - w) + kViridis[i + 1][1] * w)),
                static_cast<unsigned>(std::lround(kViridis[i][2] * (1 - w) + kViridis[i + 1][2] * w)));
  return b;
}

// A colour-bar label: three significant digits (0.000612, 1107), enough to
// tell the ticks apart; the cells themselves carry the engine's counts.
double three_digits(double v) {
  if (!(v > 0)) return v;
  const double scale = std::pow(10.0, 2 - std::floor(std::log10(v)));
  return scale < 1 ? std::round(v) : std::round(v * scale) / scale;
}

constexpr double kWidth = 1000, kLeft = 80, kRight = 860, kTop = 74, kBottom = 394, kHeight = 444;
constexpr double kBarLeft = 890, kBarWidth = 16;

}  // namespace

std::string heatmap_svg(const HeatmapResult& h, const SvgContext& ctx) {
  const double t0 = h.t0_ms, t1 = h.t0_ms + h.quantum_ms * h.quanta;
  const double lo = h.edges_ns.empty() ? 1 : std::max(h.edges_ns.front(), 1.0);
  const double hi = h.edges_ns.empty() ? 10 : std::max(h.edges_ns.back(), lo * 2);
  const auto x = [&](double ms) { return kLeft + (kRight - kLeft) * (ms - t0) / std::max(t1 - t0, 1e-9); };
  const auto y = [&](double ns) { return kBottom - (kBottom - kTop) * std::log(std::max(ns, lo) / lo) / std::log(hi / lo); };
  double cmin = HUGE_VAL, cmax = 0;
  for (double c : h.counts)
    if (c > 0) {
      cmin = std::min(cmin, c);
      cmax = std::max(cmax, c);
    }
  // Counts span orders of magnitude (a tail cell holds a handful of I/Os, a
  // median cell thousands): colour on a log scale of the count.
  const double span = cmax > cmin ? std::log(cmax / cmin) : 1;
  const auto shade = [&](double c) { return cmax > cmin ? std::log(c / cmin) / span : 1.0; };

  std::string o = svg::open(kWidth, kHeight, "latscope: latency heat map");
  o += "<text x=\"" + svg::num(kLeft) + "\" y=\"22\" font-size=\"16\" font-weight=\"bold\">Latency heat map (I/Os per quantum and latency row)</text>\n";
  o += "<text x=\"" + svg::num(kLeft) + "\" y=\"40\">" +
       svg::text(svg::context_line(ctx.inputs, h.quantum_ms, t0, t1, h.absolute_time)) + "</text>\n";
  std::string sub = "all groups; " + std::to_string(h.rows) + " log-spaced rows " + svg::latency_label(lo) + " ... " +
                    svg::latency_label(hi);
  if (h.below > 0 || h.above > 0)
    sub += "; outside them: " + format_number(h.below) + " below, " + format_number(h.above) + " above";
  o += "<text x=\"" + svg::num(kLeft) + "\" y=\"56\">" + svg::text(sub) + "</text>\n";

  o += "<g shape-rendering=\"crispEdges\">\n";
  const double cw = (kRight - kLeft) / std::max<double>(h.quanta, 1);
  for (uint32_t qi = 0; qi < h.quanta; ++qi)
    for (uint32_t ri = 0; ri < h.rows; ++ri) {
      const double c = h.counts[static_cast<size_t>(qi) * h.rows + ri];
      if (!(c > 0)) continue;
      const double ya = y(h.edges_ns[ri + 1]), yb = y(h.edges_ns[ri]);
      o += "<rect class=\"cell\" x=\"" + svg::num(kLeft + cw * qi) + "\" y=\"" + svg::num(ya) + "\" width=\"" +
           svg::num(cw) + "\" height=\"" + svg::num(yb - ya) + "\" fill=\"" + colour(shade(c)) + "\"/>\n";
    }
  o += "</g>\n";

  // Axes.
  o += "<rect x=\"" + svg::num(kLeft) + "\" y=\"" + svg::num(kTop) + "\" width=\"" + svg::num(kRight - kLeft) +
       "\" height=\"" + svg::num(kBottom - kTop) + "\" fill=\"none\" stroke=\"#333333\"/>\n<g text-anchor=\"end\">\n";
  for (double v : svg::log_ticks(lo, hi))
    o += "<line x1=\"" + svg::num(kLeft - 5) + "\" x2=\"" + svg::num(kLeft) + "\" y1=\"" + svg::num(y(v)) +
         "\" y2=\"" + svg::num(y(v)) + "\" stroke=\"#333333\"/>\n<text x=\"" + svg::num(kLeft - 7) + "\" y=\"" +
         svg::num(y(v) + 4) + "\">" + svg::text(svg::latency_label(v)) + "</text>\n";
  o += "</g>\n<g text-anchor=\"middle\">\n";
  for (double s : svg::linear_ticks(t0 / 1000, t1 / 1000))
    o += "<line x1=\"" + svg::num(x(s * 1000)) + "\" x2=\"" + svg::num(x(s * 1000)) + "\" y1=\"" + svg::num(kBottom) +
         "\" y2=\"" + svg::num(kBottom + 5) + "\" stroke=\"#333333\"/>\n<text x=\"" + svg::num(x(s * 1000)) +
         "\" y=\"" + svg::num(kBottom + 18) + "\">" + svg::text(svg::time_label(s * 1000, h.absolute_time)) +
         "</text>\n";
  o += "<text x=\"" + svg::num((kLeft + kRight) / 2) + "\" y=\"" + svg::num(kBottom + 36) + "\">" +
       (h.absolute_time ? "time (UTC)" : "time (s since run start)") + "</text>\n</g>\n";
  o += "<text transform=\"translate(16 " + svg::num((kTop + kBottom) / 2) +
       ") rotate(-90)\" text-anchor=\"middle\">latency (log scale)</text>\n";

  // Colour legend: the same nine colours as a gradient, count ticks beside it.
  o += "<defs><linearGradient id=\"counts\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">";
  for (int i = 0; i <= 8; ++i)
    o += "<stop offset=\"" + svg::num(i / 8.0) + "\" stop-color=\"" + colour(i / 8.0) + "\"/>";
  o += "</linearGradient></defs>\n<rect x=\"" + svg::num(kBarLeft) + "\" y=\"" + svg::num(kTop) + "\" width=\"" +
       svg::num(kBarWidth) + "\" height=\"" + svg::num(kBottom - kTop) + "\" fill=\"url(#counts)\" stroke=\"#333333\"/>\n";
  o += "<text x=\"" + svg::num(kBarLeft) + "\" y=\"" + svg::num(kTop - 16) + "\">I/Os</text>\n";
  if (cmax > 0) {
    // The smallest and largest count, and the decades between them that do
    // not crowd those two labels (12 px apart at least).
    std::vector<double> ticks{cmin};
    for (double c : svg::log_ticks(cmin, cmax))
      if ((kBottom - kTop) * (shade(c) - shade(ticks.back())) >= 12 && (kBottom - kTop) * (1 - shade(c)) >= 12)
        ticks.push_back(c);
    if (cmax > cmin) ticks.push_back(cmax);
    for (double c : ticks) {
      const double yy = kBottom - (kBottom - kTop) * shade(c);
      o += "<text x=\"" + svg::num(kBarLeft + kBarWidth + 4) + "\" y=\"" + svg::num(yy + 4) + "\">" +
           svg::text(format_number(three_digits(c))) + "</text>\n";
    }
  }
  return o + "</svg>\n";
}

}  // namespace latscope
