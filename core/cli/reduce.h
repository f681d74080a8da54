// The reduce path shared by `latscope reduce`, `export` and `report`
// (cmd_result.cc): the inputs folded into one result (docs/result-format.md),
// so every command that writes a result selects alike.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli_options.h"
#include "latscope/result.h"
#include "latscope/result_stream.h"

namespace latscope::cli {

// Takes "-o OUT" (and, when keep is given, "--keep LABELS"; when levels is
// given, "--levels MS,...") out of argv; the rest (argv[0..1] first) is for
// parse_options. False, said, without -o or with bad --levels.
bool split_args(int argc, char** argv, const char* cmd, std::vector<char*>* rest, std::string* out,
                std::string* keep, std::vector<double>* levels = nullptr);

// Folds o.files into *r keeping the labels of keep ("" every label, "none"
// or "-" only kind, else label names; kind always). Prints diagnostics;
// returns the exit code so far (0, 1 or 2), or -1 when nothing usable came
// out (said on stderr; the command exits 2).
// trust: when given, the inputs' trust summary (folder.h).
int reduce_inputs(Options o, const std::string& keep, const char* cmd, Result* r, uint64_t* in_bytes,
                  std::vector<TrustRow>* trust = nullptr);

// A plain (not compressed) result file read by ranges, opened per read;
// *size its size. Empty (no function) for anything else.
ReadAtFn file_range_reader(const std::string& path, uint64_t* size);

// The quantum of the result files among `files` (plain files named
// directly): the coarsest of their quanta (each file's finest level), and
// the file it came from. False when no input is a result.
// docs/result-format.md, "Reading a result": without --quantum a query
// reads a result at its own quantum.
bool results_quantum(const std::vector<std::string>& files, double* quantum_ms, std::string* from);

bool write_file(const std::string& path, const std::vector<uint8_t>& bytes, std::string* err);

}  // namespace latscope::cli
