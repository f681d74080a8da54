#include "report/svg_util.h"

#include <cmath>
#include <cstdio>

#include "latscope/report.h"
#include "latscope/text.h"

namespace latscope::svg {
namespace {

// Length of a valid UTF-8 sequence at s[i] (RFC 3629: no overlongs, no
// surrogates, nothing above U+10FFFF), or 0.
size_t utf8_len(const std::string& s, size_t i) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = b(0);
  size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + n > s.size() || b(1) < lo || b(1) > hi) return 0;
  for (size_t k = 2; k < n; ++k)
    if (b(k) < 0x80 || b(k) > 0xBF) return 0;
  return n;
}

}  // namespace

std::string text(const std::string& s) {
  std::string o;
  o.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (const size_t bidi = bidi_control_len(s, i)) {  // shown, never obeyed (report.h)
      o += bidi_control_text(s, i, bidi);
      i += bidi;
      continue;
    }
    if (c >= 0x80) {
      const size_t n = utf8_len(s, i);
      if (n) {
        o.append(s, i, n);
        i += n;
        continue;
      }
    }
    char b[8];
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      case '\'': o += "&#39;"; break;
      default:
        if (c < 0x20 || c == 0x7f || c >= 0x80) {
          std::snprintf(b, sizeof b, "\\x%02x", c);
          o += b;
        } else {
          o += static_cast<char>(c);
        }
    }
    ++i;
  }
  return o;
}

std::string num(double v) { return format_number(std::round(v * 100) / 100); }

std::vector<double> log_ticks(double lo, double hi) {
  std::vector<double> t;
  if (!(lo > 0) || !(hi > lo)) return t;
  const bool many = std::log10(hi / lo) > 4;  // beyond 4 decades: decades only
  for (int e = static_cast<int>(std::floor(std::log10(lo))); e <= static_cast<int>(std::ceil(std::log10(hi))); ++e)
    for (double m : {1.0, 2.0, 5.0}) {
      if (many && m != 1) continue;
      const double v = m * std::pow(10.0, e);
      if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) t.push_back(v);
    }
  return t;
}

std::string latency_label(double ns) { return latency_text(ns); }  // text.h: the verdict's numbers too

std::vector<double> linear_ticks(double lo, double hi) {
  std::vector<double> t;
  if (!(hi > lo)) return t;
  const double raw = (hi - lo) / 6;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * mag >= raw) {
      step = m * mag;
      break;
    }
  for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) t.push_back(v);
  return t;
}

std::string time_label(double ms, bool absolute) {
  if (!absolute) return format_number(std::round(ms) / 1000);  // seconds since run start
  return utc_time_text(ms);
}

std::string context_line(const std::vector<std::string>& inputs, double quantum_ms, double t0_ms, double t1_ms,
                         bool absolute) {
  std::string c = inputs.size() == 1 ? "input " : "inputs ";
  for (size_t i = 0; i < inputs.size() && i < 3; ++i) c += (i ? ", " : "") + inputs[i];
  if (inputs.size() > 3) c += " and " + std::to_string(inputs.size() - 3) + " more";
  c += "; quantum " + latency_text(quantum_ms * 1e6) + "; ";  // "1 s", as the verdict says it
  if (absolute) {
    c += utc_time_text(t0_ms, true) + " ... " + utc_time_text(t1_ms) + " UTC";
  } else {
    c += run_time_text(t0_ms) + " ... " + run_time_text(t1_ms);
  }
  return c;
}

std::string open(double width, double height, const std::string& title) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(width) +
         "\" height=\"" + num(height) + "\" viewBox=\"0 0 " + num(width) + " " + num(height) +
         "\" font-family=\"sans-serif\" font-size=\"12\">\n<title>" + text(title) + "</title>\n<rect width=\"" +
         num(width) + "\" height=\"" + num(height) + "\" fill=\"#ffffff\"/>\n";
}

}  // namespace latscope::svg
