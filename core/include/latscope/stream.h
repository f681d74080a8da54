// The memory-bounded path for one query over many files (the CLI's
// `pctiles`): each parsed source is folded into the query's quantum grid and
// can then be dropped, so memory is the output grid (groups x quanta x
// occupied bins) plus the one source being folded, whatever the number or
// size of the files.
//
//   StreamingQuery q(opts);
//   for each file: parse it (Engine::open_file/append/finish), q.add(source),
//                  drop it
//   q.finish(&result)        // the rows Engine::query would give
//
// The numbers equal Engine::query's on the same sources in the same order:
// the same sweep (query_sources in core/src/query/query.cc), over every
// source held or over one series at a time. fio json+ sources must
// be added before the logs whose unlogged tails they complete. Not for the
// fio-histo-log-pctiles compat mode, which needs every file's span first; and
// when bin layouts differ between files the merge is the same but the
// summation order may differ in the last bits.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "latscope/engine.h"

namespace latscope {

struct Result;  // result.h

// The first pass of the fold in time order: a sink for one file, whose
// series then hold a WindowDigest for a query at quantum_ms (model.h).
std::shared_ptr<DigestSink> digest_sink(double quantum_ms);

class StreamingQuery {
 public:
  explicit StreamingQuery(const QueryOptions& opts);
  ~StreamingQuery();
  StreamingQuery(const StreamingQuery&) = delete;
  StreamingQuery& operator=(const StreamingQuery&) = delete;

  // The folder the sources come from (folder.h), before any add: a source
  // whose jobs' I/Os another file of it accounts for is then skipped, and
  // finish says so, as Engine::query leaves it out (plan_accounts). Without
  // it every source is folded (the CLI leaves such files unread instead).
  void set_folder(const std::vector<FolderFile>& folder);
  // How sources are folded (core/src/query/stream_hold.cc): held and folded
  // a slice of quanta at a time at finish, or each as it is added with every
  // quantum's cell kept to the end; by default whichever holds less, judged
  // as sources come. The rows are the same bits either way (tests hold the
  // three to it). Before any add.
  enum class Fold { kChoose, kByFile, kByQuanta };
  void set_fold(Fold how);
  // The fold in time order (docs/quanta.md, "Memory: windows read twice"):
  // sources whose series hold a WindowDigest (model.h) are held, and finish
  // sweeps them once, their windows read again through feed as the quanta
  // reach them. Sets Fold::kByQuanta. The feed outlives finish.
  void set_feed(WindowFeed* feed);
  // Folds a finished source in; it may be destroyed afterwards. Unusable
  // sources are ignored (their Status is the caller's to report).
  Status add(const Source& src);
  // The same for a source the caller gives up: kept without a copy when the
  // fold holds its sources to the end (core/src/query/stream_hold.cc).
  Status add(Source&& src);
  Status finish(QueryResult* out);
  // The same, handing the rows to sink one by one as each quantum is made
  // instead of keeping them in out (out keeps groups, notes, diagnostics):
  // the CLI writes a table of millions of rows without holding it. Rows of
  // window-value logs alone (log_avg_msec) are still kept in out.
  Status finish(QueryResult* out, RowSink* sink);
  // Instead of finish: the folded grid itself as a result (result.h,
  // docs/result-format.md), one series per label set of QueryOptions::group_by
  // (labels a series lacks are left out; {"*"} keeps every label), each cell
  // quantized once to fixed point. Every latency kind folded is kept: pass
  // "kind" in group_by to keep them apart. notes/diag as finish's.
  Status finish_result(Result* out, std::vector<std::string>* notes, Diagnostics* diag);

 private:
  // Selection::kinds empty: one query per latency kind (lat, clat and slat
  // are never merged silently); finish keeps the default kind and says so.
  Status add_by_kind(const Source& src);
  Status finish_by_kind(QueryResult* out, Result* res = nullptr, RowSink* sink = nullptr);
  std::map<std::string, std::unique_ptr<StreamingQuery>> kinds_;
  std::set<std::string> kinds_present_;
  std::vector<Source> kinds_json_;  // json+ output, replayed into each kind's query
  struct Impl;
  StreamingQuery(const QueryOptions& opts, bool epoch_part);
  // add / finish without the window values of fio log_avg_msec logs, which
  // add keeps aside (window_values_) and finish shows as Engine::query does
  // (core/src/query/window_values.h).
  Status add_folded(const Source& src);
  Status finish_folded(QueryResult* out, RowSink* sink = nullptr);
  std::vector<Source> window_values_;
  Status add_part(const Source& src);
  Status finish_part(QueryResult* out, Result* res = nullptr, RowSink* sink = nullptr);
  std::unique_ptr<Impl> impl_;
  // set_folder: the files left out, the note naming them, whether one of
  // them had selected series (then finish adds the note).
  std::set<std::string> superseded_;
  std::string accounts_note_;
  bool skipped_selected_ = false;
  void add_accounts_note(std::vector<std::string>* notes) const;
  // Logs on the epoch clock (log_unix_epoch) fold into a part of their own;
  // finish shows the time base most selected series have, as Engine::query
  // does (core/src/query/time_base.h). Null in that part itself.
  std::unique_ptr<StreamingQuery> epoch_;
  // Every source added, in order, while every part holds its own (Fold::
  // kByQuanta, or kChoose while holding pays): finish then sweeps them in
  // time order as Engine::query does (the one fold, query_sources), and
  // the parts' own folding is for results and the fold by file.
  bool holding_all_ = true;
  WindowFeed* feed_ = nullptr;
  std::vector<std::shared_ptr<const Source>> held_;
  bool all_holding() const;
  void fold_by_file_from_now();
  Status parts_error() const;  // the first error of this query or its parts
  bool selected_at_all(const Source& src) const;
  static std::shared_ptr<const Source> without_windows(const Source& src);
  Status add_routed(const Source& src);
};

}  // namespace latscope
