// The line loop shared by the SIMD kernels (line_scan.h). Included by each
// kernel's .cc inside its own anonymous namespace, after defining
// `struct Zeros { static const char* skip(const char* p, const char* e); }`:
// the loop is then compiled with that file's instruction set (AVX2 code must
// not leak into functions the linker may share with other files, hence no
// inline functions with external linkage here).
//
// Same result as the scalar kernel (line_scan.cc) on every input: the same
// fields for lines in fio's shape, false for every other line.

inline uint64_t load_word(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// Bytes that are not ASCII digits, as their high bit (little-endian: byte i
// of the word is p[i]). A byte is a digit when its high nibble is 3 and
// adding 6 leaves it 3. The +6 can carry out of a byte >= 0xfa into the next
// one, but only out of a non-digit, and only the first non-digit is used.
inline uint64_t non_digits(uint64_t w) {
  const uint64_t hi = (w & 0xF0F0F0F0F0F0F0F0u) ^ 0x3030303030303030u;
  const uint64_t hi6 = ((w + 0x0606060606060606u) & 0xF0F0F0F0F0F0F0F0u) ^ 0x3030303030303030u;
  const uint64_t bad = hi | hi6;  // non-zero nibble where not a digit
  // High bit of each byte whose `bad` byte is non-zero.
  return (((bad & 0x7F7F7F7F7F7F7F7Fu) + 0x7F7F7F7F7F7F7F7Fu) | bad) & 0x8080808080808080u;
}

// The value of the n (1..8) digits at the start of w: they are moved to the
// top of the word (leading zero digits below), then pairs, quads and octets
// of digits are combined by multiplication.
inline uint64_t digits_value(uint64_t w, unsigned n) {
  w <<= 8 * (8 - n);  // n < 8 here or the shift is 0
  w &= 0x0F0F0F0F0F0F0F0Fu;
  w = (w * 10 + (w >> 8)) & 0x00FF00FF00FF00FFu;
  w = (w * 100 + (w >> 16)) & 0x0000FFFF0000FFFFu;
  return (w * 10000 + (w >> 32)) & 0xFFFFFFFFu;
}

// "0, 0, 0," as a word: a run worth a vector skip.
constexpr uint64_t kZeroWord = uint64_t{'0'} | uint64_t{','} << 8 | uint64_t{' '} << 16 | uint64_t{'0'} << 24 |
                               uint64_t{','} << 32 | uint64_t{' '} << 40 | uint64_t{'0'} << 48 |
                               uint64_t{','} << 56;

template <class Zeros>
bool parse_line_simd(const char* p, const char* e, latscope::fio_hist::LineFields* out) {
  uint32_t col = 0, nnz = 0;
  uint32_t* bins = out->bins;
  uint64_t* counts = out->counts;
  for (;;) {
    if (col >= 3) {
      // Runs of three zeros or more to the vectors; shorter ones, and the
      // counts between them, byte by byte: on real logs most fields are
      // counts of 2 to 4 digits, whose lengths the branch predictor learns
      // (tests/bench/README.md).
      if (e - p >= 8 && load_word(p) == kZeroWord) {
        const char* q = Zeros::skip(p, e);
        col += static_cast<uint32_t>((q - p) / 3);
        p = q;
      }
      while (e - p >= 3 && p[0] == '0' && p[1] == ',' && p[2] == ' ') {
        p += 3;
        ++col;
      }
    }
    const char* digits = p;
    uint64_t v = 0;
    while (p < e && static_cast<unsigned>(*p - '0') < 10u) {
      v = v * 10 + static_cast<uint64_t>(*p - '0');
      ++p;
    }
    if (p == digits || p - digits > 19) return false;  // 20 digits may overflow
    if (col < 3) {
      out->meta[col] = v;
    } else if (v) {
      if (nnz == latscope::kFio3Bins) return false;
      bins[nnz] = col - 3;
      counts[nnz] = v;
      ++nnz;
    }
    ++col;
    if (p == e) break;
    if (e - p < 3 || p[0] != ',' || p[1] != ' ') return false;
    p += 2;
  }
  out->nnz = nnz;
  out->cols = col >= 3 ? col - 3 : 0;
  return col > 3;
}

// "0, " triplets one at a time, for the tails the vectors do not cover.
inline const char* skip_zeros_bytewise(const char* p, const char* e) {
  while (e - p >= 3 && p[0] == '0' && p[1] == ',' && p[2] == ' ') p += 3;
  return p;
}

// p advanced by the whole triplets within the first `matched` bytes.
inline const char* whole_triplets(const char* p, unsigned matched) { return p + matched / 3 * 3; }
