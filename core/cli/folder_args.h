// A folder named on the command line stands for every file below it, read
// as the page reads a picked or dropped folder (docs/folders.md, "Reading a
// folder"): the same paths left out (latscope/folder.h walk_left_out), files
// in byte order of their path.
#pragma once

#include <string>
#include <vector>

namespace latscope::cli {

// Replaces each folder in *files by the files below it, saying on stderr what
// it leaves out and why. False, with *error set, when a folder cannot be read
// at all or holds more files than one call reads (kMaxFolderFiles).
bool expand_folders(std::vector<std::string>* files, std::string* error);

constexpr size_t kMaxFolderFiles = 1000000;

}  // namespace latscope::cli
