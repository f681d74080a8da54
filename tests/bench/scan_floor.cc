// The least CPU any fold of fio histogram text can take with the reader's
// own line scanner: the file read as `latscope` reads it (read(2) in 1 MiB
// blocks), cut at newlines and every line through fio_hist::scan_line, the
// fields thrown away. Nothing is built, folded or printed. Set against a
// whole `latscope pctiles` run on the same file (docs/benchmarks.md, "Dense
// fio logs: the floor"), it says how much of that run any redesign of the
// fold could still win.
//
//   scan_floor [--cut-only | --fold] FILE    (run under `perf stat -e task-clock`)
//
// --cut-only: the lines are cut but not scanned (what the read and the cut
// cost alone).
// --fold: the least a one-pass fold could add to the scan: each line's
// counts go straight into dense 1 s quanta (a window (t - interval, t] split
// between two quanta by its share of time, as the query does), and a
// quantum is closed, its p99 found in one pass over its bins, once time has
// passed it. No windows, no model, no checks, no groups, no output.
//
// Prints lines scanned, lines refused (the general parser's, not counted
// here) and non-empty bins, so a run that read nothing shows.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <vector>

#include "formats/fio_hist/line_scan.h"
#include "latscope/layout.h"

int main(int argc, char** argv) {
  const bool cut_only = argc == 3 && std::strcmp(argv[1], "--cut-only") == 0;
  const bool fold = argc == 3 && std::strcmp(argv[1], "--fold") == 0;
  if (argc != 2 && !cut_only && !fold) {
    std::fprintf(stderr, "usage: scan_floor [--cut-only | --fold] FILE\n");
    return 2;
  }
  // --fold: the open quanta by index, each a dense row of fio's bins.
  std::map<int64_t, std::vector<double>> open_quanta;
  double last_t[3] = {-1, -1, -1}, p99_sum = 0;
  uint64_t closed = 0;
  const auto close_before = [&](int64_t q) {
    while (!open_quanta.empty() && open_quanta.begin()->first < q) {
      const std::vector<double>& row = open_quanta.begin()->second;
      double total = 0;
      for (double c : row) total += c;
      double seen = 0;
      size_t bin = 0;
      while (bin < row.size() && seen < 0.99 * total) seen += row[bin++];
      p99_sum += static_cast<double>(bin);
      ++closed;
      open_quanta.erase(open_quanta.begin());
    }
  };
  const auto row_of = [&](int64_t q) -> double* {
    std::vector<double>& r = open_quanta[q];
    if (r.empty()) r.assign(latscope::kFio3Bins, 0.0);
    return r.data();
  };
  const auto add = [&](const latscope::fio_hist::LineFields& f) {
    const double t = static_cast<double>(f.meta[0]);
    const size_t d = f.meta[1] < 3 ? f.meta[1] : 0;
    const double start = last_t[d] >= 0 && last_t[d] < t ? last_t[d] : t;
    last_t[d] = t;
    const int64_t q = static_cast<int64_t>(t / 1000), q0 = static_cast<int64_t>(start / 1000);
    close_before(std::min(q0, q) - 1);  // time has passed those
    double* g = row_of(q);
    if (q0 == q || t == start) {
      for (uint32_t i = 0; i < f.nnz; ++i) g[f.bins[i]] += static_cast<double>(f.counts[i]);
      return;
    }
    double* g0 = row_of(q0);
    const double before = (static_cast<double>(q) * 1000 - start) / (t - start);
    for (uint32_t i = 0; i < f.nnz; ++i) {
      const double c = static_cast<double>(f.counts[i]), a = c * before;
      g0[f.bins[i]] += a;
      g[f.bins[i]] += c - a;
    }
  };
  const char* path = argv[argc - 1];
  const int fd = open(path, O_RDONLY);
  if (fd < 0) {
    std::perror(path);
    return 2;
  }
  std::vector<uint32_t> bins(latscope::kFio3Bins);
  std::vector<uint64_t> counts(latscope::kFio3Bins);
  std::vector<char> buf(size_t{1} << 20);
  size_t have = 0;  // bytes of an unfinished line at the start of buf
  uint64_t lines = 0, refused = 0, nnz = 0;
  const auto scan = [&](const char* b, const char* e) {
    if (cut_only) {
      ++lines;
      nnz += static_cast<uint64_t>(e - b);  // bytes: the line's end is used
      return;
    }
    latscope::fio_hist::LineFields f;
    f.bins = bins.data();
    f.counts = counts.data();
    if (latscope::fio_hist::scan_line(b, e, &f)) {
      ++lines;
      nnz += f.nnz;
      if (fold) add(f);
    } else {
      ++refused;
    }
  };
  for (;;) {
    if (have == buf.size()) buf.resize(buf.size() * 2);  // a line longer than the buffer
    const ssize_t n = read(fd, buf.data() + have, buf.size() - have);
    if (n < 0) {
      std::perror(path);
      return 2;
    }
    if (n == 0) break;
    const char* p = buf.data();
    const char* end = buf.data() + have + static_cast<size_t>(n);
    for (;;) {
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
      if (!nl) break;
      scan(p, nl);
      p = nl + 1;
    }
    have = static_cast<size_t>(end - p);
    std::memmove(buf.data(), p, have);
  }
  if (have) scan(buf.data(), buf.data() + have);
  close(fd);
  if (cut_only) {
    std::printf("%llu lines cut, %llu bytes in them\n", static_cast<unsigned long long>(lines),
                static_cast<unsigned long long>(nnz));
    return 0;
  }
  std::printf("%llu lines scanned, %llu refused, %llu non-empty bins\n", static_cast<unsigned long long>(lines),
              static_cast<unsigned long long>(refused), static_cast<unsigned long long>(nnz));
  if (fold) {
    close_before(INT64_MAX);
    std::printf("%llu quanta folded, mean p99 bin %.1f\n", static_cast<unsigned long long>(closed),
                closed ? p99_sum / static_cast<double>(closed) : 0.0);
  }
  return 0;
}
