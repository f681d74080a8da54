// Folders that benchmark tools running fio leave (latscope/tool_layouts.h).
// The facts and where they come from are in docs/formats.md ("Folders that
// benchmark tools leave"); in short:
//  * pbench-fio (distributed-system-analysis/pbench, agent/bench-scripts/
//    pbench-fio, fio_run_job): each sample runs fio once, in
//    <run>/<iteration>/sample<N>/; afterwards every client's logs
//    (*.log.<client>, fio client mode) are moved into
//    sample<N>/clients/<client>/ and ".<client>" is taken off their names
//    (local mode: clients/localhost/). pbench's percentiles of those logs go
//    to clients/<client>/hist/ and sample<N>/hist/.
//  * CBT (ceph/cbt, benchmark/benchmark.py and librbdfio.py): one test's
//    files are copied from every client into
//    <archive>/results/<iteration, 8 digits>/id-<8 hex digits>/, where the
//    clients' fio processes (one per volume per client) ran at the same time.
#include "latscope/tool_layouts.h"

#include <cctype>
#include <vector>

namespace latscope {
namespace {

std::vector<std::string> components(const std::string& path) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : path) {
    if (c == '/' || c == '\\') {
      if (!cur.empty() && cur != ".") out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);  // the file itself (may be empty for a trailing slash)
  return out;
}

std::string joined(const std::vector<std::string>& c, size_t end) {
  std::string out;
  for (size_t i = 0; i < end; ++i) out += (i ? "/" : "") + c[i];
  return out.empty() ? "." : out;
}

bool all_of_n(const std::string& s, size_t n, int (*pred)(int)) {
  if (s.size() != n) return false;
  for (char ch : s)
    if (!pred(static_cast<unsigned char>(ch))) return false;
  return true;
}

}  // namespace

ToolPlace tool_place_of(const std::string& path) {
  ToolPlace p;
  const std::vector<std::string> c = components(path);
  const size_t file = c.size() - 1;
  // pbench-fio: .../clients/<host>/FILE or .../clients/<host>/hist/FILE. The
  // innermost "clients" wins (a folder of that name above the run is no host
  // list).
  for (size_t i = file; i-- > 0;) {
    if (c[i] != "clients") continue;
    const bool direct = i + 2 == file;
    const bool in_hist = i + 3 == file && c[i + 2] == "hist";
    if ((direct || in_hist) && c[i + 1] != "..") {
      p.tool = "pbench-fio";
      p.host = c[i + 1];
      p.run = joined(c, i);
      return p;
    }
    break;
  }
  // CBT: [results/]<8 digits>/id-<8 hex>/... ("results" is left out when
  // the results folder itself was picked).
  for (size_t i = 0; i + 2 <= file; ++i) {
    if (all_of_n(c[i], 8, &isdigit) && c[i + 1].size() == 11 && c[i + 1].compare(0, 3, "id-") == 0 &&
        all_of_n(c[i + 1].substr(3), 8, &isxdigit)) {
      p.tool = "CBT";
      p.run = joined(c, i + 2);
      return p;
    }
  }
  return p;
}

}  // namespace latscope
