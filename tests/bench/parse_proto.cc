// Evidence for a suggested change to core/src/formats/fio_hist/fio_hist_reader.cc
// (bench helper; core/ is not edited from here).
//
//   latscope_parse_proto DIR_OR_FILE...
//
// A fast path for the lines fio actually writes ("t, d, bs, b0, ..., bK\n",
// fields separated by exactly ", ", bins mostly "0"): zero fields are skipped
// eight at a time by comparing 24 bytes against "0, 0, 0, 0, 0, 0, 0, 0, ",
// single zero fields by a 3-byte check, non-zero fields by a plain digit loop,
// and non-zero bins go to a fixed scratch array instead of vector::push_back.
// Anything else (tabs, missing blanks, a trailing comma, 20+ digit numbers,
// CR, garbage) returns false, where the real reader would fall back to its
// existing general parser, so every diagnostic stays exactly as it is.
//
// The program splits lines the way FioHistReader::append does (4 MiB chunks,
// memchr, a partial line carried over), parses them with the fast path into
// per-direction vectors shaped like FioHistReader::Raw, and reports CPU MB/s
// next to the engine's append()-only CPU MB/s on the same bytes. It then checks
// that both produced the same records: per file and direction, the number of
// records, the sum of counts and a position-weighted checksum of (window,
// bin, count), against an Engine run with repair off. Exit 1 on a mismatch.
#include <sys/resource.h>
#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "fast_parse.h"
#include "latscope/engine.h"

namespace {

using bench::LineOut;
using bench::Raw;
using bench::fast_parse;

double cpu_seconds() {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

void expand(const std::string& arg, std::vector<std::string>* out) {
  struct stat st;
  if (stat(arg.c_str(), &st) != 0) {
    std::fprintf(stderr, "latscope_parse_proto: %s: not found\n", arg.c_str());
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

struct FileResult {
  uint64_t records[3] = {0, 0, 0};
  uint64_t total[3] = {0, 0, 0};
  uint64_t check[3] = {0, 0, 0};
  uint64_t slow = 0;  // lines the fast path declined
};

void add_record(FileResult* r, int d, uint64_t window, uint32_t bin, uint64_t count) {
  r->total[d] += count;
  r->check[d] += (window * 2654435761u + bin * 40503u + 1) * count;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) expand(argv[i], &files);
  if (files.empty()) {
    std::fprintf(stderr, "usage: latscope_parse_proto DIR_OR_FILE...\n");
    return 2;
  }
  const size_t chunk = size_t{4} << 20;
  std::vector<char> buf(chunk);
  auto line = std::make_unique<LineOut>();

  // 1. Fast path, timed on append-equivalent work only.
  std::vector<FileResult> fast(files.size());
  double fast_cpu = 0;
  uint64_t bytes = 0;
  for (size_t fi = 0; fi < files.size(); ++fi) {
    FILE* f = std::fopen(files[fi].c_str(), "rb");
    if (!f) return 2;
    Raw raw[3];
    std::string partial;
    for (;;) {
      const size_t n = std::fread(buf.data(), 1, chunk, f);
      if (n == 0) break;
      bytes += n;
      const double c0 = cpu_seconds();
      const char* p = buf.data();
      const char* end = p + n;
      auto handle = [&](const char* b, const char* e) {
        if (!fast_parse(b, e, line.get()) || line->meta[1] > 2) {
          ++fast[fi].slow;
          return;
        }
        Raw& r = raw[line->meta[1]];
        r.t.push_back(static_cast<double>(line->meta[0]));
        r.first.push_back(static_cast<uint32_t>(r.bins.size()));
        r.n.push_back(line->nnz);
        r.bins.insert(r.bins.end(), line->bins, line->bins + line->nnz);
        r.counts.insert(r.counts.end(), line->counts, line->counts + line->nnz);
      };
      while (p < end) {
        const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
        if (!nl) {
          partial.append(p, static_cast<size_t>(end - p));
          break;
        }
        if (!partial.empty()) {
          partial.append(p, static_cast<size_t>(nl - p));
          handle(partial.data(), partial.data() + partial.size());
          partial.clear();
        } else {
          handle(p, nl);
        }
        p = nl + 1;
      }
      fast_cpu += cpu_seconds() - c0;
    }
    std::fclose(f);
    for (int d = 0; d < 3; ++d) {
      fast[fi].records[d] = raw[d].t.size();
      for (size_t k = 0; k < raw[d].t.size(); ++k)
        for (uint32_t i = 0; i < raw[d].n[k]; ++i)
          add_record(&fast[fi], d, k, raw[d].bins[raw[d].first[k] + i],
                     raw[d].counts[raw[d].first[k] + i]);
    }
  }

  // 2. The engine, repair off, append() timed apart from finish().
  latscope::Engine engine;
  latscope::FileOptions fo;
  fo.repair = latscope::RepairMode::kOff;
  double engine_append_cpu = 0;
  for (const std::string& path : files) {
    FILE* f = std::fopen(path.c_str(), "rb");
    const int h = engine.open_file(path, fo);
    for (;;) {
      const size_t n = std::fread(buf.data(), 1, chunk, f);
      if (n == 0) break;
      const double c0 = cpu_seconds();
      engine.append(h, buf.data(), n);
      engine_append_cpu += cpu_seconds() - c0;
    }
    std::fclose(f);
    engine.finish(h);
  }

  int mismatches = 0;
  uint64_t slow = 0;
  for (size_t fi = 0; fi < files.size(); ++fi) {
    FileResult e;
    for (const latscope::Series& s : engine.sources()[fi].series) {
      const int d = static_cast<int>(s.dir);
      e.records[d] += s.windows.size();
      for (size_t k = 0; k < s.windows.size(); ++k)
        for (uint32_t i = 0; i < s.windows[k].n; ++i)
          add_record(&e, d, k, s.bins[s.windows[k].first + i], s.counts[s.windows[k].first + i]);
    }
    slow += fast[fi].slow;
    for (int d = 0; d < 3; ++d)
      if (e.records[d] != fast[fi].records[d] || e.total[d] != fast[fi].total[d] ||
          e.check[d] != fast[fi].check[d]) {
        std::fprintf(stderr, "MISMATCH %s dir %d: records %llu/%llu total %llu/%llu\n",
                     files[fi].c_str(), d, static_cast<unsigned long long>(e.records[d]),
                     static_cast<unsigned long long>(fast[fi].records[d]),
                     static_cast<unsigned long long>(e.total[d]),
                     static_cast<unsigned long long>(fast[fi].total[d]));
        ++mismatches;
      }
  }
  const double mb = static_cast<double>(bytes) / 1e6;
  std::printf("bytes           %.1f MB in %zu files\n", mb, files.size());
  std::printf("engine append() %.3f s CPU -> %.0f MB/s per core\n", engine_append_cpu,
              mb / engine_append_cpu);
  std::printf("fast path       %.3f s CPU -> %.0f MB/s per core (%llu lines left to the general parser)\n",
              fast_cpu, mb / fast_cpu, static_cast<unsigned long long>(slow));
  std::printf("same records    %s\n", mismatches ? "NO" : "yes (records, counts, checksum per file and direction)");
  return mismatches ? 1 : 0;
}
