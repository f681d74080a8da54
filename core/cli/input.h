// One CLI input: a file, or standard input for "-", plain text or gzip,
// read in chunks (docs/input-robustness.md, "gzip" and "Standard input").
//
//   Input in;  in.open(path, &err);  in.peek(n)*;  in.read(buf, n)* until 0;
//   in.problem(): what went wrong and what was kept; in.level(): exit share
//
// gzip is recognised by its magic bytes (1f 8b), not by the name, and
// inflated with zlib's inflate directly so that each outcome has its own
// words: several members one after another (cat a.gz b.gz, pigz, bgzip) are
// one text; a stream cut short, a CRC or length mismatch, damaged deflate
// data and bytes after the last member are each reported once, naming how
// many bytes of text were read and used. A file named .gz that holds no
// gzip data is read as plain text, with a note saying so.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace latscope::cli {

// How a whole input went: kOk read whole; kDamaged part of it was used
// (exit 1); kUnusable nothing usable came out of it (exit 2).
enum class InputLevel { kOk = 0, kDamaged = 1, kUnusable = 2 };

class Input {
 public:
  Input() = default;
  ~Input();
  Input(const Input&) = delete;
  Input& operator=(const Input&) = delete;

  // "-" is standard input. False with *err ("cannot open: ...") on failure.
  bool open(const std::string& path, std::string* err);
  // The name shown for the input: the path, or "(stdin)" for "-".
  const std::string& name() const { return name_; }
  // The first bytes of text (up to n) without consuming them.
  const std::string& peek(size_t n);
  // Up to n bytes of text; 0 at the end of the input or after a problem.
  size_t read(char* buf, size_t n);

  bool gzip() const { return gzip_; }
  uint64_t text_bytes() const { return text_bytes_; }
  InputLevel level() const { return level_; }
  // After read() returned 0: "" when all went well, else one sentence
  // naming what went wrong and what was kept.
  const std::string& problem() const { return problem_; }
  // A remark that changes nothing read ("named .gz but holds no gzip data").
  const std::string& note() const { return note_; }

 private:
  size_t read_raw(char* buf, size_t n);      // text before any peeked bytes
  size_t inflate_some(char* buf, size_t n);  // gzip: next text bytes
  bool fill();                               // more compressed bytes; false at EOF
  void fail(InputLevel level, const std::string& what);
  void trailing_junk(uint64_t text);

  std::string name_;
  FILE* f_ = nullptr;
  bool own_ = false;  // f_ is ours to close (not stdin)
  bool gzip_ = false;
  bool done_ = false;
  std::string head_;  // peeked text not yet returned by read()
  size_t head_pos_ = 0;
  // gzip state
  z_stream z_{};
  bool z_init_ = false;
  bool in_member_ = false;  // inside a member: EOF here means truncation
  unsigned members_ = 0;
  std::vector<unsigned char> in_;
  uint64_t in_bytes_ = 0;    // compressed bytes read from the file
  uint64_t text_bytes_ = 0;  // text bytes handed out (peeked or read)
  InputLevel level_ = InputLevel::kOk;
  std::string problem_, note_;
};

}  // namespace latscope::cli
