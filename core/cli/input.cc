#include "input.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace latscope::cli {
namespace {

constexpr size_t kInChunk = size_t{1} << 20;

bool ends_with_gz(const std::string& path) {
  return path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
}

std::string bytes(uint64_t n) { return std::to_string(n) + (n == 1 ? " byte" : " bytes"); }

}  // namespace

Input::~Input() {
  if (z_init_) inflateEnd(&z_);
  if (f_ && own_) std::fclose(f_);
}

bool Input::open(const std::string& path, std::string* err) {
  if (path == "-") {
    name_ = "(stdin)";
    f_ = stdin;
  } else {
    name_ = path;
    f_ = std::fopen(path.c_str(), "rb");
    if (!f_) {
      *err = "cannot open: " + std::string(std::strerror(errno));
      return false;
    }
    own_ = true;
  }
  in_.resize(kInChunk);
  z_.next_in = in_.data();
  z_.avail_in = 0;
  fill();
  gzip_ = z_.avail_in >= 2 && in_[0] == 0x1f && in_[1] == 0x8b;
  if (!gzip_ && ends_with_gz(path) && z_.avail_in > 0)
    note_ = "named .gz but holds no gzip data: read as plain text";
  if (gzip_) {
    // 16 + MAX_WBITS: gzip wrapper only (a zlib or raw stream is no .gz).
    if (inflateInit2(&z_, 16 + MAX_WBITS) != Z_OK) {
      *err = "zlib initialisation failed";
      return false;
    }
    z_init_ = true;
    in_member_ = true;
    members_ = 1;
  }
  return true;
}

// Appends compressed (or plain) bytes after the unread ones; false at EOF.
bool Input::fill() {
  if (z_.avail_in > 0 && z_.next_in != in_.data()) std::memmove(in_.data(), z_.next_in, z_.avail_in);
  z_.next_in = in_.data();
  if (z_.avail_in >= in_.size()) return true;
  const size_t got = std::fread(in_.data() + z_.avail_in, 1, in_.size() - z_.avail_in, f_);
  in_bytes_ += got;
  z_.avail_in += static_cast<uInt>(got);
  return got > 0;
}

void Input::fail(InputLevel level, const std::string& what) {
  done_ = true;
  level_ = std::max(level_, level);
  if (problem_.empty()) problem_ = what;
}

const std::string& Input::peek(size_t n) {
  if (head_pos_ > 0) {
    head_.erase(0, head_pos_);
    head_pos_ = 0;
  }
  std::vector<char> buf(std::min<size_t>(n, kInChunk));
  while (head_.size() < n) {
    const size_t got = read_raw(buf.data(), std::min(buf.size(), n - head_.size()));
    if (got == 0) break;
    head_.append(buf.data(), got);
  }
  return head_;
}

size_t Input::read(char* buf, size_t n) {
  if (head_pos_ < head_.size()) {
    const size_t k = std::min(n, head_.size() - head_pos_);
    std::memcpy(buf, head_.data() + head_pos_, k);
    head_pos_ += k;
    if (head_pos_ == head_.size()) {
      std::string().swap(head_);
      head_pos_ = 0;
    }
    return k;
  }
  return read_raw(buf, n);
}

size_t Input::read_raw(char* buf, size_t n) {
  if (done_ || n == 0) return 0;
  size_t got = 0;
  if (!gzip_) {
    if (z_.avail_in > 0) {  // the bytes read to look for the gzip magic
      got = std::min<size_t>(n, z_.avail_in);
      std::memcpy(buf, z_.next_in, got);
      z_.next_in += got;
      z_.avail_in -= static_cast<uInt>(got);
    } else {
      got = std::fread(buf, 1, n, f_);
      if (got == 0) {
        if (std::ferror(f_)) fail(text_bytes_ ? InputLevel::kDamaged : InputLevel::kUnusable,
                                  "read error: " + std::string(std::strerror(errno)) + "; the " +
                                      bytes(text_bytes_) + " read before it are used");
        done_ = true;
      }
    }
  } else {
    got = inflate_some(buf, n);
  }
  text_bytes_ += got;
  return got;
}

