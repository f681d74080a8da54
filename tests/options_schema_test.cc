// The options every face starts from come from core: the CLI's defaults,
// the JSON options' and the page's (web/src/model/option-defaults.js, a
// module core writes: options_json.h page_defaults_module).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "latscope/engine.h"
#include "latscope/options_json.h"

namespace latscope {
namespace {

const std::string kPageDefaults = std::string(LATSCOPE_FIXTURES) + "/../../web/src/model/option-defaults.js";

TEST(OptionsSchema, ThePagesDefaultsAreCoresGenerated) {
  const std::string want = page_defaults_module();
  if (const char* again = std::getenv("LATSCOPE_REGENERATE"); again && std::string(again) == "1") {
    std::ofstream(kPageDefaults, std::ios::binary) << want;
  }
  std::ifstream f(kPageDefaults, std::ios::binary);
  std::stringstream got;
  got << f.rdbuf();
  EXPECT_EQ(got.str(), want) << kPageDefaults
                             << " is not core's: LATSCOPE_REGENERATE=1 build/tests/latscope_tests "
                                "--gtest_filter='OptionsSchema.*' writes it again";
}

TEST(OptionsSchema, TheModuleSaysWhatQueryOptionsHold) {
  const std::string m = page_defaults_module();
  EXPECT_NE(m.find("quantum_ms: 1000,"), std::string::npos) << m;
  EXPECT_NE(m.find("percentiles: Object.freeze(['50', '90', '99', '99.9', '100'])"), std::string::npos) << m;
  EXPECT_NE(m.find("group_by: 'all'"), std::string::npos) << m;
  EXPECT_NE(m.find("directions: 'r,w,t'"), std::string::npos) << m;
  EXPECT_NE(m.find("method: 'interp'"), std::string::npos) << m;
  EXPECT_NE(m.find("unit: 'us'"), std::string::npos) << m;
  EXPECT_NE(m.find("account: 'per-io'"), std::string::npos) << m;
  EXPECT_NE(m.find("QUANTUM_PRESETS_MS = Object.freeze([100, 200, 500, 1000, 2000, 5000, 10000, 15000, 30000, "
                   "60000, 120000, 300000, 600000])"),
            std::string::npos)
      << m;
}

// "{}" from the page means the CLI's defaults: the same percentiles, labels
// and unit as a command line without flags.
TEST(OptionsSchema, EmptyJsonOptionsAreTheDefaults) {
  QueryOptions q;
  std::vector<std::string> labels;
  Unit unit = Unit::kMs;
  ASSERT_TRUE(parse_query_options_json("{}", &q, &labels, &unit).ok());
  EXPECT_EQ(q.percentiles, QueryOptions().percentiles);
  EXPECT_EQ(labels, default_percentile_labels());
  EXPECT_EQ(labels, (std::vector<std::string>{"p50", "p90", "p99", "p99.9", "p100"}));
  EXPECT_EQ(unit, kDefaultUnit);
}

}  // namespace
}  // namespace latscope
