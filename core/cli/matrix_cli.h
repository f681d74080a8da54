// The per-host percentile matrix in the CLI (docs/result-format.md,
// "Per-host percentile matrix (version 4)"): what reduce writes beside its
// histograms, what merge concatenates, and pctiles answering from it.
#pragma once

#include <string>
#include <vector>

#include "cli_options.h"
#include "latscope/result.h"
#include "latscope/result_matrix.h"

namespace latscope::cli {

// The matrix levels reduce writes for a result at `quantum` keeping `keep`
// (reduce.h): --matrix's or the default ladder when --keep names host, or
// without --keep only when --matrix is given; none with --matrix none or
// host merged away. Each a multiple of the quantum (the others left out,
// said on stderr).
std::vector<double> matrix_levels(const char* cmd, const Options& o, const std::string& keep, double quantum);

// *bytes (a version 2 or 3 file) wrapped as a version 4 file with the matrix
// of r at `levels`, made with o's percentiles and method.
Status add_matrix(const Result& r, const Options& o, const std::vector<double>& levels, std::vector<uint8_t>* bytes);

// The line after the written result's: the matrix's levels and bytes.
void say_matrix(const char* cmd, const std::vector<double>& levels, uint64_t bytes);

// The inputs' matrices opened and planned for concatenation. False when no
// matrix is written: *note says why (empty when no input had one).
bool open_matrices(const std::vector<ReadAtFn>& reads, const std::vector<uint64_t>& sizes,
                   const std::vector<std::string>& names, std::vector<MatrixReader>* readers, MatrixMergePlan* plan,
                   std::string* note);

// pctiles of one result file whose matrix holds the query: --group-by host,
// --quantum one of its levels, its percentiles and method, CSV, nothing else
// but --unit. The exit code, or -1 when the matrix does not answer (the
// histograms do then); a damaged matrix is said and left to the histograms.
int pctiles_from_matrix(const std::vector<char*>& args, const Options& o);

}  // namespace latscope::cli
