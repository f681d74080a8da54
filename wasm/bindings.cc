// embind shim: the core Engine as a JS class. Every method is a few lines that
// convert arguments, call core/ and convert the result; options are parsed by
// core (options_json.h), text is written by core (report.h), so the page and
// the CLI cannot drift apart.
//
//   JS (web/src/engine/inthread.js)            C++ (this file -> core/)
//   new Module.Engine()                        latscope::Engine
//   openFile(name, fileOptionsJson)   -> int   parse_file_options_json + open_file
//   append(handle, Uint8Array) -> bool         one copy into the heap + append; false: read no more
//   finish(handle)                    -> str   source_json(finish())
//   sources()                         -> str   "[" source_json, ... "]"
//   query(optionsJson)                -> str   pctiles_json(query())
//   pctilesCsv(optionsJson)           -> str   pctiles_csv(query())
//   queryColumns(optionsJson) -> {meta: str, t_ms, ..., flag, flag_texts: str}
//                                           query() into JS typed arrays a chunk of
//                                           rows at a time (js_columns.h)
//   queryMatrix(optionsJson) -> {meta: str, times, values, samples}
//                                           (queryColumns and queryMatrix: options with
//                                           "sla" also give sla: str, sla_marks: Uint8Array,
//                                           the rows or cells that break each rule)
//   queryRowsBound(optionsJson) -> number  (Engine::query_rows_bound)
//                                           ValueMatrixBuilder (report.h), copies
//   heatmapCsv(optionsJson, from, to) -> str  heatmap_csv(heatmap()), header units, quanta of [from, to)
//   heatmap(optionsJson)  -> {meta: str, counts: Float64Array}   (copy, not a heap view;
//                                           density_by set: groups counted, Engine::heatmap)
//   densityCell(optionsJson, quantum, row) -> str  Engine::density_cell as density_cell_json
//   exportSource(handle)  -> Uint8Array (copy)  encode_source (model_io.h)
//   importSource(Uint8Array)          -> str   decode_source + add_source -> source_json
//   trust(accountsJson, excludeJson)  -> str   Engine::trust as JSON (folder.h trust_json)
//   defaultQuantum()                  -> number  Engine::default_quantum_ms (0: none)
//   zoomQuantum(rangeMs, widthPx)     -> number  Engine::default_quantum_ms(range, width):
//                                           the quantum a chart follows the zoom at
//   assignRuns(runOptionsJson)        -> str   Engine::assign_runs (sets every source's
//                                           "run" label) -> run_plan_json (docs/runs.md)
//   compareRuns(pctText, unit, format, accountsJson) -> {text, notes: str}
//                                           the last assignRuns' two runs as
//                                           `latscope summary --compare` prints them
//                                           (core summary.h RunCompare)
//   parsePercentiles(presets, field) -> str  the page's percentiles (percentile_list.h
//                                           page_percentile_list): sorted, one per value,
//                                           {"percentiles": ["50", ...], "values": [50, ...]}
//   parseSla(text, unit)       -> str   the page's SLA field parsed (sla_field.h):
//                                           {"rules": [{text, what, p, strict, ..., label}]}
//   judgeSla(text, unit, optionsJson) -> str  the percentiles query's rows judged on
//                                           the rules per group (SlaFieldJudge), with the
//                                           page's sentences: {"verdicts": [...]}
//   encodeResult(optionsJson)  -> Uint8Array (copy)  StreamingQuery::finish_result +
//                                           encode_result: a result file (docs/result-format.md)
//
//   new Module.MatrixFile(size)                a version 4 file's per-host matrix read by
//   add(offset, Uint8Array)                    ranges (matrix_answer.h): add() hands it bytes,
//   query(optionsJson, columns, chosen, rows)  query() answers as queryMatrix does (rows:
//                                              as queryColumns, no SLA), or says
//     -> {meta, times, values, samples}        {need: "[[offset, length], ...]"} (the ranges
//      | {need: str} | {refused: str}          to add first) or {refused: why} (the
//                                              histograms answer instead; also for a
//                                              damaged matrix). Options with "sla" also
//                                              give sla and sla_marks, as queryMatrix
//
// Failures come back as {error: {name, message}} instead of a thrown C++
// exception (the build has exceptions disabled); inthread.js turns them into
// EngineError.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "latscope/engine.h"
#include "latscope/matrix_answer.h"
#include "latscope/model_io.h"
#include "latscope/options_json.h"
#include "latscope/percentile_list.h"
#include "latscope/report.h"
#include "latscope/result.h"
#include "latscope/sla_field.h"
#include "latscope/stream.h"
#include "latscope/summary.h"
#include "js_columns.h"

