// The fio histogram reader's line fast path alone (core/src/formats/fio_hist/
// line_scan.h), per kernel: each file is read into memory once, then every
// line goes through the kernel (no model, no repair), best of 5 passes, CPU
// time. MB = 10^6 bytes of log text. Not part of the test suite.
//
//   latscope_bench_kernels FILE...
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "formats/fio_hist/line_scan.h"
#include "latscope/layout.h"

namespace {

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

}  // namespace

int main(int argc, char** argv) {
  using latscope::fio_hist::LineFields;
  using latscope::fio_hist::LineKernel;
  std::string text;
  for (int i = 1; i < argc; ++i) {
    std::ifstream f(argv[i], std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    text += ss.str();
  }
  if (text.empty()) {
    std::fprintf(stderr, "usage: latscope_bench_kernels FILE...\n");
    return 2;
  }
  std::vector<uint32_t> bins(latscope::kFio3Bins);
  std::vector<uint64_t> counts(latscope::kFio3Bins);
  std::printf("%-8s %10s %12s\n", "kernel", "CPU MB/s", "non-empty");
  for (LineKernel k : latscope::fio_hist::kAllLineKernels) {
    const latscope::fio_hist::LineParser parse = latscope::fio_hist::kernel_parser(k);
    if (!parse) continue;
    double best = 1e30;
    uint64_t nnz = 0;
    for (int pass = 0; pass < 5; ++pass) {
      nnz = 0;
      const double t0 = cpu_seconds();
      const char* p = text.data();
      const char* end = p + text.size();
      while (p < end) {
        const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
        if (!nl) nl = end;
        LineFields f;
        f.bins = bins.data();
        f.counts = counts.data();
        if (parse(p, nl, &f)) nnz += f.nnz;
        p = nl + 1;
      }
      best = std::min(best, cpu_seconds() - t0);
    }
    std::printf("%-8s %10.0f %12llu\n", latscope::fio_hist::kernel_name(k),
                static_cast<double>(text.size()) / 1e6 / best, static_cast<unsigned long long>(nnz));
  }
  return 0;
}
