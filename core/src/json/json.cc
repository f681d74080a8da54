#include "json/json.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <utility>

namespace latscope {
namespace json {

const char* type_name(Type t) {
  switch (t) {
    case Type::kNull: return "null";
    case Type::kBool: return "bool";
    case Type::kNumber: return "number";
    case Type::kString: return "string";
    case Type::kArray: return "array";
    case Type::kObject: return "object";
  }
  return "?";
}

namespace {
constexpr double kTwo53 = 9007199254740992.0;  // 2^53: doubles are exact integers up to here
}  // namespace

bool Value::get_u64(uint64_t* out) const {
  if (type_ != Type::kNumber) return false;
  if (int_kind_ == IntKind::kUnsigned) {
    *out = u64_;
    return true;
  }
  if (int_kind_ == IntKind::kSigned) return false;  // negative integer token
  if (!(num_ >= 0 && num_ <= kTwo53) || std::floor(num_) != num_) return false;
  *out = static_cast<uint64_t>(num_);
  return true;
}

bool Value::get_i64(int64_t* out) const {
  if (type_ != Type::kNumber) return false;
  if (int_kind_ == IntKind::kSigned) {
    *out = static_cast<int64_t>(u64_);
    return true;
  }
  if (int_kind_ == IntKind::kUnsigned) {
    if (u64_ > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return false;
    *out = static_cast<int64_t>(u64_);
    return true;
  }
  if (!(num_ >= -kTwo53 && num_ <= kTwo53) || std::floor(num_) != num_) return false;
  *out = static_cast<int64_t>(num_);
  return true;
}

const Value* Value::find(const std::string& k) const {
  if (type_ != Type::kObject) return nullptr;
  for (size_t i = keys_.size(); i-- > 0;) {
    if (keys_[i] == k) return &items_[i];
  }
  return nullptr;
}

const Value* Value::find_first(const std::string& k) const {
  if (type_ != Type::kObject) return nullptr;
  for (size_t i = 0; i < keys_.size(); ++i) {
    if (keys_[i] == k) return &items_[i];
  }
  return nullptr;
}

// Iterative parser: an explicit stack of open containers, so neither deep
// nesting nor hostile input can exhaust the call stack (WebAssembly stacks
// are small). Pointers on the stack stay valid because only the innermost
// open container grows; a parent grows again only after its child closed.
class Parser {
 public:
  Parser(const ParseInput& in, const ParseLimits& limits)
      : in_(in), limits_(limits), p_(in.offset), line_(in.line) {
    line_start_ = static_cast<int64_t>(in.offset) - (static_cast<int64_t>(in.column) - 1);
  }

  Status run(Value* out, size_t* end) {
    if (in_.size > limits_.max_bytes) {
      return fail("input is " + std::to_string(in_.size) + " bytes, more than the limit of " +
                  std::to_string(limits_.max_bytes));
    }
    if (in_.offset > in_.size) return fail("start offset past the end of the input");
    // A UTF-8 byte order mark at the very start (editors on Windows add one).
    if (p_ == 0 && in_.size >= 3 && std::memcmp(in_.data, "\xEF\xBB\xBF", 3) == 0) {
      p_ = 3;
      line_start_ += 3;
    }
    *out = Value();
    Status st = parse_document(out);
    if (!st.ok()) return st;
    if (end) *end = p_;
    if (!in_.allow_trailing) {
      skip_ws();
      if (p_ < in_.size) return fail("unexpected text after the JSON value");
    }
    return Status::Ok();
  }

 private:
  struct Frame {
    Value* v;
    bool expect_more;  // a ',' was just read: another item/member must follow
  };

  Status fail(const std::string& what) const {
    std::string msg;
    if (!in_.name.empty()) msg = in_.name + ":";
    msg += std::to_string(line_) + ":" + std::to_string(column()) + ": " + what;
    return Status::Error(ErrorCode::kInvalidArgument, std::move(msg));
  }

  uint32_t column() const {
    int64_t c = static_cast<int64_t>(p_) - line_start_ + 1;
    if (c < 1) c = 1;
    if (c > std::numeric_limits<uint32_t>::max()) c = std::numeric_limits<uint32_t>::max();
    return static_cast<uint32_t>(c);
  }

  bool at_end() const { return p_ >= in_.size; }
  char peek() const { return in_.data[p_]; }

  void skip_ws() {
    while (p_ < in_.size) {
      char c = in_.data[p_];
      if (c == '\n') {
        ++p_;
        if (line_ < std::numeric_limits<uint32_t>::max()) ++line_;
        line_start_ = static_cast<int64_t>(p_);
      } else if (c == ' ' || c == '\t' || c == '\r') {
        ++p_;
      } else {
        break;
      }
    }
  }

  static std::string describe(char c) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) return std::string("'") + c + "'";
    static const char* hex = "0123456789abcdef";
    return std::string("byte 0x") + hex[u >> 4] + hex[u & 15];
  }

