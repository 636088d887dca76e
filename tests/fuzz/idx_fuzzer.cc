// libFuzzer target: any bytes given to the IDX parser (plain or gzip) give a tensor whose
// size matches its header, or a DataLoss (or, past the reader's cap, ResourceExhausted)
// Status; never a crash, leak or overread. run_fuzzer.sh's file limits make any
// allocation beyond what the bytes can declare a finding (a gzip bomb's, say).
#include <cstddef>
#include <cstdint>
#include <string>

#include "rill/runtime/data/idx.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto t = rill::data::ParseIdxFile(std::string(reinterpret_cast<const char*>(data), size), "fuzz");
  if (t.ok()) {
    if (!t->IsInitialized()) __builtin_trap();
  } else if (t.status().code() != absl::StatusCode::kDataLoss &&
             t.status().code() != absl::StatusCode::kResourceExhausted) {
    __builtin_trap();
  }
  return 0;
}
