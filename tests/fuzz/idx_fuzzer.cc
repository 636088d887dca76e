// libFuzzer target: any bytes given to the IDX parser (plain or gzip) give a tensor whose
// size matches its header, or a DataLoss Status; never a crash, leak or overread.
#include <cstddef>
#include <cstdint>
#include <string>

#include "rill/runtime/data/idx.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto t = rill::data::ParseIdx(std::string(reinterpret_cast<const char*>(data), size), "fuzz");
  if (t.ok()) {
    if (!t->IsInitialized()) __builtin_trap();
  } else if (t.status().code() != absl::StatusCode::kDataLoss) {
    __builtin_trap();
  }
  return 0;
}
