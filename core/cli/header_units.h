// --header-units (pctiles, heatmap, summary): the unit named in the CSV
// header, "p99_us" for "p99". Opt-in, and applied by the CLI to core's text:
// the plain names stay the default because the page's CSV export must equal
// `latscope pctiles` byte for byte (web/test/e2e), ClickHouse checks and
// users' scripts read them, and docs/cli.md's examples pin them. JSON names
// its unit already ("unit").
#pragma once

#include <string>
#include <vector>

namespace latscope::cli {

// The header line (the first) of `csv` with "_" + unit after every column
// not in `plain` (columns without a unit: time_ms, group, samples, ...).
// The headers these commands write are never quoted: names come from
// fixed words and percentile labels.
std::string with_header_units(const std::string& csv, const std::vector<std::string>& plain,
                              const std::string& unit);

// `summary --compare`: columns are runs and rows statistics, so the unit
// goes into each row's statistic (the second cell): "p99_us"; "samples",
// a count, stays.
std::string with_stat_units(const std::string& csv, const std::string& unit);

}  // namespace latscope::cli
