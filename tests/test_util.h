// Small helpers for engine unit tests: feed text in chunks, build logs.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "latscope/engine.h"

namespace latscope::testing {

// Feeds text to a new file of the engine in chunks of `chunk` bytes (0: whole).
inline const Source& feed(Engine* e, const std::string& name, const std::string& text, size_t chunk = 0,
                          const FileOptions& opts = {}) {
  const int h = e->open_file(name, opts);
  if (chunk == 0) chunk = text.size() ? text.size() : 1;
  for (size_t i = 0; i < text.size(); i += chunk)
    e->append(h, text.data() + i, std::min(chunk, text.size() - i));
  return e->finish(h);
}

// The CLI's FileLines over a string (FileOptions::reread): a line from its
// byte offset; reads counts them.
class TextLines : public LineReader {
 public:
  explicit TextLines(const std::string* text) : text_(text) {}
  bool line(uint64_t at, std::string* out) override {
    if (at >= text_->size()) return false;
    const auto from = static_cast<size_t>(at);
    const size_t nl = text_->find('\n', from);
    *out = text_->substr(from, nl == std::string::npos ? std::string::npos : nl - from);
    ++reads;
    return true;
  }
  size_t reads = 0;

 private:
  const std::string* text_;
};

// One fio 3 histogram line with the given non-zero bins (columns = 1856 >> c).
// A bin past the line's columns is a test's mistake and fails that test: the
// write past `v` once landed, silently, in another test's heap block (the
// WebAssembly suite's cached fio layouts; docs/formats.md, "Reading fio
// histogram lines fast").
inline std::string hist_line(uint64_t t, int dir, const std::vector<std::pair<size_t, uint64_t>>& bins,
                             int coarseness = 0) {
  std::vector<uint64_t> v(1856u >> coarseness, 0);
  for (auto& b : bins) {
    if (b.first >= v.size()) {
      ADD_FAILURE() << "hist_line: bin " << b.first << " past the line's " << v.size() << " columns";
      continue;
    }
    v[b.first] += b.second;
  }
  std::string s = std::to_string(t) + ", " + std::to_string(dir) + ", 4096";
  for (uint64_t x : v) s += ", " + std::to_string(x);
  return s + "\n";
}

}  // namespace latscope::testing
