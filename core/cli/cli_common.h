// Shared by the CLI commands: reading files (plain or .gz) into an Engine and
// reporting each file's diagnostics on stderr. Exit codes: 0 ok, 1 lines
// skipped, 2 a file unusable or a usage error.
#pragma once

#include <string>
#include <vector>

#include "latscope/engine.h"

namespace latscope::cli {

// Reads every file into the engine. Returns the exit code so far (0, 1 or 2)
// after printing per-file diagnostics to stderr.
int load_files(Engine* engine, const std::vector<std::string>& files, const FileOptions& fopts);

// Reads a whole file (plain or gzip) into memory; false with *err set on failure.
bool read_whole_file(const std::string& path, std::string* out, std::string* err);

// Prints a source's status and issue counters (with first examples) to stderr.
void print_diagnostics(const Source& src);

bool parse_double(const std::string& s, double* out);
std::vector<std::string> split(const std::string& s, char sep);

}  // namespace latscope::cli
