#include "file_lines.h"

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <string_view>

namespace latscope::cli {
namespace {

// Each slice of the fold by quanta reads a few of a file's lines: one
// block holds them (an .hlog line is ~600 bytes) so the file is read in
// order about once.
constexpr size_t kBlock = size_t{256} << 10;
// A line past this is not read again (hdr::LogOptions::max_line_bytes).
constexpr size_t kMaxLine = size_t{256} << 20;
// Files kept open between reads; past it each read opens and closes its
// file, so thousands of held logs never run out of descriptors.
constexpr int kMaxOpen = 64;
std::atomic<int> open_files{0};

}  // namespace

FileLines::~FileLines() { close(); }

void FileLines::close() {
  if (!f_) return;
  std::fclose(f_);
  f_ = nullptr;
  --open_files;
}

std::shared_ptr<LineReader> FileLines::for_plain_file(const std::string& path, bool gzip) {
  struct stat st{};
  if (gzip || path == "-" || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return nullptr;
  return std::make_shared<FileLines>(path);
}

bool FileLines::load(uint64_t at, size_t n) {
  if (!f_) {
    f_ = std::fopen(path_.c_str(), "rb");
    if (!f_) return false;
    ++open_files;
  }
  buf_.resize(n);
  const bool ok = fseeko(f_, static_cast<off_t>(at), SEEK_SET) == 0;
  const size_t got = ok ? std::fread(&buf_[0], 1, n, f_) : 0;
  const bool failed = !ok || std::ferror(f_);
  buf_.resize(got);
  at_ = at;
  end_ = got < n;
  if (open_files > kMaxOpen) close();
  return !failed;
}

bool FileLines::line(uint64_t at, std::string* out) {
  size_t want = kBlock;
  for (;;) {
    if (at >= at_ && at - at_ <= buf_.size() && !(buf_.empty() && !end_)) {
      const size_t from = static_cast<size_t>(at - at_);
      const char* b = buf_.data() + from;
      const size_t left = buf_.size() - from;
      const size_t nl = std::string_view(b, left).find('\n');
      if (nl != std::string_view::npos) {
        out->assign(b, nl);
        return true;
      }
      if (end_) {  // the last line, without '\n'
        out->assign(b, left);
        return left > 0;
      }
      want = std::max(want, 2 * left);
    }
    if (want > kMaxLine || !load(at, want)) return false;
  }
}

}  // namespace latscope::cli
