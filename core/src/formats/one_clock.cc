#include "formats/one_clock.h"

#include <string>

namespace latscope {

const char* const kFioClocks[2] = {"ms since the job's start", "epoch ms (log_unix_epoch)"};

int OneClock::kept() const {
  if (first < 0) return -1;
  return records[1 - first] > records[first] ? 1 - first : first;
}

uint64_t OneClock::name_dropped(Diagnostics* diag, const char* what, const char* those, const char* field,
                                const char* const clocks[2]) const {
  const int keep = kept();
  if (keep < 0) return 0;
  const int drop = 1 - keep;
  const uint64_t n = records[drop];
  if (n == 0) return 0;
  std::string text = std::to_string(n);
  text += ' ';
  text += what;
  text += " from here on have ";
  text += field;
  text += " in ";
  text += clocks[drop];
  text += " but ";
  text += std::to_string(records[keep]);
  text += " in ";
  text += clocks[keep];
  text += ": those ";
  text += those;
  text += " skipped";
  diag->add(Issue::kTimeBaseChange, first_line[drop], 1, text);
  diag->add_count(Issue::kTimeBaseChange, n - 1);
  return n;
}

int keep_fio_clock(const OneClock& clock, Source* src, const char* what) {
  const int keep = clock.kept();
  if (keep < 0) return -1;
  src->absolute_time = keep == 1;
  const uint64_t n = clock.name_dropped(&src->diag, what, "lines", "time_ms", kFioClocks);
  if (n == 0) return -1;
  src->records -= n;
  return 1 - keep;
}

}  // namespace latscope
