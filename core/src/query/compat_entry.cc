// Entry point of the fio-histo-log-pctiles.py compatibility mode; the mode
// itself lives in query/compat.cc.
#include "latscope/engine.h"

namespace latscope {

Status compat_query(const std::vector<Source>& sources, const QueryOptions& opts, QueryResult* out) {
  (void)sources;
  (void)opts;
  (void)out;
  return Status::Error(ErrorCode::kInvalidArgument, "compat mode is not available in this build yet");
}

}  // namespace latscope
