// Evidence for a suggested change to core/src/formats/fio_hist/repair.cc
// (bench helper; core/ is not edited from here).
//
//   latscope_repair_proto DIR_OR_FILE...
//
// detect_accumulation_defect and repair_accumulation_defect walk all 1856
// bins of every window (fill, subtract, swap three dense vectors), although a
// window has ~140 non-empty bins after repair and a few hundred before. Both
// only need bins that are non-empty in window k or k-2:
//   * repaired total of window k = raw total[k] - raw total[k-2] (a sum of
//     differences is the difference of the sums);
//   * "consistent" = every bin of window k-2 is <= the same bin of window k:
//     a merge of two sorted sparse lists;
//   * repair d[k] = r[k] - r[k-2]: the same merge, emitting non-zero results.
// This program builds each file's per-direction raw windows (bench fast
// parser, not timed), then times the engine's dense functions (private header
// from core/src, called unchanged) and the sparse versions below on the same
// Raw, and checks that verdicts and repaired windows are identical. Exit 1 on
// any difference.
#include <sys/resource.h>
#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "fast_parse.h"
#include "formats/fio_hist/repair.h"

namespace {

using latscope::FioHistReader;
using latscope::RepairVerdict;

double cpu_seconds() {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

void expand(const std::string& arg, std::vector<std::string>* out) {
  struct stat st;
  if (stat(arg.c_str(), &st) != 0) {
    std::fprintf(stderr, "latscope_repair_proto: %s: not found\n", arg.c_str());
    std::exit(2);
  }
  if (!S_ISDIR(st.st_mode)) {
    out->push_back(arg);
    return;
  }
  std::vector<std::string> names;
  DIR* d = opendir(arg.c_str());
  while (dirent* e = readdir(d)) {
    const std::string n = e->d_name;
    if (n.empty() || n[0] == '.') continue;
    names.push_back(arg + "/" + n);
  }
  closedir(d);
  std::sort(names.begin(), names.end());
  out->insert(out->end(), names.begin(), names.end());
}

// Same statistic as repair.cc's spread(): mean |x - median|.
double spread(const std::vector<double>& v) {
  if (v.empty()) return 0;
  std::vector<double> s = v;
  std::nth_element(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(s.size() / 2), s.end());
  const double med = s[s.size() / 2];
  double a = 0;
  for (double x : v) a += std::fabs(x - med);
  return a / static_cast<double>(v.size());
}

RepairVerdict sparse_detect(const FioHistReader::Raw& raw) {
  RepairVerdict v;
  const size_t n = raw.t.size();
  if (n < 3) return v;
  std::vector<double> tot(n);
  for (size_t k = 0; k < n; ++k) {
    double s = 0;
    for (uint32_t i = 0; i < raw.n[k]; ++i) s += static_cast<double>(raw.counts[raw.first[k] + i]);
    tot[k] = s;
    if (k >= 2 && v.consistent) {
      // Every non-empty bin of k-2 must be present in k with at least its count.
      uint32_t a = raw.first[k], ae = a + raw.n[k];
      for (uint32_t j = raw.first[k - 2], je = j + raw.n[k - 2]; j < je; ++j) {
        while (a < ae && raw.bins[a] < raw.bins[j]) ++a;
        if (a == ae || raw.bins[a] != raw.bins[j] || raw.counts[a] < raw.counts[j]) {
          v.consistent = false;
          break;
        }
      }
    }
  }
  v.raw_first = static_cast<uint64_t>(tot.front());
  v.raw_last = static_cast<uint64_t>(tot.back());
  std::vector<double> raw_tail(tot.begin() + 1, tot.end()), rep_tail(n - 1);
  for (size_t k = 1; k < n; ++k) rep_tail[k - 1] = tot[k] - (k >= 2 ? tot[k - 2] : 0);
  const double raw_spread = spread(raw_tail);
  v.repaired_spread = spread(rep_tail);
  double sum = 0;
  for (double x : rep_tail) sum += x;
  v.repaired_mean = sum / static_cast<double>(rep_tail.size());
  v.defect = v.consistent && raw_spread > 0 && v.repaired_mean > 0 &&
             v.repaired_spread * 4 < raw_spread;
  return v;
}

void sparse_repair(FioHistReader::Raw* raw, uint64_t* clamped) {
  const size_t n = raw->t.size();
  std::vector<uint32_t> ob;
  std::vector<uint64_t> oc;
  ob.reserve(raw->bins.size());
  oc.reserve(raw->counts.size());
  std::vector<uint32_t> first(n), cnt(n);
  for (size_t k = 0; k < n; ++k) {
    const uint32_t start = static_cast<uint32_t>(ob.size());
    uint32_t a = raw->first[k], ae = a + raw->n[k];
    uint32_t b = 0, be = 0;  // window k-2, as read (unrepaired)
    if (k >= 2) {
      b = raw->first[k - 2];
      be = b + raw->n[k - 2];
    }
    while (a < ae || b < be) {
      if (b == be || (a < ae && raw->bins[a] < raw->bins[b])) {
        ob.push_back(raw->bins[a]);
        oc.push_back(raw->counts[a]);
        ++a;
      } else if (a == ae || raw->bins[b] < raw->bins[a]) {
        ++*clamped;  // 0 - r[k-2] < 0
        ++b;
      } else {
        if (raw->counts[a] > raw->counts[b]) {
          ob.push_back(raw->bins[a]);
          oc.push_back(raw->counts[a] - raw->counts[b]);
        } else if (raw->counts[a] < raw->counts[b]) {
          ++*clamped;
        }
        ++a;
        ++b;
      }
    }
    first[k] = start;
    cnt[k] = static_cast<uint32_t>(ob.size()) - start;
  }
  raw->first.swap(first);
  raw->n.swap(cnt);
  raw->bins.swap(ob);
  raw->counts.swap(oc);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) expand(argv[i], &files);
  if (files.empty()) {
    std::fprintf(stderr, "usage: latscope_repair_proto DIR_OR_FILE...\n");
    return 2;
  }
  auto line = std::make_unique<bench::LineOut>();
  double dense_detect = 0, dense_repair = 0, sparse_detect_s = 0, sparse_repair_s = 0;
  int series = 0, repaired = 0, diffs = 0;
  uint64_t windows = 0, raw_bins = 0;
  for (const std::string& path : files) {
    FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return 2;
    FioHistReader::Raw raws[3];
    size_t cols = 0;
    char* buf = nullptr;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&buf, &cap, f)) > 0) {
      const char* e = buf + len;
      if (e[-1] == '\n') --e;
      if (!bench::fast_parse(buf, e, line.get()) || line->meta[1] > 2) {
        std::fprintf(stderr, "latscope_repair_proto: %s: a line outside the fast path\n", path.c_str());
        return 2;
      }
      cols = line->cols;
      FioHistReader::Raw& r = raws[line->meta[1]];
      r.t.push_back(static_cast<double>(line->meta[0]));
      r.first.push_back(static_cast<uint32_t>(r.bins.size()));
      r.n.push_back(line->nnz);
      r.bins.insert(r.bins.end(), line->bins, line->bins + line->nnz);
      r.counts.insert(r.counts.end(), line->counts, line->counts + line->nnz);
    }
    std::free(buf);
    std::fclose(f);
    for (FioHistReader::Raw& r : raws) {
      if (r.t.empty()) continue;
      ++series;
      windows += r.t.size();
      raw_bins += r.bins.size();
      FioHistReader::Raw copy = r;
      double c0 = cpu_seconds();
      const RepairVerdict dv = latscope::detect_accumulation_defect(r, cols);
      dense_detect += cpu_seconds() - c0;
      c0 = cpu_seconds();
      const RepairVerdict sv = sparse_detect(copy);
      sparse_detect_s += cpu_seconds() - c0;
      if (dv.defect != sv.defect || dv.consistent != sv.consistent ||
          dv.raw_first != sv.raw_first || dv.raw_last != sv.raw_last ||
          dv.repaired_mean != sv.repaired_mean || dv.repaired_spread != sv.repaired_spread) {
        std::fprintf(stderr, "VERDICT DIFFERS %s: defect %d/%d consistent %d/%d mean %g/%g\n",
                     path.c_str(), dv.defect, sv.defect, dv.consistent, sv.consistent,
                     dv.repaired_mean, sv.repaired_mean);
        ++diffs;
      }
      // Repair every series (as RepairMode::kForce would), clamps included,
      // so both paths are compared on clean logs too.
      uint64_t dc = 0, sc = 0;
      c0 = cpu_seconds();
      latscope::repair_accumulation_defect(&r, cols, &dc);
      dense_repair += cpu_seconds() - c0;
      c0 = cpu_seconds();
      sparse_repair(&copy, &sc);
      sparse_repair_s += cpu_seconds() - c0;
      repaired += dv.defect;
      if (dc != sc || r.first != copy.first || r.n != copy.n || r.bins != copy.bins ||
          r.counts != copy.counts) {
        std::fprintf(stderr, "REPAIR DIFFERS %s: clamped %llu/%llu\n", path.c_str(),
                     static_cast<unsigned long long>(dc), static_cast<unsigned long long>(sc));
        ++diffs;
      }
    }
  }
  std::printf("series          %d (%d with the defect), %llu windows, %.1f raw non-empty bins per window\n",
              series, repaired, static_cast<unsigned long long>(windows),
              windows ? static_cast<double>(raw_bins) / static_cast<double>(windows) : 0.0);
  std::printf("detect          dense (engine) %.3f s CPU, sparse %.3f s CPU\n", dense_detect,
              sparse_detect_s);
  std::printf("repair (forced) dense (engine) %.3f s CPU, sparse %.3f s CPU\n", dense_repair,
              sparse_repair_s);
  std::printf("identical       %s\n", diffs ? "NO" : "yes (verdicts, clamp counts, repaired windows)");
  return diffs ? 1 : 0;
}
