#pragma once

namespace latscope::cli {
int cmd_pctiles(int argc, char** argv);
int cmd_heatmap(int argc, char** argv);
int cmd_hdr(int argc, char** argv);  // cmd_hdr.cc: HistogramLogProcessor
}  // namespace latscope::cli