namespace {

using emscripten::val;
using latscope::Status;

const char* code_name(latscope::ErrorCode c) {
  switch (c) {
    case latscope::ErrorCode::kOk: return "Ok";
    case latscope::ErrorCode::kInvalidArgument: return "InvalidArgument";
    case latscope::ErrorCode::kUnusableFile: return "UnusableFile";
    case latscope::ErrorCode::kInternal: return "Internal";
  }
  return "Internal";
}

val error(const Status& st) {
  val e = val::object();
  e.set("name", code_name(st.code));
  e.set("message", st.message);
  val r = val::object();
  r.set("error", e);
  return r;
}

// A JS copy of bytes in the heap: `new Uint8Array(view)` copies, so nothing
// returned to JS aliases the heap (which may move when memory grows).
template <typename T>
val copy_to_js(const char* ctor, const T* data, size_t n) {
  return val::global(ctor).new_(emscripten::typed_memory_view(n, data));
}

// Bytes copied in from a JS Uint8Array with one TypedArray.set (a memcpy),
// the storage reused between calls. Not a std::vector<char>: its
// resize() zero-fills every byte before the copy overwrites it, and that
// memset was a quarter of a worker's parse time (docs/benchmarks.md,
// "WASM staging").
class Staging {
 public:
  const char* data() const { return p_.get(); }
  size_t size() const { return n_; }
  void copy_from(const val& bytes) {
    n_ = bytes["length"].as<size_t>();
    if (n_ > cap_) {
      p_.reset(new char[n_]);  // default-initialised: not zeroed
      cap_ = n_;
    }
    val(emscripten::typed_memory_view(n_, p_.get())).call<void>("set", bytes);
  }
  void release() {
    p_.reset();
    cap_ = n_ = 0;
  }

 private:
  std::unique_ptr<char[]> p_;
  size_t cap_ = 0;
  size_t n_ = 0;
};


class WasmEngine {
 public:
  val openFile(const std::string& name, const std::string& file_options_json) {
    latscope::FileOptions fo;
    Status st = latscope::parse_file_options_json(file_options_json, &fo);
    if (!st.ok()) return error(st);
    return val(engine_.open_file(name, fo));
  }

  // False once the file wants no more bytes (Engine::wants_bytes): the page stops reading it.
  bool append(int handle, const val& bytes) {
    buf_.copy_from(bytes);
    engine_.append(handle, buf_.data(), buf_.size());
    return engine_.wants_bytes(handle);
  }

  std::string finish(int handle) {
    buf_.release();  // the staging buffer can be large; drop it
    return latscope::source_json(engine_.finish(handle));
  }

  std::string sources() const {
    std::string out = "[";
    for (const latscope::Source& s : engine_.sources()) {
      if (out.size() > 1) out += ',';
      out += latscope::source_json(s);
    }
    return out + "]";
  }

  val assignRuns(const std::string& run_options_json) {
    latscope::RunOptions ro;
    Status st = latscope::parse_run_options_json(run_options_json, &ro);
    if (!st.ok()) return error(st);
    plan_ = engine_.assign_runs(ro);
    run_files_.clear();
    for (const latscope::Source& s : engine_.sources()) run_files_.push_back(latscope::run_file_of(s));
    return val(latscope::run_plan_json(plan_, run_files_));
  }

