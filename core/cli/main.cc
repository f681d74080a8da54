// latscope CLI: a thin shell over the engine (core/). See docs/cli.md.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>

#include "cli_common.h"
#include "cmd_summary.h"
#include "commands.h"

namespace {

const char kUsage[] =
    "usage: latscope COMMAND [options] FILE...\n"
    "\n"
    "commands:\n"
    "  pctiles   latency percentiles per time quantum and group (CSV or JSON)\n"
    "  summary   whole-run percentiles per job and direction, by fio's method\n"
    "  heatmap   I/O counts per (time quantum, log-spaced latency row)\n"
    "  hdr       HdrHistogram's HistogramLogProcessor on an .hlog, byte for byte\n"
    "  reduce    logs aligned and added into one result file: reduce [--quantum MS]\n"
    "            [--keep LABELS] FILE... -o OUT (docs/result-format.md)\n"
    "  merge     result files added into one: merge RESULT... -o OUT\n"
    "  export    logs reduced (as reduce) and written for other tools: export --format\n"
    "            hlog|tsv [--quantum MS] [--keep LABELS] FILE... -o OUT (docs/export-formats.md)\n"
    "  report    a self-contained HTML report for CI: report FILE... -o report.html\n"
    "            [--quantum MS] [--keep LABELS] [--sla SPEC] [--sla-summary md [FILE.md]]\n"
    "            [--svg DIR] [--template FILE] (docs/ci-reports.md)\n"
    "\n"
    "pctiles / heatmap options:\n"
    "  --quantum MS             time quantum in ms (default 1000)\n"
    "  --percentiles LIST       e.g. 50,90,99,99.9,100 (default)\n"
    "  --group-by LABELS        all (default) or label names, comma-combined:\n"
    "                           host, job, dir, file, tag, run, kind, prefix\n"
    "  --run NAME=GLOB          files matching GLOB form run NAME (repeatable; docs/runs.md)\n"
    "  --run-by HOW             how runs are found: auto (default: json+ outputs, colliding log\n"
    "                           names), folder, prefix, json, none; merged runs are warned about\n"
    "  --directions D           r,w,t (default all)\n"
    "  --offset NAME=MS         shift a host's, a file's or a job's (job:N, job:HOST/N) clock by MS (repeatable)\n"
    "  --exclude-host HOST      leave a host out (repeatable)\n"
    "  --host NAME              the host every input comes from (local-mode logs name none)\n"
    "  --from MS --to MS        only quanta overlapping [from, to)\n"
    "  --co-interval MS         coordinated-omission correction for this expected interval\n"
    "                           between samples: every group twice, co=uncorrected and co=corrected\n"
    "  --unit ns|us|ms          output unit (default us)\n"
    "  --method M               interp: interpolated in the bin (default); fio: fio's own method;\n"
    "                           hdr: HdrHistogram's; exact: nearest rank of fio per-I/O logs\n"
    "  --hdr-unit ns|us|ms      unit of HdrHistogram log values (default ns; YCSB writes us)\n"
    "  --compat fio-histo-log-pctiles   reproduce fio's tools/hist script\n"
    "  --bounds                 pctiles: p<P>_lo,p<P>_hi after each percentile, its 95%\n"
    "                           sampling band (bins included; docs/uncertainty.md)\n"
    "  --adaptive [ACC]         pctiles: quanta of whole windows grown until the highest\n"
    "                           percentile below 100 is known to ACC (default 0.5); adds width_ms\n"
    "  --kind clat|lat|slat     latency kinds (comma-combinable; default: clat when several)\n"
    "  --account per-io|hist    a job with both a per-I/O and a histogram log: which counts its I/Os\n"
    "                           (default per-io; never both; --group-by account shows both)\n"
    "  --y latency|bs|offset    heatmap rows: latency (default), or block size / offset\n"
    "                           from fio per-I/O logs\n"
    "  --no-repair | --repair auto|off|force   client/server defect repair (default auto)\n"
    "  --no-tail                do not add the unlogged last window from fio json+ files\n"
    "  --no-place               do not shift late-start jobs by the startdelay in fio json+ files\n"
    "                           given with the logs (added by default when they match)\n"
    "  --fio-version 2|3 --coarseness C        force the bin layout\n"
    "  --format csv|json        (default csv)\n"
    "  -j N                     files parsed at once (default: the machine's cores);\n"
    "                           the same output as -j 1\n"
    "  --rows N --min L --max L heatmap rows (default 64) and latency bounds in --unit\n"
    "  --max-memory SIZE        the most a query may hold (default 2G): K, M, G, T suffixes\n"
    "  --sla 'p99<=5ms,max<1s'  pctiles, report: rules per group and quantum (units ns, us,\n"
    "                           ms, s); violations on stderr, exit 3 when any is violated\n"
    "  --sla-summary md [F.md]  the verdict as Markdown (pctiles: F.md required)\n"
    "\n"
    "FILE: a path, or - for standard input (plain or gzip)\n"
    "exit status: 0 ok, 1 something was left out (skipped lines, series of another time\n"
    "  base, the unreadable rest of a damaged .gz; see stderr), 2 a file is unusable,\n"
    "  3 an --sla rule is violated (the highest wins)\n";

}  // namespace

namespace {

int run(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    std::fputs(kUsage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  const char* cmd = argv[1];
  if (!std::strcmp(cmd, "pctiles")) return latscope::cli::cmd_pctiles(argc, argv);
  if (!std::strcmp(cmd, "heatmap")) return latscope::cli::cmd_heatmap(argc, argv);
  if (!std::strcmp(cmd, "summary")) return cmd_summary(argc, argv);
  if (!std::strcmp(cmd, "hdr")) return latscope::cli::cmd_hdr(argc, argv);
  if (!std::strcmp(cmd, "reduce")) return latscope::cli::cmd_reduce(argc, argv);
  if (!std::strcmp(cmd, "merge")) return latscope::cli::cmd_merge(argc, argv);
  if (!std::strcmp(cmd, "export")) return latscope::cli::cmd_export(argc, argv);
  if (!std::strcmp(cmd, "report")) return latscope::cli::cmd_report(argc, argv);
  latscope::cli::say(std::string("latscope: unknown command '") + cmd + "'");
  std::fputs(kUsage, stderr);
  return 2;
}

}  // namespace

// The engine bounds what it allocates for any input (docs/input-robustness.md);
// should memory still run out, the user reads a sentence, not an abort.
int main(int argc, char** argv) {
  try {
    const int rc = run(argc, argv);
    // Standard output that could not be written (a full disk, a closed
    // pipe's reader gone) is a failure, not a cut CSV with exit 0.
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
      latscope::cli::say(std::string("latscope: cannot write standard output: ") + std::strerror(errno) +
                         "; the output is incomplete");
      return 2;
    }
    return rc;
  } catch (const std::bad_alloc&) {
    latscope::cli::say("latscope: out of memory; fewer files at once (-j 1), a coarser --quantum or fewer groups "
                       "need less");
    return 2;
  }
}