  Status new_value(Value* v) {
    if (++count_ > limits_.max_values) {
      return fail("more than " + std::to_string(limits_.max_values) + " values in the document");
    }
    v->line_ = line_;
    v->column_ = column();
    return Status::Ok();
  }

  // Parses a scalar at p_ into v, or opens a container (pushed on stack_).
  Status parse_value(Value* v) {
    skip_ws();
    if (at_end()) return fail("unexpected end of input, expected a value");
    Status st = new_value(v);
    if (!st.ok()) return st;
    char c = peek();
    switch (c) {
      case '{':
      case '[':
        if (stack_.size() >= limits_.max_depth) {
          return fail("nesting deeper than " + std::to_string(limits_.max_depth) + " levels");
        }
        v->type_ = c == '{' ? Type::kObject : Type::kArray;
        ++p_;
        stack_.push_back({v, false});
        return Status::Ok();
      case '"':
        v->type_ = Type::kString;
        return parse_string(&v->str_);
      case 't': return parse_literal("true", v, Type::kBool, true);
      case 'f': return parse_literal("false", v, Type::kBool, false);
      case 'n':
        if (p_ + 1 < in_.size && in_.data[p_ + 1] == 'a') return parse_number(v);
        return parse_literal("null", v, Type::kNull, false);
      default:
        if (c == '-' || c == 'i' || (c >= '0' && c <= '9')) return parse_number(v);
        return fail("unexpected " + describe(c) + ", expected a value");
    }
  }

  Status parse_literal(const char* word, Value* v, Type t, bool b) {
    size_t n = std::strlen(word);
    if (in_.size - p_ < n || std::memcmp(in_.data + p_, word, n) != 0) {
      return fail(std::string("invalid literal, expected '") + word + "'");
    }
    p_ += n;
    v->type_ = t;
    v->bool_ = b;
    return Status::Ok();
  }

  bool match(const char* word) const {
    size_t n = std::strlen(word);
    return in_.size - p_ >= n && std::memcmp(in_.data + p_, word, n) == 0;
  }

  static bool is_digit(char c) { return c >= '0' && c <= '9'; }

