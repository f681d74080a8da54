// Shared by the CLI commands: reading files (plain or .gz) into an Engine and
// reporting each file's diagnostics on stderr. Exit codes: 0 ok, 1 lines
// skipped, 2 a file unusable or a usage error.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "latscope/engine.h"

namespace latscope::cli {

// Reads every file into the engine. Returns the exit code so far (0, 1 or 2)
// after printing per-file diagnostics to stderr.
int load_files(Engine* engine, const std::vector<std::string>& files, const FileOptions& fopts);

// Parses each file with its own Engine and hands its Source to fn, then
// drops it: memory holds one file's model at a time. fio json output is read
// first (what the engine would take as json: the first non-blank byte is not
// a digit), so it is at hand when the logs it completes arrive. Same exit
// codes and diagnostics as load_files.
int for_each_file(const std::vector<std::string>& files, const FileOptions& fopts,
                  const std::function<void(const Source&)>& fn);

// Reads a whole file (plain or gzip) into memory; false with *err set on failure.
bool read_whole_file(const std::string& path, std::string* out, std::string* err);

// Prints a source's status and issue counters (with first examples) to stderr.
void print_diagnostics(const Source& src);

bool parse_double(const std::string& s, double* out);
std::vector<std::string> split(const std::string& s, char sep);

}  // namespace latscope::cli
