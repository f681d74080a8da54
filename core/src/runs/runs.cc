// Which input files came from one fio run (latscope/runs.h). The rules and
// the evidence behind them are in docs/runs.md; in short, two facts about fio
// hold in every run:
//  * one fio invocation writes one json/json+ output, and that output names
//    its jobs' log prefixes (write_hist_log / write_lat_log options);
//  * one run writes each log name once: jobs are numbered 1.. per run
//    (NAME_clat_hist.1.log), so the same log name, prefix aside, twice among
//    the inputs means two runs.
// Folders, prefixes, logging intervals and time spans alone prove nothing
// (one run may log to several folders, under several prefixes, at several
// intervals, in sequence); they only name runs. A benchmark tool's layout is
// evidence of its own (latscope/tool_layouts.h): pbench-fio's sample folder
// and CBT's id-<hash> folder each hold one run, whatever their subfolders.
#include "latscope/runs.h"

#include "latscope/tool_layouts.h"

#include "latscope/report.h"

#include <fnmatch.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>

namespace latscope {
namespace {

std::string folder_of(const std::string& path) {
  const size_t s = path.find_last_of("/\\");
  return s == std::string::npos ? "." : path.substr(0, s);
}

std::string last_part(const std::string& path) {
  const size_t s = path.find_last_of("/\\");
  return s == std::string::npos ? path : path.substr(s + 1);
}

// "a.json" -> "a", "out.json.gz" -> "out".
std::string stem(const std::string& path) {
  std::string b = last_part(path);
  if (b.size() > 3 && b.compare(b.size() - 3, 3, ".gz") == 0) b.resize(b.size() - 3);
  const size_t dot = b.rfind('.');
  return dot == std::string::npos || dot == 0 ? b : b.substr(0, dot);
}

// A fio log's name with its prefix and .gz taken off: "_clat_hist.1.log"
// for "a_clat_hist.1.log"; one run writes each of these once. "" for a name
// fio did not make.
std::string log_slot(const RunFile& f) {
  if (f.json || f.id.kind.empty()) return "";
  std::string b = last_part(f.name);
  if (f.id.gz) b.resize(b.size() - 3);
  return b.substr(f.id.prefix.size());
}

// A run as it is being formed: its key, how it was found and the names it
// may take, best first (the first that no other run takes wins).
struct Draft {
  std::string key, how;
  std::vector<std::string> names;
  std::vector<size_t> files;
};

class Planner {
 public:
  Planner(const std::vector<RunFile>& files, const RunOptions& opts) : f_(files), o_(opts), key_(files.size()) {}

  RunPlan plan() {
    // Fixed by the caller, then patterns; json outputs before logs, which
    // may follow their json+'s run.
    std::vector<size_t> rest;
    for (size_t i = 0; i < f_.size(); ++i) {
      if (!f_[i].given.empty()) {
        assign(i, "given:" + f_[i].given, "run label given", {f_[i].given});
      } else if (const RunPattern* p = pattern_for(i)) {
        assign(i, "pattern:" + p->name, "--run " + p->name + "=" + p->glob, {p->name});
      } else {
        rest.push_back(i);
      }
    }
    switch (o_.by) {
      case RunBy::kNone:
        for (size_t i : rest) assign(i, "one", "--run-by none", {"all"});
        break;
      case RunBy::kFolder:
        for (size_t i : rest) {
          const std::string d = folder_of(f_[i].name);
          assign(i, "folder:" + d, "folder " + d, {last_part(d), d});
        }
        break;
      case RunBy::kPrefix:
        for (size_t i : rest) {
          const std::string p = prefix_of(i);
          assign(i, "prefix:" + p, "prefix " + p, {p});
        }
        break;
      case RunBy::kAuto:
        rest = by_tool(rest);
        by_json(rest);
        break;
      case RunBy::kJson:
        by_json(rest);
        break;
    }
    return finish();
  }

 private:
  const RunPattern* pattern_for(size_t i) const {
    for (const RunPattern& p : o_.patterns)
      if (run_glob_matches(p.glob, f_[i].name)) return &p;
    return nullptr;
  }

