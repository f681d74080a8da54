#include "header_units.h"

#include <algorithm>

#include "cli_common.h"

namespace latscope::cli {

std::string with_header_units(const std::string& csv, const std::vector<std::string>& plain,
                              const std::string& unit) {
  const size_t eol = csv.find('\n');
  if (eol == std::string::npos) return csv;
  std::string head;
  for (const std::string& col : split(csv.substr(0, eol), ',')) {
    if (!head.empty()) head += ',';
    head += col;
    if (std::find(plain.begin(), plain.end(), col) == plain.end()) head += "_" + unit;
  }
  return head + csv.substr(eol);
}

std::string with_stat_units(const std::string& csv, const std::string& unit) {
  std::string out;
  size_t at = csv.find('\n');
  if (at == std::string::npos) return csv;
  out.reserve(csv.size() + csv.size() / 8);
  out.append(csv, 0, ++at);  // the header: run names
  while (at < csv.size()) {
    size_t eol = csv.find('\n', at);
    if (eol == std::string::npos) eol = csv.size() - 1;
    // dir,stat,...: the direction and the statistic are plain words.
    const size_t c1 = csv.find(',', at);
    const size_t c2 = c1 < eol ? csv.find(',', c1 + 1) : std::string::npos;
    if (c2 != std::string::npos && c2 < eol && csv.compare(c1 + 1, c2 - c1 - 1, "samples") != 0) {
      out.append(csv, at, c2 - at);
      out += "_" + unit;
      out.append(csv, c2, eol + 1 - c2);
    } else {
      out.append(csv, at, eol + 1 - at);
    }
    at = eol + 1;
  }
  return out;
}

}  // namespace latscope::cli
