// A Reader (reader.h) around a line parser that fills a Source it is given by
// pointer (fio_hist, fio_lat): the adapter owns the Source until finish()
// moves it out, so the parser never points into the engine's storage.
#pragma once

#include <memory>
#include <utility>

#include "latscope/engine.h"
#include "latscope/reader.h"

namespace latscope {

template <class Parser>
class OwningReader : public Reader {
 public:
  OwningReader(Source src, const FileOptions& opts) : src_(std::move(src)), parser_(&src_, opts) {}
  void append(const char* data, size_t n) override { parser_.append(data, n); }
  Source finish() override {
    parser_.finish();
    return std::move(src_);
  }

 private:
  Source src_;     // owned until finish(); parser_ points at it
  Parser parser_;  // declared after src_: constructed with its address
};

template <class Parser>
std::unique_ptr<Reader> create_owning_reader(Source src, const FileOptions& opts) {
  return std::make_unique<OwningReader<Parser>>(std::move(src), opts);
}

}  // namespace latscope
