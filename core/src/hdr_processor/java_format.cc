#include "hdr_processor/java_format.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace latscope::hdr_processor {

namespace {

std::string pad_left(std::string s, int width) {
  if (width > 0 && s.size() < static_cast<size_t>(width)) s.insert(0, static_cast<size_t>(width) - s.size(), ' ');
  return s;
}

// Java's FormattedFloatingDecimal.applyPrecision: keep `keep` digits of
// 0.DIGITS x 10^exp10, rounding half-up on the decimal digits. Returns the
// (possibly incremented) exponent; digits keeps its length (zero-filled).
int apply_precision(int exp10, std::string* digits, int keep) {
  const int n = static_cast<int>(digits->size());
  if (keep >= n || keep < 0) return exp10;
  std::string& d = *digits;
  if (keep == 0) {
    if (d[0] >= '5') {
      d.assign(static_cast<size_t>(n), '0');
      d[0] = '1';
      return exp10 + 1;
    }
    d.assign(static_cast<size_t>(n), '0');
    return exp10;
  }
  if (d[static_cast<size_t>(keep)] >= '5') {
    int i = keep - 1;
    while (i > 0 && d[static_cast<size_t>(i)] == '9') --i;
    if (d[static_cast<size_t>(i)] == '9') {  // carry out of the first digit
      d.assign(static_cast<size_t>(n), '0');
      d[0] = '1';
      return exp10 + 1;
    }
    d[static_cast<size_t>(i)] = static_cast<char>(d[static_cast<size_t>(i)] + 1);
    for (int j = i + 1; j < n; ++j) d[static_cast<size_t>(j)] = '0';
  } else {
    for (int j = keep; j < n; ++j) d[static_cast<size_t>(j)] = '0';
  }
  return exp10;
}

}  // namespace

void shortest_digits(double v, std::string* digits, int* exp10) {
  const double a = std::fabs(v);
  char buf[64];
  for (int p = 0; p < 17; ++p) {
    std::snprintf(buf, sizeof buf, "%.*e", p, a);
    if (std::strtod(buf, nullptr) == a || p == 16) break;
  }
  // buf = "d.ddde[+-]XX"
  std::string d;
  const char* c = buf;
  for (; *c && *c != 'e'; ++c)
    if (*c != '.') d.push_back(*c);
  const int e = std::atoi(c + 1);
  while (d.size() > 1 && d.back() == '0') d.pop_back();
  *digits = d;
  *exp10 = e + 1;
}

std::string java_fixed(double v, int precision, int width) {
  if (std::isnan(v)) return pad_left("NaN", width);
  if (std::isinf(v)) return pad_left(v > 0 ? "Infinity" : "-Infinity", width);
  const bool neg = std::signbit(v);
  std::string out;
  if (v == 0) {
    out = "0";
    if (precision > 0) out += "." + std::string(static_cast<size_t>(precision), '0');
  } else {
    std::string d;
    int e = 0;
    shortest_digits(v, &d, &e);
    e = apply_precision(e, &d, e + precision);
    const int n = static_cast<int>(d.size());
    std::string ip;
    std::string fp;
    if (e > 0) {
      for (int i = 0; i < e; ++i) ip.push_back(i < n ? d[static_cast<size_t>(i)] : '0');
      for (int i = e; i < n && static_cast<int>(fp.size()) < precision; ++i) fp.push_back(d[static_cast<size_t>(i)]);
    } else {
      ip = "0";
      for (int i = 0; i < -e && static_cast<int>(fp.size()) < precision; ++i) fp.push_back('0');
      for (int i = 0; i < n && static_cast<int>(fp.size()) < precision; ++i) fp.push_back(d[static_cast<size_t>(i)]);
    }
    while (static_cast<int>(fp.size()) < precision) fp.push_back('0');
    out = precision > 0 ? ip + "." + fp : ip;
  }
  if (neg) out.insert(0, "-");
  return pad_left(out, width);
}

std::string java_int(int64_t v, int width) { return pad_left(std::to_string(v), width); }

