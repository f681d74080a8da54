// A small JSON DOM parser for the engine (private: core/src only).
//
// Why our own: the native build may use only the standard library and zlib,
// and the same code runs in WebAssembly. Inputs are fio's json/json+ output
// and option objects sent by the page, so the parser is built for:
//  * never crashing or hanging on any input: nesting depth, input size and
//    value count are bounded (ParseLimits), recursion depth == nesting depth;
//  * errors as values naming name:line:column (1-based, byte columns);
//  * exact integers: a number token without fraction/exponent keeps its exact
//    value (uint64 up to 2^64-1, or int64 when negative) beside the double,
//    because fio's counts (total_ios, bins) must stay exact;
//  * fio's quirks: keys like "99.950000" are plain strings; duplicate keys
//    (fio repeats "global options" entries in client mode) are all kept in
//    file order; fio prints floats with printf("%f"), which can produce
//    "nan", "-nan", "inf", "-inf": accepted as numbers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "latscope/status.h"

namespace latscope {
namespace json {

enum class Type : uint8_t { kNull, kBool, kNumber, kString, kArray, kObject };
const char* type_name(Type t);  // "null", "bool", "number", ...

class Value {
 public:
  Type type() const { return type_; }
  bool is_null() const { return type_ == Type::kNull; }
  bool is_bool() const { return type_ == Type::kBool; }
  bool is_number() const { return type_ == Type::kNumber; }
  bool is_string() const { return type_ == Type::kString; }
  bool is_array() const { return type_ == Type::kArray; }
  bool is_object() const { return type_ == Type::kObject; }

  // Where the value starts in the input: 1-based line and byte column.
  uint32_t line() const { return line_; }
  uint32_t column() const { return column_; }

  bool as_bool() const { return bool_; }
  double as_double() const { return num_; }
  // The number's token exactly as written ("99.9", "1e3", "-nan").
  const std::string& number_text() const { return str_; }
  // True when the token is an integer (no '.', no exponent) that fits int64
  // or uint64; then the getters below are exact.
  bool is_integer_token() const { return int_kind_ != IntKind::kNone; }
  // Exact non-negative integer: an integer token in [0, 2^64-1], or a finite
  // double with an integral value in [0, 2^53] (exactly representable).
  bool get_u64(uint64_t* out) const;
  // Exact integer in int64 range (same rules as get_u64).
  bool get_i64(int64_t* out) const;

  const std::string& as_string() const { return str_; }

  // Arrays and objects. For objects, key(i) names items()[i]; keys keep file
  // order and duplicates.
  const std::vector<Value>& items() const { return items_; }
  size_t size() const { return items_.size(); }
  const std::string& key(size_t i) const { return keys_[i]; }

  // Object lookup: the LAST member with this key (later duplicates override,
  // as in most JSON readers), or nullptr. O(members).
  const Value* find(const std::string& k) const;
  // Object lookup: the first member with this key, or nullptr.
  const Value* find_first(const std::string& k) const;

 private:
  friend class Parser;
  enum class IntKind : uint8_t { kNone, kUnsigned, kSigned };

  Type type_ = Type::kNull;
  IntKind int_kind_ = IntKind::kNone;
  bool bool_ = false;
  uint32_t line_ = 0;
  uint32_t column_ = 0;
  double num_ = 0;
  uint64_t u64_ = 0;  // kUnsigned: the value; kSigned: the int64 bit pattern
  std::string str_;   // string value, or the number's token text
  std::vector<Value> items_;
  std::vector<std::string> keys_;
};

struct ParseLimits {
  uint32_t max_depth = 256;              // nested arrays/objects
  size_t max_bytes = size_t{1} << 30;    // input size (1 GiB)
  size_t max_values = size_t{16} << 20;  // values in the document (memory bound)
};

// Where a parse starts and how its positions are reported.
struct ParseInput {
  const char* data = nullptr;
  size_t size = 0;
  size_t offset = 0;        // start parsing here (e.g. after non-JSON lines)
  uint32_t line = 1;        // line and column of data[offset]
  uint32_t column = 1;
  std::string name;         // file or request name for messages
  // false: only whitespace may follow the value. true: stop after the value;
  // *end receives the offset just past it.
  bool allow_trailing = false;
};

// Parses one JSON value. On error returns kInvalidArgument with
// "name:line:column: what was wrong" and leaves *out unspecified.
Status parse(const ParseInput& in, Value* out, size_t* end = nullptr,
             const ParseLimits& limits = {});

// Convenience: a whole string, named `name` in messages.
Status parse(const std::string& text, const std::string& name, Value* out,
             const ParseLimits& limits = {});

}  // namespace json
}  // namespace latscope