  std::string prefix_of(size_t i) const {
    const RunFile& f = f_[i];
    if (!f.json) return f.id.prefix;
    const std::set<std::string> p(f.prefixes.begin(), f.prefixes.end());
    return p.size() == 1 && !p.begin()->empty() ? *p.begin() : stem(f.name);
  }

  void assign(size_t i, const std::string& key, const std::string& how, const std::vector<std::string>& names) {
    key_[i] = key;
    auto it = std::find_if(drafts_.begin(), drafts_.end(), [&](const Draft& d) { return d.key == key; });
    if (it == drafts_.end()) {
      drafts_.push_back({key, how, names, {}});
      it = drafts_.end() - 1;
    }
    it->files.push_back(i);
  }

  // Files in a benchmark tool's run folder (tool_layouts.h) are that run;
  // returns the others. Two such folders are two runs: the tool ran fio
  // anew for each (docs/runs.md, "Folders that benchmark tools leave").
  std::vector<size_t> by_tool(const std::vector<size_t>& files) {
    std::vector<size_t> others;
    std::vector<std::string> runs;
    std::string tool;
    std::vector<ToolPlace> place(files.size());
    std::vector<ToolPlace> found;  // the run folders the paths show
    for (size_t k = 0; k < files.size(); ++k) {
      place[k] = tool_place_of(f_[files[k]].name);
      if (!place[k].run.empty()) found.push_back(place[k]);
    }
    // A file in a run folder or below it whose own path shows no layout
    // (pbench-fio's fio-result.txt beside clients/) belongs to that run; the
    // innermost folder wins.
    for (size_t k = 0; k < files.size(); ++k) {
      if (!place[k].run.empty()) continue;
      // As tool_place_of spells folders: "." parts left out.
      std::string d;
      for (size_t a = 0, b; a <= f_[files[k]].name.size(); a = b + 1) {
        b = f_[files[k]].name.find_first_of("/\\", a);
        if (b == std::string::npos) break;  // the last part is the file
        const std::string part = f_[files[k]].name.substr(a, b - a);
        if (!part.empty() && part != ".") d += (d.empty() ? "" : "/") + part;
      }
      if (d.empty()) d = ".";
      // A run folder "." (paths that start inside it) holds the relative
      // paths that do not climb out of it.
      const bool inside_dot = f_[files[k]].name.compare(0, 1, "/") != 0 && d.compare(0, 2, "..") != 0;
      for (const ToolPlace& p : found)
        if ((d == p.run || (p.run == "." ? inside_dot : d.compare(0, p.run.size() + 1, p.run + "/") == 0)) &&
            p.run.size() >= place[k].run.size()) {
          place[k] = p;
          place[k].host.clear();
        }
    }
    for (size_t k = 0; k < files.size(); ++k) {
      const size_t i = files[k];
      const ToolPlace& p = place[k];
      if (p.run.empty()) {
        others.push_back(i);
        continue;
      }
      const std::string unit = p.tool == "CBT" ? "test" : "sample";
      // Named by the folder's last two parts ("1-rw-4KiB/sample1"), then whole.
      const size_t s = p.run.find_last_of('/');
      const size_t s2 = s == std::string::npos || s == 0 ? std::string::npos : p.run.find_last_of('/', s - 1);
      const std::vector<std::string> names = {s2 == std::string::npos ? p.run : p.run.substr(s2 + 1), p.run};
      assign(i, "tool:" + p.tool + ":" + p.run, p.tool + " " + unit + " " + p.run, names);
      if (std::find(runs.begin(), runs.end(), p.run) == runs.end()) runs.push_back(p.run);
      if (tool.empty()) tool = p.tool + " " + unit;
    }
    if (!runs.empty() && !others.empty())
      evidence_.push_back(f_[others.front()].name +
                          (others.size() > 1 ? " and " + std::to_string(others.size() - 1) + " more files" : "") +
                          ": outside the " + tool + " folder" + (runs.size() > 1 ? "s" : "") + " (" + runs.front() +
                          (runs.size() > 1 ? ", ..." : "") + "), so no part of its run");
    if (runs.size() > 1) {
      std::string names;
      for (size_t k = 0; k < runs.size() && k < 3; ++k) names += (k ? ", " : "") + runs[k];
      if (runs.size() > 3) names += " and " + std::to_string(runs.size() - 3) + " more";
      evidence_.push_back(std::to_string(runs.size()) + " " + tool + " folders (" + names +
                          "): the tool runs fio anew for each");
    }
    return others;
  }

