#include "runs_cli.h"

#include <vector>

#include "input.h"
#include "latscope/engine.h"
#include "latscope/reader.h"

namespace latscope::cli {

RunPlan plan_input_runs(const std::vector<std::string>& files, const RunOptions& opts,
                        std::vector<RunFile>* planned) {
  planned->clear();
  std::vector<char> buf(size_t{1} << 20);
  // Inputs that are no latency log (a job file, a README: the registry's
  // sniff says "ignored") take no part in forming runs, as in the page's
  // Engine::assign_runs; they keep no run.
  std::vector<size_t> kept;
  for (const std::string& path : inputs(files)) {
    RunFile f;
    f.name = path == "-" ? "(stdin)" : path;
    f.id = parse_fio_file_name(f.name);
    bool log = true;
    Input in;
    std::string err;
    if (path != "-" && in.open(path, &err)) {
      const std::string& head = in.peek(kSniffBytes);
      const bool complete = head.size() < kSniffBytes;
      const FileFormat format = head.empty() ? FileFormat::kUnknown : sniff({path, head.data(), head.size(), complete}).format;
      log = format != FileFormat::kIgnored;
      if (format == FileFormat::kFioJson) {
        // The engine's own json reader: its series carry the jobs' log
        // prefixes (run_file_of). Its problems are said when the command
        // reads it.
        Engine e;
        const int h = e.open_file(path);
        for (size_t n; (n = in.read(buf.data(), buf.size())) > 0;) e.append(h, buf.data(), n);
        const Source& src = e.finish(h);
        // fio's plain json (no json+ bins) is no latency data: the engine
        // names it ignored, and the page leaves it out of runs too.
        log = src.format != FileFormat::kIgnored;
        f = run_file_of(src);
      }
    }
    if (log) kept.push_back(planned->size());
    planned->push_back(std::move(f));
  }
  std::vector<RunFile> logs;
  logs.reserve(kept.size());
  for (size_t i : kept) logs.push_back((*planned)[i]);
  RunPlan sub = plan_runs(logs, opts);
  RunPlan plan;
  plan.run_of.assign(planned->size(), std::string());
  for (size_t k = 0; k < kept.size() && k < sub.run_of.size(); ++k) plan.run_of[kept[k]] = sub.run_of[k];
  plan.evidence = sub.evidence;
  for (Run& r : sub.runs)
    for (size_t& f : r.files) f = kept[f];
  plan.runs = std::move(sub.runs);
  return plan;
}

RunPlan prepare_runs(const char* cmd, const std::vector<std::string>& files, const RunOptions& opts, bool grouped,
                     const std::string& keep_hint, RunLabels* labels) {
  std::vector<RunFile> planned;
  RunPlan plan = plan_input_runs(files, opts, &planned);
  labels->clear();
  if (opts.explicit_choice() || plan.several() || grouped) {
    const std::vector<std::string> paths = inputs(files);
    for (size_t i = 0; i < paths.size() && i < plan.run_of.size(); ++i) (*labels)[paths[i]] = plan.run_of[i];
  }
  if (plan.several() && !grouped) {
    std::string why;
    for (const std::string& e : plan.evidence) why += " " + e + ".";
    if (why.empty()) why = " your --run / --run-by choice.";
    say(std::string("latscope ") + cmd + ": warning: the inputs look like " + describe_runs(plan, planned) +
        "; merged here. Why:" + why + " " + keep_hint + " keeps them apart, --run-by none says they are one run " +
        "(docs/runs.md)");
  }
  return plan;
}

}  // namespace latscope::cli
