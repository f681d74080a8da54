#include "query/interval.h"

#include <algorithm>
#include <cmath>

#include "latscope/text.h"

namespace latscope {

double logging_interval_ms(const Series& s) {
  if (s.digest) return s.digest->interval_ms;  // the first pass's (model.h WindowDigest)
  std::vector<double> len;
  len.reserve(s.windows.size());
  for (const Window& w : s.windows)
    if (w.end_ms > w.start_ms) len.push_back(w.end_ms - w.start_ms);
  if (len.empty()) return 0;
  auto mid = len.begin() + static_cast<std::ptrdiff_t>(len.size() / 2);
  std::nth_element(len.begin(), mid, len.end());
  return *mid;
}

bool finer_than_interval(double interval_ms, double q_ms) { return interval_ms > 1.05 * q_ms; }

void FinerTally::count(double interval_ms, double q_ms, const std::string& source_name) {
  if (!finer_than_interval(interval_ms, q_ms)) return;
  std::vector<std::string>& v = files[std::round(interval_ms)];
  const size_t slash = source_name.find_last_of("/\\");
  const std::string base = slash == std::string::npos ? source_name : source_name.substr(slash + 1);
  if (std::find(v.begin(), v.end(), base) == v.end()) v.push_back(base);
}

void FinerTally::notes(double q_ms, std::vector<std::string>* out) const {
  if (files.empty()) return;
  std::string what;
  // A few intervals, then how many more: a log whose windows all differ
  // (per_job_logs=0 restarts, hostile input) must not make the note as long
  // as the log.
  constexpr size_t kShownIntervals = 5;
  size_t listed = 0;
  for (const auto& kv : files) {
    if (listed++ == kShownIntervals) {
      what += "; and " + std::to_string(files.size() - kShownIntervals) + " other intervals";
      break;
    }
    what += what.empty() ? "" : "; ";
    what += format_number(kv.first) + " ms: ";
    const size_t shown = std::min<size_t>(kv.second.size(), 3);
    for (size_t i = 0; i < shown; ++i) what += (i ? ", " : "") + kv.second[i];
    if (kv.second.size() > shown) what += " and " + std::to_string(kv.second.size() - shown) + " more";
  }
  out->push_back("the quantum (" + format_number(q_ms) + " ms) is finer than the logging interval of " + what +
                 ": each window's counts are spread evenly over the quanta it covers, so these rows show an "
                 "even share, not what happened in each quantum (flag finer; docs/quanta.md)");
}

}  // namespace latscope
