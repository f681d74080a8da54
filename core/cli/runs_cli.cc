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
  for (const std::string& path : inputs(files)) {
    RunFile f;
    f.name = path == "-" ? "(stdin)" : path;
    f.id = parse_fio_file_name(f.name);
    Input in;
    std::string err;
    if (path != "-" && in.open(path, &err)) {
      const std::string& head = in.peek(kSniffBytes);
      const bool complete = head.size() < kSniffBytes;
      if (!head.empty() && sniff({path, head.data(), head.size(), complete}).format == FileFormat::kFioJson) {
        // The engine's own json reader: its series carry the jobs' log
        // prefixes (run_file_of). Its problems are said when the command
        // reads it.
        Engine e;
        const int h = e.open_file(path);
        for (size_t n; (n = in.read(buf.data(), buf.size())) > 0;) e.append(h, buf.data(), n);
        f = run_file_of(e.finish(h));
      }
    }
    planned->push_back(std::move(f));
  }
  return plan_runs(*planned, opts);
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
