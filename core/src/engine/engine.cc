#include "latscope/engine.h"

#include <cctype>

#include "formats/fio_hist/fio_hist_reader.h"

namespace latscope {

// A file being read: the format is chosen from its first non-blank byte.
struct Engine::Pending {
  FileOptions opts;
  std::unique_ptr<FioHistReader> hist;
  std::string text;      // whole-document formats (fio json) are buffered
  bool decided = false;
  bool finished = false;
};

namespace {
constexpr size_t kMaxJsonBytes = size_t{256} << 20;
}

FileFormat sniff_format(const char* data, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const unsigned char c = static_cast<unsigned char>(data[i]);
    if (std::isspace(c)) continue;
    return (std::isdigit(c) || c < 0x20 || c >= 0x7f) ? FileFormat::kFioHist : FileFormat::kFioJson;
  }
  return FileFormat::kUnknown;
}

Engine::Engine() = default;
Engine::~Engine() = default;

int Engine::open_file(const std::string& name, const FileOptions& opts) {
  Source s;
  s.name = name;
  s.id = parse_fio_file_name(name);
  if (!opts.host.empty()) s.id.host = opts.host;
  if (!opts.job.empty()) s.id.job = opts.job;
  sources_.push_back(std::move(s));
  auto p = std::make_unique<Pending>();
  p->opts = opts;
  pending_.push_back(std::move(p));
  return static_cast<int>(sources_.size() - 1);
}

void Engine::append(int h, const char* data, size_t n) {
  if (h < 0 || static_cast<size_t>(h) >= pending_.size() || !pending_[h] || pending_[h]->finished) return;
  Pending& p = *pending_[h];
  Source& src = sources_[h];
  if (!p.decided) {
    FileFormat f = p.opts.format;
    if (f == FileFormat::kUnknown) f = sniff_format(data, n);
    if (f != FileFormat::kUnknown) {
      p.decided = true;
      src.format = f;
      if (f == FileFormat::kFioHist) p.hist = std::make_unique<FioHistReader>(&src, p.opts);
      if (!p.text.empty()) {  // leading blanks seen before deciding
        std::string head;
        head.swap(p.text);
        if (p.hist) p.hist->append(head.data(), head.size());
        else p.text = head;
      }
    } else {
      p.text.append(data, n);  // only blanks so far
      return;
    }
  }
  if (p.hist) {
    p.hist->append(data, n);
  } else {
    src.bytes += n;
    if (p.text.size() + n <= kMaxJsonBytes) p.text.append(data, n);
    else if (src.status.ok())
      src.status = Status::Error(ErrorCode::kUnusableFile,
                                 src.name + ": larger than 256 MiB for a JSON document; not read");
  }
}

Status read_fio_json_source(const std::string& text, Source* src);  // formats/fio_json

const Source& Engine::finish(int h) {
  static const Source kNone;
  if (h < 0 || static_cast<size_t>(h) >= pending_.size() || !pending_[h]) return kNone;
  Pending& p = *pending_[h];
  Source& src = sources_[h];
  if (!p.finished) {
    p.finished = true;
    if (p.hist) {
      p.hist->finish();
    } else if (!src.status.ok()) {
      // already unusable
    } else if (!p.decided) {
      src.status = Status::Error(ErrorCode::kUnusableFile,
                                 src.name + (src.bytes || !p.text.empty() ? ": only blank characters"
                                                                          : ": empty file (0 bytes)") +
                                     "; nothing to read");
    } else {
      src.bytes = p.text.size();
      Status st = read_fio_json_source(p.text, &src);
      if (!st.ok()) src.status = st;
    }
    pending_[h].reset();
  }
  return src;
}

int Engine::add_source(Source src) {
  sources_.push_back(std::move(src));
  pending_.push_back(nullptr);
  return static_cast<int>(sources_.size() - 1);
}

}  // namespace latscope
