// Pieces shared by the SVG charts (svg_pctiles.cc, svg_heatmap.cc).
#pragma once

#include <string>
#include <vector>

namespace latscope::svg {

// Text for XML content or attribute values: & < > " ' as entities; control
// bytes and invalid UTF-8 (which no XML parser accepts, escaped or not) as
// the text \xNN.
std::string text(const std::string& s);

// A coordinate: rounded to 0.01 and written by format_number (report.h).
std::string num(double v);

// Latency tick values (ns) on a log axis over [lo, hi]: 1, 2, 5 x 10^k, or
// only decades when those are many.
std::vector<double> log_ticks(double lo, double hi);
// "250 us", "1.5 ms": the value in the largest unit (ns, us, ms, s) in which
// it is at least 1.
std::string latency_label(double ns);

// Ticks of a linear axis over [lo, hi]: multiples of a 1-2-5 step, ~6 of them.
std::vector<double> linear_ticks(double lo, double hi);

// A time tick's label: seconds since run start, or UTC clock time (epoch ms).
std::string time_label(double ms, bool absolute);

// "inputs a, b, c and 2 more; quantum 1 s; 0:00 ... 0:19" (UTC date and clock for epoch logs)
std::string context_line(const std::vector<std::string>& inputs, double quantum_ms, double t0_ms, double t1_ms,
                         bool absolute);

// The document's opening tag (viewBox, font) and a white background.
std::string open(double width, double height, const std::string& title);

}  // namespace latscope::svg
