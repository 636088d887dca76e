// Unique's and UniqueWithCounts' kernel: one pass with a hash map of the values seen. Their
// outputs' length is the count of distinct values, so on a GPU device they are host-memory
// kernels (as Where).
#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "rill/core/kernel.h"

namespace rill::cpu {
namespace {

// Values are keyed by their bytes, except that floats compare by value: -0.0 is 0.0 and
// every NaN is distinct (NaN != NaN), as TensorFlow's hash of values.
template <typename T>
uint64_t Key(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    if (v == T(0)) v = T(0);
  }
  uint64_t k = 0;
  std::memcpy(&k, &v, sizeof(T));
  return k;
}

// Unique (kCounts false) and UniqueWithCounts, whose third output counts each value.
template <typename T, typename Index, bool kCounts>
absl::Status UniqueRows(OpKernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.dims() != 1) {
    return errors::InvalidArgument("x must be a vector, got shape ", x.shape().DebugString());
  }
  const int64_t n = x.NumElements();
  if (n > std::numeric_limits<Index>::max()) {
    return errors::InvalidArgument(n, " elements do not fit the ",
                                   DataTypeString(ctx.output_type(1)), " indices");
  }
  Tensor* idx;
  RILL_RETURN_IF_ERROR(ctx.allocate_output(1, x.shape(), &idx));
  const T* v = x.base<T>();
  absl::flat_hash_map<uint64_t, Index> seen;
  std::vector<T> distinct;
  std::vector<Index> counts;
  for (int64_t i = 0; i < n; ++i) {
    Index at = static_cast<Index>(distinct.size());
    bool fresh = true;
    if (v[i] == v[i]) {  // NaN never matches an earlier value
      auto [it, inserted] = seen.try_emplace(Key(v[i]), at);
      at = it->second;
      fresh = inserted;
    }
    if (fresh) {
      distinct.push_back(v[i]);
      if (kCounts) counts.push_back(0);
    }
    if (kCounts) ++counts[at];
    idx->base<Index>()[i] = at;
  }
  const TensorShape shape({static_cast<int64_t>(distinct.size())});
  Tensor* y;
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, &y));
  std::copy(distinct.begin(), distinct.end(), y->base<T>());  // vector<bool> has no data()
  if (kCounts) {
    Tensor* count;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(2, shape, &count));
    std::copy(counts.begin(), counts.end(), count->base<Index>());
  }
  return absl::OkStatus();
}

template <typename T, bool kCounts>
class UniqueOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    return ctx.output_type(1) == DT_INT32 ? UniqueRows<T, int32_t, kCounts>(ctx)
                                          : UniqueRows<T, int64_t, kCounts>(ctx);
  }
};

#define RILL_REG_UNIQUE(T, unused)                                                                 \
  RILL_REGISTER_KERNEL("Unique", DEVICE_CPU, "T", DataTypeToEnum<T>::value, UniqueOp<T, false>);   \
  RILL_REGISTER_KERNEL_HOST_OUTPUTS("Unique", DEVICE_GPU, "T", DataTypeToEnum<T>::value, {0},      \
                                    UniqueOp<T, false>);                                           \
  RILL_REGISTER_KERNEL("UniqueWithCounts", DEVICE_CPU, "T", DataTypeToEnum<T>::value,              \
                       UniqueOp<T, true>);                                                         \
  RILL_REGISTER_KERNEL_HOST_OUTPUTS("UniqueWithCounts", DEVICE_GPU, "T", DataTypeToEnum<T>::value, \
                                    ({0, 2}), UniqueOp<T, true>);
RILL_FOR_ALL_TYPES(RILL_REG_UNIQUE, 0)
#undef RILL_REG_UNIQUE

}  // namespace

}  // namespace rill::cpu
