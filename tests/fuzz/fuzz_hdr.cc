// Fuzz target for the .hlog reader: any bytes through hdr::LogParser in any
// chunking, the whole Engine path with the format forced (model conversion,
// layouts, a --method hdr query), and hdr::decode_payload on the raw bytes.
// Must never crash, hang or grow without bound. The first byte picks the
// chunk size and options.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "formats/hdr/hdr_decode.h"
#include "formats/hdr/hdr_log.h"
#include "latscope/engine.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const uint8_t ctl = data[0];
  ++data;
  --size;
  const char* text = reinterpret_cast<const char*>(data);
  const size_t chunk = 1 + (ctl >> 2) * 5;

  latscope::hdr::LogOptions lo;
  lo.detect_end_timestamps = (ctl & 1) != 0;
  lo.max_inflated_bytes = size_t{1} << 22;
  latscope::hdr::LogParser p(lo);
  latscope::hdr::Interval iv;
  for (size_t i = 0; i < size; i += chunk) {
    p.append(text + i, size - i < chunk ? size - i : chunk);
    while (p.next(&iv)) (void)iv.hist.total();
  }
  p.finish();
  while (p.next(&iv)) (void)iv.hist.total();

  latscope::Engine e;
  latscope::FileOptions fo;
  fo.format = latscope::FileFormat::kHdrLog;
  fo.hdr_unit_ns = (ctl & 2) ? 1000 : 1;
  const int h = e.open_file("fuzz.hlog", fo);
  for (size_t i = 0; i < size; i += chunk) e.append(h, text + i, size - i < chunk ? size - i : chunk);
  const latscope::Source& s = e.finish(h);
  if (s.status.ok()) {
    latscope::QueryOptions q;
    q.method = latscope::Method::kHdr;
    q.percentiles = {0, 50, 99.9, 100};
    latscope::QueryResult r;
    (void)e.query(q, &r);
  }

  latscope::hdr::Histogram hist;
  int enc = 0;
  std::string err;
  (void)latscope::hdr::decode_payload(std::string_view(text, size), size_t{1} << 22, &hist, &enc, &err);
  (void)latscope::hdr::decode_histogram(data, size, size_t{1} << 22, &hist, &enc, &err);
  return 0;
}
