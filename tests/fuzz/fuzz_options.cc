// Fuzz target for options as text: the JSON options of the page and the
// embedding API (latscope/options_json.h), the percentile list, and the
// CLI's argv (the bytes split at newlines, after a command the first byte
// chooses). Must never crash or hang: bad options are a Status or a false
// with a sentence, never more.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cli_options.h"
#include "latscope/options_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string s(reinterpret_cast<const char*>(data + 1), size - 1);
  std::vector<std::string> labels;
  latscope::Unit unit = latscope::Unit::kUs;
  latscope::QueryOptions q;
  (void)latscope::parse_query_options_json(s, &q, &labels, &unit);
  latscope::HeatmapOptions h;
  (void)latscope::parse_heatmap_options_json(s, &h, &unit);
  latscope::FileOptions f;
  (void)latscope::parse_file_options_json(s, &f);
  latscope::RunOptions r;
  (void)latscope::parse_run_options_json(s, &r);
  std::vector<double> ps;
  (void)latscope::parse_percentile_list(s, &ps, &labels);

  static const char* const kCommands[] = {"pctiles", "heatmap", "summary", "reduce", "export"};
  std::vector<std::string> args = {"latscope", kCommands[data[0] % 5]};
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == '\n') {
      args.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  latscope::cli::Options o;
  (void)latscope::cli::parse_options(static_cast<int>(args.size()), argv.data(), 2, args[1].c_str(), &o);
  return 0;
}
