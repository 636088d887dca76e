// Unique's kernel: one pass with a hash map of the values seen. Its output's length is the
// count of distinct values, so on a GPU device it is a host-memory kernel (as Where).
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

template <typename T, typename Index>
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
  for (int64_t i = 0; i < n; ++i) {
    Index at = static_cast<Index>(distinct.size());
    if (v[i] == v[i]) {  // NaN never matches an earlier value
      auto [it, fresh] = seen.try_emplace(Key(v[i]), at);
      at = it->second;
      if (!fresh) {
        idx->base<Index>()[i] = at;
        continue;
      }
    }
    distinct.push_back(v[i]);
    idx->base<Index>()[i] = at;
  }
  Tensor* y;
  RILL_RETURN_IF_ERROR(
      ctx.allocate_output(0, TensorShape({static_cast<int64_t>(distinct.size())}), &y));
  std::copy(distinct.begin(), distinct.end(), y->base<T>());  // vector<bool> has no data()
  return absl::OkStatus();
}

template <typename T>
class UniqueOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    return ctx.output_type(1) == DT_INT32 ? UniqueRows<T, int32_t>(ctx)
                                          : UniqueRows<T, int64_t>(ctx);
  }
};

#define RILL_REG_UNIQUE(T, unused)                                                            \
  RILL_REGISTER_KERNEL("Unique", DEVICE_CPU, "T", DataTypeToEnum<T>::value, UniqueOp<T>);     \
  RILL_REGISTER_KERNEL_HOST_OUTPUTS("Unique", DEVICE_GPU, "T", DataTypeToEnum<T>::value, {0}, \
                                    UniqueOp<T>);
RILL_FOR_ALL_TYPES(RILL_REG_UNIQUE, 0)
#undef RILL_REG_UNIQUE

}  // namespace

}  // namespace rill::cpu
