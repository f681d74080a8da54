// Fuzz target for fio per-I/O logs (docs/formats-fio-lat.md): any bytes as a
// per-I/O log, in any chunking, sniffed or forced; then every query kind.
// Must never crash, hang or grow without bound, and the streaming fold must
// print exactly what the stored-model query prints, for Method::kExact too.
#include <cstddef>
#include <cstdint>
#include <string>

#include "latscope/engine.h"
#include "latscope/model_io.h"
#include "latscope/report.h"
#include "latscope/stream.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const uint8_t ctl = data[0];
  ++data;
  --size;
  latscope::Engine e;
  latscope::FileOptions fo;
  if (ctl & 1) fo.format = latscope::FileFormat::kFioLat;
  if (ctl & 2) fo.max_per_io_samples = 7;  // the budget path
  static const char* const kNames[] = {"f_clat.1.log", "f_lat.2.log.host", "f_slat.log", "unnamed.txt"};
  const int h = e.open_file(kNames[(ctl >> 2) & 3], fo);
  const size_t chunk = 1 + (ctl >> 4) * 13;
  for (size_t i = 0; i < size; i += chunk)
    e.append(h, reinterpret_cast<const char*>(data) + i, size - i < chunk ? size - i : chunk);
  const latscope::Source& s = e.finish(h);
  (void)latscope::source_json(s);
  // The worker transport round-trips it.
  const std::vector<uint8_t> bytes = latscope::encode_source(s);
  latscope::Source back;
  if (!latscope::decode_source(bytes.data(), bytes.size(), &back).ok()) __builtin_trap();
  const std::vector<std::string> labels{"p0", "p50", "p99.9", "p100"};
  for (latscope::Method m : {latscope::Method::kExact, latscope::Method::kInterp}) {
    latscope::QueryOptions q;
    q.quantum_ms = (ctl & 0x20) ? 1 : 250;
    q.percentiles = {0, 50, 99.9, 100};
    q.method = m;
    if (ctl & 0x40) q.group_by = {"dir"};
    latscope::QueryResult r, sr;
    if (!e.query(q, &r).ok()) continue;
    latscope::StreamingQuery stream(q);
    if (stream.add(s).ok() && stream.finish(&sr).ok() &&
        latscope::pctiles_csv(sr, labels, latscope::Unit::kNs) != latscope::pctiles_csv(r, labels, latscope::Unit::kNs))
      __builtin_trap();
  }
  for (auto y : {latscope::HeatmapOptions::Y::kLatency, latscope::HeatmapOptions::Y::kBs,
                 latscope::HeatmapOptions::Y::kOffset}) {
    latscope::HeatmapOptions hm;
    hm.rows = 8;
    hm.y = y;
    latscope::HeatmapResult hr;
    (void)e.heatmap(hm, &hr);
  }
  return 0;
}
