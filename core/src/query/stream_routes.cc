// StreamingQuery's routing (stream.h): each latency kind into a query of
// its own, each time base into a part of its own, the folder's superseded
// files left out, window-value logs kept aside; the folding itself is
// stream_fold.cc.
#include <algorithm>
#include <utility>

#include "query/one_account.h"
#include "query/per_io.h"
#include "query/stream_impl.h"
#include "query/window_values.h"

namespace latscope {

using stream_detail::Coverage;
using stream_detail::PendingTail;
using stream_detail::Cell;

namespace {

// A source's own facts without its series: what selection, group keys, the
// json+ tail rule and the folder's accounts read of it.
Source source_shell(const Source& src) {
  Source s;
  s.name = src.name;
  s.id = src.id;
  s.format = src.format;
  s.absolute_time = src.absolute_time;
  s.labels = src.labels;
  s.layout = src.layout;
  s.status = src.status;
  return s;
}

}  // namespace

StreamingQuery::StreamingQuery(const QueryOptions& opts) : StreamingQuery(opts, false) {
  epoch_.reset(new StreamingQuery(opts, true));  // NOLINT(modernize-make-unique): private constructor
}

StreamingQuery::StreamingQuery(const QueryOptions& opts, bool /*epoch_part*/) : impl_(std::make_unique<Impl>()) {
  impl_->opts = opts;
  // Per-I/O values are kept per cell as the file is folded (per_io.h).
  impl_->holding = opts.method != Method::kExact;
  const double q = opts.quantum_ms;
  if (!(q > 0) || !std::isfinite(q))
    impl_->error = Status::Error(ErrorCode::kInvalidArgument, "quantum must be a positive number of ms");
  for (double p : opts.percentiles)
    if (!(p >= 0 && p <= 100))
      impl_->error = Status::Error(ErrorCode::kInvalidArgument, "percentiles must be within [0, 100]");
  if (opts.compat_fio_histo_log_pctiles)
    impl_->error = Status::Error(ErrorCode::kInvalidArgument,
                                 "the compat mode needs every file first: use Engine::query");
  if (impl_->error.ok()) {
    if (opts.sel.from_ms > -HUGE_VAL) impl_->skip_before = std::floor(opts.sel.from_ms / q);
    if (opts.sel.to_ms < HUGE_VAL) impl_->skip_after = std::ceil(opts.sel.to_ms / q);
  }
}

StreamingQuery::~StreamingQuery() = default;

// The outer query routes each log to the part of its time base; json+
// output serves both. Every log counts in both parts' tail ambiguity rule,
// as add_json_tails counts every loaded log (tail.cc).
void StreamingQuery::set_folder(const std::vector<FolderFile>& folder) {
  superseded_ = accounts_left_out(folder, impl_->opts.sel, impl_->opts.group_by, &accounts_note_);
}

// Where Engine::query has it: after the latency-kinds note, before the rest
// (make_plan: keep_default_kind, then keep_one_account).
void StreamingQuery::add_accounts_note(std::vector<std::string>* notes) const {
  if (!skipped_selected_ || accounts_note_.empty()) return;
  const bool kinds_note = impl_->opts.sel.kinds.empty() && kinds_present_.size() > 1;
  notes->insert(notes->begin() + (kinds_note && !notes->empty() ? 1 : 0), accounts_note_);
}

Status StreamingQuery::add(const Source& src) {
  // Held: one copy, shared with the part that keeps it (add(Source&&)).
  if (holding_all_ && impl_->holding && !superseded_.count(src.name)) return add(Source(src));
  return add_routed(src);
}

bool StreamingQuery::all_holding() const {
  if (!impl_->holding || (epoch_ && !epoch_->all_holding())) return false;
  return std::all_of(kinds_.begin(), kinds_.end(), [](const auto& kv) { return kv.second->all_holding(); });
}

Status StreamingQuery::add_routed(const Source& src) {
  if (superseded_.count(src.name)) {
    std::vector<Selected> sel;
    select_series(src, impl_->opts.sel, &sel);
    if (!sel.empty()) skipped_selected_ = true;
    return Status::Ok();
  }
  if (src.status.ok() && std::any_of(src.series.begin(), src.series.end(),
                                     [](const Series& s) { return s.role == Role::kWindowValues; })) {
    Source kept = source_shell(src);  // what select_window_values and group keys read
    for (const Series& s : src.series)
      if (s.role == Role::kWindowValues) kept.series.push_back(s);
    window_values_.push_back(std::move(kept));
  }
  return add_folded(src);
}

Status StreamingQuery::add(Source&& src) {
  const auto given = std::make_shared<const Source>(std::move(src));
  const std::shared_ptr<const Source>* before = stream_detail::donated_source();
  stream_detail::donated_source() = &given;
  Status st = add_routed(*given);
  stream_detail::donated_source() = before;
  // While every part holds its sources, finish sweeps them all at once
  // (query_sources); from the first that folds by file, the parts answer.
  if (holding_all_ && all_holding() && !superseded_.count(given->name)) {
    held_.push_back(selected_at_all(*given) ? given : without_windows(*given));
  } else if (holding_all_ && !all_holding()) {
    // From the first part that folds by file, every part does: what the
    // others hold is folded now, and kinds seen later fold by file too.
    holding_all_ = false;
    std::vector<std::shared_ptr<const Source>>().swap(held_);
    fold_by_file_from_now();
    if (st.ok()) st = parts_error();  // what was held may not fit as cells
  }
  return st;
}

// Whether the sweep at finish reads src's windows: a log with a series the
// query selects, fio json+ output (tails, placement, whole runs), a
// window-value log (log_avg_msec). Any other log counts only for what it
// says of the folder: its labels and series in the json+ tail rule.
bool StreamingQuery::selected_at_all(const Source& src) const {
  if (src.format == FileFormat::kFioJson) return true;
  if (std::any_of(src.series.begin(), src.series.end(), [](const Series& x) { return x.role == Role::kWindowValues; }))
    return true;
  std::vector<Selected> sel;
  select_series(src, impl_->opts.sel, &sel);
  return !sel.empty();
}

// src without its windows, bins and per-I/O values: what a source no series
// of which is selected still tells the sweep (selected_at_all).
std::shared_ptr<const Source> StreamingQuery::without_windows(const Source& src) {
  auto kept = std::make_shared<Source>(source_shell(src));
  for (const Series& x : src.series) {
    Series t;
    t.dir = x.dir;
    t.role = x.role;
    t.labels = x.labels;
    t.job = x.job;
    t.segment = x.segment;
    t.layout = x.layout;
    t.per_io = x.per_io;
    kept->series.push_back(std::move(t));
  }
  return kept;
}

Status StreamingQuery::parts_error() const {
  if (!impl_->error.ok()) return impl_->error;
  if (epoch_)
    if (Status st = epoch_->parts_error(); !st.ok()) return st;
  for (const auto& kv : kinds_)
    if (Status st = kv.second->parts_error(); !st.ok()) return st;
  return Status::Ok();
}

void StreamingQuery::fold_by_file_from_now() {
  if (impl_->holding) impl_->flush_held();
  impl_->how = Fold::kByFile;
  if (epoch_) epoch_->fold_by_file_from_now();
  for (auto& kv : kinds_) kv.second->fold_by_file_from_now();
}

Status StreamingQuery::add_folded(const Source& src) {
  if (impl_->opts.sel.kinds.empty() && impl_->error.ok()) return add_by_kind(src);
  if (!epoch_) return add_part(src);
  Impl& I = *impl_;
  if (!I.error.ok()) return I.error;
  if (!src.status.ok()) return Status::Ok();
  if (src.format == FileFormat::kFioJson) {
    const Status st = epoch_->add_part(src);
    return st.ok() ? add_part(src) : st;
  }
  Impl& other = src.absolute_time ? I : *epoch_->impl_;
  for (const Series& s : src.series) ++other.logs_per_key[tail_key_of_log(src, s)];
  std::vector<Selected> sel;
  select_series(src, I.opts.sel, &sel);
  I.time_bases.count(src, sel.size());
  return src.absolute_time ? epoch_->add_part(src) : add_part(src);
}

Status StreamingQuery::finish(QueryResult* out) { return finish(out, nullptr); }

Status StreamingQuery::finish(QueryResult* out, RowSink* sink) {
  if (impl_->opts.adaptive_accuracy > 0)  // quanta depend on every window: Engine::query (query/adaptive.h)
    return Status::Error(ErrorCode::kInvalidArgument, "adaptive quanta need Engine::query, not the streaming fold");
  if (Status st = parts_error(); !st.ok()) return st;
  if (holding_all_ && all_holding()) {  // the one fold over what is held (query.cc)
    SourceRefs refs;
    refs.reserve(held_.size());
    for (const std::shared_ptr<const Source>& s : held_) refs.push_back(s.get());
    Status st = query_sources(refs, impl_->opts, out, sink, feed_);
    if (st.ok()) add_accounts_note(&out->notes);
    return st;
  }
  // Digested series are swept only with their feed (query.cc unfed_series).
  if (feed_) return Status::Error(ErrorCode::kInvalidArgument, "windows read again in time order need every source held");
  std::vector<Selected> window_values;  // as Engine::query (query/window_values.h)
  for (const Source& src : window_values_) select_window_values(src, impl_->opts.sel, &window_values);
  Status st = finish_folded(out, sink);
  if (st.ok()) add_accounts_note(&out->notes);
  if (!st.ok() || window_values.empty()) return st;
  if (out->groups.empty()) return window_value_query(std::move(window_values), impl_->opts, out);
  out->notes.push_back(window_values_left_out_note(window_values.size()));
  return st;
}

Status StreamingQuery::finish_folded(QueryResult* out, RowSink* sink) {
  if (impl_->opts.sel.kinds.empty() && impl_->error.ok() && !kinds_.empty()) return finish_by_kind(out, nullptr, sink);
  if (!epoch_) return finish_part(out, nullptr, sink);
  const TimeBaseTally& tb = impl_->time_bases;
  StreamingQuery& shown = tb.kept() == 1 ? *epoch_ : *this;
  tb.report(&shown.impl_->time_notes, &shown.impl_->time_diag);
  return shown.finish_part(out, nullptr, sink);
}

// Selection::kinds empty: each latency kind folds into a query of its own
// (kinds = {kind}), json+ output into every one; finish shows the default
// kind and names the others, as make_plan does (query/per_io.h).
Status StreamingQuery::add_by_kind(const Source& src) {
  if (!src.status.ok()) return Status::Ok();
  if (src.format == FileFormat::kFioJson) {
    // Into this query too: with no log at all, it answers from json+ alone.
    Status added = epoch_ ? epoch_->add_part(src) : Status::Ok();
    if (added.ok()) added = add_part(src);
    if (!added.ok()) return added;
    kinds_json_.push_back(src);
    for (auto& kv : kinds_) {
      Status st = kv.second->add_folded(src);
      if (!st.ok()) return st;
    }
    return Status::Ok();
  }
  // Unselected logs too: they count in the json+ tail ambiguity rule.
  if (src.series.empty()) return Status::Ok();
  const std::string kind = kind_of(src, src.series.front());
  std::vector<Selected> sel;
  select_series(src, impl_->opts.sel, &sel);
  if (!sel.empty()) kinds_present_.insert(kind);
  std::unique_ptr<StreamingQuery>& q = kinds_[kind];
  if (!q) {
    QueryOptions o = impl_->opts;
    o.sel.kinds = {kind};
    q = std::make_unique<StreamingQuery>(o);
    q->set_fold(impl_->how);
    for (const Source& j : kinds_json_) {
      Status st = q->add_folded(j);
      if (!st.ok()) return st;
    }
  }
  return q->add_folded(src);
}

Status StreamingQuery::finish_result(Result* out, std::vector<std::string>* notes, Diagnostics* diag) {
  *out = Result();
  out->quantum_ms = impl_->opts.quantum_ms;
  QueryResult qr;
  Status st;
  if (impl_->opts.sel.kinds.empty() && impl_->error.ok() && !kinds_.empty()) {
    st = finish_by_kind(&qr, out);
  } else if (!epoch_) {
    st = finish_part(&qr, out);
  } else {
    const TimeBaseTally& tb = impl_->time_bases;
    StreamingQuery& shown = tb.kept() == 1 ? *epoch_ : *this;
    tb.report(&shown.impl_->time_notes, &shown.impl_->time_diag);
    st = shown.finish_part(&qr, out);
  }
  if (st.ok()) add_accounts_note(&qr.notes);
  notes->insert(notes->end(), qr.notes.begin(), qr.notes.end());
  diag->merge(qr.diag);
  return st;
}

Status StreamingQuery::finish_by_kind(QueryResult* out, Result* res, RowSink* sink) {
  if (res) {  // a result keeps every kind (label "kind" tells them apart)
    for (auto& kv : kinds_) {
      Result r;
      Status st = kv.second->finish_result(&r, &out->notes, &out->diag);
      if (st.ok()) st = merge(res, r);
      if (!st.ok()) return st;
    }
    return Status::Ok();
  }
  const std::string kept = default_kind(kinds_present_);
  auto it = kinds_present_.empty() ? kinds_.begin() : kinds_.find(kept);
  Status st = it->second->finish_folded(out, sink);
  if (st.ok() && kinds_present_.size() > 1) out->notes.insert(out->notes.begin(), kinds_note(kinds_present_, kept));
  return st;
}

}  // namespace latscope
