// The private JSON DOM parser (core/src/json): accept/reject corpus, exact
// integers, positions in messages, limits, and no crash on mutated input.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "../core/src/json/json.h"

namespace latscope {
namespace json {
namespace {

Status parse_text(const std::string& text, Value* v, const ParseLimits& limits = {}) {
  return parse(text, "t.json", v, limits);
}

TEST(Json, AcceptsValidDocuments) {
  // y_* style: each must parse.
  const char* ok[] = {
      "0", "-0", "1", "-1", "1.5", "-1.5e10", "1E+2", "1e-2", "0.0", "true", "false", "null",
      "\"\"", "\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\"", "\"\\u00e9\\ud83d\\ude00\"", "[]", "{}",
      "[1,[2,[3]]]", "{\"a\":{\"b\":[]}}", " \t\r\n[ 1 , 2 ] \n", "\xEF\xBB\xBF{}",
      "{\"a\":1,\"a\":2}", "nan", "-nan", "inf", "-inf", "[nan,-nan,inf]",
      "\"tab\tinside\"", "\"caf\xC3\xA9\"",
  };
  for (const char* t : ok) {
    Value v;
    Status st = parse_text(t, &v);
    EXPECT_TRUE(st.ok()) << t << " -> " << st.message;
  }
}

TEST(Json, RejectsInvalidDocumentsWithAReason) {
  // n_* style: each must fail, with the message naming the problem.
  struct Case {
    std::string text;
    const char* msg;
  } bad[] = {
      {"", "unexpected end of input"},
      {"[1,]", "trailing comma"},
      {"{\"a\":1,}", "trailing comma"},
      {"[1 2]", "expected ',' or ']'"},
      {"{\"a\" 1}", "expected ':'"},
      {"{a:1}", "member name in quotes"},
      {"01", "leading zero"},
      {"1.", "digit after '.'"},
      {"1e", "exponent"},
      {"-", "expected a digit"},
      {"+1", "unexpected '+'"},
      {"tru", "expected 'true'"},
      {"\"abc", "unterminated string"},
      {"\"a\nb\"", "newline inside a string"},
      {"\"\\x\"", "invalid escape"},
      {"\"\\u12\"", "4 hex digits"},
      {"[1] x", "after the JSON value"},
      {"{\"a\":[1,2}", "expected ',' or ']'"},
      {"[", "end of input inside an array opened at 1:1"},
      {"\"\x01\"", "control character byte 0x01"},
      {std::string("[\0]", 3), "byte 0x00"},
  };
  for (const auto& c : bad) {
    Value v;
    Status st = parse_text(c.text, &v);
    EXPECT_FALSE(st.ok()) << c.text;
    EXPECT_EQ(st.code, ErrorCode::kInvalidArgument);
    EXPECT_NE(st.message.find(c.msg), std::string::npos) << c.text << " -> " << st.message;
    EXPECT_EQ(st.message.rfind("t.json:", 0), 0u) << st.message;
  }
}

TEST(Json, ErrorsNameLineAndColumn) {
  Value v;
  // The stray 'x' is on line 3, column 8.
  Status st = parse_text("{\n  \"a\": 1,\n  \"b\": x\n}", &v);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message.rfind("t.json:3:8: ", 0), 0u) << st.message;
}

TEST(Json, ValuePositionsAreOneBased) {
  Value v;
  ASSERT_TRUE(parse_text("{\n  \"k\" : [10,\n 20]}", &v).ok());
  const Value* k = v.find("k");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->line(), 2u);
  EXPECT_EQ(k->column(), 9u);
  EXPECT_EQ(k->items()[1].line(), 3u);
  EXPECT_EQ(k->items()[1].column(), 2u);
}

TEST(Json, OffsetInputKeepsFilePositions) {
  // As the fio reader does: start after two text lines, positions stay file positions.
  std::string text = "host line\nmore\n{\"a\": ?}";
  ParseInput in;
  in.data = text.data();
  in.size = text.size();
  in.offset = text.find('{');
  in.line = 3;
  in.column = 1;
  in.name = "f";
  Value v;
  Status st = parse(in, &v);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message.rfind("f:3:7: ", 0), 0u) << st.message;
}

