// The fast path of the fio histogram reader: one line in the exact shape fio
// writes ("1002, 0, 4096, 0, 0, 17, ...": ", " between unsigned fields, no
// blanks elsewhere). Most of a line is "0, " runs (a fio 3 line has 1856 bin
// columns and a few hundred non-empty bins at most), so kernels differ in how
// they skip those runs: a portable scalar one (eight zeros per three 8-byte
// compares), SSE2 and AVX2 (x86-64, chosen at run time from the CPU) and
// WebAssembly simd128 (16 or 32 zeros per step). Every kernel gives the same fields, or refuses the same lines
// (the general parser then reads them and names what is wrong); none reads a
// byte at or past the line's end (docs/formats.md, "Reading fio histogram lines fast").
#pragma once

#include <cstddef>
#include <cstdint>

namespace latscope::fio_hist {

// The fields of one line. bins/counts have room for kFio3Bins entries.
struct LineFields {
  uint64_t meta[3] = {0, 0, 0};  // time_ms, ddir, bs
  uint32_t* bins = nullptr;      // bin index (0-based) of each non-empty bin
  uint64_t* counts = nullptr;    // its count
  uint32_t nnz = 0;              // non-empty bins written
  size_t cols = 0;               // bin columns of the line
};

// True with `out` filled when [b, e) (no '\n', no '\r') is in fio's exact
// shape with at least one bin column; false otherwise (out then undefined).
using LineParser = bool (*)(const char* b, const char* e, LineFields* out);

enum class LineKernel { kScalar, kSse2, kAvx2, kSimd128 };
constexpr LineKernel kAllLineKernels[] = {LineKernel::kScalar, LineKernel::kSse2, LineKernel::kAvx2,
                                          LineKernel::kSimd128};

const char* kernel_name(LineKernel k);
// The kernel's parser when this build has it and this CPU runs it, else null.
LineParser kernel_parser(LineKernel k);
// The kernel readers opened from now on use: the best one available, or the
// one LATSCOPE_FIO_HIST_KERNEL names (scalar, sse2, avx2, simd128) when
// available; tests force each in turn with set_line_kernel.
LineKernel line_kernel();
LineParser line_parser();
// False (nothing changed) when the kernel is not available here.
bool set_line_kernel(LineKernel k);

// The kernels' own entry points (null where not compiled in); use
// kernel_parser, which also checks the CPU.
LineParser sse2_line_parser();
LineParser avx2_line_parser();
LineParser simd128_line_parser();

}  // namespace latscope::fio_hist
