// Internal to the result codec: decode_result hands version 3 files (several
// resolutions, docs/result-format.md) to levels.cc.
#pragma once

#include "latscope/result.h"

namespace latscope {

// Decodes one level of a version 3 file (decode_result's level_quantum_ms).
Status decode_result_levels(const uint8_t* data, size_t n, Result* out, size_t max_inflated,
                            double level_quantum_ms);

}  // namespace latscope