  // The trust summary of the loaded files (core folder.h, docs/folders.md),
  // as the CLI's --format json "trust": what each file is, its fio version
  // and unit, the account used for its jobs' I/Os (accounts: [] or
  // ["hist"] / ["per-io"], the query option "accounts"), its I/Os against
  // fio's json+ count, warnings.
  val trust(const std::string& accounts_json, const std::string& exclude_json) const {
    latscope::QueryOptions q;
    std::vector<std::string> labels;
    latscope::Unit unit = latscope::kDefaultUnit;
    Status st = latscope::parse_query_options_json(
        "{\"accounts\":" + accounts_json + ",\"exclude_sources\":" + (exclude_json.empty() ? "[]" : exclude_json) + "}",
        &q, &labels, &unit);
    if (!st.ok()) return error(st);
    return val(latscope::trust_json(engine_.trust(q.sel)));
  }

  // The quantum a load opens at when none was chosen (core quanta.h,
  // docs/page-views.md "Default quantum"); 0 when no series has an interval.
  double defaultQuantum() const { return engine_.default_quantum_ms(); }
  // The quantum the visible range asks for when none is pinned (core
  // quanta.h zoom_quantum_ms; docs/page-views.md "Quantum follows the zoom").
  double zoomQuantum(double range_ms, double width_px) const { return engine_.default_quantum_ms(range_ms, width_px); }

  // The two runs of the last assignRuns side by side, exactly as `latscope
  // summary --compare` computes them (core summary.h, docs/runs.md "A/B"):
  // a json+ run takes fio's exact N, min, mean and max from the figures its
  // source keeps (model.h FioFigures); every other source is summed as the
  // CLI sums a log.
  val compareRuns(const std::string& percentiles, const std::string& unit_text, const std::string& format,
                  const std::string& accounts_json) const {
    using latscope::ErrorCode;
    latscope::SummaryColumns cols;
    Status st = latscope::parse_percentile_list(percentiles, &cols.ps, &cols.labels);
    if (!st.ok()) return error(st);
    if (!latscope::parse_unit(unit_text, &cols.unit))
      return error(Status::Error(ErrorCode::kInvalidArgument, "unit must be ns, us or ms, not " + unit_text));
    const std::vector<latscope::Source>& srcs = engine_.sources();
    if (plan_.run_of.size() != srcs.size())
      return error(Status::Error(ErrorCode::kInvalidArgument, "files changed since runs were assigned"));
    if (plan_.runs.size() != 2)
      return error(Status::Error(ErrorCode::kInvalidArgument,
                                 "comparing needs two runs; the inputs are " + latscope::describe_runs(plan_, run_files_)));
    latscope::RunCompare cmp(cols);
    for (const latscope::Run& r : plan_.runs) {
      latscope::RunSide side;
      side.name = r.name;
      side.how = r.how;
      for (size_t i : r.files) side.files.push_back(run_files_[i].name);
      cmp.sides().push_back(std::move(side));
    }
    // One account of every I/O, as the queries (core folder.h): a log whose
    // jobs' I/Os another log counts is not summed.
    latscope::QueryOptions acc;
    std::vector<std::string> acc_labels;
    latscope::Unit acc_unit = latscope::kDefaultUnit;
    st = latscope::parse_query_options_json("{\"accounts\":" + (accounts_json.empty() ? std::string("[]") : accounts_json) + "}",
                                            &acc, &acc_labels, &acc_unit);
    if (!st.ok()) return error(st);
    std::vector<latscope::FolderFile> folder;
    for (const latscope::Source& s : srcs) folder.push_back(latscope::folder_file_of(s));
    const std::vector<latscope::AccountChoice> choices = latscope::plan_accounts(folder, acc.sel.accounts);
    for (size_t i = 0; i < srcs.size(); ++i) {
      const latscope::Source& s = srcs[i];
      // The page leaves plain json (ignored: no bins) out, as its queries do.
      if (!s.status.ok() || s.format == latscope::FileFormat::kIgnored) continue;
      if (!choices[i].used_instead.empty()) continue;
      cmp.add_source(plan_.run_of[i] == plan_.runs[1].name ? 1 : 0, s);
    }
    std::string notes = "[";
    for (const std::string& n : cmp.notes()) notes += (notes.size() > 1 ? "," : "") + latscope::json_escape(n);
    val out = val::object();
    out.set("text", format == "json" ? cmp.json() : cmp.csv());
    out.set("notes", notes + "]");
    return out;
  }