  // The json output a log belongs to: the one naming its prefix (the one in
  // the log's folder when several do), else the only json in its folder
  // when that json names no prefix at all and lists no options either (a
  // json that says nothing of logs). A json whose jobs list their options
  // and name no log wrote none: it claims none. SIZE_MAX: none, or no
  // single one.
  size_t json_for(size_t i) const {
    const RunFile& f = f_[i];
    if (f.id.kind.empty()) return SIZE_MAX;  // not a fio log name
    std::vector<size_t> named, silent_here;
    for (size_t j = 0; j < f_.size(); ++j) {
      if (!f_[j].json || key_[j].empty()) continue;
      const auto& p = f_[j].prefixes;
      if (std::find(p.begin(), p.end(), f.id.prefix) != p.end()) named.push_back(j);
      const bool silent = !f_[j].wrote_no_logs && std::all_of(p.begin(), p.end(), [](const std::string& x) { return x.empty(); });
      if (silent && folder_of(f_[j].name) == folder_of(f.name)) silent_here.push_back(j);
    }
    if (named.size() > 1) {
      std::vector<size_t> here;
      for (size_t j : named)
        if (folder_of(f_[j].name) == folder_of(f.name)) here.push_back(j);
      named.swap(here);
    }
    if (named.size() == 1) return named.front();
    if (named.empty() && silent_here.size() == 1) return silent_here.front();
    return SIZE_MAX;
  }

  void by_json(const std::vector<size_t>& rest) {
    std::vector<size_t> jsons, logs;
    for (size_t i : rest) (f_[i].json ? jsons : logs).push_back(i);
    for (size_t j : jsons) {
      const std::string d = folder_of(f_[j].name);
      assign(j, "json:" + f_[j].name, "json+ " + f_[j].name, {stem(f_[j].name), last_part(d), d, f_[j].name});
    }
    std::vector<size_t> left;
    for (size_t i : logs) {
      const size_t j = json_for(i);
      if (j != SIZE_MAX) assign(i, key_[j], "", {});
      else left.push_back(i);
    }
    // A json whose run wrote no log, beside logs no json claims: they are
    // another run's (runs.h RunFile::wrote_no_logs).
    for (size_t j : jsons)
      if (f_[j].wrote_no_logs && !left.empty()) {
        evidence_.push_back(f_[j].name + ": its jobs' options name no log (write_hist_log, write_lat_log), so its run "
                                         "wrote none of the logs beside it");
        break;
      }
    if (jsons.size() > 1) {
      std::string names;
      for (size_t k = 0; k < jsons.size() && k < 3; ++k) names += (k ? ", " : "") + f_[jsons[k]].name;
      if (jsons.size() > 3) names += " and " + std::to_string(jsons.size() - 3) + " more";
      evidence_.push_back(std::to_string(jsons.size()) + " fio json outputs (" + names + "): fio writes one per run");
    }
    if (o_.by == RunBy::kJson) {
      for (size_t i : left) assign(i, "nojson", "no json+ output names these logs", {"no-json"});
      return;
    }
    pack(left);
  }

