#include "help.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <string_view>
#include <vector>

#ifndef LATSCOPE_VERSION
#define LATSCOPE_VERSION "unknown"
#endif

namespace latscope::cli {

const char kGlobalUsage[] =
    "usage: latscope COMMAND [options] FILE...\n"
    "       latscope COMMAND --help     that command's options and exit status\n"
    "       latscope --version\n"
    "\n"
    "commands:\n"
    "  pctiles   latency percentiles per time quantum and group (CSV or JSON)\n"
    "  summary   whole-run percentiles per job and direction by fio's method; --compare: A/B\n"
    "  heatmap   I/O counts per (time quantum, log-spaced latency row)\n"
    "  hdr       HdrHistogram's HistogramLogProcessor on an .hlog, byte for byte\n"
    "  reduce    logs aligned and added into one result file (docs/result-format.md)\n"
    "  merge     result files added into one\n"
    "  export    logs reduced (as reduce) and written as .hlog or tables (docs/export-formats.md)\n"
    "  report    a self-contained HTML report for CI, with an SLA gate (docs/ci-reports.md)\n"
    "\n"
    "FILE: a path, a folder (every file below it; docs/folders.md), or - for standard input\n"
    "  (plain or gzip)\n"
    "exit status: 0 ok, 1 something was left out (see stderr), 2 a file is unusable or a\n"
    "  usage error, 3 an --sla rule is violated (the highest wins)\n";

namespace {

// Blocks several commands share, so one option reads the same everywhere.
#define LS_SELECTION                                                                                     \
  "input and selection:\n"                                                                               \
  "  --run NAME=GLOB          files matching GLOB form run NAME (repeatable; docs/runs.md)\n"           \
  "  --run-by HOW             how runs are found: auto (default: json+ outputs, colliding log\n"        \
  "                           names), folder, prefix, json, none; merged runs are warned about\n"       \
  "  --directions D           r,w,t (default all)\n"                                                    \
  "  --offset NAME=MS         shift a host's, a file's or a job's (job:N, job:HOST/N) clock by MS\n"    \
  "                           (repeatable)\n"                                                            \
  "  --exclude-host HOST      leave a host out (repeatable)\n"                                          \
  "  --host NAME              the host every input comes from (local-mode logs name none)\n"            \
  "  --from MS --to MS        only quanta overlapping [from, to)\n"                                     \
  "  --kind clat|lat|slat     latency kinds (comma-combinable; default: clat when several)\n"           \
  "  --account per-io|hist    a job with both a per-I/O and a histogram log: which counts its I/Os\n"   \
  "                           (default per-io; never both; --group-by account shows both)\n"            \
  "  --hdr-unit ns|us|ms      unit of HdrHistogram log values (default ns; us for YCSB's logs)\n"           \
  "  --no-repair | --repair auto|off|force   client/server defect repair (default auto)\n"             \
  "  --no-tail                do not add the unlogged last window from fio json+ files\n"               \
  "  --no-place               do not shift late-start jobs by the startdelay in fio json+ files\n"      \
  "                           given with the logs (added by default when they match)\n"                 \
  "  --fio-version 2|3 --coarseness C        force the bin layout\n"                                    \
  "  -j N                     files parsed at once (default: the machine's cores);\n"                   \
  "                           the same output as -j 1\n"

// Not the heat map's: its cells are bounded by --rows and the quanta.
#define LS_MAX_MEMORY "  --max-memory SIZE        the most a query may hold (default 2G): K, M, G, T suffixes\n"

#define LS_QUANTUM                                                                                \
  "  --quantum MS             time quantum in ms (default 1000; a result file's own when one is\n" \
  "                           an input)\n"
// report's default is the page's (docs/page-views.md, "Default quantum").
#define LS_REPORT_QUANTUM                                                                              \
  "  --quantum MS             time quantum in ms (default: the logs' longest interval as a preset,\n" \
  "                           as the page opens them; 1000 without one; a result file's own when\n"  \
  "                           one is an input)\n"
#define LS_PERCENTILES "  --percentiles LIST       e.g. 50,90,99,99.9,100 (default)\n"
#define LS_GROUP_BY                                                                                      \
  "  --group-by LABELS        all (default) or label names, comma-combined:\n"                          \
  "                           host, job, dir, file, tag, run, kind, prefix, account\n"
#define LS_METHOD                                                                                        \
  "  --method M               interp: interpolated in the bin (default); fio: fio's own method;\n"      \
  "                           hdr: HdrHistogram's; exact: nearest rank of fio per-I/O logs\n"
#define LS_KEEP                                                                                          \
  "  --keep LABELS            the labels kept apart (host, job, dir, tag, ...; kind always),\n"        \
  "                           or none; default every label\n"
#define LS_SLA                                                                                           \
  "  --sla 'p99<=5ms,max<1s'  rules per group and quantum (units ns, us, ms, s); violations on\n"      \
  "                           stderr, exit 3 when any is violated (docs/ci-reports.md)\n"
#define LS_HEADER_UNITS                                                                                  \
  "  --header-units           the unit in the CSV header's value columns (p99_us, min_us, ...);\n"     \
  "                           without it the columns keep their plain names (p99), as the page's\n"    \
  "                           CSV export has them\n"

const char kPctiles[] =
    "usage: latscope pctiles [options] FILE...\n"
    "Latency percentiles per time quantum and group: CSV\n"
    "  time_ms,group,samples,min,mean,p<P>...,max,flags  or --format json.\n"
    "\n"
    "options:\n" LS_QUANTUM LS_PERCENTILES LS_GROUP_BY
    "  --unit ns|us|ms          output unit (default us; summary's default is ns)\n" LS_HEADER_UNITS
    "  --format csv|json        (default csv; json names its unit in \"unit\")\n" LS_METHOD
    "  --co-interval MS         coordinated-omission correction for this expected interval\n"
    "                           between samples: every group twice, co=uncorrected and co=corrected\n"
    "  --compat fio-histo-log-pctiles   reproduce fio's tools/hist script\n"
    "  --bounds                 p<P>_lo,p<P>_hi after each percentile, its 95% sampling band\n"
    "                           (bins included; docs/uncertainty.md)\n"
    "  --adaptive [ACC]         quanta of whole windows grown until the highest percentile below\n"
    "                           100 is known to ACC (default 0.5); adds width_ms\n" LS_SLA
    "  --sla-summary md F.md    the verdict as Markdown into F.md\n"
    "\n" LS_SELECTION LS_MAX_MEMORY
    "\n"
    "exit status: 0 ok, 1 something was left out (skipped lines, series of another time base,\n"
    "  the unreadable rest of a damaged .gz; see stderr), 2 a file is unusable or a usage error,\n"
    "  3 an --sla rule is violated (the highest wins)\n";

const char kHeatmap[] =
    "usage: latscope heatmap [options] FILE...\n"
    "I/O counts per (time quantum, log-spaced latency row): CSV time_ms,lat_lo,lat_hi,count\n"
    "(non-empty cells) or --format json.\n"
    "\n"
    "options:\n" LS_QUANTUM
    "  --rows N                 rows (default 64)\n"
    "  --min L --max L          latency bounds of the rows, in --unit (default: the data's)\n"
    "  --y latency|bs|offset    rows: latency (default), or block size / offset in bytes\n"
    "                           from fio per-I/O logs\n"
    "  --density LABELS:P       count groups, not I/Os: each group's (host, job, ...) percentile\n"
    "                           P per quantum (pctiles' value for that group and quantum) in\n"
    "                           latency rows spanning those values (host:p99)\n"
    "  --unit ns|us|ms          unit of the latency rows (default us)\n" LS_HEADER_UNITS
    "  --format csv|json        (default csv; json gives the edges in ns)\n"
    "\n" LS_SELECTION
    "\n"
    "exit status: 0 ok, 1 something was left out (see stderr), 2 a file is unusable or a usage\n"
    "  error\n";

const char kSummary[] =
    "usage: latscope summary [--format csv|json] [--unit ns|us|ms] [--percentiles LIST]\n"
    "                        [--repair auto|off|force] [--compare] [--run NAME=GLOB]...\n"
    "                        [--run-by auto|folder|prefix|json|none] FILE...\n"
    "  FILE: fio histogram logs (write_hist_log) or fio --output-format=json/json+ output,\n"
    "        plain or .gz; - for standard input. One row per file, host, job and direction.\n"
    "        CSV text cells starting with = + - @ (a formula to spreadsheets) get a leading '.\n"
    "  --percentiles LIST  default: fio's 1,5,10,20,30,40,50,60,70,80,90,95,99,99.5,99.9,99.95,99.99\n"
    "  --unit              default ns, the unit of fio's json, so the rows read digit for digit\n"
    "                      against fio's output (pctiles and heatmap default to us)\n"
    "  --header-units      the unit in the header's min, mean, max and p<P> (p99_ns); with\n"
    "                      --compare, in each statistic's name (p99_ns; samples is a count)\n"
    "  --format csv|json   (default csv; json names its unit in \"unit\")\n"
    "  --compare           two runs side by side: per statistic both whole-run values, the\n"
    "                      change in % and whether it is within one bin or the 95% sampling\n"
    "                      bands (docs/runs.md); implied by --run or --run-by\n"
    "  --run NAME=GLOB     files matching GLOB belong to run NAME (repeatable)\n"
    "  --run-by HOW        how runs are found: auto (default), folder, prefix, json, none\n"
    "  --no-repair | --repair auto|off|force   client/server defect repair (default auto)\n"
    "  --hdr-unit ns|us|ms HdrHistogram log values' unit (default ns; us for YCSB's logs)\n"
    "exit status: 0 ok, 1 something was left out (skipped lines, the unreadable rest of a\n"
    "  damaged .gz; see stderr), 2 a file is unusable or a usage error\n";

const char kHdr[] =
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

const char kReduce[] =
    "usage: latscope reduce [options] FILE... -o OUT\n"
    "The logs aligned and added into one compact result file, which every command reads like\n"
    "a log (docs/result-format.md).\n"
    "\n"
    "options:\n"
    "  -o OUT                   the result file (required)\n" LS_QUANTUM
    "  --levels MS,MS,...       one file of several quanta, each a multiple of the finest, which\n"
    "                           is the reduce quantum (1000,10000,60000)\n" LS_KEEP
    "  --matrix MS,MS,...|none  the per-host percentile matrix's levels (written by default when\n"
    "                           --keep names host: 1000,10000,60000,600000,3600000; those not a\n"
    "                           multiple of the quantum are left out); none: no matrix\n"
    "  --percentiles LIST       the matrix's percentiles, e.g. 50,90,99,99.9,100 (default)\n" LS_METHOD
    "\n" LS_SELECTION LS_MAX_MEMORY
    "\n"
    "exit status: 0 ok, 1 something was left out (see stderr), 2 a file is unusable, nothing\n"
    "  was selected or a usage error\n";

const char kMerge[] =
    "usage: latscope merge [--levels MS,MS,...] RESULT... -o OUT\n"
    "Result files added into one (exact, any order), in time order one block at a time.\n"
    "  -o OUT                   the merged result file (required)\n"
    "  --levels MS,MS,...       the quanta of the output (default: the first input of several\n"
    "                           levels gives its own)\n"
    "exit status: 0 ok, 2 a file is unusable or a usage error\n";

const char kExport[] =
    "usage: latscope export --format hlog|tsv|compact|rowbinary [options] FILE... -o OUT\n"
    "Logs reduced as reduce does, written for other tools (docs/export-formats.md).\n"
    "\n"
    "options:\n"
    "  --format FORMAT          required: hlog, an HdrHistogram interval log (ns, one tag per\n"
    "                           label set); compact, one row per cell with its bins as arrays of\n"
    "                           integer 2^-28 units (ClickHouse TSVWithNames, for sumMap and a\n"
    "                           SummingMergeTree); rowbinary, the same rows as ClickHouse RowBinary;\n"
    "                           tsv, the long table (one row per bin, decimal counts)\n"
    "  -o OUT                   the output file (required; /dev/stdout for standard output)\n" LS_QUANTUM LS_KEEP
    "\n" LS_SELECTION LS_MAX_MEMORY
    "\n"
    "exit status: 0 ok, 1 something was left out (see stderr), 2 a file is unusable, nothing\n"
    "  was selected or a usage error\n";

const char kReport[] =
    "usage: latscope report [options] FILE... -o report.html\n"
    "A self-contained HTML report for CI: the single-file page with the run's result inside,\n"
    "and the verdict and charts as plain HTML and SVG for viewers that run no script\n"
    "(docs/ci-reports.md).\n"
    "\n"
    "options:\n"
    "  -o FILE                  the report (required)\n" LS_REPORT_QUANTUM LS_KEEP LS_SLA
    "  --sla-summary md [F.md]  the verdict as Markdown: into F.md, or on standard output\n"
    "  --svg DIR                also DIR/pctiles.svg and DIR/heatmap.svg (linked from the report)\n"
    "  --template FILE          the page (default: $LATSCOPE_REPORT_TEMPLATE, latscope.html\n"
    "                           beside the executable, the build's web/dist/latscope.html)\n"
    "  --percentiles LIST       the percentiles the charts show (the SLA's are added)\n" LS_GROUP_BY LS_METHOD
    "  --rows N                 the heat map chart's rows (default 64)\n"
    "\n" LS_SELECTION LS_MAX_MEMORY
    "\n"
    "exit status: 0 ok, 1 something was left out (see stderr), 2 a file is unusable or a usage\n"
    "  error, 3 an --sla rule is violated (the highest wins)\n";

#undef LS_SELECTION
#undef LS_MAX_MEMORY
#undef LS_QUANTUM
#undef LS_PERCENTILES
#undef LS_GROUP_BY
#undef LS_METHOD
#undef LS_KEEP
#undef LS_SLA
#undef LS_HEADER_UNITS

struct CommandHelp {
  const char* name;
  const char* text;
};

const CommandHelp kCommands[] = {
    {"pctiles", kPctiles}, {"summary", kSummary}, {"heatmap", kHeatmap}, {"hdr", kHdr},
    {"reduce", kReduce},   {"merge", kMerge},     {"export", kExport},   {"report", kReport},
};

bool option_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
}

// Optimal string alignment distance: a swap of two neighbours ("--qunatum")
// is one typo, as a dropped or wrong letter is.
size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

}  // namespace

