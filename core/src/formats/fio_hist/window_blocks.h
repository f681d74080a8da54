// The fio histogram reader's windows while a file is read: the Window
// records and their bins, varint-coded as in Series::data (latscope/model.h),
// each kept in fixed blocks and copied once, at finish, into a vector of the
// exact size.
//
// Growing vectors copied their contents again at every doubling, and every
// doubling and the final shrink_to_fit touched fresh pages: with the page
// faults that was half of the reader's time on large logs
// (docs/benchmarks.md, "Window blocks"). Blocks are never moved, and blocks
// of 64 KiB come from the heap (below malloc's mmap threshold), so the next
// file's reader gets back the pages this one freed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

#include "memory/populate.h"

namespace latscope::fio_hist {

template <class T>
class Blocks {
 public:
  // Room for up to `max` contiguous items at index size(); commit() says
  // how many were written.
  T* room(size_t max) {
    if (blocks_.empty() || blocks_.back().cap - blocks_.back().used < max) add_block(max);
    Block& b = blocks_.back();
    return b.items.get() + b.used;
  }
  void commit(size_t n) {
    blocks_.back().used += n;
    size_ += n;
  }
  void push_back(const T& v) {
    *room(1) = v;
    commit(1);
  }
  size_t size() const { return size_; }
  // Every item, in order, in one vector of exactly size() items; leaves
  // this empty.
  std::vector<T> take() {
    std::vector<T> out;
    out.reserve(size_);  // not filled first: each page is written once
    populate(out.data(), size_ * sizeof(T));
    for (const Block& b : blocks_) out.insert(out.end(), b.items.get(), b.items.get() + b.used);
    blocks_.clear();
    size_ = 0;
    return out;
  }

 private:
  // Below glibc's default mmap threshold (128 KiB): heap memory, reused.
  static constexpr size_t kBlockItems = (size_t{64} << 10) / sizeof(T);
  // Raw storage: `new T[n]` would run Window's member initialisers over
  // every item of every block (a memset per block), and each item is
  // written before it is read. T is an implicit-lifetime type.
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
  struct Free {
    void operator()(T* p) const { ::operator delete(p); }
  };
  struct Block {
    std::unique_ptr<T, Free> items;
    size_t used = 0;
    size_t cap = 0;
  };
  void add_block(size_t min) {
    Block b;
    b.cap = min > kBlockItems ? min : kBlockItems;
    b.items.reset(static_cast<T*>(::operator new(b.cap * sizeof(T))));
    blocks_.push_back(std::move(b));
  }
  std::vector<Block> blocks_;
  size_t size_ = 0;
};

// Encodes a window's non-empty bins (ascending, counts > 0) as Series::data
// holds them, LEB128 pairs (gap to the previous bin, count); `out` has room
// for kMaxWindowBytesPerBin * n bytes. Returns the bytes written.
constexpr size_t kMaxWindowBytesPerBin = 5 + 10;
size_t encode_window(const uint32_t* bins, const uint64_t* counts, uint32_t n, uint8_t* out);

// Appends window w (its offset and n set here) and its bins, coded as
// above, to the blocks a reader grows.
template <typename Window>
void append_window(Window w, const uint32_t* bins, const uint64_t* counts, uint32_t n, Blocks<Window>* windows,
                   Blocks<uint8_t>* bytes) {
  w.offset = static_cast<uint32_t>(bytes->size());
  w.n = n;
  uint8_t* out = bytes->room(kMaxWindowBytesPerBin * n);
  bytes->commit(encode_window(bins, counts, n, out));
  windows->push_back(w);
}

}  // namespace latscope::fio_hist
