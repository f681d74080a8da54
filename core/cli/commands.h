#pragma once

namespace latscope::cli {
int cmd_pctiles(int argc, char** argv);
int cmd_heatmap(int argc, char** argv);
int cmd_hdr(int argc, char** argv);
int cmd_reduce(int argc, char** argv);  // cmd_result.cc: result files (docs/result-format.md)
int cmd_merge(int argc, char** argv);  // cmd_hdr.cc: HistogramLogProcessor
int cmd_export(int argc, char** argv);  // cmd_export.cc: .hlog and TSV (docs/export-formats.md)
int cmd_report(int argc, char** argv);  // cmd_report.cc: HTML report for CI (docs/ci-reports.md)
}  // namespace latscope::cli