const char* command_help(const std::string& command) {
  for (const CommandHelp& c : kCommands)
    if (command == c.name) return c.text;
  return nullptr;
}

const std::vector<std::string>& command_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const CommandHelp& c : kCommands) v.emplace_back(c.name);
    return v;
  }();
  return names;
}

std::vector<std::string> help_options(const std::string& command) {
  std::vector<std::string> out;
  const char* text = command_help(command);
  if (!text) return out;
  // An option is a word that starts with '-' and a letter right after a
  // space, '[' or '|' ("--run-by", "-o", "-csv"); values such as
  // "fio-histo-log-pctiles" start with a letter and are no options.
  const std::string_view t = text;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] != '-' || (i > 0 && t[i - 1] != ' ' && t[i - 1] != '[' && t[i - 1] != '|')) continue;
    const size_t dashes = i + 1 < t.size() && t[i + 1] == '-' ? 2 : 1;
    if (i + dashes >= t.size() || !std::isalpha(static_cast<unsigned char>(t[i + dashes]))) continue;
    size_t end = i + dashes;
    while (end < t.size() && option_char(t[end])) ++end;
    if (end < t.size() && t[end] == '=') continue;  // another tool's option quoted ("fio --output-format=json")
    std::string opt(t.substr(i, end - i));
    if (std::find(out.begin(), out.end(), opt) == out.end()) out.push_back(opt);
    i = end;
  }
  return out;
}

std::string closest(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_d = 3;  // at most 2 edits
  for (const std::string& c : candidates) {
    const size_t d = edit_distance(word, c);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  return best;
}

std::string did_you_mean(const std::string& command, const std::string& option) {
  std::vector<std::string> known = help_options(command);
  known.emplace_back("--help");
  const std::string c = closest(option, known);
  // A known option the parser did not take (a value missing) is no typo.
  return c.empty() || c == option ? std::string() : " (did you mean " + c + "?)";
}

bool asks_help(int argc, char** argv, int first) {
  for (int i = first; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--")) return false;
    if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) return true;
  }
  return false;
}

std::string version_line() { return std::string("latscope ") + LATSCOPE_VERSION + "\n"; }

}  // namespace latscope::cli