  // The page's percentile field and its links' p= and gp= (core
  // percentile_list.h, the grammar of the CLI's --percentiles): the checked
  // presets and the field's text as one list, sorted, one per value.
  val parsePercentiles(const std::string& presets, const std::string& field) const {
    std::vector<latscope::PercentileItem> items;
    Status st = latscope::page_percentile_list(presets, field, &items);
    if (!st.ok()) return error(st);
    return val(latscope::percentile_items_json(items));
  }

  // The page's SLA field (core sla_field.h): the rules as core reads them,
  // unit: the shown unit, which a threshold without one is in.
  val parseSla(const std::string& text, const std::string& unit) const {
    std::vector<latscope::SlaFieldRule> rules;
    Status st = latscope::parse_sla_field(text, unit, &rules);
    if (!st.ok()) return error(st);
    return val(latscope::sla_field_rules_json(rules));
  }

  // The rules judged on every row of the percentiles query of these
  // options, per group and summed, as `latscope pctiles --sla` judges a row;
  // the rows go to the judge only (no columns are made).
  val judgeSla(const std::string& text, const std::string& unit, const std::string& options_json) const {
    std::vector<latscope::SlaFieldRule> rules;
    Status st = latscope::parse_sla_field(text, unit, &rules);
    Query q;
    if (st.ok()) st = latscope::parse_query_options_json(options_json, &q.options, &q.labels, &q.unit);
    if (!st.ok()) return error(st);
    latscope::SlaFieldJudge judge(rules, q.options.percentiles, q.labels);
    st = engine_.query(q.options, &q.result, &judge);
    if (!st.ok()) return error(st);
    const std::vector<latscope::SlaFieldVerdict> v = judge.take(q.result.groups.size());
    return val(latscope::sla_field_json(v, q.result.groups, q.result.adaptive ? 0 : q.result.quantum_ms, judge.quanta()));
  }

  val query(const std::string& options_json) const {
    Query q;
    Status st = run_query(options_json, &q);
    if (!st.ok()) return error(st);
    return val(latscope::pctiles_json(q.result, q.labels, q.unit));
  }

  // The query as columns (report.h pctiles_columns): typed-array copies
  // the worker transfers, and the rest as JSON text (pctiles_meta_json).
  val queryColumns(const std::string& options_json) const {
    Query q;
    std::vector<latscope::SlaFieldRule> rules;
    Status st = parse_with_sla(options_json, &q, &rules);
    if (!st.ok()) return error(st);
    // Rows go into JS arrays a chunk at a time, never all kept (js_columns.h).
    latscope_wasm::JsColumnsSink sink(q.labels, q.unit, q.options.adaptive_accuracy > 0, q.options.bands,
                                      q.options.columns > 0);
    latscope::SlaFieldJudge judge(rules, q.options.percentiles, q.labels);
    judge.keep_marks();
    latscope::RowTee tee(&sink, &judge);
    st = engine_.query(q.options, &q.result, rules.empty() ? static_cast<latscope::RowSink*>(&sink) : &tee);
    if (!st.ok()) return error(st);
    // The columns' own say: an adaptive query keeps its bands, which the sink then leaves out.
    q.result.bands = sink.wants_bands();
    val out = val::object();
    out.set("meta", latscope::pctiles_meta_json(q.result, q.labels, q.unit));
    sink.finish(q.result.adaptive, &out);
    if (!rules.empty()) set_sla(&out, q, &judge, judge.marks());
    return out;
  }


  // Engine::query_rows_bound: whether a query is worth cutting into parts
  // (web/src/engine/twin.js). 0 also for options that do not parse.
  double queryRowsBound(const std::string& options_json) const {
    Query q;
    if (!latscope::parse_query_options_json(options_json, &q.options, &q.labels, &q.unit).ok()) return 0;
    return static_cast<double>(engine_.query_rows_bound(q.options));
  }

