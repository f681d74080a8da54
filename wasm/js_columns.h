// The percentiles query's columns written into JS typed arrays a chunk of
// rows at a time (bindings.cc queryColumns). Built whole in the
// WebAssembly heap first, the per-host answer of 200 hosts at 1 s grew the
// heap by 155 MB, which it never gives back, and faulted every page of it in
// before the same bytes were copied out again (docs/page-speed.md "Fresh
// memory"). Here the builder holds one chunk, reused, and each column is a
// resizable ArrayBuffer reserved at the engine's bound on rows
// (RowSink::expect) and grown as chunks are written, so the answer's arrays
// end at their exact length and the worker transfers them whole.
#pragma once

#include <emscripten/val.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "latscope/report.h"

namespace latscope_wasm {

class JsColumnsSink : public latscope::RowSink {
 public:
  // widths: the query has adaptive quanta (only those rows have widths).
  // bands false: err, lo, hi are left out (QueryOptions::bands), empty arrays.
  // columns: the rows are pixel columns' (QueryOptions::columns), each
  // value naming its quantum (value_t_ms).
  JsColumnsSink(std::vector<std::string> labels, latscope::Unit unit, bool widths, bool bands, bool columns = false)
      : widths_(widths), columns_(columns), np_(labels.size()), b_(std::move(labels), unit, bands) {
    b_.expect(kChunkRows);
    // Browsers without resizable ArrayBuffers (before Chrome 111, Firefox
    // 128, Safari 16.4) get fixed buffers, copied to their length at the end.
    resizable_ = !emscripten::val::global("ArrayBuffer")["prototype"]["resize"].isUndefined();
  }

  void expect(size_t rows) override { reserve(std::min(rows, kMaxReservedRows)); }

  bool wants_bands() const override { return b_.wants_bands(); }
  void add(const latscope::Row& row) override {
    b_.add(row);
    if (b_.rows().t_ms.size() >= kChunkRows) flush();
  }

  // Writes what is left; `out` gets every column under its name (width_ms
  // empty unless the rows are adaptive quanta), and flag_texts as JSON text.
  // adaptive: the result's (QueryResult::adaptive).
  void finish(bool adaptive, emscripten::val* out) {
    flush();
    for (Column& c : cols_) {
      if (!used(c) || (c.f64 == &latscope::PctilesColumns::width_ms && !adaptive)) {
        out->set(c.key, emscripten::val::global("Float64Array").new_(0));
        continue;
      }
      if (c.buffer.isUndefined()) reserve_column(&c, 0);
      emscripten::val all = emscripten::val::global(c.ctor).new_(c.buffer, 0, c.items);
      out->set(c.key, resizable_ ? all : all.call<emscripten::val>("slice"));
    }
    std::string texts = "[";
    for (const std::string& t : b_.rows().flag_texts) texts += (texts.size() > 1 ? "," : "") + latscope::json_escape(t);
    out->set("flag_texts", texts + "]");
  }

 private:
  // 8,192 rows of 5 percentiles: 0.4 MB of heap, used again for every chunk.
  static constexpr size_t kChunkRows = 8192;
  // A bound beyond this many rows, or a column beyond this many values
  // (256 MB of doubles), is reserved as it is reached: hostile time ranges
  // give loose bounds (the reservation is address space, not memory).
  static constexpr size_t kMaxReservedRows = size_t{1} << 22;
  static constexpr size_t kMaxReservedItems = size_t{1} << 25;

  using F64 = std::vector<double> latscope::PctilesColumns::*;
  using U32 = std::vector<uint32_t> latscope::PctilesColumns::*;

  // One JS column and the builder's vector it is filled from (f64 or u32).
  struct Column {
    const char* key;
    F64 f64;
    U32 u32;
    size_t per_row;           // values per row: 1, or the percentiles
    const char* ctor = f64 ? "Float64Array" : "Uint32Array";
    size_t size = f64 ? 8 : 4;
    emscripten::val buffer = emscripten::val::undefined();  // until reserved
    size_t max_items = 0;     // the buffer's room (maxByteLength) in items
    size_t items = 0;         // items written
  };

