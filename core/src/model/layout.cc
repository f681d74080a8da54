#include "latscope/layout.h"

#include <array>
#include <mutex>
#include <string>

namespace latscope {
namespace {

// fio's bin edges in its native unit (stat.h, FIO_IO_U_PLAT_BITS = 6):
//   i < 128:  [i, i+1)
//   i >= 128: e = (i >> 6) - 1, k = i & 63, [2^(e+6) + k*2^e, +2^e)
void fine_edges(uint32_t i, uint64_t* lo, uint64_t* hi) {
  if (i < 128) {
    *lo = i;
    *hi = i + 1;
    return;
  }
  const uint32_t e = (i >> kFioGroupBits) - 1;
  const uint64_t k = i & 63u;
  *lo = (uint64_t{1} << (e + kFioGroupBits)) + k * (uint64_t{1} << e);
  *hi = *lo + (uint64_t{1} << e);
}

LayoutPtr make_fio_layout(int version, int coarseness) {
  auto l = std::make_shared<BinLayout>();
  const uint32_t fine = version == 2 ? kFio2Bins : kFio3Bins;
  const double scale = version == 2 ? 1000.0 : 1.0;  // fio 2 bins are microseconds
  const uint32_t step = 1u << coarseness;
  const uint32_t n = fine >> coarseness;
  l->kind = version == 2 ? LayoutKind::kFio2 : LayoutKind::kFio3;
  l->id = (version == 2 ? "fio2" : "fio3") + (coarseness ? "/c" + std::to_string(coarseness) : std::string());
  l->coarseness = coarseness;
  l->lo.resize(n);
  l->hi.resize(n);
  l->rep.resize(n);
  for (uint32_t j = 0; j < n; ++j) {
    uint64_t lo, hi, lo2, hi2;
    fine_edges(j * step, &lo, &hi);
    fine_edges((j + 1) * step - 1, &lo2, &hi2);
    l->lo[j] = static_cast<double>(lo) * scale;
    l->hi[j] = static_cast<double>(hi2) * scale;
    // fio reports a fine bin by plat_idx_to_val; a coarse bin has no fio
    // value of its own, so it is represented by its midpoint.
    l->rep[j] = coarseness == 0 ? static_cast<double>(fio_plat_idx_to_val(j)) * scale
                                : (l->lo[j] + l->hi[j]) / 2;
  }
  l->last_saturates = true;
  return l;
}

}  // namespace

uint64_t fio_plat_idx_to_val(uint32_t idx) {
  if (idx < 128) return idx;
  const uint32_t e = (idx >> kFioGroupBits) - 1;
  const uint64_t k = idx & 63u;
  // base + (k + 0.5) * 2^e, exact for e >= 1
  return (uint64_t{1} << (e + kFioGroupBits)) + ((2 * k + 1) << e) / 2;
}

bool fio_plat_val_to_idx(uint64_t val, uint32_t* idx) {
  uint32_t i;
  if (val < 128) {
    i = static_cast<uint32_t>(val);
  } else {
    uint32_t msb = 63;
    while (!(val >> msb)) --msb;
    const uint32_t e = msb - kFioGroupBits;  // error bits
    i = ((e + 1) << kFioGroupBits) + static_cast<uint32_t>((val >> e) & 63u);
  }
  if (i >= kFio3Bins || fio_plat_idx_to_val(i) != val) return false;
  *idx = i;
  return true;
}

LayoutPtr fio_layout(int version, int coarseness) {
  if ((version != 2 && version != 3) || coarseness < 0 || coarseness > 6) return nullptr;
  static std::mutex mu;
  static std::array<LayoutPtr, 14> cache;
  const size_t slot = (version == 2 ? size_t{7} : size_t{0}) + static_cast<size_t>(coarseness);
  std::lock_guard<std::mutex> lock(mu);
  if (!cache[slot]) cache[slot] = make_fio_layout(version, coarseness);
  return cache[slot];
}

LayoutPtr fio_layout_for_columns(size_t bin_columns) {
  for (int c = 0; c <= 6; ++c) {
    if (bin_columns == (kFio3Bins >> c)) return fio_layout(3, c);
    if (bin_columns == (kFio2Bins >> c)) return fio_layout(2, c);
  }
  return nullptr;
}

}  // namespace latscope
