// Entry point of the fio-histo-log-pctiles.py compatibility mode; the mode
// itself lives in query/compat.cc.
#include "latscope/engine.h"
#include "query/compat.h"

namespace latscope {

Status compat_query(const std::vector<Source>& sources, const QueryOptions& opts, QueryResult* out) {
  std::vector<const Source*> ptrs;
  for (const Source& s : sources)
    if (s.status.ok() && s.format == FileFormat::kFioHist) ptrs.push_back(&s);
  return compat_fio_histo_log_pctiles(ptrs, opts, out);
}

}  // namespace latscope