  // The groups view's query: values only, as a group x time x percentile
  // matrix (report.h ValueMatrixBuilder), with the meta of queryColumns.
  val queryMatrix(const std::string& options_json) const {
    Query q;
    std::vector<latscope::SlaFieldRule> rules;
    Status st = parse_with_sla(options_json, &q, &rules);
    latscope::ValueMatrixBuilder b(q.labels.size(), q.unit);
    latscope::SlaFieldJudge judge(rules, q.options.percentiles, q.labels);
    judge.keep_marks();
    latscope::RowTee tee(&b, &judge);
    if (st.ok()) st = engine_.query(q.options, &q.result, rules.empty() ? static_cast<latscope::RowSink*>(&b) : &tee);
    if (!st.ok()) return error(st);
    const latscope::ValueMatrix m = b.take(q.result.groups.size(), &judge.marks(), judge.width());
    val out = val::object();
    if (!rules.empty()) set_sla(&out, q, &judge, m.marks);
    out.set("meta", latscope::pctiles_meta_json(q.result, q.labels, q.unit));
    out.set("times", copy_to_js("Float64Array", m.times.data(), m.times.size()));
    out.set("values", copy_to_js("Float64Array", m.values.data(), m.values.size()));
    out.set("samples", copy_to_js("Float64Array", m.samples.data(), m.samples.size()));
    return out;
  }

  val pctilesCsv(const std::string& options_json) const {
    Query q;
    Status st = run_query(options_json, &q);
    if (!st.ok()) return error(st);
    return val(latscope::pctiles_csv(q.result, q.labels, q.unit));
  }

  // The heat map's CSV as `latscope heatmap --header-units` writes it, the
  // quanta of [from_ms, to_ms) only (NaN: no bound): the page's export.
  val heatmapCsv(const std::string& options_json, double from_ms, double to_ms) const {
    latscope::HeatmapOptions ho;
    latscope::Unit unit = latscope::kDefaultUnit;
    Status st = latscope::parse_heatmap_options_json(options_json, &ho, &unit);
    latscope::HeatmapResult r;
    if (st.ok()) st = engine_.heatmap(ho, &r);
    if (!st.ok()) return error(st);
    latscope::HeatmapCsvOptions o;
    o.header_units = true;
    if (!std::isnan(from_ms)) o.from_ms = from_ms;
    if (!std::isnan(to_ms)) o.to_ms = to_ms;
    return val(latscope::heatmap_csv(r, unit, o));
  }

  val heatmap(const std::string& options_json) const {
    latscope::HeatmapOptions ho;
    latscope::Unit unit = latscope::kDefaultUnit;  // output is in ns; the unit scales min/max input
    Status st = latscope::parse_heatmap_options_json(options_json, &ho, &unit);
    latscope::HeatmapResult r;
    if (st.ok()) st = engine_.heatmap(ho, &r);
    if (!st.ok()) return error(st);
    val counts = copy_to_js("Float64Array", r.counts.data(), r.counts.size());
    std::vector<double>().swap(r.counts);  // meta without the (large) counts array
    val out = val::object();
    out.set("meta", latscope::heatmap_json(r));
    out.set("counts", counts);
    return out;
  }

  // The groups of one cell of the density heatmap(optionsJson) gave
  // (density_by set): asked on a click, so no cell keeps a list.
  val densityCell(const std::string& options_json, double quantum, double row) const {
    latscope::HeatmapOptions ho;
    latscope::Unit unit = latscope::kDefaultUnit;
    Status st = latscope::parse_heatmap_options_json(options_json, &ho, &unit);
    std::vector<latscope::DensityMember> members;
    if (st.ok() && !(quantum >= 0 && row >= 0 && quantum < 4294967296.0 && row < 4294967296.0))
      st = Status::Error(latscope::ErrorCode::kInvalidArgument, "a density cell's quantum and row are counts from 0");
    if (st.ok())
      st = engine_.density_cell(ho, static_cast<uint32_t>(quantum), static_cast<uint32_t>(row), &members);
    if (!st.ok()) return error(st);
    return val(latscope::density_cell_json(members, unit));
  }

  val exportSource(int handle) const {
    const int i = engine_.source_index(handle);
    if (i < 0) return error(Status::Error(latscope::ErrorCode::kInvalidArgument, "no finished file with handle " + std::to_string(handle)));
    std::vector<uint8_t> bytes = latscope::encode_source(engine_.sources()[static_cast<size_t>(i)]);
    return copy_to_js("Uint8Array", bytes.data(), bytes.size());
  }

