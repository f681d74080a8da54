// Result files in the registry (docs/result-format.md, "Reading a result"):
// sniffed by the magic, decoded whole at finish(), and turned into a Source
// whose series are the result's label sets, so every query reads a result
// like logs.
#include <cmath>
#include <cstring>

#include "formats/result/result_source.h"
#include "formats/sniff_util.h"
#include "latscope/engine.h"
#include "latscope/reader.h"
#include "latscope/result.h"
#include "latscope/result_matrix.h"

namespace latscope {

// One series per label set and layout; one window (jQ, (j+1)Q] per non-empty
// cell, so a query at any multiple of Q puts each window whole into one
// quantum (weight 1: exact). Counts stay fixed point (count_frac_bits).
void result_to_source(const Result& r, Source* src) {
  src->absolute_time = r.absolute_time;
  // File-level labels from the name say nothing about the data inside.
  Labels keep;
  keep.set("file", src->labels.find("file") ? *src->labels.find("file") : std::string());
  keep.set("run", src->labels.find("run") ? *src->labels.find("run") : std::string());
  src->labels = keep;
  for (const ResultSeries& rs : r.series) {
    Series s;
    s.role = Role::kTimeSeries;
    s.layout = rs.layout;
    s.labels = rs.labels;
    s.count_frac_bits = static_cast<uint8_t>(kResultFracBits);
    const std::string* dir = rs.labels.find("dir");
    if (dir && *dir == "write") s.dir = Dir::kWrite;
    else if (dir && *dir == "trim") s.dir = Dir::kTrim;
    else s.dir = Dir::kRead;
    // Directions merged away: the label says so, not "read" (docs/result-format.md).
    if (!dir) s.labels.set("dir", "mixed");
    if (const std::string* job = rs.labels.find("job")) s.job = *job;
    s.full_start_ms = rs.full_start_ms;
    s.full_end_ms = rs.full_end_ms;
    const double q = r.quantum_ms;
    for (size_t i = 0; i < rs.cells.size(); ++i) {
      const ResultCell& c = rs.cells[i];
      double a = static_cast<double>(c.quantum) * q, b = a + q;
      // The first and last windows keep the series' span (inside their quantum).
      if (i == 0) a = std::min(std::max(a, rs.span_start_ms), b);
      if (i + 1 == rs.cells.size()) b = std::max(std::min(b, rs.span_end_ms), a);
      if (!(b > a)) {  // a span that ends before its cell's quantum: the whole quantum
        a = static_cast<double>(c.quantum) * q;
        b = a + q;
      }
      s.add_window(a, b, c.bins.data(), c.counts.data(), static_cast<uint32_t>(c.bins.size()));
      s.extremes.push_back(c.extremes);  // docs/extremes.md, "Results"
    }
    if (s.windows.empty()) continue;
    // Span beyond the cells (quanta with no I/O at the run's ends): empty windows.
    if (rs.span_start_ms < s.windows.front().start_ms) {
      Window w;
      w.start_ms = rs.span_start_ms;
      w.end_ms = s.windows.front().start_ms;
      s.windows.insert(s.windows.begin(), w);
      s.extremes.insert(s.extremes.begin(), ExtremeBins());
    }
    if (rs.span_end_ms > s.windows.back().end_ms) {
      Window w;
      w.start_ms = s.windows.back().end_ms;
      w.end_ms = rs.span_end_ms;
      w.offset = static_cast<uint32_t>(s.data.size());
      s.windows.push_back(w);
      s.extremes.emplace_back();
    }
    if (!src->layout) src->layout = s.layout;
    src->records += s.windows.size();
    src->series.push_back(std::move(s));
  }
}

namespace {

SniffResult sniff_result(const SniffInput& in) {
  SniffResult r{FileFormat::kResult, 0, "latscope result"};
  if (is_result_file(in.data, in.n)) r.confidence = 100;
  return r;
}

class ResultReader : public Reader {
 public:
  ResultReader(Source src, double query_quantum_ms, size_t max_bytes)
      : src_(std::move(src)), query_quantum_ms_(query_quantum_ms), max_bytes_(max_bytes ? max_bytes : kMaxResultBytes) {}
  void append(const char* data, size_t n) override {
    if (bytes_.size() + n > kMaxBytes) {
      over_ = true;
      return;
    }
    bytes_.insert(bytes_.end(), data, data + n);
  }
  Source finish() override {
    src_.format = FileFormat::kResult;
    src_.bytes = bytes_.size();
    if (over_) {
      src_.status = Status::Error(ErrorCode::kUnusableFile, src_.name + ": result file over 4 GiB");
      return std::move(src_);
    }
    // Several resolutions: the coarsest level the query quantum reads
    // exactly; the other levels are never inflated. A bad directory is left
    // to decode_result to report.
    double level_ms = 0;
    std::vector<ResultLevel> levels;
    // A version 4 file's histograms are a version 1-3 file inside it
    // (docs/result-format.md, "Per-host percentile matrix (version 4)").
    uint64_t at = 0, len = bytes_.size();
    if (!result_histograms(bytes_.data(), bytes_.size(), &at, &len).ok()) at = 0, len = bytes_.size();
    if (query_quantum_ms_ > 0 && read_result_levels(bytes_.data() + at, static_cast<size_t>(len), &levels).ok())
      level_ms = levels[choose_result_level(levels, query_quantum_ms_)].quantum_ms;
    Result r;
    Status st = decode_result(bytes_.data(), bytes_.size(), &r, max_bytes_, level_ms);
    if (!st.ok()) {
      src_.status = Status::Error(ErrorCode::kUnusableFile, src_.name + ": " + st.message);
      return std::move(src_);
    }
    result_to_source(r, &src_);
    if (src_.series.empty())
      src_.status = Status::Error(ErrorCode::kUnusableFile, src_.name + ": result holds no counts");
    return std::move(src_);
  }

 private:
  // 4 GiB natively, 1 GiB in WebAssembly (32-bit size_t, 4 GiB of memory in all).
  static constexpr size_t kMaxBytes = sizeof(size_t) < 8 ? size_t{1} << 30 : static_cast<size_t>(uint64_t{1} << 32);
  Source src_;
  double query_quantum_ms_;
  size_t max_bytes_;  // decode_result's bound (FileOptions::max_result_bytes)
  std::vector<uint8_t> bytes_;
  bool over_ = false;
};

std::unique_ptr<Reader> create_result(Source src, const FileOptions& opts) {
  return std::make_unique<ResultReader>(std::move(src), opts.query_quantum_ms, opts.max_result_bytes);
}

}  // namespace

FormatEntry result_format() { return {FileFormat::kResult, &sniff_result, &create_result}; }

}  // namespace latscope
