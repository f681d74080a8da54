// .hlog payload decoding and HdrHistogram's index math and percentiles:
// base64 edge cases, a corpus of damaged payloads and files that must fail
// with a message and never crash, and Method::kHdr on small histograms.
#include <gtest/gtest.h>

#include <cstring>

#include "formats/hdr/hdr_decode.h"
#include "formats/hdr/hdr_encode.h"
#include "formats/hdr/hdr_log.h"
#include "hdr_test_util.h"
#include "latscope/inflate.h"
#include "latscope/percentiles.h"
#include "latscope/result.h"

namespace latscope {
namespace {

std::string b64_err(const std::string& s) {
  std::vector<uint8_t> out;
  std::string err;
  return hdr::decode_base64(s, &out, &err) ? std::string(out.begin(), out.end()) : "ERR " + err;
}

TEST(HdrBase64, PaddingOptionalAndErrorsNamed) {
  EXPECT_EQ(b64_err("TWFu"), "Man");
  EXPECT_EQ(b64_err("TWE="), "Ma");
  EXPECT_EQ(b64_err("TWE"), "Ma");
  EXPECT_EQ(b64_err("TQ=="), "M");
  EXPECT_EQ(b64_err("TQ"), "M");
  EXPECT_EQ(b64_err(""), "");
  EXPECT_EQ(b64_err("TWFuT"), "ERR truncated base64");
  EXPECT_EQ(b64_err("TQ=x"), "ERR invalid base64 'x' after padding at payload column 4");
  EXPECT_EQ(b64_err("TW!u"), "ERR invalid base64 character '!' at payload column 3");
  EXPECT_EQ(b64_err("TQ==="), "ERR truncated base64");
  // After whole quads of the fast path: the same messages, the same columns.
  EXPECT_EQ(b64_err("TWFuTWFuTW!u"), "ERR invalid base64 character '!' at payload column 11");
  EXPECT_EQ(b64_err("TWFuTWFuTQ=x"), "ERR invalid base64 'x' after padding at payload column 12");
  EXPECT_EQ(b64_err("TWFuTWFuTWE="), "ManManMa");
  EXPECT_EQ(b64_err("TWFuTWFu\x01WFu"), "ERR invalid base64 character '0x01' at payload column 9");
}

// Every string of up to 8 symbols over a small alphabet (plain symbols,
// padding, a bad byte) decodes, or fails, as one symbol at a time would:
// the quads taken whole and the loop after them must agree at every split.
TEST(HdrBase64, QuadsTakenWholeAgreeWithSymbolBySymbol) {
  const auto one_by_one = [](const std::string& t) {
    std::string out;
    uint32_t acc = 0;
    int have = 0;
    size_t pad = 0;
    for (size_t i = 0; i < t.size(); ++i) {
      if (t[i] == '=') {
        ++pad;
        continue;
      }
      const size_t v = std::string("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/").find(t[i]);
      if (v == std::string::npos || pad) return "ERR at " + std::to_string(i + 1);
      acc = (acc << 6) | static_cast<uint32_t>(v);
      if (++have == 4) {
        out += {static_cast<char>(acc >> 16), static_cast<char>(acc >> 8), static_cast<char>(acc)};
        acc = 0;
        have = 0;
      }
    }
    if (have == 1 || pad > 2 || (pad && (have + pad) % 4 != 0)) return std::string("ERR truncated");
    if (have == 2) out += static_cast<char>(acc >> 4);
    if (have == 3) out += {static_cast<char>(acc >> 10), static_cast<char>(acc >> 2)};
    return out;
  };
  const std::string alphabet = "A/z=!";
  size_t checked = 0;
  for (size_t len = 0; len <= 8; ++len) {
    std::string t(len, 'A');
    size_t combos = 1;
    for (size_t k = 0; k < len; ++k) combos *= alphabet.size();
    for (size_t c = 0; c < combos; ++c) {
      for (size_t k = 0, x = c; k < len; ++k, x /= alphabet.size()) t[k] = alphabet[x % alphabet.size()];
      std::string got = b64_err(t);
      const std::string want = one_by_one(t);
      if (got.rfind("ERR invalid", 0) == 0) got = "ERR at " + got.substr(got.rfind(' ') + 1);
      else if (got.rfind("ERR truncated", 0) == 0) got = "ERR truncated";
      ASSERT_EQ(got, want) << t;
      ++checked;
    }
  }
  EXPECT_GT(checked, 400000u);
}

TEST(HdrIndexMath, MatchesHdrHistogramFormulas) {
  hdr::Config c;
  c.digits = 3;
  c.lowest = 1;
  EXPECT_EQ(c.sub_bucket_count(), 2048);
  EXPECT_EQ(c.sub_bucket_half_count_magnitude(), 10);
  EXPECT_EQ(c.lowest_equivalent(0), 0);
  EXPECT_EQ(c.lowest_equivalent(2047), 2047);
  EXPECT_EQ(c.lowest_equivalent(2048), 2048);
  EXPECT_EQ(c.bucket_width(2048), 2);
  EXPECT_EQ(c.lowest_equivalent(3072), 4096);
  for (int64_t v : {0LL, 1LL, 2047LL, 2048LL, 2049LL, 4097LL, 1000000LL, 1745879039LL, (1LL << 62) + 12345}) {
    const int64_t i = c.index_of(v);
    EXPECT_LE(c.lowest_equivalent(i), v) << v;
    EXPECT_GE(c.highest_equivalent(i), v) << v;
  }
  hdr::Config d;
  d.digits = 2;
  d.lowest = 1000;  // unit magnitude 9
  EXPECT_EQ(d.unit_magnitude(), 9);
  EXPECT_EQ(d.sub_bucket_count(), 256);
  EXPECT_EQ(d.lowest_equivalent(d.index_of(123456789)), 123207680);
}

std::string decode_err(const std::vector<uint8_t>& bytes) {
  hdr::Histogram h;
  int enc = 0;
  std::string err;
  return hdr::decode_histogram(bytes.data(), bytes.size(), 1 << 20, &h, &enc, &err) ? "ok" : err;
}

TEST(HdrDecode, SpecificMessages) {
  EXPECT_EQ(decode_err({}), "truncated payload (0 bytes)");
  EXPECT_EQ(decode_err({0x12, 0x34, 0x56, 0x78, 0, 0, 0, 0}), "bad cookie 0x12345678");
  EXPECT_EQ(decode_err({0x1c, 0x84, 0x93, 0x14, 0, 0, 0, 9, 1, 2}), "payload length 9 exceeds the 2 bytes present");
  EXPECT_EQ(decode_err({0x1c, 0x84, 0x93, 0x14, 0, 0, 0, 2, 1, 2}), "not a valid zlib stream");
  EXPECT_EQ(decode_err({0x0c, 0x72, 0x12, 0x4f, 0, 0, 0, 2}), "truncated DoubleHistogram header (8 of 16 bytes)");
  // An uncompressed V2 header claiming 5 significant digits too many.
  std::vector<uint8_t> v2 = {0x1c, 0x84, 0x93, 0x13, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9};
  v2.resize(40, 0);
  v2[23] = 1;
  EXPECT_EQ(decode_err(v2), "significant digits 9 out of range 0..5");
  v2[15] = 2;
  v2[23] = 0;
  EXPECT_EQ(decode_err(v2), "lowest discernible value 0 < 1");
  v2[23] = 1;
  EXPECT_EQ(decode_err(v2), "ok");
  v2[7] = 3;  // payload length 3, nothing there
  EXPECT_EQ(decode_err(v2), "payload length 3 exceeds the 0 bytes present");
  v2[7] = 1;
  v2.push_back(0x80);  // a varint whose continuation never comes
  EXPECT_EQ(decode_err(v2), "truncated varint at payload byte 1");
}

TEST(HdrDecode, InflateBoundAndTruncation) {
  std::vector<uint8_t> out;
  std::string err;
  // zlib stream of 1000 'a' bytes (python3 -c "import zlib;print(zlib.compress(b'a'*1000).hex())")
  const std::vector<uint8_t> z = {0x78, 0x9c, 0x4b, 0x4c, 0x1c, 0x05, 0xa3, 0x60, 0x14, 0x0c, 0x77, 0x00, 0x00,
                                  0xf9, 0xd8, 0x7a, 0xf8};
  ASSERT_TRUE(inflate_zlib(z.data(), z.size(), 1000, &out, &err)) << err;
  EXPECT_EQ(out.size(), 1000u);
  EXPECT_FALSE(inflate_zlib(z.data(), z.size(), 999, &out, &err));
  EXPECT_EQ(err, "inflated size over 999 bytes");
  EXPECT_FALSE(inflate_zlib(z.data(), z.size() - 6, 1000, &out, &err));
  EXPECT_EQ(err, "truncated zlib stream");
}

// Deterministic damage of every golden file: byte flips, cuts, duplicated
// lines. Nothing may crash; every result is ok or a message.
TEST(HdrDecode, BadInputCorpusNeverCrashes) {
  uint64_t x = 88172645463325252ull;
  auto rnd = [&x]() {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  size_t runs = 0;
  for (const std::string& f : hdrtest::files(hdrtest::golden_dir(), "", ".hlog")) {
    std::string text;
    ASSERT_TRUE(hdrtest::slurp(f, &text));
    for (int k = 0; k < 40; ++k) {
      std::string t = text;
      const int kind = k % 4;
      if (t.empty()) break;
      if (kind == 0) {
        for (int j = 0; j < 4; ++j) t[rnd() % t.size()] = static_cast<char>(rnd());
      } else if (kind == 1) {
        t.resize(rnd() % t.size());
      } else if (kind == 2) {
        const size_t a = rnd() % t.size(), b = rnd() % t.size();
        t.insert(std::min(a, b), t.substr(std::min(a, b), std::max(a, b) - std::min(a, b)));
      } else {
        // payload bytes mutated after base64: flip one char inside a HIST token
        const size_t p = t.find(",HIST");
        if (p != std::string::npos && p + 20 < t.size()) t[p + 12 + rnd() % 8] = "A/+z9"[rnd() % 5];
      }
      FileOptions forced;
      forced.format = FileFormat::kHdrLog;
      const std::string d = hdrtest::load_dump("fuzz.hlog", t, 1 + rnd() % 64, forced);
      EXPECT_FALSE(d.empty());
      ++runs;
    }
  }
  EXPECT_GT(runs, 100u);
}

// The counts are held sparse (hdr_histogram.h): the encoder must write the
// zero runs between them exactly as Java's encodeIntoByteBuffer does, and
// the decoder must give back exactly the non-zero counts.
std::vector<uint8_t> g_raw;  // what the encoder handed to deflate
bool keep_raw(const uint8_t* in, size_t n, std::vector<uint8_t>* out) {
  g_raw.assign(in, in + n);
  return deflate_zlib(in, n, out);
}

TEST(HdrEncode, SparseCountsRoundTripWithJavasZeroRuns) {
  hdr::Histogram h;
  h.config.digits = 3;
  h.config.lowest = 1;
  h.config.highest = 3600000000000;
  // index 0: 5, one zero, index 2: 1, seven zeros, index 10: 3
  h.push(0, 5);
  h.push(2, 1);
  h.push(10, 3);
  std::string text;
  ASSERT_TRUE(hdr::encode_payload(h, keep_raw, &text));
  ASSERT_EQ(g_raw.size(), 40u + 5u);
  // ZigZag: 5 -> 0x0a, a lone zero -> 0, 1 -> 2, a run of 7 -> -7 -> 13, 3 -> 6.
  EXPECT_EQ(std::vector<uint8_t>(g_raw.begin() + 40, g_raw.end()), (std::vector<uint8_t>{0x0a, 0, 2, 13, 6}));
  EXPECT_EQ(g_raw[7], 5u);  // the payload length field

  const std::vector<std::vector<std::pair<uint32_t, uint64_t>>> cases = {
      {},                                      // empty: one zero count is written
      {{0, 1}},                                // index 0 only
      {{7, 2}},                                // a leading run
      {{1, 1}, {2, 1}, {4, 9}},                // adjacent, then a lone zero
      {{3, uint64_t{1} << 62}, {40000, 12}},   // a long run, a count of 9 bytes
  };
  for (const auto& c : cases) {
    hdr::Histogram in;
    in.config = h.config;
    for (const auto& [i, n] : c) in.push(i, n);
    ASSERT_TRUE(hdr::encode_payload(in, keep_raw, &text));
    hdr::Histogram out;
    int enc = -1;
    std::string err;
    ASSERT_TRUE(hdr::decode_payload(text, size_t{1} << 20, &out, &enc, &err)) << err;
    EXPECT_EQ(enc, 2);
    EXPECT_EQ(out.index, in.index);
    EXPECT_EQ(out.count, in.count);
    EXPECT_EQ(out.length(), c.empty() ? 0u : c.back().first + 1u);
  }
}

TEST(HdrDecode, ValuesNear2p63AndNonMonotonicTimes) {
  std::string text;
  ASSERT_TRUE(hdrtest::slurp(hdrtest::golden_dir() + "/y_near_2p63.hlog", &text));
  hdr::LogParser p;
  p.append(text.data(), text.size());
  p.finish();
  hdr::Interval iv;
  ASSERT_TRUE(p.next(&iv));
  EXPECT_EQ(iv.hist.length(), 4u);
  EXPECT_EQ(iv.hist.config.lowest_equivalent(3), int64_t{1} << 62);
  EXPECT_EQ(iv.hist.config.highest_equivalent(3), INT64_MAX);
}

// Method::kHdr: HdrHistogram's getValueAtPercentile on a 3-bin layout with a
// value step of 1 ns.
TEST(HdrPercentiles, HighestEquivalentValueAndRank) {
  BinLayout l;
  l.kind = LayoutKind::kHdr;
  l.id = "hdr:d3:l1:u1e0:n3";
  l.lo = {0, 10, 20};
  l.hi = {10, 20, 40};
  l.rep = {5, 15, 30};
  EXPECT_EQ(value_step_ns(l), 1.0);
  const double counts[3] = {1, 1, 2};
  const double ps[5] = {0, 25, 50, 50.0001, 100};
  PercentileValue out[5];
  ASSERT_TRUE(compute_percentiles(l, counts, ps, 5, Method::kHdr, out));
  EXPECT_EQ(out[0].value_ns, 0);    // p = 0: lowest equivalent value
  EXPECT_EQ(out[1].value_ns, 9);    // rank ceil(nextDown(25)/100*4) = 1
  EXPECT_EQ(out[2].value_ns, 19);   // rank 2 (nextDown keeps 50% of 4 at 2)
  EXPECT_EQ(out[3].value_ns, 39);   // rank 3
  EXPECT_EQ(out[4].value_ns, 39);
  Stats st;
  ASSERT_TRUE(compute_stats(l, counts, &st));
  hdr_stats(l, counts, &st);
  EXPECT_EQ(st.mean_ns, (5 + 15 + 60) / 4.0);
  EXPECT_EQ(st.max_ns, 39);
  l.id = "hdr:d2:l1:r0.5:u1e3:n3";
  EXPECT_EQ(value_step_ns(l), 500.0);
  EXPECT_EQ(value_step_ns(*fio_layout(3, 0)), 1.0);
}

}  // namespace
}  // namespace latscope