  val importSource(const val& bytes) {
    Staging data;
    data.copy_from(bytes);
    latscope::Source src;
    Status st = latscope::decode_source(reinterpret_cast<const uint8_t*>(data.data()), data.size(), &src);
    if (!st.ok()) return error(st);
    const int h = engine_.add_source(std::move(src));
    return val(latscope::source_json(engine_.sources()[static_cast<size_t>(h)]));
  }

  // The loaded sources as a result file, as `latscope reduce` writes it:
  // options_json's selection, quantum_ms, and group_by = the labels kept.
  // fio json+ sources go first, as the CLI orders them (stream.h: they must
  // precede the logs whose tails they complete).
  val encodeResult(const std::string& options_json) const {
    Query q;
    Status st = latscope::parse_query_options_json(options_json, &q.options, &q.labels, &q.unit);
    if (!st.ok()) return error(st);
    latscope::StreamingQuery stream(q.options);
    for (const bool json : {true, false})
      for (const latscope::Source& s : engine_.sources())
        if ((s.format == latscope::FileFormat::kFioJson) == json && st.ok()) st = stream.add(s);
    latscope::Result r;
    std::vector<std::string> notes;
    latscope::Diagnostics diag;
    if (st.ok()) st = stream.finish_result(&r, &notes, &diag);
    if (st.ok() && r.series.empty()) st = Status::Error(latscope::ErrorCode::kInvalidArgument, "no counts selected");
    std::vector<uint8_t> bytes;
    if (st.ok()) st = latscope::encode_result(r, &latscope::deflate_zlib, &bytes);
    if (!st.ok()) return error(st);
    return copy_to_js("Uint8Array", bytes.data(), bytes.size());
  }

 private:
  struct Query {
    latscope::QueryOptions options;
    std::vector<std::string> labels;
    latscope::Unit unit = latscope::kDefaultUnit;
    latscope::QueryResult result;
  };

  // The query's options and the page's SLA field among them ("sla",
  // options_json.h), read as the field is (a bare number in the query's unit).
  static Status parse_with_sla(const std::string& options_json, Query* q, std::vector<latscope::SlaFieldRule>* rules) {
    std::string sla;
    Status st = latscope::parse_query_options_json(options_json, &q->options, &q->labels, &q->unit, &sla);
    if (st.ok()) st = latscope::parse_sla_field(sla, latscope::unit_name(q->unit), rules);
    return st;
  }

  // The marks of the rows that break each verdict's rule (one byte per row or
  // cell and verdict: SlaFieldJudge::marks) and the verdicts they are of
  // (sla_field_json: rule, pi, max), so the page draws core's judgement
  // (docs/page-views.md, "SLA").
  static void set_sla(val* out, Query& q, latscope::SlaFieldJudge* judge, const std::vector<uint8_t>& marks) {
    out->set("sla_marks", copy_to_js("Uint8Array", marks.data(), marks.size()));
    const uint64_t quanta = judge->quanta();
    out->set("sla", latscope::sla_field_json(judge->take(q.result.groups.size()), q.result.groups,
                                            q.result.adaptive ? 0 : q.result.quantum_ms, quanta));
  }

  Status run_query(const std::string& options_json, Query* q) const {
    Status st = latscope::parse_query_options_json(options_json, &q->options, &q->labels, &q->unit);
    if (!st.ok()) return st;
    return engine_.query(q->options, &q->result);
  }

  latscope::Engine engine_;
  Staging buf_;
  latscope::RunPlan plan_;                     // the last assignRuns
  std::vector<latscope::RunFile> run_files_;   // its inputs
};

}  // namespace

// A result's per-host matrix, read by ranges the page fetches
// (web/src/app/host-matrix.js; docs/page-views.md, "Groups from the
// matrix"). The reader asks core for bytes; a range not handed over yet is
// named in the answer instead, so the page reads exactly what core needs:
// the head and index once, then the blocks of the level and range shown.
class WasmMatrixFile {
 public:
  explicit WasmMatrixFile(double size) : size_(static_cast<uint64_t>(size)) {}

