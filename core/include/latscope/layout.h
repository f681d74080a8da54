// Bin layouts: the "configuration" half of the histogram model.
// Every input format describes its bins as a BinLayout; counts live elsewhere
// (model.h). Everything downstream reads only lo/hi/rep, never the format.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace latscope {

enum class LayoutKind { kFio3, kFio2, kHdr, kCustom };

struct BinLayout {
  LayoutKind kind = LayoutKind::kCustom;
  std::string id;          // "fio3", "fio3/c2", "fio2/c1", "hdr:..."; equal ids <=> equal layouts
  int coarseness = 0;      // fio log_hist_coarseness (0..6); 0 for others
  std::vector<double> lo;  // ns, inclusive lower edge of bin i
  std::vector<double> hi;  // ns, exclusive upper edge of bin i
  std::vector<double> rep; // ns, the producer's representative value (fio: plat_idx_to_val)
  // When true the last bin also holds every value above lo.back(): values in
  // it are lower bounds only (fio's bin 1855, >= ~17.05 s).
  bool last_saturates = false;

  size_t size() const { return lo.size(); }
};

using LayoutPtr = std::shared_ptr<const BinLayout>;

// fio latency histogram layouts. version 3: 29 groups x 64 bins in ns;
// version 2: 19 groups x 64 bins in us (converted to ns here).
// coarseness c sums 2^c adjacent fine bins. Returned objects are shared.
LayoutPtr fio_layout(int version, int coarseness);

// fio's plat_idx_to_val for a fine bin, in the layout's native unit
// (ns for fio 3, us for fio 2). Used by the json+ reader to map keys back.
uint64_t fio_plat_idx_to_val(uint32_t idx);
// Inverse of fio_plat_idx_to_val; returns false when val is no bin's value.
bool fio_plat_val_to_idx(uint64_t val, uint32_t* idx);

// Detects a fio layout from the number of bin columns (all 14 are distinct).
// Returns nullptr when the count matches none.
LayoutPtr fio_layout_for_columns(size_t bin_columns);

constexpr uint32_t kFioGroupBits = 6;
constexpr uint32_t kFio3Bins = 29u << kFioGroupBits;  // 1856
constexpr uint32_t kFio2Bins = 19u << kFioGroupBits;  // 1216

}  // namespace latscope
