#include "latscope/text.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <ctime>

namespace latscope {

size_t write_number(double v, char* buf) {
  if (!std::isfinite(v)) return 0;
  // Integral values up to 2^53 (epoch ms, counts) print whole; others with
  // 10 significant digits, which every bin width here is coarser than.
  const bool whole = v == std::floor(v) && std::fabs(v) < 9007199254740992.0;
#if defined(__cpp_lib_to_chars)
  // The standard defines these two as printf's "%.0f" and "%.10g" (the
  // fallback below); they are several times faster, which a per-host CSV of
  // hundreds of thousands of rows feels. The WebAssembly toolchain's libc++
  // has no floating-point to_chars, so the page takes the fallback: the same
  // text either way (format_number_test compares the two).
  const std::to_chars_result r = whole ? std::to_chars(buf, buf + kNumberChars, v, std::chars_format::fixed, 0)
                                       : std::to_chars(buf, buf + kNumberChars, v, std::chars_format::general, 10);
  return static_cast<size_t>(r.ptr - buf);
#else
  const int n = std::snprintf(buf, kNumberChars, whole ? "%.0f" : "%.10g", v);
  return n > 0 ? static_cast<size_t>(n) : 0;
#endif
}

std::string format_number(double v) {
  char buf[kNumberChars];
  return std::string(buf, write_number(v, buf));
}

std::string latency_text(double ns, int digits) {
  static const char* const kUnits[] = {"ns", "us", "ms", "s"};
  if (!std::isfinite(ns)) return format_number(ns);
  int u = 0;
  double v = ns;
  while (u < 3 && std::fabs(v) >= 1000) {
    v /= 1000;
    ++u;
  }
  if (v != 0) {
    const double scale = std::pow(10.0, digits - 1 - std::floor(std::log10(std::fabs(v))));
    v = std::round(v * scale) / scale;
    if (u < 3 && std::fabs(v) >= 1000) {  // 999.96 us rounds to 1000 us: 1 ms
      v /= 1000;
      ++u;
    }
  }
  return format_number(v) + " " + kUnits[u];
}

std::string run_time_text(double ms) {
  if (!std::isfinite(ms)) return format_number(ms);
  const bool neg = ms < 0;
  const double a = std::round(std::fabs(ms));  // whole ms: quanta are no finer in a verdict
  const auto s = static_cast<long long>(std::floor(a / 1000));
  const double frac = (a - static_cast<double>(s) * 1000) / 1000;
  char b[64];
  if (s >= 3600)
    std::snprintf(b, sizeof b, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
  else
    std::snprintf(b, sizeof b, "%lld:%02lld", s / 60, s % 60);
  std::string o = (neg ? "-" : "") + std::string(b);
  if (frac > 0) o += format_number(frac).substr(1);  // ".25"
  return o;
}

std::string utc_time_text(double epoch_ms, bool with_date) {
  if (!std::isfinite(epoch_ms)) return format_number(epoch_ms);
  const auto s = static_cast<std::time_t>(std::floor(epoch_ms / 1000));
  std::tm tm{};
  gmtime_r(&s, &tm);
  char b[48];
  if (with_date)
    std::snprintf(b, sizeof b, "%04d-%02d-%02d %02d:%02d:%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                  tm.tm_min, tm.tm_sec);
  else
    std::snprintf(b, sizeof b, "%02d:%02d:%02d", tm.tm_hour, tm.tm_min, tm.tm_sec);
  return b;
}

std::string json_escape(const std::string& s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      case '\n': o += "\\n"; break;
      case '\r': o += "\\r"; break;
      case '\t': o += "\\t"; break;
      default:
        if (c < 0x20) {
          char b[8];
          std::snprintf(b, sizeof b, "\\u%04x", c);
          o += b;
        } else {
          o += static_cast<char>(c);
        }
    }
  }
  return o + "\"";
}

}  // namespace latscope
