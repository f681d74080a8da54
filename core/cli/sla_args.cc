#include "sla_args.h"

#include <cstdio>

#include "cli_common.h"
#include "latscope/report.h"
#include "latscope/text.h"

namespace latscope::cli {
namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() > tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

bool take_sla_args(std::vector<char*>* args, const char* cmd, SlaArgs* out) {
  std::vector<char*> rest;
  const std::string prefix = std::string("latscope ") + cmd + ": ";
  bool have_spec = false;
  for (size_t i = 0; i < args->size(); ++i) {
    const std::string a = (*args)[i];
    if (a == "--") {  // the rest are files
      rest.insert(rest.end(), args->begin() + static_cast<std::ptrdiff_t>(i), args->end());
      break;
    }
    if (a == "--sla") {
      if (i + 1 >= args->size()) {
        say(prefix + "--sla needs rules like 'p99<=5ms,p99.9<=20ms'");
        return false;
      }
      const Status st = parse_sla((*args)[++i], &out->rules);
      if (!st.ok()) {
        say(prefix + st.message);
        return false;
      }
      have_spec = true;
    } else if (a == "--sla-summary") {
      if (i + 1 >= args->size() || std::string((*args)[i + 1]) != "md") {
        say(prefix + "--sla-summary takes md (and optionally a FILE ending in .md)");
        return false;
      }
      ++i;
      out->summary_md = true;
      if (i + 1 < args->size() && ends_with((*args)[i + 1], ".md")) out->summary_file = (*args)[++i];
    } else {
      rest.push_back((*args)[i]);
    }
  }
  if (out->summary_md && !have_spec) {
    say(prefix + "--sla-summary needs --sla rules to judge");
    return false;
  }
  *args = rest;
  return true;
}

std::string sla_context(const QueryResult& r, const std::vector<std::string>& files) {
  std::string c = std::to_string(files.size()) + (files.size() == 1 ? " input" : " inputs");
  if (!files.empty()) c += " (" + files.front() + (files.size() > 1 ? ", ..." : "") + ")";
  // Readable numbers (docs/ci-reports.md, "The Markdown verdict"): "quantum 1 s, 0:00 ... 1:00".
  c += ", quantum " + latency_text(r.quantum_ms * 1e6);
  if (!r.rows.empty()) {
    const double t0 = r.rows.front().t_ms, t1 = r.rows.back().t_ms + r.quantum_ms;
    c += ", " + (r.absolute_time ? utc_time_text(t0, true) + " ... " + utc_time_text(t1) + " UTC"
                                 : run_time_text(t0) + " ... " + run_time_text(t1));
  }
  c += ", " + std::to_string(r.groups.size()) + (r.groups.size() == 1 ? " group" : " groups");
  if (!r.groups.empty()) c += " (" + r.groups.front() + (r.groups.size() > 1 ? ", ..." : "") + ")";
  return c;
}

int finish_sla(const char* cmd, const SlaArgs& a, const QueryResult& r, const std::vector<double>& percentiles,
               const std::string& context, const std::vector<std::pair<std::string, std::string>>& artifacts) {
  if (a.rules.empty()) return 0;
  // The verdict is judged per group and per quantum on the rows the query
  // gave (docs/ci-reports.md); few-sample rows count and are marked.
  const SlaReport rep = evaluate_sla(r, percentiles, a.rules);
  const std::string prefix = std::string("latscope ") + cmd + ": SLA ";
  for (const std::string& line : sla_listing(r, a.rules, rep)) say(prefix + line);
  say(prefix + (rep.pass() ? "passed" : "FAILED"));
  if (a.summary_md) {
    SlaVerdictOptions vo;
    vo.context = context;
    vo.artifacts = artifacts;
    const std::string md = sla_markdown(r, a.rules, rep, vo);
    if (a.summary_file.empty()) {
      write_out(md);
    } else {
      std::string err;
      if (!write_file_atomic(a.summary_file, md.data(), md.size(), &err)) {
        say(prefix + "summary: " + err);
        return rep.pass() ? 2 : 3;
      }
    }
  }
  return rep.pass() ? 0 : 3;
}

}  // namespace latscope::cli
