// The second pass of the fold in time order (docs/quanta.md, "Memory:
// windows read twice"): the windows of HdrHistogram log files whose first
// pass kept a digest, read again from each file as the sweep reaches them.
#pragma once

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "latscope/engine.h"

namespace latscope::cli {

class TimeOrderFeed : public WindowFeed {
 public:
  // fopts: the options the files were first read with.
  explicit TimeOrderFeed(const FileOptions& fopts) : fopts_(fopts) {}
  ~TimeOrderFeed() override;
  TimeOrderFeed(const TimeOrderFeed&) = delete;
  TimeOrderFeed& operator=(const TimeOrderFeed&) = delete;
  void want(const Source& src, size_t series) override;
  bool more(const Source& src, size_t series, double until_ms, std::vector<Window>* w,
            std::vector<uint64_t>* line_at, std::vector<WindowBins>* bins) override;
  Status status() const override { return status_; }

 private:
  struct Queues;
  struct File {
    std::FILE* f = nullptr;
    std::unique_ptr<Engine> engine;
    int handle = -1;
    std::shared_ptr<Queues> queues;
    // Bytes still to read: those of the first reading (Source::bytes), so a
    // log still being written is read again as it was then.
    uint64_t left = 0;
    bool done = false;
  };
  // Reads f's next block into its queues; false at its end.
  bool read_block(const std::string& name, File* f);
  FileOptions fopts_;
  std::map<std::string, File> files_;  // by Source::name, the path read
  std::vector<char> buf_;
  Status status_;
};

}  // namespace latscope::cli