  void add(double offset, const val& bytes) {
    std::vector<uint8_t>& b = held_[static_cast<uint64_t>(offset)];
    b.resize(bytes["length"].as<size_t>());
    val(emscripten::typed_memory_view(b.size(), b.data())).call<void>("set", bytes);
  }

  // rows: the answer as the percentiles query's columns (queryColumns' form;
  // with "columns" in the options, each pixel column's worst, made in core
  // of the matrix's rows) instead of the groups view's matrix.
  val query(const std::string& options_json, double columns, bool chosen, bool rows) {
    latscope::QueryOptions q;
    std::vector<std::string> labels;
    latscope::Unit unit = latscope::kDefaultUnit;
    std::string sla;
    std::vector<latscope::SlaFieldRule> rules;
    Status st = latscope::parse_query_options_json(options_json, &q, &labels, &unit, &sla);
    if (st.ok()) st = latscope::parse_sla_field(sla, latscope::unit_name(unit), &rules);
    if (!st.ok()) return error(st);
    if (!opened_) {
      missing_.clear();
      bool has = false;
      st = reader_.open(read_fn(), size_, &has);
      if (!missing_.empty()) return need();
      // A damaged matrix is named and the histograms answer, as the CLI's pctiles does.
      if (!st.ok()) broken_ = st.message;
      if (st.ok() && !has) broken_ = "no per-host matrix";
      if (broken_.empty()) {
        // The histograms' head: the matrix stands for them only on one bin layout (as the CLI's pctiles asks).
        latscope::ResultBlockReader hist;
        st = hist.open(read_fn(), size_);
        if (!missing_.empty()) return need();
        broken_ = st.ok() ? latscope::matrix_layouts_differ(hist.head()) : st.message;
      }
      opened_ = true;
    }
    if (!broken_.empty()) return refused(broken_);
    const latscope::MatrixPlan plan = latscope::plan_matrix_answer(reader_, q, chosen, static_cast<uint32_t>(columns));
    if (!plan.served) return refused(plan.why);
    missing_.clear();
    for (size_t b : plan.blocks) {
      const latscope::MatrixBlock& e = reader_.blocks()[b];
      const uint64_t at = reader_.block_at(b);
      if (!find(at, e.zlen)) missing_.push_back({at, e.zlen});
    }
    if (!missing_.empty()) return need();
    latscope::QueryResult r;
    if (rows) {
      if (!rules.empty()) return refused("SLA rules on the rows (the histograms judge them)");
      latscope_wasm::JsColumnsSink sink(labels, unit, false, false, q.columns > 0);
      st = latscope::answer_from_matrix(&reader_, plan, q, &sink, &r);
      for (size_t b : plan.blocks) held_.erase(reader_.block_at(b));
      if (!st.ok()) return refused(st.message);
      r.notes.push_back("answered from the per-host matrix (level " + latscope::quantum_text(r.quantum_ms) + " ms)");
      val out = val::object();
      out.set("meta", latscope::pctiles_meta_json(r, labels, unit));
      sink.finish(false, &out);
      return out;
    }
    latscope::ValueMatrixBuilder vb(labels.size(), unit);
    // SLA rules judged on the matrix's rows as queryMatrix judges the histograms' (the same rows).
    latscope::SlaFieldJudge judge(rules, q.percentiles, labels);
    judge.keep_marks();
    latscope::RowTee tee(&vb, &judge);
    st = latscope::answer_from_matrix(&reader_, plan, q, rules.empty() ? static_cast<latscope::RowSink*>(&vb) : &tee, &r);
    // The blocks are dropped once answered: the next range reads its own.
    for (size_t b : plan.blocks) held_.erase(reader_.block_at(b));
    if (!st.ok()) return refused(st.message);
    const latscope::ValueMatrix m = vb.take(r.groups.size(), &judge.marks(), judge.width());
    val out = val::object();
    if (!rules.empty()) {
      out.set("sla_marks", copy_to_js("Uint8Array", m.marks.data(), m.marks.size()));
      const uint64_t quanta = judge.quanta();
      out.set("sla", latscope::sla_field_json(judge.take(r.groups.size()), r.groups, r.quantum_ms, quanta));
    }
    r.notes.push_back("answered from the per-host matrix (level " + latscope::quantum_text(r.quantum_ms) + " ms)");
    out.set("meta", latscope::pctiles_meta_json(r, labels, unit));
    out.set("times", copy_to_js("Float64Array", m.times.data(), m.times.size()));
    out.set("values", copy_to_js("Float64Array", m.values.data(), m.values.size()));
    out.set("samples", copy_to_js("Float64Array", m.samples.data(), m.samples.size()));
    out.set("level_ms", r.quantum_ms);
    return out;
  }

