// The checkpoint file: named host tensors, each record guarded by a CRC32C.
//   header: "RILLCKPT", u32 version (1), u32 record count, u32 CRC32C of those 16 bytes
//   record: u32 name length, name, u32 dtype, u32 rank, i64 dims[rank], u64 data bytes,
//           data, u32 CRC32C of everything before it in the record
// Nothing may follow the last record. All integers are little-endian.
// Writing goes to a temporary file, flushed to disk and renamed over the target, so a
// crash mid-write leaves the previous checkpoint whole. Reading checks every field
// before trusting it (a size larger than the bytes left is DataLoss and allocates nothing).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "rill/core/status.h"
#include "rill/core/tensor.h"

namespace rill {

using NamedTensors = std::vector<std::pair<std::string, Tensor>>;

uint32_t Crc32c(const void* data, size_t n, uint32_t crc = 0);

absl::Status WriteCheckpoint(const std::string& path, const NamedTensors& tensors);
// DataLoss for anything truncated, corrupted or not a rill checkpoint; NotFound when the
// file does not exist.
absl::StatusOr<NamedTensors> ReadCheckpoint(const std::string& path);
// The same, from bytes in memory (used by ReadCheckpoint and by the fuzz and corruption
// tests).
absl::StatusOr<NamedTensors> ParseCheckpoint(const std::string& bytes);

}  // namespace rill
