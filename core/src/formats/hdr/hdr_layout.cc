// HdrHistogram layouts and their ids (hdr_layout.h).
#include "formats/hdr/hdr_layout.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>

namespace latscope::hdr {
namespace {

std::string unit_text(double unit_ns) {
  // "1e0", "1e3", "1e6" for the usual units; %.17g (exact) otherwise.
  for (int k = 0; k <= 9; ++k)
    if (unit_ns == std::pow(10.0, k)) return "1e" + std::to_string(k);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", unit_ns);
  return buf;
}

// One ":<letter><number>" part of an id at *pos; advances past it.
bool take(const std::string& id, size_t* pos, char letter, std::string* value) {
  if (*pos + 2 > id.size() || id[*pos] != ':' || id[*pos + 1] != letter) return false;
  const size_t end = id.find(':', *pos + 2);
  *value = id.substr(*pos + 2, end == std::string::npos ? std::string::npos : end - *pos - 2);
  *pos = end == std::string::npos ? id.size() : end;
  return !value->empty();
}

bool to_int(const std::string& s, long long* v) {
  if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos) return false;
  errno = 0;
  *v = std::strtoll(s.c_str(), nullptr, 10);
  return errno == 0;
}

bool to_double(const std::string& s, double* v) {
  char* end = nullptr;
  *v = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() && std::isfinite(*v) && *v > 0;
}

}  // namespace

std::string config_key(const Config& c) {
  std::string k = "d" + std::to_string(c.digits) + ":l" + std::to_string(c.lowest);
  if (c.is_double) {
    char buf[40];
    std::snprintf(buf, sizeof buf, ":r%.17g", c.ratio);
    k += buf;
  }
  return k;
}

double upper_edge_ns(const Config& c, double unit_ns, int64_t i) {
  return (static_cast<double>(c.lowest_equivalent(i)) + static_cast<double>(c.bucket_width(i))) * unit_ns *
         (c.is_double ? c.ratio : 1.0);
}

LayoutPtr make_layout(const Config& c, double unit_ns, size_t n) {
  auto l = std::make_shared<BinLayout>();
  l->kind = LayoutKind::kHdr;
  l->id = "hdr:" + config_key(c) + ":u" + unit_text(unit_ns) + ":n" + std::to_string(n);
  const double scale = unit_ns * (c.is_double ? c.ratio : 1.0);
  l->lo.resize(n);
  l->hi.resize(n);
  l->rep.resize(n);
  const int32_t half_mag = c.sub_bucket_half_count_magnitude(), unit_mag = c.unit_magnitude();
  for (size_t i = 0; i < n; ++i) {
    const auto idx = static_cast<int64_t>(i);
    const int64_t lo = Config::lowest_equivalent_at(idx, half_mag, unit_mag);
    const int64_t width = Config::bucket_width_at(idx, half_mag, unit_mag);
    l->lo[i] = static_cast<double>(lo) * scale;
    l->hi[i] = (static_cast<double>(lo) + static_cast<double>(width)) * scale;
    l->rep[i] = static_cast<double>(lo + (width >> 1)) * scale;  // Config::median_equivalent
  }
  return l;
}

bool parse_layout_id(const std::string& id, Config* c, double* unit_ns, size_t* n) {
  return parse_layout_id(id, c, unit_ns, n, nullptr);
}

bool parse_layout_id(const std::string& id, Config* c, double* unit_ns, size_t* n, std::string* why) {
  if (id.compare(0, 3, "hdr") != 0) return false;
  size_t pos = 3;
  std::string v;
  long long d = 0, lowest = 0, count = 0;
  if (!take(id, &pos, 'd', &v) || !to_int(v, &d) || d > 5) return false;
  if (!take(id, &pos, 'l', &v) || !to_int(v, &lowest) || lowest < 1) return false;
  Config out;
  out.digits = static_cast<int32_t>(d);
  out.lowest = lowest;
  if (pos < id.size() && id.compare(pos, 2, ":r") == 0) {
    if (!take(id, &pos, 'r', &v) || !to_double(v, &out.ratio)) return false;
    out.is_double = true;
  }
  std::string unit;
  if (!take(id, &pos, 'u', &unit) || !take(id, &pos, 'n', &v) || pos != id.size() || !to_int(v, &count) ||
      count < 1)
    return false;
  double u = 0;
  if (unit.size() == 3 && unit[0] == '1' && unit[1] == 'e' && unit[2] >= '0' && unit[2] <= '9') {
    u = std::pow(10.0, unit[2] - '0');  // unit_text's "1e<k>"
  } else if (!to_double(unit, &u)) {
    return false;
  }
  if (u < kMinUnitNs || u > kMaxUnitNs) {
    if (why) *why = "unit " + unit + " ns is outside 1e-9..1e12 ns";
    return false;
  }
  // Indexes past the one holding 2^62 reach values int64 cannot hold.
  if (count - 1 > out.index_of(int64_t{1} << 62)) {
    if (why) *why = std::to_string(count) + " bins reach past the configuration's largest value";
    return false;
  }
  if (!(upper_edge_ns(out, u, count - 1) <= kMaxEdgeNs)) {
    if (why) *why = "its top bin ends past 1e30 ns (unit or value ratio too large)";
    return false;
  }
  *c = out;
  *unit_ns = u;
  *n = static_cast<size_t>(count);
  return true;
}

}  // namespace latscope::hdr
