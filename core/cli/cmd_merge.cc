// `latscope merge`, and `latscope reduce` of result files, in time order one
// block at a time (docs/result-format.md, "Merging in time order"): the
// inputs are read by ranges, never decoded whole.
//
//   merge [--levels MS,MS,...] RESULT... -o OUT
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cli_common.h"
#include "commands.h"
#include "help.h"
#include "latscope/result.h"
#include "latscope/result_stream.h"
#include "matrix_cli.h"
#include "reduce.h"

namespace latscope::cli {
namespace {

// A merge input read by ranges: a plain result file through pread
// (file_range_reader); anything else (.gz, a pipe) read whole first.
bool open_merge_input(const std::string& path, ResultBlockReader* r, uint64_t* size, std::string* err,
                      ReadAtFn* reader) {
  ReadAtFn& read = *reader;
  read = file_range_reader(path, size);
  if (!read) {
    auto bytes = std::make_shared<std::string>();
    if (!read_whole_file(path, bytes.get(), err)) return false;
    *size = bytes->size();
    read = [bytes](uint64_t off, uint64_t n, std::vector<uint8_t>* out, std::string* why) {
      if (off > bytes->size() || n > bytes->size() - off) {
        *why = "truncated";
        return false;
      }
      out->assign(bytes->begin() + static_cast<std::ptrdiff_t>(off), bytes->begin() + static_cast<std::ptrdiff_t>(off + n));
      return true;
    };
  }
  const Status st = r->open(read, *size);
  if (!st.ok()) *err = st.message;
  return st.ok();
}

}  // namespace

int write_streamed(const char* cmd, const MergePlan& plan, std::vector<ResultBlockReader>* inputs,
                   const std::vector<std::string>& names, double quantum, const std::vector<double>& levels,
                   const std::string& how, const std::string& out, uint64_t in_bytes, const MergePlan* sums,
                   const MatrixMergePlan* mplan, std::vector<MatrixReader>* matrices) {
  const std::string prefix = std::string("latscope ") + cmd + ": ";
  // The quanta written: one level (version 2), or the quantum and the
  // levels (version 3, finest first), each a complete version 2 file.
  std::vector<double> quanta{quantum};
  if (levels.size() > 1) {
    quanta.insert(quanta.end(), levels.begin(), levels.end());
    std::sort(quanta.begin(), quanta.end());
    quanta.erase(std::unique(quanta.begin(), quanta.end()), quanta.end());
  }
  AtomicFile file;
  std::string err;
  if (!file.open(out, &err)) {
    say(prefix + err);
    return 2;
  }
  uint64_t pos = 0, cells = 0;
  const WriteFn write = [&](const uint8_t* p, size_t n) {
    pos += n;
    return file.write(p, n);
  };
  std::vector<ResultLevel> dir;
  // With a matrix, the histograms are a file inside a version 4 file: their
  // offsets count from their own start (docs/result-format.md, "Per-host
  // percentile matrix (version 4)").
  if (mplan) {
    const std::vector<uint8_t> h = result_matrix_head();
    write(h.data(), h.size());
  }
  const uint64_t hist_at = pos;
  if (levels.size() > 1) {
    const std::vector<uint8_t> h = result_levels_head();
    write(h.data(), h.size());
  }
  for (double q : quanta) {
    const uint64_t at = pos - hist_at;
    ResultEncoder enc(&deflate_zlib, write);
    Result head = plan.head;
    head.quantum_ms = q;
    size_t bad_input = SIZE_MAX;
    Status st = enc.begin(head);
    if (st.ok()) st = write_merge(plan, inputs, q, &enc, &bad_input);
    if (st.ok()) st = enc.finish();
    if (!st.ok()) {
      say(prefix + (bad_input < names.size() ? names[bad_input] + ": " : std::string()) + st.message);
      return 2;
    }
    if (q == quantum) cells = enc.cells();
    dir.push_back({q, at, enc.bytes()});
  }
  // Levels of several hosts also get their coarser quanta summed over hosts
  // (docs/result-format.md, "Levels summed over hosts"), merged block by
  // block from the same inputs, host dropped from their label sets.
  if (levels.size() > 1 && sums) {
    for (size_t k = 1; k < quanta.size(); ++k) {
      const double q = quanta[k];
      const uint64_t at = pos - hist_at;
      ResultEncoder enc(&deflate_zlib, write);
      Result head = sums->head;
      head.quantum_ms = q;
      size_t bad_input = SIZE_MAX;
      Status st = enc.begin(head);
      if (st.ok()) st = write_merge(*sums, inputs, q, &enc, &bad_input);
      if (st.ok()) st = enc.finish();
      if (!st.ok()) {
        say(prefix + (bad_input < names.size() ? names[bad_input] + ": " : std::string()) + st.message);
        return 2;
      }
      ResultLevel l{q, at, enc.bytes()};
      l.summed = true;
      dir.push_back(l);
    }
  }
  if (levels.size() > 1) {
    const std::vector<uint8_t> t = result_levels_tail(dir, pos - hist_at);
    write(t.data(), t.size());
  } else {
    dir.clear();
  }
  uint64_t mx_bytes = 0;
  if (mplan) {
    const uint64_t mx_at = pos;
    MatrixWriter w(&deflate_zlib, write);
    size_t bad_input = SIZE_MAX;
    const Status st = write_matrix_merge(*mplan, matrices, &w, &bad_input);
    if (!st.ok()) {
      say(prefix + (bad_input < names.size() ? names[bad_input] + ": " : std::string()) + st.message + "; nothing written");
      return 2;
    }
    mx_bytes = pos - mx_at;
    const std::vector<uint8_t> t = result_parts_tail(hist_at, mx_at - hist_at, mx_at, mx_bytes, pos);
    write(t.data(), t.size());
  }
  if (!file.commit(&err)) {
    say(prefix + err);
    return 2;
  }
  say_written(cmd, out, plan.head.series.size(), cells, pos, in_bytes, dir, how);
  if (mplan) say_matrix(cmd, mplan->head.levels, mx_bytes);
  return 0;
}

namespace {

// The inputs' matrices, concatenated when they can be (matrix_cli.h); the
// note says why not. False: a damaged matrix, said (nothing is written).
bool plan_matrices(const char* cmd, const std::vector<ReadAtFn>& reads, const std::vector<uint64_t>& sizes,
                   const std::vector<std::string>& names, std::vector<MatrixReader>* readers, MatrixMergePlan* plan,
                   bool* have) {
  std::string note;
  *have = open_matrices(reads, sizes, names, readers, plan, &note);
  if (!*have && note.find(": result: ") != std::string::npos) {
    say(std::string("latscope ") + cmd + ": " + note + "; nothing written");
    return false;
  }
  if (!note.empty())
    say(std::string("latscope ") + cmd + ": note: no per-host matrix written: " + note +
        " (the histograms are merged; reduce the merge to make one)");
  return true;
}

}  // namespace

int reduce_results(const std::vector<char*>& args, const std::string& keep, const Options& o,
                   const std::vector<double>& levels, const std::string& out) {
  // Only files, --quantum and -j: any selection goes through the fold.
  for (size_t i = 2; i < args.size(); ++i) {
    const std::string a = args[i];
    if (a == "--quantum" || a == "-j" || a == "--jobs") ++i;
    else if (!a.empty() && a[0] == '-' && !(a.rfind("-j", 0) == 0 && a.size() > 2)) return -1;
  }
  GroupBy names;
  if (keep.empty()) return -1;  // every label, and the file's name: the fold's
  if (keep != "-" && keep != "none" && !parse_group_by(keep, &names)) return -1;
  if (std::find(names.begin(), names.end(), "kind") == names.end()) names.push_back("kind");
  std::vector<ResultBlockReader> inputs(o.files.size());
  std::vector<Result> keyed(o.files.size());
  std::vector<const Result*> heads;
  std::vector<ReadAtFn> reads;
  std::vector<uint64_t> sizes;
  uint64_t in_bytes = 0;
  for (size_t i = 0; i < o.files.size(); ++i) {
    uint64_t size = 0;
    const ReadAtFn read = file_range_reader(o.files[i], &size);
    if (!read || !inputs[i].open(read, size).ok()) return -1;  // the fold reads it, or says why not
    in_bytes += size;
    reads.push_back(read);
    sizes.push_back(size);
    // Each series under its kept labels; one lacking a kept label is the
    // fold's to name (dir=mixed, a file's own labels).
    keyed[i] = inputs[i].head();
    for (ResultSeries& s : keyed[i].series) {
      Labels l;
      for (const std::string& n : names) {
        const std::string* v = s.labels.find(n);
        if (!v) return -1;
        l.set(n, *v);
      }
      s.labels = l;
    }
    heads.push_back(&keyed[i]);
  }
  MergePlan plan;
  size_t bad = SIZE_MAX;
  if (!plan_merge(heads, &plan, &bad).ok()) return -1;
  const double q = o.query.quantum_ms;
  if (quantum_multiple(plan.head.quantum_ms, q) == 0) return -1;
  // The hosts' matrices pass through while host is kept (matrix_cli.h).
  std::vector<MatrixReader> matrices;
  MatrixMergePlan mplan;
  bool have = false;
  if (std::find(names.begin(), names.end(), "host") != names.end() &&
      !plan_matrices("reduce", reads, sizes, o.files, &matrices, &mplan, &have))
    return 2;
  MergePlan sums;
  const bool summed = plan_merge_summed(heads, &sums);
  return write_streamed("reduce", plan, &inputs, o.files, q, levels, "", out, in_bytes, summed ? &sums : nullptr,
                        have ? &mplan : nullptr, &matrices);
}

// Merges in time order, one output block at a time: memory is the inputs'
// heads and indexes plus one block of the merged result, whatever the number
// of inputs or the length of the run.
int cmd_merge(int argc, char** argv) {
  std::vector<char*> rest;
  std::string out;
  std::vector<double> levels;
  if (!split_args(argc, argv, "merge", &rest, &out, nullptr, &levels)) return 2;
  const bool levels_given = !levels.empty();
  std::string levels_from;  // the first input of several levels, when --levels is not given
  if (rest.size() <= 2) {
    say("latscope merge: no result files given");
    return 2;
  }
  const std::vector<std::string> names(rest.begin() + 2, rest.end());
  std::vector<ResultBlockReader> inputs(names.size());
  std::vector<const Result*> heads;
  std::vector<ReadAtFn> reads(names.size());
  std::vector<uint64_t> sizes(names.size());
  uint64_t in_bytes = 0;
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string& path = names[i];
    std::string err;
    uint64_t& size = sizes[i];
    if (!open_merge_input(path, &inputs[i], &size, &err, &reads[i])) {
      // merge takes every other argument as a result file (a file may be
      // named "-x"); one that cannot be read and is close to an option
      // was most likely meant as the option.
      const std::string hint = path.size() > 1 && path[0] == '-' ? did_you_mean("merge", path) : "";
      say(std::string("latscope merge: ").append(path).append(": ").append(err).append(hint));
      return 2;
    }
    in_bytes += size;
    heads.push_back(&inputs[i].head());
    // Several levels: the finest is merged (every coarser one is requantize()
    // of it); the first such input's quanta are the output's unless --levels.
    if (!inputs[i].level_quanta().empty() && !levels_given && levels_from.empty()) {
      levels_from = path;
      levels = inputs[i].level_quanta();
    }
  }
  MergePlan plan;
  size_t bad_input = SIZE_MAX;
  const Status st = plan_merge(heads, &plan, &bad_input);
  if (!st.ok()) {
    say("latscope merge: " + names[bad_input] + ": " + st.message);
    return 2;
  }
  const double quantum = plan.head.quantum_ms;
  for (const std::string& n : plan.notes) say("latscope merge: note: " + n);
  std::string how;
  if (!levels.empty()) {
    if (levels_given) {
      if (!check_levels("merge", &levels, quantum)) return 2;
      how = ": --levels";
    } else {
      // Only the levels the merged quantum nests in (a coarser input may have
      // re-quantized the merge).
      std::vector<double> keep;
      for (double q : levels)
        if (quantum_multiple(quantum, q)) keep.push_back(q);
      how = ": the levels of " + levels_from + " that are multiples of the merged " + quantum_text(quantum) + " ms";
      levels = keep;
      if (levels.size() <= 1) how = "";
      if (levels.size() <= 1)
        say("latscope merge: note: no level of " + levels_from + " is coarser than the merged " +
            quantum_text(quantum) + " ms and a multiple of it: one level written");
    }
  }
  // The hosts' matrices concatenated (docs/result-format.md, "Merging the matrix").
  std::vector<MatrixReader> matrices;
  MatrixMergePlan mplan;
  bool have = false;
  if (!plan_matrices("merge", reads, sizes, names, &matrices, &mplan, &have)) return 2;
  // With hosts kept, the coarser levels summed over hosts too
  // (docs/result-format.md, "Levels summed over hosts").
  MergePlan sums;
  const bool summed = plan_merge_summed(heads, &sums);
  return write_streamed("merge", plan, &inputs, names, quantum, levels, how, out, in_bytes, summed ? &sums : nullptr,
                        have ? &mplan : nullptr, &matrices);
}

}  // namespace latscope::cli
