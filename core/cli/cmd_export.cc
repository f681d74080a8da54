// `latscope export`: logs (or results) reduced as `reduce` does, written for
// other tools (docs/export-formats.md).
//
//   export --format hlog|tsv|compact|rowbinary [--quantum MS] [--keep LABELS] [selection options] FILE... -o OUT
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "cli_common.h"
#include "commands.h"
#include "latscope/export.h"
#include "latscope/report.h"
#include "reduce.h"

namespace latscope::cli {

int cmd_export(int argc, char** argv) {
  // --format is export's own (pctiles' --format csv|json means something else).
  std::string format;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (i >= 2 && std::string(argv[i]) == "--format" && i + 1 < argc) format = argv[++i];
    else args.push_back(argv[i]);
  }
  if (format != "hlog" && format != "tsv" && format != "compact" && format != "rowbinary") {
    say("latscope export: --format hlog, tsv, compact or rowbinary is required (docs/export-formats.md)");
    return 2;
  }
  std::vector<char*> rest;
  std::string out, keep;
  if (!split_args(static_cast<int>(args.size()), args.data(), "export", &rest, &out, &keep)) return 2;
  Result r;
  uint64_t in_bytes = 0;
  Options o;
  if (!parse_options(static_cast<int>(rest.size()), rest.data(), 2, "export", &o)) return 2;
  int rc = reduce_inputs(o, keep, "export", &r, &in_bytes);
  if (rc < 0) return 2;
  std::string text;
  Status st;
  if (format == "tsv") {
    st = export_tsv(r, &text);
  } else if (format == "compact" || format == "rowbinary") {
    std::vector<std::string> columns;
    st = export_compact(r, format == "compact" ? CompactEncoding::kTsv : CompactEncoding::kRowBinary, &text,
                        &columns);
    // RowBinary has no header: the table must declare these columns in this
    // order (docs/export-formats.md, "The compact table").
    if (st.ok() && format == "rowbinary") {
      std::string list;
      for (const std::string& c : columns) list += (list.empty() ? "" : ", ") + c;
      say("latscope export: note: RowBinary columns, in order: " + list);
    }
  } else {
    HlogExportReport rep;
    st = export_hlog(r, &deflate_zlib, &text, &rep);
    for (const std::string& n : rep.notes) say("latscope export: note: " + n);
    if (st.ok() && rep.cells_rounded)
      say("latscope export: note: " + std::to_string(rep.cells_rounded) +
          " cells had fractional counts (windows split across quanta) and were rounded to whole I/Os by "
          "largest remainder, keeping each interval's total to the nearest I/O; largest change of one bucket " +
          format_number(rep.max_rounding) + " I/O");
    if (st.ok() && rep.bins_inexact)
      say("latscope export: note: " + std::to_string(rep.bins_inexact) +
          " bin counts went to an HdrHistogram bucket that does not lie inside their bin (edges are no bucket "
          "edges): placed at the bin's representative value");
  }
  std::string err;
  if (!st.ok() || !write_file(out, std::vector<uint8_t>(text.begin(), text.end()), &err)) {
    say("latscope export: " + (st.ok() ? err : st.message));
    return 2;
  }
  say("latscope export: " + out + ": " + format + ", " + std::to_string(r.series.size()) + " label sets, " +
      std::to_string(r.cells()) + " cells, " + std::to_string(text.size()) + " bytes");
  return rc;
}

}  // namespace latscope::cli
