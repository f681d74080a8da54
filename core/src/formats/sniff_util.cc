#include "formats/sniff_util.h"

#include <cctype>

namespace latscope::sniffing {

std::string_view body(const SniffInput& in) {
  std::string_view s(in.data, in.n);
  if (s.size() >= 3 && static_cast<unsigned char>(s[0]) == 0xEF && static_cast<unsigned char>(s[1]) == 0xBB &&
      static_cast<unsigned char>(s[2]) == 0xBF)
    s.remove_prefix(3);
  return s;
}

std::vector<std::string_view> lines(const SniffInput& in, size_t max_lines) {
  std::vector<std::string_view> out;
  std::string_view s = body(in);
  while (!s.empty() && out.size() < max_lines) {
    const size_t nl = s.find('\n');
    if (nl == std::string_view::npos && !in.complete) break;  // incomplete
    std::string_view line = s.substr(0, nl);
    s.remove_prefix(nl == std::string_view::npos ? s.size() : nl + 1);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
    size_t a = 0;
    while (a < line.size() && (line[a] == ' ' || line[a] == '\t')) ++a;
    line.remove_prefix(a);
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

std::vector<std::string_view> fields(std::string_view line) {
  std::vector<std::string_view> out;
  for (;;) {
    const size_t c = line.find(',');
    std::string_view f = line.substr(0, c);
    while (!f.empty() && f.front() == ' ') f.remove_prefix(1);
    while (!f.empty() && f.back() == ' ') f.remove_suffix(1);
    out.push_back(f);
    if (c == std::string_view::npos) break;
    line.remove_prefix(c + 1);
  }
  return out;
}

bool is_number(std::string_view f) {
  size_t i = 0;
  if (i < f.size() && (f[i] == '-' || f[i] == '+')) ++i;
  bool digit = false, dot = false;
  for (; i < f.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(f[i]))) digit = true;
    else if (f[i] == '.' && !dot) dot = true;
    else return false;
  }
  return digit;
}

std::string base_name(const std::string& path) {
  const size_t s = path.find_last_of("/\\");
  std::string b = s == std::string::npos ? path : path.substr(s + 1);
  if (b.size() > 3 && b.compare(b.size() - 3, 3, ".gz") == 0) b.resize(b.size() - 3);
  return b;
}

}  // namespace latscope::sniffing
