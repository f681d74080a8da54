// The reduce step shared by `latscope reduce` and `latscope export`
// (cmd_result.cc): logs read, aligned and added into a Result with reduce's
// options (docs/result-format.md), so both commands select alike.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "latscope/result.h"

namespace latscope::cli {

// Takes "-o OUT" (and, when keep is given, "--keep LABELS") out of argv; the
// rest (argv[0..1] first) is for reduce_inputs. False, said, without -o.
bool split_args(int argc, char** argv, const char* cmd, std::vector<char*>* rest, std::string* out,
                std::string* keep);

// Parses the selection options in rest (pctiles' options, from rest[2]),
// reads the files and reduces them into *r. Returns the exit code so far:
// 0 or 1 (something left out, said), or 2 after saying why nothing can be
// written (bad option, unusable input, no counts selected).
int reduce_inputs(const char* cmd, std::vector<char*>* rest, const std::string& keep, Result* r,
                  uint64_t* in_bytes);

bool write_file(const std::string& path, const std::vector<uint8_t>& bytes, std::string* err);

}  // namespace latscope::cli