  Status parse_number(Value* v) {
    v->type_ = Type::kNumber;
    const size_t start = p_;
    bool neg = false;
    if (peek() == '-') {
      neg = true;
      ++p_;
    }
    // printf("%f") spellings of non-finite values, which fio emits for
    // e.g. a stddev of no samples.
    if (match("nan")) {
      p_ += 3;
      v->num_ = std::numeric_limits<double>::quiet_NaN();
      v->str_.assign(in_.data + start, p_ - start);
      return Status::Ok();
    }
    if (match("inf")) {
      p_ += match("infinity") ? 8 : 3;
      v->num_ = neg ? -std::numeric_limits<double>::infinity()
                    : std::numeric_limits<double>::infinity();
      v->str_.assign(in_.data + start, p_ - start);
      return Status::Ok();
    }
    if (at_end() || !is_digit(peek())) return fail("invalid number: expected a digit");
    const size_t digits_start = p_;
    if (peek() == '0') {
      ++p_;
      if (!at_end() && is_digit(peek())) return fail("invalid number: leading zero");
    } else {
      while (!at_end() && is_digit(peek())) ++p_;
    }
    const size_t digits_end = p_;
    bool integer = true;
    if (!at_end() && peek() == '.') {
      integer = false;
      ++p_;
      if (at_end() || !is_digit(peek())) return fail("invalid number: expected a digit after '.'");
      while (!at_end() && is_digit(peek())) ++p_;
    }
    if (!at_end() && (peek() == 'e' || peek() == 'E')) {
      integer = false;
      ++p_;
      if (!at_end() && (peek() == '+' || peek() == '-')) ++p_;
      if (at_end() || !is_digit(peek())) return fail("invalid number: expected a digit in the exponent");
      while (!at_end() && is_digit(peek())) ++p_;
    }
    v->str_.assign(in_.data + start, p_ - start);
    // strtod needs a terminated buffer; the token copy is one. The engine
    // never calls setlocale, so the decimal point is '.'.
    v->num_ = std::strtod(v->str_.c_str(), nullptr);
    if (integer) {
      // Exact value for counts: fio's uint64 counters exceed 2^53.
      uint64_t mag = 0;
      bool fits = true;
      for (size_t i = digits_start; i < digits_end; ++i) {
        uint64_t d = static_cast<uint64_t>(in_.data[i] - '0');
        if (mag > (std::numeric_limits<uint64_t>::max() - d) / 10) {
          fits = false;
          break;
        }
        mag = mag * 10 + d;
      }
      if (fits && !neg) {
        v->int_kind_ = Value::IntKind::kUnsigned;
        v->u64_ = mag;
      } else if (fits && neg && mag <= (uint64_t{1} << 63)) {
        if (mag == 0) {
          v->int_kind_ = Value::IntKind::kUnsigned;  // "-0" is zero
          v->u64_ = 0;
        } else {
          v->int_kind_ = Value::IntKind::kSigned;
          v->u64_ = ~mag + 1;  // two's complement of the magnitude
        }
      }
    }
    return Status::Ok();
  }

  static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  bool read_hex4(uint32_t* out) {
    if (in_.size - p_ < 4) return false;
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      int h = hex_value(in_.data[p_ + static_cast<size_t>(i)]);
      if (h < 0) return false;
      v = (v << 4) | static_cast<uint32_t>(h);
    }
    p_ += 4;
    *out = v;
    return true;
  }

