// Archives and compressed files other than gzip, named by their magic bytes
// (docs/input-robustness.md, "Archives"). A results folder is often passed
// on as a tarball: read as text, a tar archive of fio logs looked like one
// per-I/O log holding every member's lines at once (lat, clat and slat
// together, histogram lines skipped as damage), and gave percentiles of
// that mixture. latscope reads files, not archives: each is ignored with
// what to run instead, and forms no run. gzip alone is read through
// (a .tar.gz is then seen as the tar inside).
#include <string>
#include <string_view>

#include "formats/sniff_util.h"
#include "latscope/reader.h"

namespace latscope {

SniffResult sniff_archive(const SniffInput& in) {
  const std::string_view b = sniffing::body(in);
  // The file's own name, .gz kept: the command to run takes it as it is.
  const size_t slash = in.name.find_last_of("/\\");
  const std::string name = slash == std::string::npos ? in.name : in.name.substr(slash + 1);
  const auto at = [&b](size_t off, std::string_view magic) {
    return b.size() >= off + magic.size() && b.substr(off, magic.size()) == magic;
  };
  const auto extract = [](const char* kind, const std::string& how) {
    return std::string(kind) + ": latscope reads the files in it, not the archive; extract it (" + how + ") and give its folder";
  };
  SniffResult r{FileFormat::kIgnored, 100, ""};
  // POSIX ustar ("ustar\0" "00") and GNU tar ("ustar  \0") at byte 257 of the first header.
  if (at(257, std::string_view("ustar\0", 6)) || at(257, std::string_view("ustar  \0", 8)))
    r.what = extract("tar archive", "tar -xf " + name);
  else if (at(0, "PK\x03\x04") || at(0, "PK\x05\x06"))
    r.what = extract("zip archive", "unzip " + name);
  else if (at(0, "7z\xBC\xAF\x27\x1C"))
    r.what = extract("7-Zip archive", "7z x " + name);
  else if (at(0, std::string_view("\xFD" "7zXZ\0", 6)))
    r.what = "xz-compressed data: latscope reads plain and gzip files; decompress it (xz -dk " + name + ")";
  else if (at(0, "\x28\xB5\x2F\xFD"))
    r.what = "zstd-compressed data: latscope reads plain and gzip files; decompress it (zstd -d " + name + ")";
  else if (at(0, "BZh") && at(4, "1AY&SY"))
    r.what = "bzip2-compressed data: latscope reads plain and gzip files; decompress it (bzip2 -dk " + name + ")";
  else
    r.confidence = 0;
  return r;
}

}  // namespace latscope
