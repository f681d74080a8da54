// Text primitives every room writes with (the ground floor: no engine, no
// report): the one number format of every number that leaves the engine,
// and JSON string escaping. The query and folder rooms name numbers and
// files in their notes with these, without reaching up into report.h.
#pragma once

#include <cstddef>
#include <string>

namespace latscope {

// format_number's text into buf (at least kNumberChars bytes); its length,
// 0 when v is not finite.
constexpr size_t kNumberChars = 40;
size_t write_number(double v, char* buf);

// Formats a number the same way natively and in WebAssembly (%.10g, no
// locale; integral values up to 2^53 whole): both printf implementations
// round correctly. Empty when v is not finite.
std::string format_number(double v);

// Numbers for people (the CI verdict, the report's static layer,
// docs/ci-reports.md): format_number's text of a rounded value.
// A latency in the largest unit (ns, us, ms, s) in which it is at least 1,
// to `digits` significant digits: "13.96 ms", "250 us", "1.5 s".
std::string latency_text(double ns, int digits = 4);
// A time since run start as a clock reads: "0:05", "1:00", "1:02:03", with
// the fraction of a second when there is one ("0:00.25").
std::string run_time_text(double ms);
// An epoch time in UTC: "05:45:12", with with_date "2026-11-22 05:45:12".
std::string utc_time_text(double epoch_ms, bool with_date = false);

// s as a JSON string, quotes included.
std::string json_escape(const std::string& s);

}  // namespace latscope
