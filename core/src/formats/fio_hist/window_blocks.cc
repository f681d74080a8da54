#include "formats/fio_hist/window_blocks.h"

#include "latscope/model.h"

namespace latscope::fio_hist {

size_t encode_window(const uint32_t* bins, const uint64_t* counts, uint32_t n, uint8_t* out) {
  size_t len = 0;
  for (uint32_t i = 0; i < n; ++i) {
    len += varint::put(out + len, i == 0 ? bins[0] : bins[i] - bins[i - 1] - 1);
    len += varint::put(out + len, counts[i]);
  }
  return len;
}

}  // namespace latscope::fio_hist
