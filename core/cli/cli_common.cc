#include "cli_common.h"

#include "latscope/stream.h"

#include "latscope/report.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <future>
#include <memory>
#include <thread>

#include <sys/stat.h>
#include <unistd.h>

#include "file_lines.h"
#include "input.h"
#include "latscope/layout_budget.h"
#include "latscope/reader.h"

namespace latscope::cli {
namespace {
constexpr size_t kChunk = size_t{4} << 20;
// Lines say() writes while a file is parsed on a worker thread: kept with the
// file and printed when its turn comes, so stderr reads as with one thread.
thread_local std::vector<std::string>* t_messages = nullptr;
}  // namespace

bool parse_double(const std::string& s, double* out) {
  if (s.empty()) return false;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s.c_str(), &end);
  if (errno || *end || !std::isfinite(v)) return false;
  *out = v;
  return true;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t a = 0;
  for (;;) {
    const size_t b = s.find(sep, a);
    out.push_back(s.substr(a, b == std::string::npos ? std::string::npos : b - a));
    if (b == std::string::npos) break;
    a = b + 1;
  }
  return out;
}

// docs/input-robustness.md, "Names on the terminal".
std::string printable(std::string_view s) {
  static const char* kHex = "0123456789abcdef";
  std::string out;
  out.reserve(s.size());
  auto hex = [&](unsigned char c) {
    out += "\\x";
    out += kHex[c >> 4];
    out += kHex[c & 15];
  };
  const size_t n = s.size();
  for (size_t i = 0; i < n;) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if (c < 0x20 || c == 0x7f) hex(c);
      else out += static_cast<char>(c);
      ++i;
      continue;
    }
    // A well-formed UTF-8 sequence is kept unless it encodes a C1 control
    // (U+0080..U+009F: 8-bit CSI and friends) or a bidirectional override
    // (U+202A..U+202E, U+2066..U+2069), which reorder what follows.
    size_t len = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c <= 0xDF ? 2 : 0;
    if (c > 0xF4) len = 0;
    bool ok = len > 0 && i + len <= n;
    uint32_t cp = ok ? (c & (0x7F >> len)) : 0;
    for (size_t k = 1; ok && k < len; ++k) {
      const unsigned char d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) ok = false;
      cp = (cp << 6) | (d & 0x3F);
    }
    if (ok && ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
               (cp >= 0xD800 && cp <= 0xDFFF)))
      ok = false;  // overlong, out of range or a surrogate
    const bool control = cp <= 0x9F || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
    if (!ok) {
      hex(c);
      ++i;
      continue;
    }
    for (size_t k = 0; k < len; ++k) {
      if (control) hex(static_cast<unsigned char>(s[i + k]));
      else out += s[i + k];
    }
    i += len;
  }
  return out;
}

void say(const std::string& line) {
  std::string p = printable(line) + "\n";
  if (t_messages) t_messages->push_back(std::move(p));
  else std::fwrite(p.data(), 1, p.size(), stderr);
}

void write_out(const std::string& text) {
  if (!isatty(fileno(stdout))) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return;
  }
  size_t a = 0;
  while (a < text.size()) {
    size_t nl = text.find('\n', a);
    if (nl == std::string::npos) nl = text.size();
    const std::string line = printable(std::string_view(text).substr(a, nl - a)) + (nl < text.size() ? "\n" : "");
    std::fwrite(line.data(), 1, line.size(), stdout);
    a = nl + 1;
  }
}