std::string java_double_to_string(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  if (v == 0) return std::signbit(v) ? "-0.0" : "0.0";
  std::string d;
  int e = 0;
  shortest_digits(v, &d, &e);
  const double a = std::fabs(v);
  std::string out = std::signbit(v) ? "-" : "";
  const int n = static_cast<int>(d.size());
  if (a >= 1e-3 && a < 1e7) {
    if (e > 0) {
      for (int i = 0; i < e; ++i) out.push_back(i < n ? d[static_cast<size_t>(i)] : '0');
      out.push_back('.');
      if (e >= n) out.push_back('0');
      for (int i = e; i < n; ++i) out.push_back(d[static_cast<size_t>(i)]);
    } else {
      out += "0.";
      out.append(static_cast<size_t>(-e), '0');
      out += d;
    }
    return out;
  }
  out.push_back(d[0]);
  out.push_back('.');
  out += n > 1 ? d.substr(1) : "0";
  out += "E" + std::to_string(e - 1);
  return out;
}

std::string java_date_utc(int64_t epoch_ms) {
  static const char* const kDays[] = {"Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"};
  static const char* const kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  int64_t secs = epoch_ms / 1000;
  if (epoch_ms % 1000 < 0) --secs;  // floor
  int64_t days = secs / 86400;
  int64_t sod = secs % 86400;
  if (sod < 0) {
    sod += 86400;
    --days;
  }
  const int64_t wd = ((days % 7) + 7) % 7;  // 1970-01-01 was a Thursday
  // Proleptic Gregorian civil date from days since 1970-01-01 (H. Hinnant).
  const int64_t z = days + 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t y = yoe + era * 400;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t d = doy - (153 * mp + 2) / 5 + 1;
  const int64_t m = mp < 10 ? mp + 3 : mp - 9;
  if (m <= 2) ++y;
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s %s %02d %02d:%02d:%02d UTC %lld", kDays[wd], kMonths[m - 1],
                static_cast<int>(d), static_cast<int>(sod / 3600), static_cast<int>(sod / 60 % 60),
                static_cast<int>(sod % 60), static_cast<long long>(y));
  return buf;
}

bool java_parse_double(const std::string& text, double* out) {
  size_t b = 0;
  size_t e = text.size();
  while (b < e && static_cast<unsigned char>(text[b]) <= ' ') ++b;
  while (e > b && static_cast<unsigned char>(text[e - 1]) <= ' ') --e;
  std::string s = text.substr(b, e - b);
  if (s.empty()) return false;
  size_t i = (s[0] == '+' || s[0] == '-') ? 1 : 0;
  const bool neg = s[0] == '-';
  const std::string body = s.substr(i);
  if (body == "NaN") {
    *out = std::nan("");
    return true;
  }
  if (body == "Infinity") {
    *out = neg ? -HUGE_VAL : HUGE_VAL;
    return true;
  }
  if (body.empty()) return false;
  const char last = s.back();
  if (last == 'f' || last == 'F' || last == 'd' || last == 'D') {
    // A type suffix ends a decimal float; a hex float needs its 'p' exponent first.
    const bool hex = body.size() > 1 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X');
    if (!hex || body.find_first_of("pP") != std::string::npos) s.pop_back();
  }
  const std::string num = s.substr(i);
  if (num.empty()) return false;
  const bool hex = num.size() > 1 && num[0] == '0' && (num[1] == 'x' || num[1] == 'X');
  // Allowed characters only: strtod also takes "inf", "nan(...)" and locale forms.
  for (char c : num) {
    const bool ok = (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-' ||
                    (hex && (c == 'x' || c == 'X' || c == 'p' || c == 'P' || (c >= 'a' && c <= 'f') ||
                             (c >= 'A' && c <= 'F')));
    if (!ok) return false;
  }
  if (hex && num.find_first_of("pP") == std::string::npos) return false;  // Java requires the exponent
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return false;
  *out = v;  // overflow gives +-Infinity and underflow 0, as in Java
  return true;
}

bool java_parse_int(const std::string& text, int32_t* out) {
  if (text.empty()) return false;
  size_t i = (text[0] == '+' || text[0] == '-') ? 1 : 0;
  if (i == text.size()) return false;
  int64_t v = 0;
  for (; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    v = v * 10 + (text[i] - '0');
    if (v > (int64_t{1} << 31)) return false;
  }
  if (text[0] == '-') v = -v;
  if (v > INT32_MAX || v < INT32_MIN) return false;
  *out = static_cast<int32_t>(v);
  return true;
}

}  // namespace latscope::hdr_processor
