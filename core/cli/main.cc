// latscope CLI: a thin shell over the engine (core/). See docs/cli.md.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "cli_common.h"
#include "cmd_summary.h"
#include "commands.h"
#include "help.h"

namespace {

int run(int argc, char** argv) {
  using latscope::cli::kGlobalUsage;
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    std::fputs(kGlobalUsage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  if (!std::strcmp(argv[1], "--version") || !std::strcmp(argv[1], "-V")) {
    std::fputs(latscope::cli::version_line().c_str(), stdout);
    return 0;
  }
  const char* cmd = argv[1];
  // `latscope CMD --help` anywhere before "--": the command's own help, on
  // stdout with exit 0, as git, docker and kubectl do; no files are read.
  if (const char* help = latscope::cli::command_help(cmd); help && latscope::cli::asks_help(argc, argv, 2)) {
    std::fputs(help, stdout);
    return 0;
  }
  if (!std::strcmp(cmd, "pctiles")) return latscope::cli::cmd_pctiles(argc, argv);
  if (!std::strcmp(cmd, "heatmap")) return latscope::cli::cmd_heatmap(argc, argv);
  if (!std::strcmp(cmd, "summary")) return cmd_summary(argc, argv);
  if (!std::strcmp(cmd, "hdr")) return latscope::cli::cmd_hdr(argc, argv);
  if (!std::strcmp(cmd, "reduce")) return latscope::cli::cmd_reduce(argc, argv);
  if (!std::strcmp(cmd, "merge")) return latscope::cli::cmd_merge(argc, argv);
  if (!std::strcmp(cmd, "export")) return latscope::cli::cmd_export(argc, argv);
  if (!std::strcmp(cmd, "report")) return latscope::cli::cmd_report(argc, argv);
  std::vector<std::string> known = latscope::cli::command_names();
  known.insert(known.end(), {"--help", "--version"});
  const std::string near = latscope::cli::closest(cmd, known);
  latscope::cli::say(std::string("latscope: unknown command '") + cmd + "'" +
                     (near.empty() ? std::string() : " (did you mean " + near + "?)"));
  std::fputs(kGlobalUsage, stderr);
  return 2;
}

}  // namespace

// The engine bounds what it allocates for any input (docs/input-robustness.md);
// should memory still run out, the user reads a sentence, not an abort.
int main(int argc, char** argv) {
  try {
    const int rc = run(argc, argv);
    // Standard output that could not be written (a full disk, a closed
    // pipe's reader gone) is a failure, not a cut CSV with exit 0.
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
      latscope::cli::say(std::string("latscope: cannot write standard output: ") + std::strerror(errno) +
                         "; the output is incomplete");
      return 2;
    }
    return rc;
  } catch (const std::bad_alloc&) {
    latscope::cli::say("latscope: out of memory; fewer files at once (-j 1), a coarser --quantum or fewer groups "
                       "need less");
    return 2;
  }
}
