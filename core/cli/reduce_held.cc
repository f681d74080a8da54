// The start and end every reduce shares, and the reduce whose quantum is
// chosen from the inputs themselves (`latscope report` without --quantum;
// docs/ci-reports.md, "`latscope report`"): every input read once and
// held, the rule asked of what was read, then folded.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "cli_common.h"
#include "reduce.h"
#include "runs_cli.h"

namespace latscope::cli {

bool plan_reduce(Options* o, const std::string& keep, const char* cmd) {
  // --keep: the labels that survive (others are merged away); "kind" always
  // survives, so lat, clat and slat never add up. No --keep: every label.
  if (keep.empty()) {
    o->query.group_by = {"*"};
  } else if (keep == "-" || keep == "none") {
    o->query.group_by = {"kind"};
  } else {
    GroupBy g;
    if (!parse_group_by(keep, &g) || g.empty()) {
      say(std::string("latscope ") + cmd +
          ": --keep takes label names, comma-combined (host, job, dir, tag, ...), or none");
      return false;
    }
    if (std::find(g.begin(), g.end(), "kind") == g.end()) g.push_back("kind");
    o->query.group_by = g;
  }
  // Every label is kept without --keep; with it, runs stay apart when run is kept.
  const GroupBy& g = o->query.group_by;
  prepare_runs(cmd, o->files, o->runs, keep.empty() || std::count(g.begin(), g.end(), "run") > 0, "--keep run",
               &o->run_labels);
  return true;
}

int finish_reduce(StreamingQuery* stream, Status st, int rc, Options* o, const char* cmd, Result* r,
                  std::vector<TrustRow>* trust) {
  const std::string prefix = std::string("latscope ") + cmd + ": ";
  std::vector<std::string> notes;
  Diagnostics diag;
  if (st.ok()) st = stream->finish_result(r, &notes, &diag);
  if (!st.ok()) {
    say(prefix + st.message);
    return -1;
  }
  rc = std::max(rc, print_query_notes(notes, diag));
  rc = std::max(rc, print_trust(o->run_labels));
  if (trust && o->run_labels.trust) *trust = o->run_labels.trust->rows();
  if (r->series.empty()) {
    say(prefix + "no counts selected; nothing written");
    return -1;
  }
  return rc;
}

int reduce_inputs_held(Options o, const std::string& keep, const char* cmd,
                       const std::function<double(const std::vector<Source>&)>& quantum_of, Result* r,
                       uint64_t* in_bytes, std::vector<TrustRow>* trust) {
  if (!plan_reduce(&o, keep, cmd)) return -1;
  // Memory: every input's model at once, as the page holds them: the fold
  // cannot start before its quantum is known.
  std::vector<Source> held;
  *in_bytes = 0;
  const int rc = for_each_file(o.files, o.file, o.jobs, [&](Source& s) {
    *in_bytes += s.bytes;
    held.push_back(std::move(s));
  }, &o.run_labels);
  if (const double q = quantum_of(held); q > 0) o.query.quantum_ms = q;
  StreamingQuery stream(o.query);
  Status st;
  for (Source& s : held) {
    const Status added = stream.add(std::move(s));
    if (!added.ok() && st.ok()) st = added;
  }
  held.clear();
  return finish_reduce(&stream, st, rc, &o, cmd, r, trust);
}

}  // namespace latscope::cli
