// Exact decimal text for result counts (latscope/export.h). A count is an
// integer number of 2^-28 I/O units (docs/result-format.md, "Counts: fixed
// point"), so its decimal has at most 28 fraction digits and can be printed
// exactly; format_number()'s 10 significant digits would not round-trip.
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "latscope/export.h"

namespace latscope {
namespace {

constexpr uint64_t kFracMask = (uint64_t{1} << kResultFracBits) - 1;
// Whole I/Os a count may hold: units must fit in 64 bits.
constexpr uint64_t kMaxWhole = uint64_t{1} << (64 - kResultFracBits);

bool all_digits(std::string_view s) {
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

}  // namespace

std::string format_fixed_count(uint64_t units) {
  std::string s = std::to_string(units >> kResultFracBits);
  uint64_t frac = units & kFracMask;
  if (frac == 0) return s;
  s += '.';
  // Each step: the next decimal digit is the integer part of frac * 10.
  while (frac != 0) {
    frac *= 10;
    s += static_cast<char>('0' + (frac >> kResultFracBits));
    frac &= kFracMask;
  }
  return s;
}

bool parse_fixed_count(std::string_view text, uint64_t* units) {
  const size_t dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  const std::string_view frac = dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
  if ((whole.empty() && frac.empty()) || frac.size() > 100) return false;
  if (!all_digits(whole) || !all_digits(frac)) {
    // Exponent notation ("1e-3", what some SQL engines print for Float64):
    // through double, then to the nearest unit.
    if (text.empty() || text.size() > 64 || text.find_first_of("eE") == std::string_view::npos) return false;
    const std::string t(text);
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (end != t.c_str() + t.size() || !(v >= 0) || v >= static_cast<double>(kMaxWhole)) return false;
    *units = static_cast<uint64_t>(std::llround(v * kResultOne));
    return true;
  }
  uint64_t w = 0;
  for (char c : whole) {
    w = w * 10 + static_cast<uint64_t>(c - '0');
    if (w >= kMaxWhole) return false;
  }
  // The fraction times 2^28, exactly: double the decimal digits 28 times,
  // each carry out of the first digit being the next binary digit; one more
  // doubling decides the rounding (carry = remainder >= 1/2).
  std::vector<uint8_t> d(frac.begin(), frac.end());
  for (uint8_t& c : d) c = static_cast<uint8_t>(c - '0');
  uint64_t bits = 0;
  for (int k = 0; k <= kResultFracBits; ++k) {
    unsigned carry = 0;
    for (size_t i = d.size(); i-- > 0;) {
      const unsigned v = d[i] * 2u + carry;
      d[i] = static_cast<uint8_t>(v % 10);
      carry = v / 10;
    }
    if (k < kResultFracBits) bits = (bits << 1) | carry;
    else bits += carry;  // round half up
  }
  *units = (w << kResultFracBits) + bits;
  return true;
}

}  // namespace latscope