bool AtomicFile::open(const std::string& path, std::string* err) {
  // Only a regular file (or a new one) is replaced by a rename, through any
  // symlink to it; anything else (-o /dev/stdout, a FIFO, a device) is
  // written in place: renaming over it would replace the device itself.
  path_ = path;
  target_ = path;
  saved_ = 0;
  struct stat st {};
  const bool special = path.rfind("/dev/", 0) == 0 || path.rfind("/proc/", 0) == 0;  // /dev/stdout, /dev/fd/N
  if (special || ::stat(path.c_str(), &st) == 0) {
    if (special || !S_ISREG(st.st_mode)) {
      tmp_.clear();
      f_ = std::fopen(path.c_str(), "wb");
      if (!f_) *err = "cannot write " + path + ": " + std::strerror(errno);
      return f_ != nullptr;
    }
    if (char* real = ::realpath(path.c_str(), nullptr)) {
      target_ = real;
      std::free(real);
    }
  }
  tmp_ = target_ + ".tmp-" + std::to_string(static_cast<long>(getpid()));
  f_ = std::fopen(tmp_.c_str(), "wb");
  if (!f_) *err = "cannot write " + path + ": " + std::strerror(errno);
  return f_ != nullptr;
}

bool AtomicFile::write(const void* data, size_t n) {
  if (!f_ || saved_) return false;
  if (std::fwrite(data, 1, n, f_) != n) saved_ = errno ? errno : EIO;
  return saved_ == 0;
}

bool AtomicFile::commit(std::string* err) {
  if (!f_) return false;
  bool ok = saved_ == 0;
  if (std::fflush(f_) != 0 && ok) {
    ok = false;
    saved_ = errno;
  }
  if (std::fclose(f_) != 0 && ok) {
    ok = false;
    saved_ = errno;
  }
  f_ = nullptr;
  if (tmp_.empty()) {  // written in place
    if (!ok) *err = "cannot write " + path_ + ": " + std::strerror(saved_);
    return ok;
  }
  if (ok && std::rename(tmp_.c_str(), target_.c_str()) != 0) {
    ok = false;
    saved_ = errno;
  }
  if (!ok) {
    std::remove(tmp_.c_str());
    *err = "cannot write " + path_ + (saved_ ? std::string(": ") + std::strerror(saved_) : std::string()) +
           "; nothing written (an earlier " + path_ + " is left as it was)";
  }
  return ok;
}

AtomicFile::~AtomicFile() {
  if (!f_) return;
  std::fclose(f_);
  if (!tmp_.empty()) std::remove(tmp_.c_str());
}

bool write_file_atomic(const std::string& path, const char* data, size_t n, std::string* err) {
  AtomicFile f;
  if (!f.open(path, err)) return false;
  f.write(data, n);
  return f.commit(err);
}

void print_diagnostics(const Source& src) {
  if (src.format == FileFormat::kIgnored && src.status.ok()) {  // a note, not an error: exit code unchanged
    say("latscope: " + src.name + ": ignored (" + src.ignored + ")");
    return;
  }
  if (!src.status.ok()) {
    say("latscope: " + src.status.message);
    return;
  }
  for (int i = 0; i < static_cast<int>(Issue::kCount); ++i) {
    const Issue is = static_cast<Issue>(i);
    const uint64_t n = src.diag.count(is);
    if (!n) continue;
    const IssueInfo& info = issue_info(is);
    say("latscope: " + src.name + ": " + info.name + " x" + std::to_string(n) + ": " + info.description);
    if (info.severity == Severity::kInfo) continue;  // harmless: the count is enough
    for (const IssueExample& e : src.diag.examples())
      if (e.issue == is) {
        if (e.line)
          say("  " + src.name + ":" + std::to_string(e.line) + ":" + std::to_string(e.column) + ": " + e.text);
        else
          say("  " + src.name + ": " + e.text);
      }
  }
}

