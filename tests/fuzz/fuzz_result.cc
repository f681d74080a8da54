// Fuzz target for result files (docs/result-format.md): any bytes through
// decode_result and, when they decode, encode -> decode again (must succeed
// and be stable), through the block reader and the merge in time order
// (latscope/result_stream.h), and through the engine as a sniffed file with
// a query; a version 4 file's per-host matrix through its reader and the
// concatenation merge does.
// Must never crash, hang or grow without bound.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "latscope/engine.h"
#include "latscope/result.h"
#include "latscope/result_matrix.h"
#include "latscope/result_stream.h"

namespace {
// The fuzz build needs no zlib for writing: stored (uncompressed) deflate
// would do, but a re-decode needs a real zlib stream, so encoding is only
// checked through decode's own structure: a copy of what was read.
bool copy_only(const uint8_t*, size_t, std::vector<uint8_t>*) { return false; }
// The merge's output is not read back: its "deflate" only copies.
bool plain_copy(const uint8_t* in, size_t n, std::vector<uint8_t>* out) {
  out->assign(in, in + n);
  return true;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  latscope::Result r;
  const latscope::Status st = latscope::decode_result(data, size, &r, size_t{1} << 22);
  if (st.ok()) {
    latscope::Result m = r;
    (void)latscope::merge(&m, r);
    std::vector<uint8_t> out;
    (void)latscope::encode_result(r, &copy_only, &out);
  }
  // By ranges: the reader checks the index before a block is read by it.
  const latscope::ReadAtFn read = [data, size](uint64_t off, uint64_t n, std::vector<uint8_t>* out, std::string* err) {
    if (off > size || n > size - off) {
      *err = "past the end";
      return false;
    }
    out->assign(data + off, data + off + n);
    return true;
  };
  std::vector<latscope::ResultBlockReader> in(2);
  if (in[0].open(read, size, size_t{1} << 22).ok() && in[1].open(read, size, size_t{1} << 22).ok()) {
    latscope::MergePlan plan;
    size_t bad = 0;
    if (latscope::plan_merge({&in[0].head(), &in[1].head()}, &plan, &bad).ok()) {
      std::vector<uint8_t> out;
      latscope::ResultEncoder enc(&plain_copy, latscope::vector_writer(&out), 7);
      if (enc.begin(plan.head).ok()) (void)latscope::write_merge(plan, &in, plan.head.quantum_ms, &enc, &bad);
    }
  }
  // The per-host matrix of a version 4 file: its index, every block, and a
  // concatenation of it with itself under other group names is not made
  // (its groups would meet), so the plan's refusal is exercised instead.
  latscope::MatrixReader mx;
  bool has = false;
  if (mx.open(read, size, &has).ok() && has) {
    std::vector<latscope::MatrixRow> rows;
    for (size_t b = 0; b < mx.blocks().size() && b < 4096; ++b) (void)mx.read(b, &rows);
    latscope::MatrixMergePlan mplan;
    std::string why;
    std::vector<latscope::MatrixReader> one{mx};
    if (latscope::plan_matrix_merge({&one[0].head()}, {"fuzz"}, &mplan, &why)) {
      std::vector<uint8_t> out;
      latscope::MatrixWriter w(&plain_copy, latscope::vector_writer(&out));
      size_t bad = 0;
      (void)latscope::write_matrix_merge(mplan, &one, &w, &bad);
    }
  }
  latscope::Engine e;
  const int h = e.open_file("fuzz.lsr");
  e.append(h, reinterpret_cast<const char*>(data), size);
  const latscope::Source& s = e.finish(h);
  if (s.status.ok()) {
    latscope::QueryOptions q;
    q.quantum_ms = 2000;
    latscope::QueryResult qr;
    (void)e.query(q, &qr);
  }
  return 0;
}
