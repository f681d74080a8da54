#include "runs_cli.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "input.h"
#include "latscope/engine.h"
#include "latscope/reader.h"

namespace latscope::cli {

RunPlan plan_input_runs(const std::vector<std::string>& files, const RunOptions& opts,
                        std::vector<RunFile>* planned, std::vector<FolderFile>* folder) {
  planned->clear();
  if (folder) folder->clear();
  std::vector<char> buf(size_t{1} << 20);
  // Inputs that are no latency log (a job file, a README: the registry's
  // sniff says "ignored") take no part in forming runs, as in the page's
  // Engine::assign_runs; they keep no run.
  std::vector<size_t> kept;
  for (const std::string& path : inputs(files)) {
    RunFile f;
    f.name = path == "-" ? "(stdin)" : path;
    f.id = parse_fio_file_name(f.name);
    FolderFile ff;
    bool log = true;
    Input in;
    std::string err;
    if (path != "-" && in.open(path, &err)) {
      const std::string& head = in.peek(kSniffBytes);
      const bool complete = head.size() < kSniffBytes;
      const FileFormat format = head.empty() ? FileFormat::kUnknown : sniff({path, head.data(), head.size(), complete}).format;
      // An empty file is no latency data either: the engine names it
      // ignored (an empty fio log included), so it forms no run of its own.
      log = !head.empty() && format != FileFormat::kIgnored;
      // The engine's own readers on the head (a json document whole: it is
      // small beside its logs): its series carry the jobs' log prefixes
      // (run_file_of), a log its account and layout (folder_file_of), as
      // the engine sees them once the file is read.
      Engine e;
      const int h = e.open_file(path);
      if (format == FileFormat::kFioJson) {
        for (size_t n; (n = in.read(buf.data(), buf.size())) > 0;) e.append(h, buf.data(), n);
      } else if (folder && log) {
        e.append(h, head.data(), head.size());
      }
      const Source& src = e.finish(h);
      if (format == FileFormat::kFioJson) {
        f = run_file_of(src);
        // fio's plain json (no json+ bins) is no latency data: the engine
        // names it ignored, and the page leaves it out of runs too.
        log = src.format != FileFormat::kIgnored;
      }
      ff = folder_file_of(src);
    } else if (path != "-") {
      log = false;  // unreadable: the engine's error, no run (as Engine::assign_runs)
    }
    ff.run_file = f;
    if (log) kept.push_back(planned->size());
    planned->push_back(std::move(f));
    if (folder) folder->push_back(std::move(ff));
  }
  // A gzip copy of a log beside it forms no run of its own (folder.h
  // gzip_copies): it would be the same log name twice, two runs' sign.
  if (folder) {
    const std::vector<size_t> copies = gzip_copies(*folder);
    kept.erase(std::remove_if(kept.begin(), kept.end(), [&](size_t i) { return copies[i] != SIZE_MAX; }), kept.end());
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
  std::vector<FolderFile> folder;
  RunPlan plan = plan_input_runs(files, opts, &planned, &folder);
  labels->runs.clear();
  const std::vector<std::string> paths = inputs(files);
  if (opts.explicit_choice() || plan.several() || grouped) {
    for (size_t i = 0; i < paths.size() && i < plan.run_of.size(); ++i) labels->runs[paths[i]] = plan.run_of[i];
  }
  // The folder as the engine will label it: runs as above, each file under
  // its path (docs/folders.md).
  for (size_t i = 0; i < folder.size() && i < paths.size(); ++i) {
    folder[i].run_file.name = paths[i];
    const auto r = labels->runs.find(paths[i]);
    folder[i].run = r == labels->runs.end() ? "" : r->second;
  }
  labels->choices = labels->all_accounts ? plan_gzip_copies(folder) : plan_accounts(folder, labels->prefer);
  labels->index.clear();
  for (size_t i = 0; i < folder.size(); ++i) labels->index[folder[i].run_file.name] = i;
  labels->trust = std::make_shared<TrustBuilder>(folder, labels->choices);
  labels->folder = std::move(folder);
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
