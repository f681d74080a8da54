// Shared by the CLI commands: reading files (plain or .gz, "-" for standard
// input; input.h) into an Engine and reporting each file's diagnostics on
// stderr. Exit codes: 0 ok, 1 something was left out (lines skipped, series
// of another time base, the unreadable rest of a damaged .gz), 2 a file
// unusable or a usage error (docs/input-robustness.md).
#pragma once

#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "latscope/engine.h"
#include "latscope/folder.h"

namespace latscope::cli {

class Input;

// File names and file contents are untrusted: every line the CLI writes to
// stderr goes through say(), which escapes control bytes, C1 controls,
// bidirectional overrides and invalid UTF-8 as \xNN (printable()), so no
// name can move the cursor, recolour or rewrite the terminal.
std::string printable(std::string_view s);
void say(const std::string& line);  // printable(line) + '\n' on stderr
// Writes a command's output to stdout: exact when redirected; on a terminal
// each line through printable() (as ls shows odd names), so a name in a CSV
// cell cannot act on the terminal either.
void write_out(const std::string& text);

// Writes a whole output file atomically: the bytes go to a temporary file
// beside it, which replaces `path` only once every byte is written and
// flushed; a failure (a full disk) leaves the previous file as it was and
// no partial one. False with *err ("cannot write PATH: No space left on
// device") on failure (docs/input-robustness.md "Outputs").
bool write_file_atomic(const std::string& path, const char* data, size_t n, std::string* err);

// The same, written piece by piece (`latscope merge` writes block by block):
// open(), write() any number of times, commit(); destroyed without a commit,
// the temporary file is removed and `path` left as it was.
class AtomicFile {
 public:
  AtomicFile() = default;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();
  bool open(const std::string& path, std::string* err);
  bool write(const void* data, size_t n);  // false once a write failed (commit says why)
  bool commit(std::string* err);

 private:
  std::FILE* f_ = nullptr;
  std::string path_, target_, tmp_;
  int saved_ = 0;  // errno of the first failure
};

// Prints an input's note and problem (named); returns its exit share.
int report_input(const Input& in);

// The inputs in order, "-" (standard input) kept once (a note otherwise).
std::vector<std::string> inputs(const std::vector<std::string>& files);

// -j: files parsed at once (each by its own engine on its own thread); the
// output, stderr and exit code are those of -j 1 (docs/parallel-parse.md).
int default_jobs();  // the machine's cores

// Reads every file into the engine. Returns the exit code so far (0, 1 or 2)
// after printing per-file diagnostics to stderr.
// `runs`: the "run" label of each path (FileOptions::run; runs_cli.h).
// What the CLI knows of its inputs before it parses them (runs_cli.h
// prepare_runs): each path's run label, and what the folder holds
// (latscope/folder.h): inputs whose jobs' I/Os another input accounts for
// (not read), and the evidence that settles per-I/O logs' units.
struct InputPlan {
  std::map<std::string, std::string> runs;  // path -> run label
  std::vector<FolderFile> folder;           // every input's head as read (run_file.name = path)
  std::vector<AccountChoice> choices;       // parallel to folder
  std::vector<Account> prefer;              // --account
  bool all_accounts = false;                // --group-by account: every log is used
  std::map<std::string, size_t> index;      // path -> its folder entry
  // The trust summary, fed every source as it is read (folder.h).
  std::shared_ptr<TrustBuilder> trust;
  // The choice for a path; nullptr when it is used.
  const AccountChoice* superseded(const std::string& path) const;
};
using RunLabels = InputPlan;
// A file the folder's evidence may change (settle_source): a per-I/O log of
// pending unit, a client/server histogram log.
bool may_settle(const Source& src);
// settle_source, and each decision it added said on stderr (a warning or a
// note naming the file).
void settle_and_say(Source* src, const std::vector<FolderFile>& folder);
int load_files(Engine* engine, const std::vector<std::string>& files, const FileOptions& fopts, int jobs,
               const RunLabels* runs = nullptr);

// How the fold reads plain files (docs/quanta.md): whole; HdrHistogram
// windows keeping where their lines are instead of their bins (lines,
// FileOptions::reread); and, with a quantum, each window handed to a digest
// and read again in time order later (TimeOrderFeed, model.h DigestSink).
struct Reread {
  Reread(bool keep_lines = false) : lines(keep_lines) {}  // NOLINT: true/false read as before
  bool lines = false;
  double digest_quantum_ms = 0;
};

// Parses each file with its own Engine and hands its Source to fn, then
// drops it: memory holds one file's model at a time. fio json output is read
// first (what the engine would take as json: the first non-blank byte is not
// a digit), so it is at hand when the logs it completes arrive. Same exit
// codes and diagnostics as load_files. Memory: `jobs` files' models. fn
// may keep the source it is given (move it away). `reread`: plain
// HdrHistogram files keep where each window's line is instead of its bins,
// for a fold that decodes them again (FileOptions::reread, docs/quanta.md
// "Memory: the fold by quanta").
int for_each_file(const std::vector<std::string>& files, const FileOptions& fopts, int jobs,
                  const std::function<void(Source&)>& fn, const RunLabels* runs = nullptr, Reread reread = {});

// Reads a whole file (plain or gzip, "-" standard input) into memory; false
// with *err set when nothing usable could be read. A damaged .gz's readable
// part is returned, with its problem printed (report_input).
bool read_whole_file(const std::string& path, std::string* out, std::string* err);

// Prints a source's status and issue counters (with first examples) to stderr.
void print_diagnostics(const Source& src);
// Prints the trust summary of the inputs read so far (folder.h) on stderr:
// each file's warnings, then one line of totals; returns 1 when a file's
// numbers are doubtful (a known fio defect, a count fio disagrees with).
int print_trust(const InputPlan& plan);
// Names every --offset key no input has (a typo must not silently shift
// nothing); returns 1 when one is unused, else 0.
int check_offsets(const std::map<std::string, double>& offsets, const InputPlan& plan);
// Prints a query's notes and query-time issues (as a source "(merge)");
// returns 1 when the query left selected series out (another time base),
// else 0.
int print_query_notes(const std::vector<std::string>& notes, const Diagnostics& diag);
// What pctiles and heatmap say after their query: its notes, the trust
// summary, the --offset keys no input has; the largest exit share of them.
int print_after_query(const std::vector<std::string>& notes, const Diagnostics& diag,
                      const std::map<std::string, double>& offsets, const InputPlan& plan);

bool parse_double(const std::string& s, double* out);
std::vector<std::string> split(const std::string& s, char sep);

}  // namespace latscope::cli
