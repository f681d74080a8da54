// Fresh memory's pages asked for in one call instead of one fault each.
#pragma once

#include <cstddef>

namespace latscope {

// Asks the kernel for the pages of [p, p + bytes) in one call
// (MADV_POPULATE_WRITE, Linux 5.14+; a no-op elsewhere and in WASM). Large
// vectors that are about to be written front to back are fresh memory:
// touched page by page, each page is a fault, and under a hypervisor a fault
// costs as much as parsing the kilobytes that fill it (docs/benchmarks.md,
// "Page faults"). The whole 2 MiB pages inside the range are asked for as
// transparent huge pages first (MADV_HUGEPAGE). Contents are never changed.
void populate(void* p, size_t bytes);

}  // namespace latscope
