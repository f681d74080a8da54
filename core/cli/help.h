// What the CLI says about itself: the global usage, each command's help
// (`latscope CMD --help`), the version, and the "did you mean" of an unknown
// command or option. Each command's help text is the one list of the options
// it takes: the suggestions are read from it, so they cannot name an option
// the help does not show (docs/cli.md).
#pragma once

#include <string>
#include <vector>

namespace latscope::cli {

// `latscope --help`: the commands, one line each.
extern const char kGlobalUsage[];

// A command's help text, or nullptr for no such command.
const char* command_help(const std::string& command);

// Every option a command's help names ("--quantum", "-o", Java's "-csv").
std::vector<std::string> help_options(const std::string& command);

// The command names, as `latscope --help` lists them.
const std::vector<std::string>& command_names();

// The candidate closest to `word` within an edit distance of 2 (insertions,
// deletions, substitutions and swaps of neighbours), "" when none is.
std::string closest(const std::string& word, const std::vector<std::string>& candidates);

// " (did you mean X?)" for an option `command` does not know, "" when none is
// close.
std::string did_you_mean(const std::string& command, const std::string& option);

// True when argv[first..] asks for help (-h or --help before any "--").
bool asks_help(int argc, char** argv, int first);

// "latscope VERSION\n" (VERSION: package.json's, passed in by CMake).
std::string version_line();

}  // namespace latscope::cli