TEST(Json, IntegersAreExactUpTo64Bits) {
  Value v;
  ASSERT_TRUE(parse_text("[18446744073709551615, 9007199254740993, -9223372036854775808,"
                         " 18446744073709551616, 3.0, 2.5, -1, 1e3, 8000.000000]",
                         &v)
                  .ok());
  const auto& a = v.items();
  uint64_t u = 0;
  int64_t i = 0;
  ASSERT_TRUE(a[0].get_u64(&u));
  EXPECT_EQ(u, UINT64_MAX);
  EXPECT_TRUE(a[0].is_integer_token());
  ASSERT_TRUE(a[1].get_u64(&u));
  EXPECT_EQ(u, 9007199254740993ull);  // not representable as a double
  // The double alone would have lost the last unit.
  EXPECT_EQ(static_cast<uint64_t>(a[1].as_double()), 9007199254740992ull);
  ASSERT_TRUE(a[2].get_i64(&i));
  EXPECT_EQ(i, INT64_MIN);
  EXPECT_FALSE(a[2].get_u64(&u));
  EXPECT_FALSE(a[3].get_u64(&u));  // 2^64 overflows: only the double remains
  EXPECT_FALSE(a[3].is_integer_token());
  EXPECT_DOUBLE_EQ(a[3].as_double(), 18446744073709551616.0);
  ASSERT_TRUE(a[4].get_u64(&u));  // an integral double is accepted
  EXPECT_EQ(u, 3u);
  EXPECT_FALSE(a[5].get_u64(&u));
  EXPECT_FALSE(a[6].get_u64(&u));
  ASSERT_TRUE(a[6].get_i64(&i));
  EXPECT_EQ(i, -1);
  ASSERT_TRUE(a[7].get_u64(&u));
  EXPECT_EQ(u, 1000u);
  ASSERT_TRUE(a[8].get_u64(&u));
  EXPECT_EQ(u, 8000u);
  EXPECT_EQ(a[8].number_text(), "8000.000000");
}

TEST(Json, NonFiniteSpellingsOfPrintf) {
  Value v;
  ASSERT_TRUE(parse_text("[nan, -nan, inf, -inf]", &v).ok());
  EXPECT_TRUE(std::isnan(v.items()[0].as_double()));
  EXPECT_TRUE(std::isnan(v.items()[1].as_double()));
  EXPECT_EQ(v.items()[2].as_double(), HUGE_VAL);
  EXPECT_EQ(v.items()[3].as_double(), -HUGE_VAL);
  uint64_t u = 0;
  EXPECT_FALSE(v.items()[0].get_u64(&u));
  EXPECT_FALSE(v.items()[2].get_u64(&u));
}

TEST(Json, DuplicateKeysAreKeptInOrder) {
  Value v;
  ASSERT_TRUE(parse_text("{\"ioengine\":\"libaio\",\"bs\":\"4k\",\"ioengine\":\"sync\"}", &v).ok());
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v.key(0), "ioengine");
  EXPECT_EQ(v.key(2), "ioengine");
  EXPECT_EQ(v.find("ioengine")->as_string(), "sync");
  EXPECT_EQ(v.find_first("ioengine")->as_string(), "libaio");
  EXPECT_EQ(v.find("missing"), nullptr);
}

TEST(Json, FioPercentileKeysStayStrings) {
  Value v;
  ASSERT_TRUE(parse_text("{\"99.950000\" : 20316160, \"1.000000\" : 30848}", &v).ok());
  EXPECT_EQ(v.key(0), "99.950000");
  uint64_t u = 0;
  ASSERT_TRUE(v.find("99.950000")->get_u64(&u));
  EXPECT_EQ(u, 20316160u);
}

