// Readers and the one registry that picks them (docs/formats.md).
//
//   name + first bytes ──sniff()──> best FormatEntry ──create(Source)──> Reader
//   Reader::append(bytes)*  (owns its Source)  Reader::finish() ──> Source
//
// Every format lives in its own folder under core/src/formats/<format>/ and
// registers one FormatEntry: a content sniff over a bounded look-ahead (plus
// the file name, as speedscope and Perfetto do) and a factory. A reader owns
// the Source it fills until finish() moves it out, so no reader ever points
// into the engine's storage. The CLI, the engine and the page all call the
// same sniff().
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "latscope/model.h"

namespace latscope {

struct FileOptions;

// How many leading bytes (of the decompressed stream) a sniff looks at.
// Enough for several fio histogram lines (one is ~6 KB) and any header.
constexpr size_t kSniffBytes = size_t{64} << 10;
// The engine reads on past kSniffBytes until the look-ahead holds
// kSniffLines line ends, up to kMaxSniffBytes: a junk first line of 60 KB
// left no whole log line in 64 KiB, and a valid log was passed over as text
// (docs/input-robustness.md, "A damaged first line").
constexpr size_t kSniffLines = 2;
constexpr size_t kMaxSniffBytes = size_t{1} << 20;

struct SniffInput {
  std::string name;  // file name or path as given (may be empty)
  const char* data = nullptr;
  size_t n = 0;        // kSniffBytes, or up to kMaxSniffBytes when its first lines are longer
  bool complete = false;  // data is the whole file
};

// A format's verdict on some bytes. confidence 0 = not this format; 100 =
// certain. `what` names what the bytes look like (shown for ignored files).
struct SniffResult {
  FileFormat format = FileFormat::kUnknown;
  int confidence = 0;
  std::string what;
};

class Reader {
 public:
  virtual ~Reader() = default;
  // The next bytes of the (decompressed) file; any chunking gives the same result.
  virtual void append(const char* data, size_t n) = 0;
  // Ends the file and hands over its Source (status, series, diagnostics).
  virtual Source finish() = 0;
};

struct FormatEntry {
  FileFormat format;
  SniffResult (*sniff)(const SniffInput& in);
  // src carries name, identity and labels; the reader fills the rest.
  std::unique_ptr<Reader> (*create)(Source src, const FileOptions& opts);
};

// Every registered format, in registration order (formats/registry.cc).
const std::vector<FormatEntry>& registered_formats();

// The best format for these bytes: the highest confidence over the registry.
// With no format above 0: kIgnored with what the bytes look like ("text",
// "binary data", "fio job file") when there is enough to judge, kUnknown when
// the bytes are all blank and more may come.
SniffResult sniff(const SniffInput& in);

// What a file name promises ("a fio histogram log", "an HdrHistogram interval
// log", "a fio per-I/O latency log"), or "" when it promises no log. A file
// so named whose content no reader claims is a broken log, not an ignored file.
std::string name_claims_log(const std::string& name);

// Why a 0-byte file is ignored, for what its name claims: "empty file", or
// the empty log fio (or an HdrHistogram writer) leaves, with the reason that
// fits the name (docs/folders.md, "Empty logs").
std::string empty_log_reason(const std::string& name);

// What sniff says of zlib data (a stream's two-byte header, RFC 1950).
constexpr const char* kZlibData = "zlib data";
// Why a file fio wrote with log_store_compressed=1 (NAME.log.fz: zlib
// streams of fio's in-memory samples, not text) is not read, and what gives a
// log that is (docs/folders.md, "Compressed fio logs"); "" when `name` (the
// file sniffed as `what`) is no such file.
std::string stored_compressed_message(const std::string& name, const std::string& what);

// A reader for a format (forced or sniffed); nullptr for kUnknown/kIgnored.
std::unique_ptr<Reader> create_reader(FileFormat f, Source src, const FileOptions& opts);

}  // namespace latscope
