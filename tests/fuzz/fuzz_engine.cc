// Fuzz target: any bytes through the engine, in any chunking, then every
// query kind. The first byte picks chunk size and options so the fuzzer
// explores both. Must never crash, hang or grow without bound.
#include <cstddef>
#include <cstdint>
#include <string>

#include "formats/fio_hist/line_scan.h"
#include "latscope/engine.h"
#include "latscope/report.h"
#include "latscope/stream.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const uint8_t ctl = data[0];
  ++data;
  --size;
  latscope::Engine e;
  latscope::FileOptions fo;
  fo.repair = (ctl & 3) == 0 ? latscope::RepairMode::kForce : latscope::RepairMode::kAuto;
  // Client-mode style names enable the repair path; json is tried by content.
  const int h = e.open_file((ctl & 4) ? "f_clat_hist.1.log.host" : "f_clat_hist.log", fo);
  const size_t chunk = 1 + (ctl >> 3) * 7;
  for (size_t i = 0; i < size; i += chunk)
    e.append(h, reinterpret_cast<const char*>(data) + i, size - i < chunk ? size - i : chunk);
  const latscope::Source& s = e.finish(h);
  const std::string json = latscope::source_json(s);
  // The fio histogram reader's fast path (line_scan.h) must read exactly as
  // the general parser alone, messages included.
  {
    latscope::fio_hist::set_fast_path(false);
    latscope::Engine ref;
    const int rh = ref.open_file((ctl & 4) ? "f_clat_hist.1.log.host" : "f_clat_hist.log", fo);
    ref.append(rh, reinterpret_cast<const char*>(data), size);
    const latscope::Source& rs = ref.finish(rh);
    latscope::fio_hist::set_fast_path(true);
    if (latscope::source_json(rs) != json) __builtin_trap();
    for (size_t i = 0; i < s.series.size() && i < rs.series.size(); ++i)
      if (s.series[i].data != rs.series[i].data) __builtin_trap();
  }
  latscope::QueryOptions q;
  q.quantum_ms = (ctl & 8) ? 250 : 1000;
  static const char* const kLabels[] = {"host", "job", "dir"};
  for (unsigned b = 0; b < 3; ++b)
    if (ctl & (1u << b)) q.group_by.push_back(kLabels[b]);
  q.method = (ctl & 0x10) ? latscope::Method::kFio : latscope::Method::kInterp;
  latscope::QueryResult r;
  const std::vector<std::string> labels{"p50", "p90", "p99", "p99.9", "p100"};
  if (e.query(q, &r).ok()) {
    // The CLI's streaming fold must give the same text as the stored model.
    latscope::StreamingQuery stream(q);
    latscope::QueryResult sr;
    if (stream.add(s).ok() && stream.finish(&sr).ok() &&
        latscope::pctiles_csv(sr, labels, latscope::Unit::kUs) != latscope::pctiles_csv(r, labels, latscope::Unit::kUs))
      __builtin_trap();
  }
  q.compat_fio_histo_log_pctiles = true;
  (void)e.query(q, &r);
  latscope::HeatmapOptions hm;
  hm.rows = 16;
  latscope::HeatmapResult hr;
  (void)e.heatmap(hm, &hr);
  return 0;
}
