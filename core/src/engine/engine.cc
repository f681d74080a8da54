#include "latscope/engine.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "latscope/folder.h"
#include "latscope/layout_budget.h"
#include "latscope/quanta.h"

#include "latscope/reader.h"
#include "query/aligner.h"
#include "query/interval.h"

namespace latscope {
namespace {

// What every series gets when its source joins the engine, read or
// imported: its labels completed, and its logging interval kept so that
// queries do not sort its windows again (model.h Series::interval_ms).
void complete_series(Source* src) {
  // The account a log gives of its jobs' I/Os, as a label: --group-by
  // account shows a job's histogram and per-I/O logs side by side
  // (folder.h plan_accounts).
  const Account a = account_of(*src);
  if (a != Account::kNone) src->labels.set(kAccountLabel, account_name(a));
  for (Series& s : src->series) {
    complete_series_labels(&s);
    s.interval_ms = logging_interval_ms(s);
  }
}

// The engine-wide per-I/O budget (model.h, kMaxPerIoSamples): a per-I/O log
// whose exact values would pass it keeps its bins only, and says so.
void enforce_per_io_budget(const std::vector<Source>& have, uint64_t budget, Source* src) {
  // Window values (Role::kWindowValues) are one per logged line, not per-I/O values.
  auto io_values = [](const Series& s) { return s.role == Role::kWindowValues ? 0 : s.io_ns.size(); };
  uint64_t mine = 0, used = 0;
  for (const Series& s : src->series) mine += io_values(s);
  if (mine == 0) return;
  for (const Source& o : have)
    for (const Series& s : o.series) used += io_values(s);
  if (used + mine <= budget) return;
  for (Series& s : src->series) {
    if (s.role == Role::kWindowValues) continue;
    std::vector<uint64_t>().swap(s.io_ns);
    std::vector<uint32_t>().swap(s.io_bs);
    std::vector<uint64_t>().swap(s.io_offset);
  }
  src->diag.add(Issue::kPerIoBudget, 0, 0,
                std::to_string(mine) + " I/Os with " + std::to_string(used) + " already kept pass the budget of " +
                    std::to_string(budget) + " per-I/O values: exact values, bs and offsets of this file not kept "
                    "(--method exact falls back to bins; bs/offset heat maps leave it out)");
}

}  // namespace

// A file being read. Until the format is known the Source and the first
// bytes stay here; then a Reader (reader.h) takes the Source over and owns it
// until finish() moves it into sources_. Nothing points into sources_ while a
// file is open, so files may be opened, fed and finished in any interleaving.
struct Engine::Pending {
  FileOptions opts;
  Source src;               // until reader takes it
  std::string head;         // look-ahead for the sniff, at most kMaxSniffBytes (reader.h)
  size_t head_lines = 0;    // line ends in head
  std::unique_ptr<Reader> reader;
  bool decided = false;
  uint64_t ignored_bytes = 0;  // bytes of a file that is not a latency log
  uint64_t head_hash = 0;      // Source::head_hash, taken from head when the format is decided
};

Engine::Engine() = default;
Engine::~Engine() = default;

int Engine::open_file(const std::string& name, const FileOptions& opts) {
  auto p = std::make_unique<Pending>();
  p->opts = opts;
  Source& s = p->src;
  s.name = name;
  s.id = parse_fio_file_name(name);
  if (!opts.host.empty()) s.id.host = opts.host;
  if (!opts.job.empty()) s.id.job = opts.job;
  s.labels = labels_from_identity(name, s.id);
  if (!opts.run.empty()) s.labels.set("run", opts.run);
  pending_.push_back(std::move(p));
  handle_source_.push_back(-1);
  return static_cast<int>(pending_.size() - 1);
}

void Engine::decide(Pending& p, bool complete) {
  FileFormat f = p.opts.format;
  std::string what;
  if (f == FileFormat::kUnknown) {
    SniffInput in{p.src.name, p.head.data(), p.head.size(), complete};
    SniffResult r = sniff(in);
    f = r.format;
    what = r.what;
  }
  if (f == FileFormat::kUnknown) return;  // all blank so far
  p.decided = true;
  p.head_hash = head_hash_of(p.head.data(), p.head.size());
  p.src.format = f;
  if (f == FileFormat::kIgnored) {
    p.src.ignored = what.empty() ? "not a latency log" : what;
    const std::string promised = name_claims_log(p.src.name);
    const std::string fz = stored_compressed_message(p.src.name, p.src.ignored);
    if (!fz.empty() && p.opts.format == FileFormat::kUnknown)
      p.src.status = Status::Error(ErrorCode::kUnusableFile, fz);
    else if (!promised.empty() && p.opts.format == FileFormat::kUnknown)
      p.src.status = Status::Error(ErrorCode::kUnusableFile, p.src.name + ": named like " + promised +
                                                                 " but holds " + p.src.ignored + "; not read");
    p.ignored_bytes = p.head.size();
    std::string().swap(p.head);
    return;
  }
  p.reader = create_reader(f, std::move(p.src), p.opts);
  if (!p.reader) {  // a forced format with no reader in this build
    p.src.format = f;
    p.src.status = Status::Error(ErrorCode::kUnusableFile,
                                 p.src.name + ": no reader for format " + format_name(f));
    return;
  }
  std::string head;
  head.swap(p.head);
  p.reader->append(head.data(), head.size());
}

void Engine::append(int h, const char* data, size_t n) {
  if (h < 0 || static_cast<size_t>(h) >= pending_.size() || !pending_[h]) return;
  Pending& p = *pending_[h];
  while (!p.decided && n > 0) {
    // kSniffBytes, then on to kSniffLines line ends, at most kMaxSniffBytes (reader.h).
    size_t take = std::min(n, kSniffBytes - std::min(kSniffBytes, p.head.size()));
    if (take == 0) {
      const char* end = data;
      for (size_t seen = p.head_lines; seen < kSniffLines && end != data + n; ++seen) {
        const void* nl = std::memchr(end, '\n', static_cast<size_t>(data + n - end));
        end = nl ? static_cast<const char*>(nl) + 1 : data + n;
      }
      take = std::min(static_cast<size_t>(end - data), kMaxSniffBytes - p.head.size());
    }
    p.head.append(data, take);
    p.head_lines += static_cast<size_t>(std::count(data, data + take, '\n'));
    data += take;
    n -= take;
    if (p.head.size() < kSniffBytes) return;
    if (p.head.size() < kMaxSniffBytes && p.head_lines < kSniffLines) continue;
    // Blanks decide nothing, and every sniffer walked each blank line of
    // them: a 9.4 MB .gz of newlines took 87 s (docs/input-robustness.md,
    // "Empty content").
    if (p.head.find_first_not_of(" \t\r\n") == std::string::npos) {
      p.ignored_bytes += p.head.size();
      p.head.clear();
      p.head_lines = 0;
      continue;
    }
    decide(p, false);
    if (!p.decided) {  // a look-ahead of blanks: keep looking, bounded
      p.ignored_bytes += p.head.size();
      p.head.clear();
      p.head_lines = 0;
    }
  }
  if (p.reader) p.reader->append(data, n);
  else p.ignored_bytes += n;
}

bool Engine::wants_bytes(int h) const {
  if (h < 0 || static_cast<size_t>(h) >= pending_.size() || !pending_[h]) return false;
  const Pending& p = *pending_[h];
  return !p.decided || p.reader != nullptr;
}

const Source& Engine::finish(int h) {
  static const Source kNone;
  if (h < 0 || static_cast<size_t>(h) >= pending_.size()) return kNone;
  if (!pending_[h]) return handle_source_[h] >= 0 ? sources_[static_cast<size_t>(handle_source_[h])] : kNone;
  Pending& p = *pending_[h];
  if (!p.decided) decide(p, true);
  Source src;
  if (p.reader) {
    src = p.reader->finish();
  } else {
    src = std::move(p.src);
    src.bytes = p.ignored_bytes + p.head.size();
    if (!p.decided && src.status.ok() && src.bytes == 0) {
      // fio itself leaves empty logs (docs/folders.md, "Empty logs"): a
      // synchronous ioengine has no submission latency, so its slat log
      // stays empty; a histogram log gets a line only when an interval of
      // log_hist_msec ends, so a shorter job leaves it empty. Nothing to
      // read, nothing wrong: the reason named is the one that fits the name.
      src.format = FileFormat::kIgnored;
      src.ignored = empty_log_reason(src.name);
    } else if (!p.decided && src.status.ok()) {
      src.status = Status::Error(ErrorCode::kUnusableFile, src.name + ": only blank characters; nothing to read");
    }
  }
  src.head_hash = p.head_hash;
  complete_series(&src);
  admit_layouts(sources_, &src);
  enforce_per_io_budget(sources_, p.opts.max_per_io_samples, &src);
  pending_[h].reset();
  sources_.push_back(std::move(src));
  handle_source_[h] = static_cast<int>(sources_.size() - 1);
  return sources_.back();
}

int Engine::source_index(int h) const {
  if (h < 0 || static_cast<size_t>(h) >= handle_source_.size()) return -1;
  return handle_source_[h];
}

int Engine::add_source(Source src) {
  complete_series(&src);
  admit_layouts(sources_, &src);
  enforce_per_io_budget(sources_, kMaxPerIoSamples, &src);
  sources_.push_back(std::move(src));
  return static_cast<int>(sources_.size() - 1);
}

RunPlan Engine::assign_runs(const RunOptions& opts) {
  planned_run_.resize(sources_.size(), false);
  // Only latency data is planned: a job file, a script or an unreadable file
  // is no part of any run and must not form one of its own (docs/runs.md).
  std::vector<RunFile> files;
  std::vector<size_t> at;  // planned file -> index in sources_
  // A gzip copy of a log beside it forms no run (folder.h gzip_copies).
  std::vector<FolderFile> before;
  for (const Source& s : sources_) before.push_back(folder_file_of(s));
  const std::vector<size_t> copies = gzip_copies(before);
  for (size_t i = 0; i < sources_.size(); ++i) {
    if (planned_run_[i]) {
      sources_[i].labels.set("run", "");
      planned_run_[i] = false;
    }
    if (!sources_[i].status.ok() || sources_[i].format == FileFormat::kIgnored || copies[i] != SIZE_MAX) continue;
    files.push_back(run_file_of(sources_[i]));
    at.push_back(i);
  }
  RunPlan planned = plan_runs(files, opts);
  // As the CLI labels (docs/runs.md, "The warning"): a single run found
  // automatically gets no label, so its outputs equal those of unlabelled
  // files; a run the user chose or several runs are labelled.
  const bool label = opts.explicit_choice() || planned.several();
  for (size_t k = 0; k < at.size(); ++k) {
    if (!files[k].given.empty() || !label) continue;
    sources_[at[k]].labels.set("run", planned.run_of[k]);
    planned_run_[at[k]] = true;
  }
  // What the whole folder decides about a file, now that it is known
  // (folder.h settle_source): the unit of per-I/O logs their columns do not
  // say, client logs' repairs on fio's json+ count.
  // The folder read once above, now with the runs just labelled (the only
  // fact of folder_file_of the labelling changes).
  std::vector<FolderFile>& folder = before;
  for (size_t i = 0; i < sources_.size(); ++i) {
    const std::string* run = sources_[i].labels.find("run");
    folder[i].run = run ? *run : "";
  }
  for (Source& s : sources_) settle_source(&s, folder);
  // The plan over every source: files left out have no run ("").
  RunPlan plan;
  plan.runs = std::move(planned.runs);
  plan.evidence = std::move(planned.evidence);
  plan.run_of.assign(sources_.size(), "");
  for (size_t k = 0; k < at.size(); ++k) plan.run_of[at[k]] = planned.run_of[k];
  for (Run& r : plan.runs)
    for (size_t& f : r.files) f = at[f];
  return plan;
}

}  // namespace latscope

namespace latscope {

std::vector<TrustRow> Engine::trust(const Selection& sel) const {
  std::vector<FolderFile> folder;
  for (const Source& s : sources_) {
    folder.push_back(folder_file_of(s));
    // As keep_one_account: a file left out of the selection accounts for
    // nothing, nor ties logs to its run.
    if (source_excluded(s, sel)) {
      folder.back().account = Account::kNone;
      folder.back().run_file.prefixes.clear();
    }
  }
  std::vector<AccountChoice> choices = plan_accounts(folder, sel.accounts);
  TrustBuilder b(std::move(folder), std::move(choices));
  for (const Source& s : sources_) b.add(s);
  return b.rows();
}

double Engine::default_quantum_ms() const { return latscope::default_quantum_ms(sources_); }
double Engine::default_quantum_ms(double range_ms, double width_px) const {
  return zoom_quantum_ms(default_quantum_ms(), range_ms, width_px);
}

}  // namespace latscope
