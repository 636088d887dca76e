// Range(start, limit, delta): its length, with the argument checks its shape function and
// kernels share, and its values, one element at a time for the CPU and GPU kernels; and
// LinSpace, whose values are a Range's with a step from its ends.
#pragma once

#include <cstdint>

#include "absl/status/statusor.h"
#include "rill/core/range_value.h"

namespace rill {

class OpKernelContext;
class Tensor;

// The number of values start, start + delta, ... before limit (exclusive).
template <typename T>
absl::StatusOr<int64_t> RangeSize(T start, T limit, T delta);

// RangeSize of Range's three scalar inputs (any of its dtypes), naming what is wrong.
absl::StatusOr<int64_t> RangeSizeOf(const Tensor& start, const Tensor& limit, const Tensor& delta);

// Checks Range's inputs and allocates its output (the device's memory, or the host's for a
// host-memory kernel).
absl::StatusOr<Tensor*> AllocateRange(OpKernelContext& ctx);
// The whole of Range on the host: the CPU kernels and the GPU's int32 host-memory kernel.
template <typename T>
absl::Status RangeOnHost(OpKernelContext& ctx);

// LinSpace(start, stop, num): num >= 1 values from start to stop, both ends included (one
// value: start). Element i is RangeValue(start, LinSpaceStep(...), i), the last stop itself.
template <typename T>
RILL_HOST_DEVICE inline T LinSpaceStep(T start, T stop, int64_t num) {
  return num > 1 ? (stop - start) / static_cast<T>(num - 1) : T(0);
}
// Checks LinSpace's inputs (start and stop scalars, num a scalar >= 1) and allocates its
// output [num].
absl::StatusOr<Tensor*> AllocateLinSpace(OpKernelContext& ctx);
// The whole of LinSpace on the host (float and double).
template <typename T>
absl::Status LinSpaceOnHost(OpKernelContext& ctx);

}  // namespace rill