 private:
  const std::vector<uint8_t>* find(uint64_t off, uint64_t n) const {
    auto it = held_.upper_bound(off);
    if (it == held_.begin()) return nullptr;
    --it;
    if (off - it->first + n > it->second.size()) return nullptr;
    return &it->second;
  }

  latscope::ReadAtFn read_fn() {
    return [this](uint64_t off, uint64_t n, std::vector<uint8_t>* out, std::string* why) {
      auto it = held_.upper_bound(off);
      if (it != held_.begin()) --it;
      if (it == held_.end() || it->first > off || off - it->first + n > it->second.size()) {
        missing_.push_back({off, n});
        *why = "bytes " + std::to_string(off) + "+" + std::to_string(n) + " not read yet";
        return false;
      }
      const auto at = static_cast<std::ptrdiff_t>(off - it->first);
      out->assign(it->second.begin() + at, it->second.begin() + at + static_cast<std::ptrdiff_t>(n));
      return true;
    };
  }

  val need() const {
    std::string t = "[";
    for (const auto& m : missing_)
      t += (t.size() > 1 ? "," : "") + std::string("[") + std::to_string(m.first) + "," + std::to_string(m.second) + "]";
    val out = val::object();
    out.set("need", t + "]");
    return out;
  }

  static val refused(const std::string& why) {
    val out = val::object();
    out.set("refused", why);
    return out;
  }

  uint64_t size_;
  bool opened_ = false;
  std::string broken_;  // why the matrix cannot answer at all (damaged, absent, layouts differ)
  latscope::MatrixReader reader_;
  std::map<uint64_t, std::vector<uint8_t>> held_;
  std::vector<std::pair<uint64_t, uint64_t>> missing_;
};

EMSCRIPTEN_BINDINGS(latscope) {
  emscripten::class_<WasmMatrixFile>("MatrixFile")
      .constructor<double>()
      .function("add", &WasmMatrixFile::add)
      .function("query", &WasmMatrixFile::query);

  emscripten::class_<WasmEngine>("Engine")
      .constructor<>()
      .function("openFile", &WasmEngine::openFile)
      .function("append", &WasmEngine::append)
      .function("finish", &WasmEngine::finish)
      .function("sources", &WasmEngine::sources)
      .function("assignRuns", &WasmEngine::assignRuns)
      .function("trust", &WasmEngine::trust)
      .function("defaultQuantum", &WasmEngine::defaultQuantum)
      .function("zoomQuantum", &WasmEngine::zoomQuantum)
      .function("compareRuns", &WasmEngine::compareRuns)
      .function("parsePercentiles", &WasmEngine::parsePercentiles)
      .function("parseSla", &WasmEngine::parseSla)
      .function("judgeSla", &WasmEngine::judgeSla)
      .function("query", &WasmEngine::query)
      .function("queryColumns", &WasmEngine::queryColumns)
      .function("queryMatrix", &WasmEngine::queryMatrix)
      .function("queryRowsBound", &WasmEngine::queryRowsBound)
      .function("pctilesCsv", &WasmEngine::pctilesCsv)
      .function("heatmap", &WasmEngine::heatmap)
      .function("heatmapCsv", &WasmEngine::heatmapCsv)
      .function("densityCell", &WasmEngine::densityCell)
      .function("exportSource", &WasmEngine::exportSource)
      .function("importSource", &WasmEngine::importSource)
      .function("encodeResult", &WasmEngine::encodeResult);
}
