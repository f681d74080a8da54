// The reduce path shared by `latscope reduce`, `export` and `report`
// (cmd_result.cc): the inputs folded into one result (docs/result-format.md),
// so every command that writes a result selects alike.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cli_options.h"
#include "latscope/result.h"
#include "latscope/result_matrix.h"
#include "latscope/result_stream.h"
#include "latscope/stream.h"

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

// The same fold with its quantum chosen from the inputs: each read once and
// held (memory: every input's model), quantum_of asked of them (0 keeps
// o.query.quantum_ms), then folded (reduce_held.cc). `latscope report`
// without --quantum: the page's default quantum (latscope/quanta.h).
int reduce_inputs_held(Options o, const std::string& keep, const char* cmd,
                       const std::function<double(const std::vector<Source>&)>& quantum_of, Result* r,
                       uint64_t* in_bytes, std::vector<TrustRow>* trust = nullptr);

// The start every reduce shares: --keep into o->query.group_by, the runs
// planned (o->run_labels). False, said, for a bad --keep.
bool plan_reduce(Options* o, const std::string& keep, const char* cmd);

// The end every reduce shares: the fold's result (st: the first error of
// its adds), its notes and the trust summary said; the exit code so far
// (rc and theirs), or -1 (said) when nothing usable came out.
int finish_reduce(StreamingQuery* stream, Status st, int rc, Options* o, const char* cmd, Result* r,
                  std::vector<TrustRow>* trust);

// A plain (not compressed) result file read by ranges, opened per read;
// *size its size. Empty (no function) for anything else.
ReadAtFn file_range_reader(const std::string& path, uint64_t* size);

// The quantum of the result files among `files` (plain files named
// directly): the coarsest of their quanta (each file's finest level), and
// the file it came from. False when no input is a result.
// docs/result-format.md, "Reading a result": without --quantum a query
// reads a result at its own quantum.
bool results_quantum(const std::vector<std::string>& files, double* quantum_ms, std::string* from);

// The line a written result ends with: its sizes, and each level's (dir) when several.
void say_written(const char* cmd, const std::string& out, size_t series, uint64_t cells, uint64_t bytes,
                 uint64_t in_bytes, const std::vector<ResultLevel>& dir, const std::string& how);

// --levels sorted and checked against the finest (quantum_ms): each a
// multiple of it, at most kMaxResultLevels. False, said, otherwise.
bool check_levels(const char* cmd, std::vector<double>* levels, double quantum_ms);

// Writes a planned merge of `inputs` (names: for messages) in time order at
// `quantum`, with `levels` when more than one (a version 3 file), atomically
// to `out`; says what it wrote (`how` ends the line). Exit code 0 or 2.
// matrix: the inputs' per-host matrices concatenated after the histograms
// (a version 4 file; docs/result-format.md, "Merging the matrix").
int write_streamed(const char* cmd, const MergePlan& plan, std::vector<ResultBlockReader>* inputs,
                   const std::vector<std::string>& names, double quantum, const std::vector<double>& levels,
                   const std::string& how, const std::string& out, uint64_t in_bytes, const MergePlan* sums,
                   const MatrixMergePlan* matrix = nullptr, std::vector<MatrixReader>* matrices = nullptr);

// `reduce --keep LABELS` of result files alone (docs/result-format.md,
// "Reducing results"): each series re-keyed to the kept labels and the
// inputs merged in time order, as merge does, at o.query.quantum_ms (a
// multiple of theirs). -1 when this does not apply (any option but
// --quantum and -j, an input not a plain result file, a series lacking a
// kept label, quanta that do not nest): the fold does it then. Else the
// exit code.
int reduce_results(const std::vector<char*>& args, const std::string& keep, const Options& o,
                   const std::vector<double>& levels, const std::string& out);

bool write_file(const std::string& path, const std::vector<uint8_t>& bytes, std::string* err);

}  // namespace latscope::cli
