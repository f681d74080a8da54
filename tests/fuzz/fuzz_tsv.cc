// Fuzz target for the long table (TSV, docs/export-formats.md "Reading a
// table back"): any bytes through the table parser in chunks the first byte
// chooses, and through the engine as a sniffed file with a query. Must
// never crash, hang or grow without bound (layout ids stay within
// kMaxLayoutBins: docs/input-robustness.md, "Layouts").
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "formats/tsv/tsv_table.h"
#include "latscope/engine.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const size_t chunk = 1 + data[0] % 97;
  const char* text = reinterpret_cast<const char*>(data + 1);
  const size_t n = size - 1;
  latscope::tsv::TableParser p;
  for (size_t at = 0; at < n; at += chunk) p.append(text + at, std::min(chunk, n - at));
  latscope::Result r;
  (void)p.finish(&r);
  latscope::Engine e;
  const int h = e.open_file("fuzz.tsv");
  e.append(h, text, n);
  const latscope::Source& s = e.finish(h);
  if (s.status.ok()) {
    latscope::QueryOptions q;
    q.quantum_ms = 2000;
    latscope::QueryResult qr;
    (void)e.query(q, &qr);
  }
  return 0;
}