  static void append_utf8(uint32_t cp, std::string* s) {
    if (cp < 0x80) {
      s->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      s->push_back(static_cast<char>(0xC0 | (cp >> 6)));
      s->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      s->push_back(static_cast<char>(0xE0 | (cp >> 12)));
      s->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      s->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      s->push_back(static_cast<char>(0xF0 | (cp >> 18)));
      s->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      s->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      s->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  // p_ at the opening quote. Bytes >= 0x80 are copied as they are (fio job
  // names are whatever the job file held); raw control characters other
  // than tab are rejected as JSON requires.
  Status parse_string(std::string* out) {
    ++p_;
    out->clear();
    for (;;) {
      if (at_end()) return fail("unterminated string");
      // Copy the run of plain bytes in one go.
      size_t run = p_;
      while (run < in_.size) {
        unsigned char u = static_cast<unsigned char>(in_.data[run]);
        if (u == '"' || u == '\\' || (u < 0x20 && u != '\t')) break;
        ++run;
      }
      out->append(in_.data + p_, run - p_);
      p_ = run;
      if (at_end()) return fail("unterminated string");
      char c = peek();
      if (c == '"') {
        ++p_;
        return Status::Ok();
      }
      if (c != '\\') {
        return fail(c == '\n' ? std::string("unterminated string (newline inside a string)")
                              : "control character " + describe(c) + " inside a string");
      }
      ++p_;
      if (at_end()) return fail("unterminated string");
      char e = peek();
      ++p_;
      switch (e) {
        case '"': out->push_back('"'); break;
        case '\\': out->push_back('\\'); break;
        case '/': out->push_back('/'); break;
        case 'b': out->push_back('\b'); break;
        case 'f': out->push_back('\f'); break;
        case 'n': out->push_back('\n'); break;
        case 'r': out->push_back('\r'); break;
        case 't': out->push_back('\t'); break;
        case 'u': {
          uint32_t cp = 0;
          if (!read_hex4(&cp)) return fail("invalid \\u escape: expected 4 hex digits");
          if (cp >= 0xD800 && cp < 0xDC00) {
            // High surrogate: combine with a following low surrogate.
            uint32_t lo = 0;
            size_t save = p_;
            if (in_.size - p_ >= 2 && in_.data[p_] == '\\' && in_.data[p_ + 1] == 'u') {
              p_ += 2;
              if (read_hex4(&lo) && lo >= 0xDC00 && lo < 0xE000) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
              } else {
                p_ = save;
                cp = 0xFFFD;  // lone surrogate: replacement character
              }
            } else {
              cp = 0xFFFD;
            }
          } else if (cp >= 0xDC00 && cp < 0xE000) {
            cp = 0xFFFD;
          }
          append_utf8(cp, out);
          break;
        }
        default:
          --p_;
          return fail("invalid escape \\" + std::string(1, e) + " in a string");
      }
    }
  }

  Status parse_document(Value* root) {
    Status st = parse_value(root);
    if (!st.ok()) return st;
    while (!stack_.empty()) {
      Frame& f = stack_.back();
      Value* c = f.v;
      skip_ws();
      if (at_end()) {
        return fail(std::string("unexpected end of input inside an ") +
                    (c->type_ == Type::kObject ? "object" : "array") + " opened at " +
                    std::to_string(c->line_) + ":" + std::to_string(c->column_));
      }
      char ch = peek();
      const char close = c->type_ == Type::kObject ? '}' : ']';
      if (!c->items_.empty() && !f.expect_more) {
        // After an item: ',' or the closing bracket.
        if (ch == close) {
          ++p_;
          stack_.pop_back();
          continue;
        }
        if (ch != ',') {
          return fail("unexpected " + describe(ch) + ", expected ',' or '" + std::string(1, close) + "'");
        }
        ++p_;
        f.expect_more = true;
        continue;
      }
      if (ch == close) {
        if (f.expect_more) return fail(std::string("trailing comma before '") + close + "'");
        ++p_;
        stack_.pop_back();
        continue;
      }
      f.expect_more = false;
      if (c->type_ == Type::kObject) {
        if (ch != '"') return fail("unexpected " + describe(ch) + ", expected a member name in quotes");
        std::string key;
        st = parse_string(&key);
        if (!st.ok()) return st;
        skip_ws();
        if (at_end() || peek() != ':') {
          return at_end() ? fail("unexpected end of input, expected ':'")
                          : fail("unexpected " + describe(peek()) + ", expected ':' after member name");
        }
        ++p_;
        c->keys_.push_back(std::move(key));
      }
      c->items_.emplace_back();
      // parse_value may push a new frame: `f` must not be used after this.
      st = parse_value(&c->items_.back());
      if (!st.ok()) return st;
    }
    return Status::Ok();
  }

  const ParseInput& in_;
  const ParseLimits& limits_;
  size_t p_;
  uint32_t line_;
  int64_t line_start_;  // offset that has column 1 on the current line
  size_t count_ = 0;
  std::vector<Frame> stack_;
};

Status parse(const ParseInput& in, Value* out, size_t* end, const ParseLimits& limits) {
  Parser p(in, limits);
  return p.run(out, end);
}

Status parse(const std::string& text, const std::string& name, Value* out,
             const ParseLimits& limits) {
  ParseInput in;
  in.data = text.data();
  in.size = text.size();
  in.name = name;
  return parse(in, out, nullptr, limits);
}

}  // namespace json
}  // namespace latscope
