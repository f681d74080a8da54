// Java's java.util.Formatter number conversions, reproduced exactly, for
// `latscope hdr` (byte-for-byte HistogramLogProcessor output).
//
// Java's "%.3f" does not round the binary value like C's printf: it takes the
// shortest decimal string that reads back as the same double (Double.toString's
// digits) and rounds THAT half-up. 1.0005 prints "1.001" in Java and "1.000"
// with printf (the double is 1.000499999...); 0.125 with "%.2f" prints "0.13"
// (printf: "0.12").
#pragma once

#include <cstdint>
#include <string>

namespace latscope::hdr_processor {

// String.format(Locale.US, "%<width>.<precision>f", v): NaN -> "NaN",
// +-Infinity -> "Infinity" / "-Infinity", -0.0 -> "-0.000"; right-justified
// in width (no padding when the text is longer). precision 0..30.
std::string java_fixed(double v, int precision, int width = 0);

// String.format("%<width>d", v).
std::string java_int(int64_t v, int width = 0);

// Java's Double.toString(v) for the values this tool prints in legends
// ("99.0", "99.9", "1.0E-4"): shortest round-trip digits, Java's layout.
std::string java_double_to_string(double v);

// new java.util.Date(ms).toString() with TZ=UTC:
// "Wed Sep 09 15:24:39 UTC 2015" (EEE MMM dd HH:mm:ss zzz yyyy).
std::string java_date_utc(int64_t epoch_ms);

// Double.parseDouble for command-line values: optional sign, decimal or
// hexadecimal float, "NaN", "Infinity", an optional trailing f/F/d/D, and
// surrounding whitespace. False on anything else.
bool java_parse_double(const std::string& text, double* out);

// Integer.parseInt: optional sign and decimal digits that fit in int32.
bool java_parse_int(const std::string& text, int32_t* out);

// The shortest decimal digits that read back as |v| (v finite, non-zero):
// *digits without leading zeros, *exp10 such that |v| = 0.DIGITS x 10^exp10.
void shortest_digits(double v, std::string* digits, int* exp10);

}  // namespace latscope::hdr_processor
