// The line a reader of a line format carries from one append() to the next
// (lines may be split anywhere across appends), bounded: a line over the
// format's longest is reported once and dropped up to its newline, so a
// binary file or a log without newlines never grows the reader
// (docs/input-robustness.md, "Over-long lines").
#pragma once

#include <cstddef>
#include <string>

namespace latscope {

class LineCarry {
 public:
  explicit LineCarry(size_t max_line) : max_(max_line) {}

  // Nothing carried: the next bytes start a line.
  bool idle() const { return text_.empty() && !dropping_; }

  // [p, end) holds no newline: kept for the next append. too_long() once
  // when the line passes the longest.
  template <class TooLong>
  void keep(const char* p, const char* end, TooLong&& too_long) {
    if (dropping_) return;
    text_.append(p, static_cast<size_t>(end - p));
    if (text_.size() > max_) {
      too_long();
      text_.clear();
      dropping_ = true;
    }
  }

  // A newline at nl. When a line was carried, it ends here: line(b, e) on
  // the whole of it (too_long() instead when it passes the longest, nothing
  // when it was already reported), and true. False when nothing was
  // carried: [p, nl) is the caller's to read.
  template <class Line, class TooLong>
  bool end_line(const char* p, const char* nl, Line&& line, TooLong&& too_long) {
    if (dropping_) {
      dropping_ = false;  // the over-long line ends here; already reported
      return true;
    }
    if (text_.empty()) return false;
    text_.append(p, static_cast<size_t>(nl - p));
    if (text_.size() > max_) too_long();
    else line(text_.data(), text_.data() + text_.size());
    text_.clear();
    return true;
  }

  // At the end of the input: the last line if it had no newline.
  template <class Line>
  void finish(Line&& line) {
    if (!dropping_ && !text_.empty()) line(text_.data(), text_.data() + text_.size());
    text_.clear();
    dropping_ = false;
  }

 private:
  size_t max_;
  std::string text_;
  bool dropping_ = false;
};

}  // namespace latscope
