// --sla SPEC and --sla-summary md [FILE.md] for `pctiles` and `report`
// (docs/ci-reports.md): taken out of argv before the shared options, the
// rules' percentiles added to the query, the verdict printed after it.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "latscope/engine.h"
#include "latscope/sla.h"

namespace latscope::cli {

struct SlaArgs {
  std::vector<SlaRule> rules;  // empty: no --sla
  bool summary_md = false;     // --sla-summary md
  std::string summary_file;    // its FILE; empty: standard output
};

// Removes --sla SPEC and --sla-summary md [FILE] from *args (a FILE is taken
// only when it ends in .md, so it is never mistaken for an input). On a bad
// spec prints why and returns false (exit 2).
bool take_sla_args(std::vector<char*>* args, const char* cmd, SlaArgs* out);

// One line of context for the verdict: inputs, quantum, time range, groups.
std::string sla_context(const QueryResult& r, const std::vector<std::string>& files);

// Evaluates the rules on the rows (percentiles: the query's), prints the
// listing to stderr and writes the Markdown verdict when asked. Returns 3
// when some rule is violated, 2 when the verdict could not be written, else 0.
// artifacts: the files written beside the verdict (name, what it is), listed in it.
int finish_sla(const char* cmd, const SlaArgs& a, const QueryResult& r, const std::vector<double>& percentiles,
               const std::string& context, const std::vector<std::pair<std::string, std::string>>& artifacts = {});

}  // namespace latscope::cli
