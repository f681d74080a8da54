// Lines of a plain file read again from their byte offsets (model.h
// LineReader): what lets a parsed HdrHistogram log keep where each window's
// line is instead of its bins (docs/quanta.md, "Memory: the fold by quanta").
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "latscope/model.h"

namespace latscope::cli {

class FileLines : public LineReader {
 public:
  explicit FileLines(std::string path) : path_(std::move(path)) {}
  ~FileLines() override;
  FileLines(const FileLines&) = delete;
  FileLines& operator=(const FileLines&) = delete;

  bool line(uint64_t at, std::string* out) override;

  // A reader for path when it is a regular file of plain text (gzip and
  // standard input cannot be read again from an offset): null otherwise.
  static std::shared_ptr<LineReader> for_plain_file(const std::string& path, bool gzip);

 private:
  bool load(uint64_t at, size_t n);
  void close();
  std::string path_;
  std::FILE* f_ = nullptr;
  std::string buf_;  // the file's bytes from at_
  uint64_t at_ = 0;
  bool end_ = false;  // buf_ reaches the end of the file
};

}  // namespace latscope::cli