int print_trust(const InputPlan& plan) {
  if (!plan.trust) return 0;
  const std::vector<TrustRow> rows = plan.trust->rows();
  int rc = 0;
  size_t used = 0, left = 0, doubtful = 0, compared = 0;
  uint64_t ios = 0, fio_ios = 0;
  bool groups = false;  // a json+ of group_reporting among them
  for (const TrustRow& r : rows) {
    for (const std::string& w : r.warnings) say("latscope: warning: " + r.file + ": " + w);
    // A json output's gzip copy is named where it is left out; it is no log.
    if (!r.used_instead.empty()) left += r.account.empty() ? 0 : 1;
    else if (!r.account.empty() && r.ok) ++used;
    if (r.doubtful) {
      ++doubtful;
      rc = 1;
    }
    // Each I/O once: a job's lat and slat logs count the I/Os its clat log
    // counts (queries show clat by default, docs/formats-fio-lat.md "Kinds").
    if (r.compared && r.used_instead.empty() && r.kind == "clat") {
      compared += r.logs ? r.logs : 1;  // a json+ of groups: its run's logs (folder.h TrustRow::logs)
      groups = groups || r.logs != 0;
      ios += r.ios;
      fio_ios += r.fio_ios;
    }
  }
  // One line when there is something to say: several accounts, fio's count
  // to compare with, or doubt (docs/folders.md "Trust summary").
  if (left || compared || doubtful) {
    std::string line = "latscope: trust: " + std::to_string(used) + " fio log" + (used == 1 ? "" : "s") + " used";
    if (left) line += ", " + std::to_string(left) + " not added (another log counts their I/Os)";
    if (compared)
      line += "; the " + std::to_string(compared) +
              (compared == 1 ? " log of a job fio's json+ counts holds " : " logs of jobs fio's json+ counts hold ") +
              count_text(ios) + " of the " + count_text(fio_ios) + " I/Os fio counted";
    // Short of fio's count with no row in doubt: every row's shortfall is
    // within its logs' unlogged last windows (trust.cc). json+ gives them
    // back as tail windows where it can (a note above says so), not under
    // group_reporting (said here) or epoch timestamps (a note says so); the
    // difference is never left unexplained (docs/folders.md, "Trust summary").
    if (compared && ios < fio_ios && !doubtful)
      line += "; the other " + count_text(fio_ios - ios) + " fit in the logs' last, unlogged windows" +
              (groups ? " (fio counted groups of jobs, group_reporting: no job's own count to add them from)" : "");
    if (doubtful) line += "; " + std::to_string(doubtful) + " doubtful (warnings above)";
    say(line);
  }
  return rc;
}

int print_after_query(const std::vector<std::string>& notes, const Diagnostics& diag,
                      const std::map<std::string, double>& offsets, const InputPlan& plan) {
  int rc = print_query_notes(notes, diag);
  rc = std::max(rc, print_trust(plan));
  return std::max(rc, check_offsets(offsets, plan));
}

int check_offsets(const std::map<std::string, double>& offsets, const InputPlan& plan) {
  int rc = 0;
  for (const auto& kv : offsets) {
    const std::string& key = kv.first;
    bool used = false;
    for (const FolderFile& f : plan.folder) {
      const std::string& name = f.run_file.name;
      const std::string host = f.run_file.id.host.empty() ? "local" : f.run_file.id.host;
      const size_t slash = name.find_last_of("/\\");
      const std::string base = slash == std::string::npos ? name : name.substr(slash + 1);
      // "job:N" (a local job) or "job:HOST/N", as select_series reads them.
      const auto job_key = [](const std::string& h, const std::string& j, bool local) {
        std::string k = "job:";
        if (!local) {
          k += h;
          k += '/';
        }
        k += j;
        return k;
      };
      const std::string& job = f.run_file.id.job;
      if (key == name || key == base || key == host || (host == "local" && key == "(local)") ||
          (!job.empty() && (key == job_key(host, job, false) || (host == "local" && key == job_key(host, job, true)))))
        used = true;
      // json+ files name the hosts and jobs of client runs inside them.
      for (const FolderFile::JobCount& c : f.json_counts)
        if (key == c.host || key == job_key(c.host, c.job, false) || (c.host.empty() && key == job_key(c.host, c.job, true)))
          used = true;
    }
    if (!used) {
      say("latscope: warning: --offset " + key + "=" + format_number(kv.second) +
          ": no input has that host, file or job (hosts are named as in the file table, `local` for local-mode logs); "
          "not applied");
      rc = 1;
    }
  }
  return rc;
}

