// `latscope reduce` and `latscope merge`: result files (docs/result-format.md).
//
//   reduce [--quantum MS] [--levels MS,MS,...] [--keep LABELS] [--matrix MS,...|none] [pctiles selection options] FILE... -o OUT
//   merge [--levels MS,MS,...] RESULT... -o OUT
// --levels writes a file of several resolutions (docs/result-format.md,
// "Several resolutions").
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cli_common.h"
#include "cli_options.h"
#include "commands.h"
#include "help.h"
#include "latscope/result.h"
#include "latscope/result_stream.h"
#include "latscope/stream.h"
#include "matrix_cli.h"
#include "reduce.h"
#include "runs_cli.h"

namespace latscope::cli {

bool write_file(const std::string& path, const std::vector<uint8_t>& bytes, std::string* err) {
  return write_file_atomic(path, reinterpret_cast<const char*>(bytes.data()), bytes.size(), err);
}

// Takes "-o OUT" (and, for reduce, "--keep LABELS") out of argv; the rest is
// for parse_options.
bool split_args(int argc, char** argv, const char* cmd, std::vector<char*>* rest, std::string* out,
                std::string* keep, std::vector<double>* levels) {
  rest->assign(argv, argv + 2);
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if ((a == "-o" || a == "--output") && i + 1 < argc) {
      *out = argv[++i];
    } else if (a == "--levels" && levels) {
      if (i + 1 >= argc || !parse_quanta(argv[++i], levels)) {
        say(std::string("latscope ") + cmd + ": --levels takes quanta in ms as --quantum does, comma-separated (1000,10000,60000)");
        return false;
      }
    } else if (a == "--keep" && keep && i + 1 < argc) {
      *keep = argv[++i];
      if (keep->empty()) *keep = "-";
    } else if (a == "-o" || a == "--output" || (a == "--keep" && keep)) {
      // Last on the line: said here, not left to parse_options as an unknown option.
      say(std::string("latscope ") + cmd + ": " + a + " needs a value (see latscope " + cmd + " --help)");
      return false;
    } else {
      rest->push_back(argv[i]);
    }
  }
  if (out->empty()) {
    say(std::string("latscope ") + cmd + ": -o OUT is required");
    return false;
  }
  return true;
}

// The line a written result ends with: sizes, and each level's when several.
void say_written(const char* cmd, const std::string& out, size_t series, uint64_t cells, uint64_t bytes,
                 uint64_t in_bytes, const std::vector<ResultLevel>& dir, const std::string& how) {
  std::string sizes, sums;
  size_t kept = 0;
  for (const ResultLevel& l : dir) {
    std::string& to = l.summed ? sums : sizes;
    to += std::string(to.empty() ? "" : ", ") + quantum_text(l.quantum_ms) + " ms " + std::to_string(l.length);
    kept += l.summed ? 0 : 1;
  }
  if (!sums.empty()) sums = "; summed over hosts: " + sums + " bytes";
  say(std::string("latscope ") + cmd + ": " + out + ": " + std::to_string(series) + " label sets, " +
      std::to_string(cells) + " cells, " + std::to_string(bytes) + " bytes (inputs " + std::to_string(in_bytes) +
      " bytes)" + (dir.empty() ? std::string() : "; " + std::to_string(kept) + " levels (" + sizes + " bytes)" + how) +
      sums);
}

namespace {

// levels: the quanta of a file of several resolutions (r's first), or empty
// for a single-level file. `how` ends the stderr line (where the levels came from).
// matrix: the per-host matrix's levels (none: no matrix), made with o's
// percentiles and method (docs/result-format.md, "Per-host percentile matrix (version 4)").
int write_result(const char* cmd, const Result& r, const std::vector<double>& levels, const std::string& how,
                 const std::string& out, uint64_t in_bytes, const Options* o = nullptr,
                 const std::vector<double>& matrix = {}) {
  std::vector<uint8_t> bytes;
  Status st = levels.size() > 1 ? encode_result_levels(r, levels, &deflate_zlib, &bytes)
                                : encode_result(r, &deflate_zlib, &bytes);
  std::vector<ResultLevel> dir;
  if (st.ok() && levels.size() > 1) st = read_result_levels(bytes.data(), bytes.size(), &dir);
  const uint64_t hist_bytes = bytes.size();
  if (st.ok() && o && !matrix.empty()) st = add_matrix(r, *o, matrix, &bytes);
  std::string err;
  if (!st.ok() || !write_file(out, bytes, &err)) {
    say(std::string("latscope ") + cmd + ": " + (st.ok() ? err : st.message));
    return 2;
  }
  say_written(cmd, out, r.series.size(), r.cells(), bytes.size(), in_bytes, dir, how);
  if (bytes.size() != hist_bytes) say_matrix(cmd, matrix, bytes.size() - hist_bytes);
  return 0;
}

}  // namespace