  // width_ms is only filled for adaptive quanta, err, lo, hi only with bands.
  bool used(const Column& c) const {
    if (c.f64 == &latscope::PctilesColumns::width_ms) return widths_;
    if (c.f64 == &latscope::PctilesColumns::value_t_ms) return columns_;
    if (c.f64 == &latscope::PctilesColumns::err || c.f64 == &latscope::PctilesColumns::lo ||
        c.f64 == &latscope::PctilesColumns::hi)
      return b_.wants_bands();
    return true;
  }

  template <typename T>
  void write(Column* c, const std::vector<T>& v) {
    if (v.empty()) return;
    const size_t need = c->items + v.size();
    if (need > c->max_items) reserve_column(c, std::max(need, 2 * c->max_items));
    if (resizable_) c->buffer.call<void>("resize", need * sizeof(T));
    emscripten::val view = emscripten::val::global(c->ctor).new_(c->buffer, c->items * sizeof(T), v.size());
    view.call<void>("set", emscripten::val(emscripten::typed_memory_view(v.size(), v.data())));
    c->items = need;
  }

  void flush() {
    const latscope::PctilesColumns& r = b_.rows();
    for (Column& c : cols_) {
      if (!used(c)) continue;
      if (c.f64) write(&c, r.*c.f64);
      else write(&c, r.*c.u32);
    }
    b_.clear_rows();
  }

  void reserve(size_t rows) {
    for (Column& c : cols_) {
      const size_t items = std::min(rows * c.per_row, kMaxReservedItems);
      if (used(c) && items > c.max_items) reserve_column(&c, items);
    }
  }

  // A new buffer of max_items (the written items copied over: only when
  // the engine's bound was passed).
  void reserve_column(Column* c, size_t max_items) {
    emscripten::val opts = emscripten::val::object();
    opts.set("maxByteLength", max_items * c->size);
    emscripten::val fresh = resizable_ ? emscripten::val::global("ArrayBuffer").new_(c->items * c->size, opts)
                                       : emscripten::val::global("ArrayBuffer").new_(max_items * c->size);
    if (c->items) {
      emscripten::val to = emscripten::val::global("Uint8Array").new_(fresh);
      to.call<void>("set", emscripten::val::global("Uint8Array").new_(c->buffer, 0, c->items * c->size));
    }
    c->buffer = fresh;
    c->max_items = max_items;
  }

  bool widths_;
  bool columns_;
  bool resizable_ = true;
  size_t np_;
  latscope::PctilesColumnsBuilder b_;
  Column cols_[13] = {
      {"t_ms", &latscope::PctilesColumns::t_ms, nullptr, 1},
      {"width_ms", &latscope::PctilesColumns::width_ms, nullptr, 1},
      {"samples", &latscope::PctilesColumns::samples, nullptr, 1},
      {"min", &latscope::PctilesColumns::min, nullptr, 1},
      {"mean", &latscope::PctilesColumns::mean, nullptr, 1},
      {"max", &latscope::PctilesColumns::max, nullptr, 1},
      {"p", &latscope::PctilesColumns::p, nullptr, np_},
      {"err", &latscope::PctilesColumns::err, nullptr, np_},
      {"lo", &latscope::PctilesColumns::lo, nullptr, np_},
      {"hi", &latscope::PctilesColumns::hi, nullptr, np_},
      {"value_t_ms", &latscope::PctilesColumns::value_t_ms, nullptr, np_ + 3},
      {"group", nullptr, &latscope::PctilesColumns::group, 1},
      {"flag", nullptr, &latscope::PctilesColumns::flag, 1},
  };
};

}  // namespace latscope_wasm
