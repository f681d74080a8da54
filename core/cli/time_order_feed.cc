#include "time_order_feed.h"

#include <algorithm>
#include <deque>
#include <utility>

#include "file_lines.h"

namespace latscope::cli {

// Block read per step: about 400 HdrHistogram lines.
constexpr size_t kFeedBlock = size_t{256} << 10;
// Windows waiting with their bins, per file. A file that is not in time
// order (two logs concatenated) makes the sweep read far ahead for one
// series while the others wait: past this many, the waiting windows come
// without their bins (40 bytes each, as held) and the sweep reads those
// from their lines.
constexpr size_t kMostWaitingBins = 4096;

// The windows a file's reader hands on, per series, until the sweep takes
// them; windows of series no query reads are not kept.
struct TimeOrderFeed::Queues : WindowSink {
  std::vector<bool> wanted;
  struct Held {
    Window w;
    uint64_t line_at;
    WindowBins bins;
  };
  std::vector<std::deque<Held>> q;
  size_t with_bins = 0;  // windows waiting in q with their bins
  void window(size_t series, const Window& w, uint64_t line_at, const uint32_t* bins,
              const uint64_t* counts) override {
    if (series >= wanted.size() || !wanted[series]) return;
    // A window whose bins are not on a line keeps them whatever the count.
    if (with_bins < kMostWaitingBins || line_at == Series::kBinsInData) {
      q[series].push_back(Held{w, line_at, WindowBins{{bins, bins + w.n}, {counts, counts + w.n}}});
      if (w.n) ++with_bins;
    } else {
      q[series].push_back(Held{w, line_at, {}});
    }
  }
};

TimeOrderFeed::~TimeOrderFeed() {
  for (auto& kv : files_)
    if (kv.second.f) std::fclose(kv.second.f);
}

void TimeOrderFeed::want(const Source& src, size_t series) {
  File& f = files_[src.name];
  f.left = src.bytes;
  if (!f.queues) f.queues = std::make_shared<Queues>();
  if (f.queues->wanted.size() <= series) {
    f.queues->wanted.resize(series + 1, false);
    f.queues->q.resize(series + 1);
  }
  f.queues->wanted[series] = true;
}

bool TimeOrderFeed::read_block(const std::string& name, File* f) {
  if (f->done) return false;
  if (!f->engine) {
    f->f = std::fopen(name.c_str(), "rb");
    if (!f->f) {
      status_ = Status::Error(ErrorCode::kUnusableFile, name + ": cannot be opened again to read its windows in time order");
      f->done = true;
      return false;
    }
    FileOptions o = fopts_;
    o.reread = FileLines::for_plain_file(name, false);
    o.hand_on = f->queues;
    f->engine = std::make_unique<Engine>();
    f->handle = f->engine->open_file(name, o);
  }
  buf_.resize(kFeedBlock);
  const size_t n = std::fread(buf_.data(), 1, static_cast<size_t>(std::min<uint64_t>(buf_.size(), f->left)), f->f);
  if (n > 0) {
    f->left -= n;
    f->engine->append(f->handle, buf_.data(), n);
    return true;
  }
  if (std::ferror(f->f)) status_ = Status::Error(ErrorCode::kUnusableFile, name + ": read error on reading it again");
  f->engine->finish(f->handle);  // the last windows are handed on
  std::fclose(f->f);
  f->f = nullptr;
  f->engine.reset();
  f->done = true;
  return true;
}

bool TimeOrderFeed::more(const Source& src, size_t series, double until_ms, std::vector<Window>* w,
                         std::vector<uint64_t>* line_at, std::vector<WindowBins>* bins) {
  const auto it = files_.find(src.name);
  if (it == files_.end() || series >= it->second.queues->q.size()) return false;
  File& f = it->second;
  std::deque<Queues::Held>& q = f.queues->q[series];
  while (status_.ok() && (q.empty() || q.back().w.start_ms < until_ms))
    if (!read_block(src.name, &f)) break;
  if (q.empty()) return false;
  for (Queues::Held& h : q) {
    w->push_back(h.w);
    line_at->push_back(h.line_at);
    if (h.w.n && h.bins.bins.size() == h.w.n) --f.queues->with_bins;
    bins->push_back(std::move(h.bins));
  }
  q.clear();
  return true;
}

}  // namespace latscope::cli
