// CIFAR-10 in its binary format (https://www.cs.toronto.edu/~kriz/cifar.html, "binary
// version"): data_batch_1.bin .. data_batch_5.bin and test_batch.bin, each a run of
// 3,073-byte records: one label byte (0..9), then 1,024 red, 1,024 green and 1,024 blue
// bytes of a 32x32 image, rows first. Every malformed file is a Status naming it.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "rill/core/tensor.h"

namespace rill::data {

struct LabeledImages {
  Tensor images;  // float32 [n, 32, 32, 3] (NHWC, as Keras), scaled to [0, 1]
  Tensor labels;  // int32 [n], 0..9
};

struct Cifar10 {
  LabeledImages train, test;
  bool synthetic = false;
};

inline constexpr int kCifarRecordBytes = 1 + 32 * 32 * 3;
// The most records one set may hold (about 1 GiB of files, 4 GiB of float images;
// CIFAR-10 has 60,000). More is ResourceExhausted before anything is allocated.
inline constexpr int64_t kMaxCifarRecords = 350000;

// One batch file, read a chunk of records at a time (the file is never all in memory
// beside the tensors). NotFound when it is missing, FailedPrecondition for a directory;
// DataLoss when its size is not a whole number of records, or a label is not 0..9
// (naming the record); ResourceExhausted past kMaxCifarRecords or when memory is short.
absl::StatusOr<LabeledImages> ReadCifar10File(const std::string& path);
// The same from bytes in memory (`what` names them in errors; used by the fuzzer).
absl::StatusOr<LabeledImages> ParseCifar10(const std::string& bytes, const std::string& what);
// The five training batches and the test batch under `dir`.
absl::StatusOr<Cifar10> LoadCifar10(const std::string& dir);
// Random images of CIFAR-10's shape, in `train` + `test` examples, whose class can be
// learnt (each class has its own mean colour pattern under the noise). InvalidArgument
// for a count outside 0..kMaxCifarRecords; ResourceExhausted when memory is short.
absl::StatusOr<Cifar10> SyntheticCifar10(int64_t train, int64_t test, uint64_t seed);

}  // namespace rill::data