// Text from the gzip stream; members follow each other (RFC 1952 2.2).
size_t Input::inflate_some(char* buf, size_t n) {
  const uInt cap = static_cast<uInt>(std::min<size_t>(n, size_t{1} << 30));
  z_.next_out = reinterpret_cast<Bytef*>(buf);
  z_.avail_out = cap;
  while (z_.avail_out == cap && !done_) {
    if (z_.avail_in == 0 && !fill()) {
      if (std::ferror(f_)) {
        fail(InputLevel::kDamaged, "read error: " + std::string(std::strerror(errno)));
      } else if (in_member_) {
        const uint64_t text = text_bytes_ + (cap - z_.avail_out);
        fail(text ? InputLevel::kDamaged : InputLevel::kUnusable,
             "gzip stream truncated after " + bytes(in_bytes_) + " of compressed data (member " +
                 std::to_string(members_) +
                 " has no end); " +
                 (text ? "the " + bytes(text) + " of text read are used" : std::string("no text could be read")));
      }
      done_ = true;
      break;
    }
    const int rc = inflate(&z_, Z_NO_FLUSH);
    if (rc == Z_STREAM_END) {
      in_member_ = false;
      // Another member, junk, or the end of the file.
      if (z_.avail_in < 2) fill();
      if (z_.avail_in == 0) {
        done_ = true;
      } else if (z_.avail_in >= 2 && z_.next_in[0] == 0x1f && z_.next_in[1] == 0x8b) {
        inflateReset(&z_);
        in_member_ = true;
        ++members_;
      } else {
        trailing_junk(text_bytes_ + (cap - z_.avail_out));
      }
    } else if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT || rc == Z_STREAM_ERROR || rc == Z_MEM_ERROR) {
      const std::string why = z_.msg ? z_.msg : "invalid data";
      const uint64_t text = text_bytes_ + (cap - z_.avail_out);
      const bool check = why == "incorrect data check" || why == "incorrect length check";
      const uint64_t at = in_bytes_ - z_.avail_in;
      if (text == 0)
        fail(InputLevel::kUnusable, "not a valid gzip stream (" + why + " at compressed byte " +
                                        std::to_string(at) + "); nothing read");
      else if (check)
        fail(InputLevel::kDamaged, "gzip member " + std::to_string(members_) + " fails its " +
                                       (why == "incorrect data check" ? "CRC-32" : "length") +
                                       " check (the data is corrupt); the " + bytes(text) +
                                       " of text read are used");
      else
        fail(InputLevel::kDamaged, "gzip stream damaged at compressed byte " + std::to_string(at) + " (" +
                                       why + "); the " + bytes(text) + " of text before it are used");
    }
    // Z_OK, Z_BUF_ERROR (more input needed): loop.
  }
  return cap - z_.avail_out;
}

// Bytes after a complete member that start no new one: counted, reported,
// not read as text.
void Input::trailing_junk(uint64_t text) {
  uint64_t junk = z_.avail_in;
  bool zeros = std::all_of(z_.next_in, z_.next_in + z_.avail_in, [](unsigned char c) { return c == 0; });
  z_.avail_in = 0;
  while (fill()) {
    junk += z_.avail_in;
    zeros = zeros && std::all_of(z_.next_in, z_.next_in + z_.avail_in, [](unsigned char c) { return c == 0; });
    z_.avail_in = 0;
  }
  fail(InputLevel::kDamaged, bytes(junk) + (zeros ? " of zeros" : " of data that is not gzip") +
                                 " after the end of the gzip stream ignored; the " + bytes(text) +
                                 " of text before them are used");
}

}  // namespace latscope::cli
