// Small helpers shared by the formats' sniffs: the look-ahead split into
// lines, a UTF-8 byte-order mark skipped, columns counted.
#pragma once

#include <string>
#include <vector>

#include "latscope/reader.h"

namespace latscope::sniffing {

// The look-ahead without a leading UTF-8 BOM (EF BB BF).
std::string_view body(const SniffInput& in);
// Up to max_lines complete lines (without '\r\n'), skipping blank ones. The
// last, unterminated line counts only when the input is the whole file.
std::vector<std::string_view> lines(const SniffInput& in, size_t max_lines);
// Comma-separated fields of a line, each trimmed of spaces.
std::vector<std::string_view> fields(std::string_view line);
// A decimal number as fio prints it ("1002", "-3", "0.5").
bool is_number(std::string_view f);
// The base name of a path, without a trailing ".gz".
std::string base_name(const std::string& path);

}  // namespace latscope::sniffing
