// Fractional max and average pooling (Graham, "Fractional Max-Pooling", 2014) as
// TensorFlow's FractionalMaxPool and FractionalAvgPool define it: the rows of an NHWC input,
// and independently its columns, are cut into out = floor(in / ratio) regions of k or k + 1
// (k = in / out) consecutive rows; each region pools to one output row. A pooling sequence
// holds the out + 1 region boundaries 0 = seq[0] < ... < seq[out] = in; region i is rows
// [seq[i], seq[i + 1]), or with `overlapping` [seq[i], seq[i + 1]] (clamped to the input),
// so neighbouring regions share their boundary row. The forward ops return the sequences,
// and their gradient ops cut the same regions from them.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "rill/core/tensor.h"

namespace rill {

// Uniform draws from the Philox blocks (key, stream, 0), (key, stream, 1), ...: the same
// key and stream give the same draws, so a deterministic node cuts the same regions on
// every run.
class PhiloxDraws {
 public:
  PhiloxDraws(uint64_t key, uint64_t stream) : key_(key), stream_(stream) {}
  double Uniform();            // in [0, 1)
  uint64_t Below(uint64_t n);  // in [0, n), n >= 1

 private:
  uint64_t key_, stream_, block_ = 0;
};

// InvalidArgument naming `what` unless the ratio is finite and >= 1.
absl::Status CheckPoolingRatio(float ratio, const char* what);

// The output size of a dimension of `in` rows pooled by `ratio` (float division, as
// TensorFlow's), or InvalidArgument naming `what` when the ratio is not finite and >= 1 or
// the dimension is too small to give one region. A dimension of size 0 pooled by 1 gives 0.
absl::StatusOr<int64_t> FractionalOutputSize(int64_t in, float ratio, const char* what);

// A pooling sequence of `out` regions over `in` rows (1 <= out <= in): every region of k
// rows when out divides in, else in % out regions of k + 1 rows placed at random
// (`pseudo_random` false) or at the pseudo-random offsets of Graham's paper,
// seq[i] = ceil(alpha * (i + u)) - 1 with alpha = in / out and u uniform in the range that
// keeps every region k or k + 1 rows long.
std::vector<int64_t> FractionalPoolingSequence(int64_t in, int64_t out, bool pseudo_random,
                                               PhiloxDraws& draws);

// Checks a pooling sequence fed to a gradient op: a vector of out + 1 int64 values, strictly
// increasing, from >= 0 to <= in, so that every region starts inside the input and is not
// empty. InvalidArgument naming `what` otherwise.
absl::Status CheckPoolingSequence(const Tensor& seq, int64_t in, int64_t out, const char* what);

// Region i of a pooling sequence: input rows [first, last].
struct PoolRegion {
  int64_t first, last;
};
inline PoolRegion RegionOf(absl::Span<const int64_t> seq, int64_t i, int64_t in, bool overlapping) {
  const int64_t last = overlapping ? seq[i + 1] : seq[i + 1] - 1;
  return {seq[i], last < in - 1 ? last : in - 1};
}

}  // namespace rill
