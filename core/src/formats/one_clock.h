// One file, one clock (docs/input-robustness.md, "Time bases"): fio writes
// time_ms as ms since the job's start, or as epoch ms with log_unix_epoch=1,
// and no offset relates the two. A file's clock is the one most of its
// records use (a tie: the first record's); the readers of fio histogram
// logs, fio per-I/O logs and long tables leave the other clock's records out
// and name them with this tally.
#pragma once

#include <cstdint>

#include "latscope/model.h"
#include "latscope/status.h"

namespace latscope {

// How a fio log's two clocks are named in the messages.
extern const char* const kFioClocks[2];

struct OneClock {
  uint64_t records[2] = {0, 0};     // [0] relative, [1] epoch
  uint64_t first_line[2] = {0, 0};  // the first record of each
  int first = -1;                   // the first record's clock

  void see(int clock, uint64_t line) {
    if (first < 0) first = clock;
    if (records[clock]++ == 0) first_line[clock] = line;
  }
  // The clock kept (1 epoch, 0 relative); -1 before any record.
  int kept() const;
  // The records of the other clock, named in diag as kTimeBaseChange:
  // "N <what> from here on have <field> in <clock> but M in <clock>: those
  // <those> skipped". Returns N (0: nothing to leave out).
  uint64_t name_dropped(Diagnostics* diag, const char* what, const char* those, const char* field,
                        const char* const clocks[2]) const;
};

// The end of a fio log (histogram or per-I/O): the file keeps the clock most
// of its lines use (src->absolute_time), the other clock's lines are named
// in src->diag as "<what> ... skipped" and taken off src->records. Returns
// the clock dropped, whose records the reader still holds and must leave
// out; -1 when there are none.
int keep_fio_clock(const OneClock& clock, Source* src, const char* what);

}  // namespace latscope
