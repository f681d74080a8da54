// `latscope summary [--format csv|json] [--unit ns|us|ms] [--percentiles LIST]
//                   [--repair auto|off|force] FILE...`
// Whole-run percentiles per file, host, job and direction by fio's own method,
// from fio histogram logs (all windows summed) or fio json+ output.
// Every option: `latscope summary --help` (help.cc). Exit status: 0 ok, 1 lines
// were skipped, 2 a file is unusable or bad usage.
#pragma once

int cmd_summary(int argc, char** argv);
