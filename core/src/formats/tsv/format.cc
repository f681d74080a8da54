// The long table (TSV, docs/export-formats.md) in the registry: sniffed by
// its header row, parsed row by row (tsv_table.h) into a Result, then read
// like a result file (formats/result/result_source.h).
#include "formats/result/result_source.h"
#include "formats/sniff_util.h"
#include "formats/tsv/tsv_table.h"
#include "latscope/engine.h"
#include "latscope/reader.h"

namespace latscope {
namespace {

SniffResult sniff_tsv(const SniffInput& in) {
  SniffResult r{FileFormat::kTsv, 0, "latscope long table (TSV)"};
  const std::vector<std::string_view> ls = sniffing::lines(in, 1);
  if (!ls.empty() && tsv::is_header(ls[0])) r.confidence = 99;
  return r;
}

class TsvReader : public Reader {
 public:
  explicit TsvReader(Source src) : src_(std::move(src)) {}
  void append(const char* data, size_t n) override {
    src_.bytes += n;
    parser_.append(data, n);
  }
  Source finish() override {
    src_.format = FileFormat::kTsv;
    Result r;
    const Status st = parser_.finish(&r);
    src_.lines = parser_.lines();
    src_.diag.merge(parser_.diagnostics());
    if (!st.ok()) {
      src_.status = Status::Error(ErrorCode::kUnusableFile, src_.name + ":" + st.message);
      return std::move(src_);
    }
    result_to_source(r, &src_);
    return std::move(src_);
  }

 private:
  Source src_;
  tsv::TableParser parser_;
};

std::unique_ptr<Reader> create_tsv(Source src, const FileOptions& /*opts*/) {
  return std::make_unique<TsvReader>(std::move(src));
}

}  // namespace

FormatEntry tsv_format() { return {FileFormat::kTsv, &sniff_tsv, &create_tsv}; }

}  // namespace latscope
