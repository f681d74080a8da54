// Helpers shared by the tests of a result's per-host matrix
// (result_matrix_test.cc, matrix_answer_test.cc): the query by host a
// matrix level stands for, what `pctiles` prints for it on the logs, a
// result file with its matrix as reduce writes it, and reading such a file
// from memory. Header-only (inline) because tests/CMakeLists.txt compiles
// only *_test.cc files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fixture_util.h"
#include "latscope/options_json.h"
#include "latscope/report.h"
#include "latscope/result.h"
#include "latscope/result_matrix.h"
#include "test_util.h"

namespace latscope {
namespace fixtures {

// `pctiles --group-by host --quantum q`.
inline QueryOptions host_query(double q) {
  QueryOptions o;
  o.quantum_ms = q;
  o.group_by = {"host"};
  return o;
}

// What `pctiles` prints for `o` on the logs `files`, in us.
inline std::string pctiles_of_files(const std::vector<std::string>& files, const QueryOptions& o,
                                    const std::vector<std::string>& labels = default_percentile_labels()) {
  Engine e;
  for (const std::string& f : files) {
    std::string text;
    EXPECT_TRUE(read_file(f, &text)) << f;
    testing::feed(&e, f, text);
  }
  QueryResult r;
  EXPECT_TRUE(e.query(o, &r).ok());
  return pctiles_csv(r, labels, Unit::kUs);
}

// The histograms of r (version 2) and its matrix at `levels`, as reduce writes them.
inline std::vector<uint8_t> with_matrix(const Result& r, const std::vector<double>& levels) {
  std::vector<uint8_t> hist;
  EXPECT_TRUE(encode_result(r, &deflate_zlib, &hist).ok());
  std::vector<uint8_t> out = result_matrix_head();
  out.insert(out.end(), hist.begin(), hist.end());
  const uint64_t mx = out.size();
  MatrixWriter w(&deflate_zlib, vector_writer(&out));
  MatrixHead head;
  const Status st = build_result_matrix(r, QueryOptions(), default_percentile_labels(), levels, &head, &w);
  EXPECT_TRUE(st.ok()) << st.message;
  const uint64_t parts = out.size();
  const std::vector<uint8_t> tail = result_parts_tail(12, hist.size(), mx, parts - mx, parts);
  out.insert(out.end(), tail.begin(), tail.end());
  return out;
}

// Reads ranges of `bytes` (held by the caller) as a MatrixReader asks for them.
inline ReadAtFn reader_of(const std::vector<uint8_t>* bytes) {
  return [bytes](uint64_t off, uint64_t n, std::vector<uint8_t>* out, std::string* why) {
    if (off > bytes->size() || n > bytes->size() - off) {
      *why = "truncated";
      return false;
    }
    out->assign(bytes->begin() + static_cast<std::ptrdiff_t>(off), bytes->begin() + static_cast<std::ptrdiff_t>(off + n));
    return true;
  };
}

}  // namespace fixtures
}  // namespace latscope
