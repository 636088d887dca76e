// The IDX format of MNIST and Fashion-MNIST (plain or gzip-compressed): a magic number
// (two zero bytes, a type byte, a rank byte), big-endian int32 dims, then the data. Every
// malformed file (bad magic, a type or rank not allowed, sizes that disagree with the
// dims, a broken gzip stream) is a Status naming the file.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "rill/core/tensor.h"
#include "rill/runtime/data/cifar.h"

namespace rill::data {

// The most data bytes one IDX file may declare (1 GiB; Fashion-MNIST's largest file
// declares 47 MB). A file declaring more is ResourceExhausted before anything is
// allocated for it; a gzip file is inflated only up to what its header declares.
inline constexpr int64_t kMaxIdxDataBytes = int64_t{1} << 30;

// The file's tensor: uint8 for type 0x08; int32 for 0x09 (int8), 0x0B (int16), 0x0C;
// float32 for 0x0D; float64 for 0x0E. Ranks 1..8.
absl::StatusOr<Tensor> ReadIdx(const std::string& path);
// Parses IDX bytes already in memory (`what` names them in errors).
absl::StatusOr<Tensor> ParseIdx(const std::string& bytes, const std::string& what);
// The same for a file's bytes, plain or gzip (as ReadIdx after reading the file).
absl::StatusOr<Tensor> ParseIdxFile(const std::string& bytes, const std::string& what);

// An MNIST-style pair: images [n, rows, cols] uint8 and labels [n] uint8 (0..9), as
// float32 [n, rows, cols, 1] in [0, 1] and int32 labels.
absl::StatusOr<LabeledImages> LoadIdxImagesAndLabels(const std::string& images_path,
                                                     const std::string& labels_path);

}  // namespace rill::data