int print_query_notes(const std::vector<std::string>& notes, const Diagnostics& diag) {
  for (const std::string& note : notes) say("latscope: note: " + note);
  Source q;  // query-time issues (mixed layouts, ...) printed like a file's
  q.name = "(merge)";
  q.diag = diag;
  print_diagnostics(q);
  return diag.count(Issue::kMixedTimeBases) || diag.count(Issue::kFarTimes) ? 1 : 0;  // the inputs left out
}

int report_input(const Input& in) {
  if (!in.note().empty()) say("latscope: " + in.name() + ": note: " + in.note());
  if (!in.problem().empty()) say("latscope: " + in.name() + ": " + in.problem());
  return static_cast<int>(in.level());
}

std::vector<std::string> inputs(const std::vector<std::string>& files) {
  std::vector<std::string> out;
  bool have_stdin = false;
  for (const std::string& f : files) {
    if (f == "-") {
      if (have_stdin) {
        say("latscope: '-' (standard input) named more than once: read once");
        continue;
      }
      have_stdin = true;
    }
    out.push_back(f);
  }
  return out;
}

namespace {

// The engine's own sniff (reader.h) on an input's first bytes (peeked: a
// standard input stays readable from its start).
bool looks_like_json(Input* in) {
  const std::string& head = in->peek(kSniffBytes);
  const bool complete = head.size() < kSniffBytes;
  return !head.empty() &&
         sniff({in->name(), head.data(), head.size(), complete}).format == FileFormat::kFioJson;
}

bool looks_like_json(const std::string& path) {
  Input in;
  std::string err;
  return in.open(path, &err) && looks_like_json(&in);
}

// Reads one input into a new handle of engine; returns its exit code share.
// `opened`: an input already opened (standard input), else path is opened.
// `reread`: a plain file's HdrHistogram windows keep where their lines are
// instead of their bins (FileOptions::reread).
int read_into(Engine* engine, const std::string& path, Input* opened, const FileOptions& fopts_in,
              std::vector<char>* bufp, const Source** out, Reread reread) {
  std::vector<char>& buf = *bufp;
  Input own, again;  // again: read a second time (a digest that cannot stand for the file)
  Input* in = opened;
  if (!in) {
    in = &own;
    std::string err;
    if (!in->open(path, &err)) {
      say("latscope: " + path + ": " + err);
      return 2;
    }
  }
  FileOptions fopts = fopts_in;
  std::shared_ptr<DigestSink> digest;
  if (reread.lines && !opened) {
    fopts.reread = FileLines::for_plain_file(path, in->gzip());
    if (fopts.reread && reread.digest_quantum_ms > 0) fopts.hand_on = digest = digest_sink(reread.digest_quantum_ms);
  }
  const auto read_all = [&](Input* from) {
    const int h = engine->open_file(from->name(), fopts);
    for (;;) {
      const size_t n = from->read(buf.data(), buf.size());
      if (n == 0) break;
      engine->append(h, buf.data(), n);
      if (!engine->wants_bytes(h)) break;  // no log: the rest is not read (a fio data file)
    }
    return h;
  };
  int h = read_all(in);
  const Source* done = &engine->finish(h);
  if (digest && !digest->complete()) {
    // A series the digest cannot stand for (model.h DigestSink): the file
    // read again, its windows kept. Nothing was said of the first reading.
    std::string err;
    if (again.open(path, &err)) {
      fopts.hand_on = nullptr;
      done = &engine->finish(read_all(&again));
      in = &again;
    }
  }
  int rc = report_input(*in);
  const Source& src = *done;
  *out = &src;
  // Nothing came out of the input: its own message says why (no "empty file").
  if (in->level() == InputLevel::kUnusable) return 2;
  // Standard input is given on purpose, never one file of a folder to pass
  // over: holding no log is an error (docs/input-robustness.md, "Standard input").
  if (opened && src.format == FileFormat::kIgnored && src.status.ok()) {
    say("latscope: " + src.name + ": standard input holds no latency log (" + src.ignored + "); nothing read");
    return 2;
  }
  print_diagnostics(src);
  if (!src.status.ok()) rc = 2;
  else if (src.diag.skipped_lines()) rc = std::max(rc, 1);
  return rc;
}

}  // namespace