TEST(Json, UnicodeEscapes) {
  Value v;
  ASSERT_TRUE(parse_text("\"\\u0041\\u00e9\\u20ac\\ud83d\\ude00\\udc00\\ud800x\"", &v).ok());
  EXPECT_EQ(v.as_string(), "A\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\xEF\xBF\xBD\xEF\xBF\xBDx");
}

TEST(Json, DepthLimitStopsDeepNesting) {
  // 1,000,000 open brackets: rejected at the limit, no stack overflow.
  std::string deep(1000000, '[');
  Value v;
  Status st = parse_text(deep, &v);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message.find("nesting deeper than 256"), std::string::npos) << st.message;
  // Exactly at the limit is fine.
  std::string at_limit = std::string(256, '[') + std::string(256, ']');
  EXPECT_TRUE(parse_text(at_limit, &v).ok());
  ParseLimits big;
  // Deeper than any recursive parser's stack would allow under ASan; the
  // parse is iterative (Value's destructor still recurses, so stay modest).
  big.max_depth = 5000;
  std::string nested = std::string(4999, '[') + std::string(4999, ']');
  EXPECT_TRUE(parse_text(nested, &v, big).ok());
}

TEST(Json, SizeAndValueLimits) {
  ParseLimits lim;
  lim.max_bytes = 10;
  Value v;
  Status st = parse_text("[1,2,3,4,5,6]", &v, lim);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message.find("more than the limit of 10"), std::string::npos);
  lim = ParseLimits();
  lim.max_values = 4;
  EXPECT_TRUE(parse_text("[1,2,3]", &v, lim).ok());
  st = parse_text("[1,2,3,4]", &v, lim);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message.find("more than 4 values"), std::string::npos);
}

TEST(Json, AllowTrailingReportsTheEnd) {
  std::string text = "{\"a\":1}\ntrailing words";
  ParseInput in;
  in.data = text.data();
  in.size = text.size();
  in.allow_trailing = true;
  Value v;
  size_t end = 0;
  ASSERT_TRUE(parse(in, &v, &end).ok());
  EXPECT_EQ(end, 7u);
}

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Random byte edits, truncations and splices of a real fio json+ document:
// the parser must return (ok or an error with a position), never crash or
// hang. Run under LATSCOPE_SANITIZE=ON to catch memory errors too.
TEST(Json, MutatedFioOutputNeverCrashes) {
  std::string doc = read_file(std::string(LATSCOPE_FIXTURES) + "/fio-s1/s1.json");
  if (doc.empty()) GTEST_SKIP() << "shared sample data absent";
  doc = doc.substr(doc.find("\n{") + 1);
  Value v;
  ASSERT_TRUE(parse_text(doc, &v).ok());
  std::mt19937 rng(12345);
  const char alphabet[] = "{}[]\",:\\u0e.-+ \n\t\x00\xff" "0123456789nafltr";
  int failures = 0;
  for (int iter = 0; iter < 400; ++iter) {
    std::string m = doc;
    int edits = 1 + static_cast<int>(rng() % 8);
    for (int e = 0; e < edits; ++e) {
      size_t pos = rng() % m.size();
      switch (rng() % 4) {
        case 0: m[pos] = alphabet[rng() % (sizeof(alphabet) - 1)]; break;
        case 1: m.erase(pos, 1 + rng() % 20); break;
        case 2: m.insert(pos, 1, alphabet[rng() % (sizeof(alphabet) - 1)]); break;
        case 3: m.resize(pos); break;
      }
      if (m.empty()) m = "{";
    }
    Status st = parse_text(m, &v);
    if (!st.ok()) {
      ++failures;
      EXPECT_EQ(st.message.rfind("t.json:", 0), 0u) << st.message;
    }
  }
  EXPECT_GT(failures, 100);  // the mutations really do break documents
}

}  // namespace
}  // namespace json
}  // namespace latscope
