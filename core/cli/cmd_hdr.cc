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
#include "help.h"
#include "latscope/hdr_processor.h"

namespace latscope::cli {

namespace {

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
    // An unknown option ("invalid argument '-cvs'", Java's words) gets the
    // closest of Java's spellings.
    const std::string bad = "invalid argument '";
    if (err.rfind(bad, 0) == 0 && err.size() > bad.size())
      err += did_you_mean("hdr", err.substr(bad.size(), err.size() - bad.size() - 1));
    say("latscope hdr: " + err);
    std::fputs(command_help("hdr"), stderr);
    return 2;
  }
  if (help) {
    std::fputs(command_help("hdr"), stdout);
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
