// Runs the fuzz target over files given on the command line, so the target
// always compiles and its corpus is replayed by ctest without libFuzzer.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
  int n = 0;
  for (int i = 1; i < argc; ++i) {
    std::ifstream f(argv[i], std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    // Each file twice with different control bytes: whole and in small chunks.
    for (uint8_t ctl : {uint8_t{0x05}, uint8_t{0x3c}}) {
      std::string in(1, static_cast<char>(ctl));
      in += bytes;
      LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(in.data()), in.size());
      ++n;
    }
  }
  std::printf("replayed %d inputs\n", n);
  return 0;
}
