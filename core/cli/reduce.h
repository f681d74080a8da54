// The reduce path shared by `latscope reduce` and `latscope report`
// (cmd_result.cc): the inputs folded into one result (docs/result-format.md).
#pragma once

#include <cstdint>
#include <string>

#include "cli_options.h"
#include "latscope/result.h"

namespace latscope::cli {

// Folds o.files into *r keeping the labels of keep ("" every label, "none"
// or "-" only kind, else label names; kind always). Prints diagnostics;
// returns the exit code so far (0, 1 or 2), or -1 when nothing usable came
// out (said on stderr; the command exits 2).
int reduce_inputs(Options o, const std::string& keep, const char* cmd, Result* r, uint64_t* in_bytes);

}  // namespace latscope::cli