  // Logs no json claims: grouped by (folder, prefix), and the groups put
  // together unless they hold the same log name (prefix aside), which one
  // run never writes twice.
  void pack(const std::vector<size_t>& left) {
    struct Unit {
      std::string folder, prefix;
      std::vector<size_t> files;
      std::set<std::string> slots;
    };
    std::vector<Unit> units;
    for (size_t i : left) {
      const std::string d = folder_of(f_[i].name), p = f_[i].id.prefix;
      auto it = std::find_if(units.begin(), units.end(), [&](const Unit& u) { return u.folder == d && u.prefix == p; });
      if (it == units.end()) {
        units.push_back({d, p, {}, {}});
        it = units.end() - 1;
      }
      it->files.push_back(i);
      const std::string s = log_slot(f_[i]);
      if (!s.empty()) it->slots.insert(s);
    }
    struct Group {
      std::vector<const Unit*> units;
      std::set<std::string> slots;
    };
    std::vector<Group> groups;
    std::string clash;  // the first colliding pair, as evidence
    for (const Unit& u : units) {
      Group* home = nullptr;
      for (Group& g : groups) {
        const auto hit = std::find_if(u.slots.begin(), u.slots.end(), [&](const std::string& s) { return g.slots.count(s); });
        if (hit == u.slots.end()) {
          home = &g;
          break;
        }
        if (clash.empty()) {
          const Unit& other = **std::find_if(g.units.begin(), g.units.end(),
                                             [&](const Unit* v) { return v->slots.count(*hit); });
          clash = other.prefix + *hit + " (in " + other.folder + ") and " + u.prefix + *hit + " (in " + u.folder +
                  ") are the same log: one fio run writes it once";
        }
      }
      if (!home) {
        groups.emplace_back();
        home = &groups.back();
      }
      home->units.push_back(&u);
      home->slots.insert(u.slots.begin(), u.slots.end());
    }
    if (!clash.empty()) evidence_.push_back(clash);
    if (!groups.empty() && drafts_.size() > 0 && std::any_of(drafts_.begin(), drafts_.end(), [](const Draft& d) {
          return d.key.compare(0, 5, "json:") == 0;
        }))
      evidence_.push_back(f_[groups.front().units.front()->files.front()].name +
                          (left.size() > 1 ? " and " + std::to_string(left.size() - 1) + " more files" : std::string()) +
                          ": no fio json output among the inputs names their prefix");
    for (size_t g = 0; g < groups.size(); ++g) {
      std::set<std::string> folders, prefixes;
      for (const Unit* u : groups[g].units) {
        folders.insert(u->folder);
        prefixes.insert(u->prefix);
      }
      const Unit& first = *groups[g].units.front();
      std::vector<std::string> names;
      if (prefixes.size() == 1) names.push_back(first.prefix);
      if (folders.size() == 1) {
        names.push_back(last_part(first.folder));
        names.push_back(first.folder);
      }
      names.push_back(last_part(first.folder) + "/" + first.prefix);
      const std::string how = folders.size() == 1 && prefixes.size() == 1
                                  ? "logs " + first.prefix + "_* in " + first.folder
                                  : "logs without a clashing name (" + std::to_string(groups[g].units.size()) +
                                        " prefix/folder sets)";
      for (const Unit* u : groups[g].units)
        for (size_t i : u->files) assign(i, "logs:" + std::to_string(g), how, names);
    }
  }

  // Unique names: every run takes its first candidate; runs that clash move
  // to their next, until none clash or the candidates run out ("#2" then).
  RunPlan finish() {
    RunPlan plan;
    // Runs in the order of their first file, files in input order.
    for (Draft& d : drafts_) std::sort(d.files.begin(), d.files.end());
    std::stable_sort(drafts_.begin(), drafts_.end(),
                     [](const Draft& a, const Draft& b) { return a.files.front() < b.files.front(); });
    std::vector<size_t> level(drafts_.size(), 0);
    std::vector<std::string> name(drafts_.size());
    for (int round = 0; round < 8; ++round) {
      std::map<std::string, int> uses;
      for (size_t r = 0; r < drafts_.size(); ++r) {
        const auto& c = drafts_[r].names;
        name[r] = c.empty() ? "run" : c[std::min(level[r], c.size() - 1)];
        ++uses[name[r]];
      }
      bool moved = false;
      for (size_t r = 0; r < drafts_.size(); ++r)
        if (uses[name[r]] > 1 && level[r] + 1 < drafts_[r].names.size()) {
          ++level[r];
          moved = true;
        }
      if (!moved) break;
    }
    std::map<std::string, int> seen;
    for (size_t r = 0; r < drafts_.size(); ++r) {
      const int k = ++seen[name[r]];
      if (k > 1) name[r] += "#" + std::to_string(k);
    }
    plan.run_of.resize(f_.size());
    for (size_t r = 0; r < drafts_.size(); ++r) {
      plan.runs.push_back({name[r], drafts_[r].how, drafts_[r].files});
      for (size_t i : drafts_[r].files) plan.run_of[i] = name[r];
    }
    if (plan.runs.size() > 1) plan.evidence = evidence_;
    return plan;
  }

