// zlib counts its input in uInt (32 bits): deflate_zlib and inflate_zlib
// hand it any size_t length a gigabyte at a time.
#pragma once

#include <zlib.h>

#include <cstddef>
#include <cstdint>

namespace latscope {

// Gives z the next piece of in[0, n) once it has taken the last; *fed counts
// what was given.
inline void zlib_feed(z_stream* z, const uint8_t* in, size_t n, size_t* fed) {
  constexpr size_t kStep = size_t{1} << 30;
  if (z->avail_in != 0 || *fed >= n) return;
  const size_t take = n - *fed < kStep ? n - *fed : kStep;
  z->next_in = const_cast<Bytef*>(in + *fed);
  z->avail_in = static_cast<uInt>(take);
  *fed += take;
}

}  // namespace latscope
