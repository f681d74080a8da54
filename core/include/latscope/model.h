// The one histogram model every input format converts to.
//
//   Source (one input file)            e.g. s1_clat_hist.2.log.127.0.0.1
//     +- Series (segment x direction)  job 2, read
//          +- windows: (start_ms, end_ms] + sparse counts over a BinLayout
//
// A window holds the I/Os that completed in (start_ms, end_ms]. Counts are
// kept sparse (bin index, count) because a 1856-bin fio line usually has a few
// dozen non-empty bins; memory is per window, never per byte of log text.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "latscope/layout.h"
#include "latscope/status.h"

namespace latscope {

enum class Dir : uint8_t { kRead = 0, kWrite = 1, kTrim = 2 };
constexpr int kDirCount = 3;
const char* dir_name(Dir d);  // "read", "write", "trim"

struct Window {
  double start_ms = 0;  // exclusive
  double end_ms = 0;    // inclusive
  uint32_t first = 0;   // offset into Series::bins / counts
  uint32_t n = 0;       // number of non-empty bins
};

struct Series {
  Dir dir = Dir::kRead;
  std::string job;       // fio job number as in the file name ("1"), or the segment's
  int segment = 0;       // per_job_logs=0: 0-based job segment within the file
  LayoutPtr layout;
  std::vector<Window> windows;     // sorted by end_ms, non-overlapping
  std::vector<uint32_t> bins;      // bin indices, ascending within a window
  std::vector<uint64_t> counts;    // counts, parallel to bins
  bool repaired = false;           // client/server accumulation defect repaired
  uint64_t saturated = 0;          // samples in a saturating last bin

  uint64_t total() const;
};

enum class FileFormat { kUnknown, kFioHist, kFioJson, kHdrLog };
const char* format_name(FileFormat f);

// Identity parsed from fio's file names:
//   <prefix>_clat_hist.<job>.log[.<host>][.gz]   (also _lat_hist, _slat_hist)
struct FileIdentity {
  std::string prefix;  // "s1"
  std::string kind;    // "clat", "lat", "slat"; empty when unknown
  std::string job;     // "2"; empty when the name has no job number
  std::string host;    // "127.0.0.1"; empty for local-mode logs
  bool gz = false;
};
FileIdentity parse_fio_file_name(const std::string& path);

struct Source {
  std::string name;  // as given by the caller (path or file name)
  FileIdentity id;
  FileFormat format = FileFormat::kUnknown;
  LayoutPtr layout;
  bool absolute_time = false;  // log_unix_epoch timestamps
  uint64_t lines = 0;
  uint64_t records = 0;        // accepted histogram lines
  uint64_t bytes = 0;
  std::vector<Series> series;
  Diagnostics diag;
  Status status;               // not ok => file unusable, series empty
};

}  // namespace latscope
