// format_number (report.h) is the one formatter of numbers that leave
// latscope. Natively it uses std::to_chars, in WebAssembly snprintf; the
// standard defines the first as the second, and this holds it to that: the
// page's CSV and the CLI's must be the same bytes.
#include <cmath>
#include <cstdio>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "latscope/report.h"

namespace latscope {
namespace {

std::string printf_reference(double v) {
  char buf[64];
  if (v == std::floor(v) && std::fabs(v) < 9007199254740992.0) std::snprintf(buf, sizeof buf, "%.0f", v);
  else std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

TEST(FormatNumber, EqualsPrintfOnEdgesAndRandomValues) {
  std::vector<double> vs = {0.0, -0.0, 1, -1, 0.5, 1e-300, 5e-324, 1e21, 123456789012.5, 9007199254740991.0,
                            9007199254740992.0, 9007199254740994.0, 1e300, 0.1, 2.5, 0.00012345678905,
                            9.9999999995, 99999.999995, 1234.5678905, 1e-5, 1e-4, 123456789.0 / 1000,
                            999999999.95, 9999999999.5, 1.0 / 3, -2.0 / 3};
  std::mt19937_64 rng(20261123);
  std::uniform_real_distribution<double> mant(1, 10);
  std::uniform_int_distribution<int> exp10(-12, 18);
  for (int i = 0; i < 200000; ++i) {
    const double v = mant(rng) * std::pow(10.0, exp10(rng));
    vs.push_back(i % 3 ? v : std::round(v));
    vs.push_back(std::nextafter(v, 0.0));
  }
  // Latencies in us and ms from whole ns, as every view shows them.
  for (uint64_t ns = 1; ns < 20000000000ULL; ns = ns * 3 + 7) {
    vs.push_back(static_cast<double>(ns) / 1e3);
    vs.push_back(static_cast<double>(ns) / 1e6);
  }
  size_t bad = 0;
  for (double v : vs) {
    if (format_number(v) == printf_reference(v)) continue;
    if (++bad <= 10) ADD_FAILURE() << "format_number(" << printf_reference(v) << ") = " << format_number(v);
  }
  EXPECT_EQ(bad, 0u) << "of " << vs.size();
}

TEST(FormatNumber, NotFiniteIsEmpty) {
  EXPECT_EQ(format_number(std::nan("")), "");
  EXPECT_EQ(format_number(HUGE_VAL), "");
  EXPECT_EQ(format_number(-HUGE_VAL), "");
}

}  // namespace
}  // namespace latscope
