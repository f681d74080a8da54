// `latscope hdr`: HdrHistogram's HistogramLogProcessor, byte for byte
// (latscope/hdr_processor.h). Java's option spellings:
//   latscope hdr -i LOG -o OUT [-csv] [-tag T] [-start S] [-end E] ...
// writes OUT (interval percentiles) and OUT.hgrm (distribution); without -o
// the distribution goes to standard output.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "cli_common.h"
#include "commands.h"
#include "latscope/hdr_processor.h"

namespace latscope::cli {

namespace {

const char kHdrUsage[] =
    "usage: latscope hdr [-i LOG] [-o OUT] [-csv] [-tag TAG] [-listtags] [-start SEC] [-end SEC]\n"
    "                    [-outputValueUnitRatio R] [-percentilesOutputTicksPerHalf N]\n"
    "                    [-correctLogWithKnownCoordinatedOmission I] [-v] [-alltags]\n"
    "Reproduces HdrHistogram's HistogramLogProcessor (Java 2.1.11, TZ=UTC) byte for byte.\n"
    "  -i LOG        .hlog to read (.gz too; default standard input)\n"
    "  -o OUT        write OUT (interval percentiles) and OUT.hgrm (percentile distribution);\n"
    "                without -o the distribution goes to standard output\n"
    "  -csv          CSV instead of text in both outputs\n"
    "  -tag TAG      process lines tagged TAG (default: untagged lines)\n"
    "  -listtags     list the tags found and do nothing else\n"
    "  -start SEC -end SEC   only intervals starting SEC..SEC seconds after StartTime\n"
    "  -outputValueUnitRatio R   divide recorded values by R (default 1000000.0: ns -> ms)\n"
    "  -percentilesOutputTicksPerHalf N   distribution lines per halving of the tail (default 5)\n"
    "  -correctLogWithKnownCoordinatedOmission I   add the samples a stalled recorder missed at\n"
    "                expected interval I (recorded units); as in Java, corrected lines lose their tags\n"
    "  -v, -alltags  accepted (as by Java) and ignored\n"
    "exit status: 0 ok, 1 lines were skipped (see stderr), 2 unusable input or usage error\n";

bool write_file(const std::string& path, const std::string& text) {
  std::string err;
  if (write_file_atomic(path, text.data(), text.size(), &err)) return true;
  say("latscope hdr: " + err);  // names escaped (cli_common.h)
  return false;
}

}  // namespace

int cmd_hdr(int argc, char** argv) {
  hdr_processor::ProcessorOptions o;
  std::string input;
  std::string output;
  bool help = false;
  std::string err;
  const std::vector<std::string> args(argv + 2, argv + argc);
  if (!hdr_processor::parse_processor_args(args, &o, &input, &output, &help, &err)) {
    say("latscope hdr: " + err);
    std::fputs(kHdrUsage, stderr);
    return 2;
  }
  if (help) {
    std::fputs(kHdrUsage, stdout);
    return 0;
  }
  if (o.moving_window) {
    std::fprintf(stderr, "latscope hdr: -mwp/-mwpl (moving window output) are not supported\n");
    return 2;
  }
  std::string data;
  const std::string name = input.empty() ? "(stdin)" : input;
  if (input.empty()) {
    data.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else if (!read_whole_file(input, &data, &err)) {
    // read_whole_file's message names the file already.
    say("latscope hdr: " + err);
    return 2;
  }
  hdr_processor::LogProcessor p(o);
  p.append(data.data(), data.size());
  const hdr_processor::ProcessorResult r = p.finish();
  const std::string prefix = "latscope hdr: " + name + ": ";
  for (const auto& w : r.warnings) say(prefix + w);

  int rc = r.warnings.empty() ? 0 : 1;
  if (o.list_tags) {
    std::fwrite(r.listing.data(), 1, r.listing.size(), stdout);
  } else if (o.has_output) {
    if (!write_file(output, r.interval_log) || !write_file(output + ".hgrm", r.hgrm)) return 2;
  } else {
    std::fwrite(r.hgrm.data(), 1, r.hgrm.size(), stdout);
  }
  if (!r.error.empty()) {
    say("latscope hdr: " + name + ": " + r.error);
    rc = 2;
  }
  return rc;
}

}  // namespace latscope::cli
