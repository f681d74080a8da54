// Runs for the CLI (docs/runs.md): the inputs are put into runs before they
// are parsed, so each file is opened with its "run" label; several runs
// about to be merged are named on stderr.
#pragma once

#include <string>
#include <vector>

#include "cli_common.h"
#include "latscope/runs.h"

namespace latscope::cli {

// Plans the runs of `files`: names and fio identities, and for each fio
// json output (sniffed, then read: a json document is small beside its logs)
// the log prefixes of its jobs. Standard input ("-") is planned by its name
// "(stdin)" only: it can be read once.
// `folder`: when given, each input as the engine sees its head (folder.h
// folder_file_of): its account, fio version, histogram layout.
RunPlan plan_input_runs(const std::vector<std::string>& files, const RunOptions& opts,
                        std::vector<RunFile>* planned, std::vector<FolderFile>* folder = nullptr);

// What the commands that parse files call: plans the runs; fills *labels
// (path -> run) when the labels matter (the user chose how runs are formed,
// the inputs are several runs, or `grouped` says the output keeps runs
// apart); and when several runs are merged (not `grouped`), warns:
//   latscope pctiles: warning: the inputs look like 2 runs: a (...); b (...);
//     merged here. Why: ... --group-by run keeps them apart, --run-by none
//     says they are one run (docs/runs.md)
// `keep_hint` is the option that keeps them apart ("--group-by run").
RunPlan prepare_runs(const char* cmd, const std::vector<std::string>& files, const RunOptions& opts, bool grouped,
                     const std::string& keep_hint, RunLabels* labels);

}  // namespace latscope::cli