namespace {

// One input parsed by its own engine, with what it said and its exit share.
struct Parsed {
  std::unique_ptr<Engine> engine = std::make_unique<Engine>();
  const Source* src = nullptr;
  int rc = 0;
  std::vector<std::string> messages;
};

// False, with the message said and exit share 2, when p's layouts do not fit
// beside those held (latscope/layout_budget.h).
bool refuse_for_layouts(const LayoutTally& held, Parsed* p) {
  const std::string why = held.refusal(*p->src);
  if (why.empty()) return true;
  say("latscope: " + why);
  p->rc = 2;
  return false;
}

Parsed parse_one(const std::string& path, Input* opened, const FileOptions& fopts, Reread reread) {
  Parsed p;
  std::vector<char> buf(kChunk);
  t_messages = &p.messages;
  p.rc = read_into(p.engine.get(), path, opened, fopts, &buf, &p.src, reread);
  t_messages = nullptr;
  return p;
}

// Parses the inputs on up to `jobs` threads and hands each to fn in input
// order, its messages printed first: output, stderr and exit code are those
// of one thread. At most `jobs` parsed files wait in memory besides the one
// fn holds.
int parse_in_order(const std::vector<std::string>& paths, Input* std_in, const FileOptions& common, int jobs,
                   const std::function<void(Parsed&)>& fn, const RunLabels* runs, Reread reread = {}) {
  // Each path's options: the common ones with its run label. A file whose
  // jobs' I/Os another input accounts for is not read (folder.h
  // plan_accounts, docs/folders.md): adding both would count them twice.
  std::vector<std::string> read;
  for (const std::string& path : paths) {
    if (const AccountChoice* c = runs ? runs->superseded(path) : nullptr) {
      say("latscope: " + path + ": not added: " + c->why);
      continue;
    }
    read.push_back(path);
  }
  std::vector<FileOptions> per(read.size(), common);
  for (size_t i = 0; runs && i < read.size(); ++i) {
    const auto it = runs->runs.find(read[i]);
    if (it != runs->runs.end()) per[i].run = it->second;
  }
  int rc = 0;
  const auto deliver = [&](Parsed& p) {
    for (const std::string& m : p.messages) std::fwrite(m.data(), 1, m.size(), stderr);
    // What the folder's evidence decides about a file (folder.h
    // settle_source): a per-I/O log's unit, a client log's repair.
    if (p.src && runs && may_settle(*p.src)) {
      std::vector<Source> taken = p.engine->take_sources();
      for (Source& s : taken) {
        settle_and_say(&s, runs->folder);
        p.engine->add_source(std::move(s));
      }
      p.src = &p.engine->sources().back();
    }
    if (p.src && runs && runs->trust) runs->trust->add(*p.src);
    fn(p);  // may refuse the file (the layout budget): its share counts after
    rc = std::max(rc, p.rc);
  };
  if (jobs <= 1) {
    for (size_t i = 0; i < read.size(); ++i) {
      Parsed p = parse_one(read[i], read[i] == "-" ? std_in : nullptr, per[i], reread);
      deliver(p);
    }
    return rc;
  }
  std::deque<std::future<Parsed>> running;
  size_t next = 0;
  const auto launch = [&] {
    const size_t i = next++;
    running.push_back(std::async(std::launch::async, parse_one, std::cref(read[i]),
                                 read[i] == "-" ? std_in : nullptr, std::cref(per[i]), reread));
  };
  while (next < read.size() && running.size() < static_cast<size_t>(jobs)) launch();
  while (!running.empty()) {
    Parsed p = running.front().get();
    running.pop_front();
    if (next < read.size()) launch();
    deliver(p);
  }
  return rc;
}

}  // namespace

