// A Result as model series (docs/result-format.md, "Reading a result"):
// shared by the result-file reader and the long-table (TSV) reader, which
// both hold a Result once their bytes are read.
#pragma once

#include "latscope/model.h"
#include "latscope/result.h"

namespace latscope {

// One series per label set and layout, one window per non-empty cell; keeps
// src's file and run labels and sets absolute_time, layout and records.
void result_to_source(const Result& r, Source* src);

}  // namespace latscope