  const std::vector<RunFile>& f_;
  const RunOptions& o_;
  std::vector<std::string> key_;  // per file: its draft's key ("" not yet)
  std::vector<Draft> drafts_;
  std::vector<std::string> evidence_;
};

}  // namespace

bool parse_run_by(const std::string& text, RunBy* out) {
  static const std::pair<const char*, RunBy> kNames[] = {{"auto", RunBy::kAuto},     {"folder", RunBy::kFolder},
                                                         {"prefix", RunBy::kPrefix}, {"json", RunBy::kJson},
                                                         {"none", RunBy::kNone}};
  for (const auto& n : kNames)
    if (text == n.first) {
      *out = n.second;
      return true;
    }
  return false;
}

bool parse_run_pattern(const std::string& text, RunPattern* out) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) return false;
  out->name = text.substr(0, eq);
  out->glob = text.substr(eq + 1);
  return true;
}

bool run_glob_matches(const std::string& glob, const std::string& path) {
  if (fnmatch(glob.c_str(), path.c_str(), 0) == 0) return true;
  for (size_t s = path.find('/'); s != std::string::npos; s = path.find('/', s + 1))
    if (fnmatch(glob.c_str(), path.c_str() + s + 1, 0) == 0) return true;
  return false;
}

RunFile run_file_of(const Source& src) {
  RunFile f;
  f.name = src.name;
  f.id = src.id;
  f.json = src.format == FileFormat::kFioJson;
  if (f.json)
    for (const Series& s : src.series) {
      const std::string* p = s.labels.find("prefix");
      const std::string v = p ? *p : "";
      if (std::find(f.prefixes.begin(), f.prefixes.end(), v) == f.prefixes.end()) f.prefixes.push_back(v);
    }
  // Every log option's prefix too: a job's per-I/O logs may be named apart
  // from its histogram logs (write_lat_log=l beside write_hist_log=h).
  bool listed = false, logs = false;
  if (f.json)
    for (const FioFigures& x : src.fio) {
      if (x.aggregate) continue;
      listed = listed || x.options_listed;
      logs = logs || !x.log_prefixes.empty();
      for (const std::string& v : x.log_prefixes)
        if (std::find(f.prefixes.begin(), f.prefixes.end(), v) == f.prefixes.end()) f.prefixes.push_back(v);
    }
  f.wrote_no_logs = f.json && listed && !logs;
  if (const std::string* r = src.labels.find("run")) f.given = *r;
  return f;
}

RunPlan plan_runs(const std::vector<RunFile>& files, const RunOptions& opts) {
  return Planner(files, opts).plan();
}

std::string run_plan_json(const RunPlan& plan, const std::vector<RunFile>& files) {
  std::string o = "{\"runs\":[";
  for (size_t r = 0; r < plan.runs.size(); ++r) {
    const Run& run = plan.runs[r];
    o += (r ? ",{" : "{") + std::string("\"name\":") + json_escape(run.name) + ",\"how\":" + json_escape(run.how) +
         ",\"files\":[";
    for (size_t k = 0; k < run.files.size(); ++k) o += (k ? "," : "") + json_escape(files[run.files[k]].name);
    o += "]}";
  }
  o += "],\"evidence\":[";
  for (size_t i = 0; i < plan.evidence.size(); ++i) o += (i ? "," : "") + json_escape(plan.evidence[i]);
  return o + "],\"several\":" + (plan.several() ? "true" : "false") + "}";
}

std::string describe_runs(const RunPlan& plan, const std::vector<RunFile>& files, size_t max_files) {
  std::string out = std::to_string(plan.runs.size()) + (plan.runs.size() == 1 ? " run: " : " runs: ");
  for (size_t r = 0; r < plan.runs.size(); ++r) {
    const Run& run = plan.runs[r];
    out += (r ? "; " : "") + run.name + " (";
    for (size_t k = 0; k < run.files.size() && k < max_files; ++k) out += (k ? ", " : "") + files[run.files[k]].name;
    if (run.files.size() > max_files) out += " and " + std::to_string(run.files.size() - max_files) + " more";
    out += ")";
  }
  return out;
}

}  // namespace latscope