bool check_levels(const char* cmd, std::vector<double>* levels, double quantum_ms) {
  std::sort(levels->begin(), levels->end());
  levels->erase(std::unique(levels->begin(), levels->end()), levels->end());
  for (double q : *levels)
    if (quantum_multiple(quantum_ms, q) == 0) {
      say(std::string("latscope ") + cmd + ": --levels: " + quantum_text(q) + " ms is no multiple of the finest level, " +
          quantum_text(quantum_ms) + " ms");
      return false;
    }
  if (levels->size() > kMaxResultLevels) {
    say(std::string("latscope ") + cmd + ": --levels: at most " + std::to_string(kMaxResultLevels) + " levels");
    return false;
  }
  return true;
}

ReadAtFn file_range_reader(const std::string& path, uint64_t* size) {
  struct stat st {};
  char magic[sizeof kResultMagic] = {};
  const int fd = ::open(path.c_str(), O_RDONLY);
  const bool plain = fd >= 0 && ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
                     ::pread(fd, magic, sizeof magic, 0) == static_cast<ssize_t>(sizeof magic) &&
                     is_result_file(magic, sizeof magic);
  if (fd >= 0) ::close(fd);
  if (!plain) return nullptr;
  *size = static_cast<uint64_t>(st.st_size);
  // Opened per read: thousands of inputs need no thousands of descriptors.
  return [path](uint64_t off, uint64_t n, std::vector<uint8_t>* out, std::string* why) {
    out->resize(static_cast<size_t>(n));
    const int f = ::open(path.c_str(), O_RDONLY);
    uint64_t got = 0;
    while (f >= 0 && got < n) {
      const ssize_t k = ::pread(f, out->data() + got, static_cast<size_t>(n - got), static_cast<off_t>(off + got));
      if (k <= 0) break;
      got += static_cast<uint64_t>(k);
    }
    if (f >= 0) ::close(f);
    if (got != n) *why = "cannot read " + std::to_string(n) + " bytes at byte " + std::to_string(off);
    return got == n;
  };
}

bool results_quantum(const std::vector<std::string>& files, double* quantum_ms, std::string* from) {
  bool any = false;
  for (const std::string& path : files) {
    uint64_t size = 0;
    const ReadAtFn read = file_range_reader(path, &size);
    ResultBlockReader r;
    // A result that cannot be read is left to the reader to report.
    if (!read || !r.open(read, size).ok()) continue;
    if (!any || r.head().quantum_ms > *quantum_ms) {
      *quantum_ms = r.head().quantum_ms;
      *from = path;
    }
    any = true;
  }
  return any;
}

int reduce_inputs(Options o, const std::string& keep, const char* cmd, Result* r, uint64_t* in_bytes,
                  std::vector<TrustRow>* trust) {
  if (!plan_reduce(&o, keep, cmd)) return -1;
  StreamingQuery stream(o.query);
  Status st;
  *in_bytes = 0;
  const int rc = for_each_file(o.files, o.file, o.jobs, [&](Source& s) {
    *in_bytes += s.bytes;
    const Status added = stream.add(std::move(s));
    if (!added.ok() && st.ok()) st = added;
  }, &o.run_labels);
  return finish_reduce(&stream, st, rc, &o, cmd, r, trust);
}

int cmd_reduce(int argc, char** argv) {
  std::vector<char*> rest;
  std::string out, keep;
  std::vector<double> levels;
  if (!split_args(argc, argv, "reduce", &rest, &out, &keep, &levels)) return 2;
  Options o;
  o.quantum_from_levels = !levels.empty();
  if (!parse_options(static_cast<int>(rest.size()), rest.data(), 2, "reduce", &o)) return 2;
  if (!levels.empty()) {
    // The finest level is the reduce quantum: --levels alone sets it, with
    // --quantum both must agree.
    const double finest = *std::min_element(levels.begin(), levels.end());
    if (o.quantum_given && finest != o.query.quantum_ms) {
      say("latscope reduce: --levels starts at " + quantum_text(finest) + " ms, --quantum is " +
          quantum_text(o.query.quantum_ms) + " ms: the finest level is the reduce quantum");
      return 2;
    }
    o.query.quantum_ms = finest;
    o.file.query_quantum_ms = o.file.query_quantum_ms > 0 ? finest : 0;
    if (!check_levels("reduce", &levels, finest)) return 2;
  }
  // Result files only: re-keyed and merged block by block, never decoded whole.
  if (const int streamed = reduce_results(rest, keep, o, levels, out); streamed >= 0) return streamed;
  Result r;
  uint64_t in_bytes = 0;
  const int rc = reduce_inputs(o, keep, "reduce", &r, &in_bytes);
  if (rc < 0) return 2;
  return std::max(rc, write_result("reduce", r, levels, "", out, in_bytes, &o,
                                   matrix_levels("reduce", o, keep, r.quantum_ms)));
}

}  // namespace latscope::cli
