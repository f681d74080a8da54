// The least CPU any fold of fio histogram text can take with the reader's
// own line scanner: the file read as `latscope` reads it (read(2) in 1 MiB
// blocks), cut at newlines and every line through fio_hist::scan_line, the
// fields thrown away. Nothing is built, folded or printed. Set against a
// whole `latscope pctiles` run on the same file (docs/benchmarks.md, "Dense
// fio logs: the floor"), it says how much of that run any redesign of the
// fold could still win.
//
//   scan_floor [--cut-only] FILE    (run under `perf stat -e task-clock`)
//
// --cut-only: the lines are cut but not scanned (what the read and the cut
// cost alone).
//
// Prints lines scanned, lines refused (the general parser's, not counted
// here) and non-empty bins, so a run that read nothing shows.
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "formats/fio_hist/line_scan.h"
#include "latscope/layout.h"

int main(int argc, char** argv) {
  const bool cut_only = argc == 3 && std::strcmp(argv[1], "--cut-only") == 0;
  if (argc != 2 && !cut_only) {
    std::fprintf(stderr, "usage: scan_floor [--cut-only] FILE\n");
    return 2;
  }
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
  return 0;
}
