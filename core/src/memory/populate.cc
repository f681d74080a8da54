#include "memory/populate.h"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace latscope {

void populate(void* p, size_t bytes) {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  // Whole pages inside the range only: the partial pages at its ends may
  // hold other allocations' live data (populating never changes contents,
  // but there is nothing to gain there).
  // Offsets from p, not integers cast back to pointers.
  static const uintptr_t kPage = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t at = reinterpret_cast<uintptr_t>(p);
  const size_t head = static_cast<size_t>(((at + kPage - 1) & ~(kPage - 1)) - at);
  const size_t tail = static_cast<size_t>((at + bytes) & (kPage - 1));
  if (bytes <= head + tail) return;
#if defined(MADV_HUGEPAGE)
  // The whole 2 MiB pages inside it as transparent huge pages first (the
  // kernel's default gives them only to ranges that ask): 512 times fewer
  // pages to fault in. The range is written front to back right after, so
  // nothing is wasted (docs/benchmarks.md, "Huge pages").
  constexpr uintptr_t kHuge = uintptr_t{2} << 20;
  const uintptr_t hb = (at + kHuge - 1) & ~(kHuge - 1), he = (at + bytes) & ~(kHuge - 1);
  if (he > hb) (void)madvise(static_cast<char*>(p) + (hb - at), he - hb, MADV_HUGEPAGE);
#endif
  (void)madvise(static_cast<char*>(p) + head, bytes - head - tail, MADV_POPULATE_WRITE);
#else
  (void)p;
  (void)bytes;
#endif
}

}  // namespace latscope