void settle_and_say(Source* src, const std::vector<FolderFile>& folder) {
  const size_t before = src->diag.examples().size();
  settle_source(src, folder);
  const std::vector<IssueExample>& ex = src->diag.examples();
  for (size_t k = before; k < ex.size(); ++k)
    say("latscope: " + std::string(issue_info(ex[k].issue).severity == Severity::kWarning ? "warning: " : "note: ") +
        src->name + ": " + ex[k].text);
}

bool may_settle(const Source& src) {
  if (unit_pending(src)) return true;
  if (!src.status.ok() || (src.format != FileFormat::kFioHist && src.format != FileFormat::kFioLat)) return false;
  // A client log (repairs), or a per_job_logs=0 file (segments).
  return (src.format == FileFormat::kFioHist && !src.id.host.empty()) || src.id.job.empty();
}

const AccountChoice* InputPlan::superseded(const std::string& path) const {
  const auto it = index.find(path);
  if (it == index.end() || it->second >= choices.size() || choices[it->second].used_instead.empty()) return nullptr;
  return &choices[it->second];
}

int default_jobs() {
  const unsigned n = std::thread::hardware_concurrency();
  return n ? static_cast<int>(std::min(n, 64u)) : 1;
}

int for_each_file(const std::vector<std::string>& files, const FileOptions& fopts, int jobs,
                  const std::function<void(Source&)>& fn, const RunLabels* runs, Reread reread) {
  // Standard input is opened once and its look-ahead kept for the read.
  Input std_in;
  bool std_in_open = false;
  std::vector<std::string> ordered, logs;
  for (const std::string& f : inputs(files)) {
    bool json = false;
    if (f == "-") {
      std::string err;
      std_in_open = std_in.open(f, &err);
      json = std_in_open && looks_like_json(&std_in);
    } else {
      json = looks_like_json(f);
    }
    (json ? ordered : logs).push_back(f);
  }
  ordered.insert(ordered.end(), logs.begin(), logs.end());
  // The files fn has seen hold their layouts on in the fold; a file whose
  // layouts would pass kMaxLayoutBins beside them is refused
  // (docs/input-robustness.md, "Layouts").
  LayoutTally held;
  return parse_in_order(ordered, std_in_open ? &std_in : nullptr, fopts, jobs, [&](Parsed& p) {
    if (!p.src) return;
    if (!refuse_for_layouts(held, &p)) return;
    held.add(*p.src);
    const size_t at = static_cast<size_t>(p.src - p.engine->sources().data());
    p.src = nullptr;
    std::vector<Source> taken = p.engine->take_sources();
    fn(taken[at]);
  }, runs, reread);
}

// Plain and gzip inputs take the same path (input.h).
int load_files(Engine* engine, const std::vector<std::string>& files, const FileOptions& fopts, int jobs,
               const RunLabels* runs) {
  return parse_in_order(inputs(files), nullptr, fopts, jobs, [&](Parsed& p) {
    for (Source& s : p.engine->take_sources()) {
      const bool ok = s.status.ok();
      const Source& added = engine->sources()[static_cast<size_t>(engine->add_source(std::move(s)))];
      // The engine refuses a file whose layouts pass kMaxLayoutBins beside
      // those it holds (latscope/layout_budget.h): said here, exit status 2.
      if (ok && !added.status.ok()) {
        say("latscope: " + added.status.message);
        p.rc = 2;
      }
    }
  }, runs);
}

bool read_whole_file(const std::string& path, std::string* out, std::string* err) {
  Input in;
  out->clear();
  if (!in.open(path, err)) {
    *err = path + ": " + *err;
    return false;
  }
  std::vector<char> buf(kChunk);
  for (;;) {
    const size_t n = in.read(buf.data(), buf.size());
    if (n == 0) break;
    out->append(buf.data(), n);
  }
  if (in.level() == InputLevel::kUnusable) {
    *err = in.name() + ": " + in.problem();
    return false;
  }
  report_input(in);  // a damaged input's readable part is used, and said so
  return true;
}

}  // namespace latscope::cli
