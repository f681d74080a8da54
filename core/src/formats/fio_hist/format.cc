// fio histogram logs in the registry: sniff and reader (docs/formats.md, "fio
// histogram and json+ semantics").
#include <cctype>

#include "formats/fio_hist/fio_hist_reader.h"
#include "formats/owning_reader.h"
#include "formats/sniff_util.h"
#include "latscope/engine.h"
#include "latscope/reader.h"

namespace latscope {
namespace {

// A fio line is "time_ms, ddir, bs, b0, ..." with one of the 14 known bin
// counts: any such line among the first few decides, so a first line that is
// damaged (starts with '-', "nan", garbage) costs one counted line, not the
// file.
SniffResult sniff_fio_hist(const SniffInput& in) {
  SniffResult r{FileFormat::kFioHist, 0, "fio histogram log"};
  const std::vector<std::string_view> ls = sniffing::lines(in, 16);
  size_t wide = 0;
  for (std::string_view l : ls) {
    const std::vector<std::string_view> f = sniffing::fields(l);
    if (f.size() > 3 && fio_layout_for_columns(f.size() - 3) && sniffing::is_number(f[1])) {
      r.confidence = 95;
      return r;
    }
    // Nine or more numeric columns: wider than any per-I/O or IOPS log.
    if (f.size() >= 9 && sniffing::is_number(f[0])) ++wide;
  }
  if (wide) {
    r.confidence = 70;  // many columns, none of a known count: the reader says why per line
    return r;
  }
  // A first line longer than the look-ahead that starts like a number: only
  // a histogram line is that long.
  const std::string_view b = sniffing::body(in);
  size_t i = 0;
  while (i < b.size() && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t')) ++i;
  if (ls.empty() && i < b.size() && (std::isdigit(static_cast<unsigned char>(b[i])) != 0) &&
      b.find('\n', i) == std::string_view::npos && b.size() - i >= 1024)
    r.confidence = 50;
  return r;
}

std::unique_ptr<Reader> create_fio_hist(Source src, const FileOptions& opts) {
  return create_owning_reader<FioHistReader>(std::move(src), opts);
}

}  // namespace

FormatEntry fio_hist_format() { return {FileFormat::kFioHist, &sniff_fio_hist, &create_fio_hist}; }

}  // namespace latscope
